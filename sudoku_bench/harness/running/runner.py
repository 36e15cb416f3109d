"""Run tasks in worker processes, each with a hard time limit; nothing a back-end does stops the run.

Workers come from a fork server (`multiprocessing` 'forkserver' context): each is a fork of a
small clean process that has already imported the harness, so starting or replacing one costs
milliseconds, and no worker inherits the caller's threads, locks or open files. A task carries
its `Backend` (a picklable `module:Class` entry), so a back-end registered at run time with
`sudoku_bench.solvers.registry.register` works as long as its module can be imported (the worker gets the
caller's `sys.path`).

A task's clock starts when its worker reports the solver built (imports are not timed). At
`kill_after(timeout)` the worker is killed (SIGKILL) and replaced, and the task recorded as a
timeout; a worker that dies is noticed through its sentinel and the task recorded as an error.

With `batch` > 1, a worker that holds the solvers of the next tasks gets up to `batch` of
them in one message (a chunk) and sends their answers in messages of a few
milliseconds' work (`worker.ANSWERS_SECONDS`): the parent never waits for a round trip
between two tasks (on a loaded machine milliseconds per task, far more than a fast engine's
solve) and wakes once per message, not per answer. Each task still has its own clock and
kill: the worker counts the tasks it has finished in a shared integer, and a task's clock
starts when the parent sees the count reach it. When a worker is killed or dies in a batch,
the count says which task it was in; the tasks after it, and those before it whose answers
had not been sent yet, go to a fresh worker (so answers may arrive out of task order).

With `chunk_seconds` (`bench`), a chunk holds about that much work, judged from the tasks
answered so far: slow tasks go one at a time, so that no worker sits idle at the end while
another still holds a queue, and with several workers no chunk takes more than its share of
what is left. `solve` and `count` (one worker) send whole batches.

The tasks are drawn from their iterable as the workers need them (a few chunks ahead), so a
caller may pass a generator over a file of any length: the pool holds a bounded number.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import multiprocessing
import multiprocessing.forkserver
import platform
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

from sudoku_bench.harness.results import Outcome, Task
from sudoku_bench.harness.running import worker
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import Backend

# Building a solver may import a large library (OR-Tools, sympy): allowed this long, untimed.
SETUP_SECONDS = 120.0

# Timed runs (`bench`, `check`, a cluster node's pool): at most this many tasks in one message
# to a worker, and about this much work per message. A round trip per task costs more than a
# compiled engine's solve; a small chunk keeps the workers evenly loaded to the end.
CHUNK_TASKS = 256
CHUNK_SECONDS = 0.02


def timing_pool(jobs: int, settings: Settings, backends: Mapping[str, Backend]) -> Pool:
    """A pool for timed runs: tasks sent in chunks sized by their time (`CHUNK_SECONDS`)."""
    return Pool(jobs, settings, backends, batch=CHUNK_TASKS, chunk_seconds=CHUNK_SECONDS)


def kill_after(timeout: float) -> float:
    """When a task's worker is killed: a little after the timeout the back-end was given, so
    back-ends that honour it report their own timeout (with their counters) first."""
    return timeout * 1.1 + 0.25


def context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["sudoku_bench.harness.running.worker"])
        _start_fork_server_deaf_to_ctrl_c()
    return ctx


def _start_fork_server_deaf_to_ctrl_c() -> None:
    """Start the fork server with SIGINT ignored, which it keeps through exec: it imports the
    worker's modules (seconds) before it ignores Ctrl-C itself, and a Ctrl-C then printed its
    KeyboardInterrupt traceback. The command hears Ctrl-C and stops the workers."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread sets handlers; the server starts on first use then
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass
class _Slot:
    """One worker process and the task it is running, if any."""

    process: BaseProcess
    conn: Connection
    progress: ctypes.c_int64 | None  # tasks the worker has finished (its count, shared)
    task: Task | None = None
    solving: bool = False  # False while the solver is built and warmed up
    started: float = 0.0
    deadline: float = float("inf")
    built: set[str] = field(default_factory=set)  # back-ends whose solver the worker holds
    queued: deque[Task] = field(default_factory=deque)  # sent after `task`, in its batch
    finished: int = 0  # `progress` when the parent last looked
    building: bool = False  # asked to build solvers ahead of its tasks (`Pool.prepare`)
    answered: int = 0  # answers received from this worker


class Pool:
    """`jobs` workers running tasks under `settings`; use as a context manager."""

    def __init__(
        self,
        jobs: int,
        settings: Settings,
        backends: Mapping[str, Backend],
        batch: int = 1,
        chunk_seconds: float | None = None,
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.settings = settings
        self.batch = batch
        self.chunk_seconds = chunk_seconds
        self.task_seconds: float | None = None  # a moving average of the tasks' times
        self.drawn_all = True  # whether `pending` holds every task left (none still to draw)
        self.largest_chunk = 0  # the most tasks sent in one message so far
        self.backends = dict(backends)
        self.ctx = context()
        self.host = platform.node()  # the workers run here: every outcome records it
        self.kill_s = kill_after(settings.timeout)  # a task's clock runs this long
        self.slots = [self._start_worker() for _ in range(jobs)]

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(
        self,
        tasks: Iterable[Task],
        report: Callable[[Outcome], None],
        tick: Callable[[], None] | None = None,
        tick_seconds: float = 0.2,
    ) -> None:
        """Run every task, calling `report` with each outcome as it arrives (in the caller's
        process, so it may write to a store) and `tick` at least every `tick_seconds`."""

        def on_done(outcome: Outcome) -> None:
            outcome.host = self.host
            self._learn(outcome)
            report(outcome)

        source = iter(tasks)
        pending: deque[Task] = deque()
        self.drawn_all = False
        self._draw(pending, source)  # while the workers build their solvers (`prepare`)
        self._await_builds()
        while pending or self._busy():
            self._feed(pending)
            busy = self._busy()
            nearest = min(slot.deadline for slot in busy)
            timeout = min(max(nearest - time.monotonic(), 0.0), tick_seconds)
            ready = set(wait([w for s in busy for w in (s.conn, s.process.sentinel)], timeout))
            arrived: list[Outcome] = []
            for slot in busy:
                if slot.conn in ready or slot.process.sentinel in ready:
                    self._receive(slot, arrived.append, pending)
            # the workers get their next tasks before the answers are reported: reporting a
            # message's answers takes about as long as the worker's work left in hand
            self._feed(pending)
            for outcome in arrived:
                on_done(outcome)
            now = time.monotonic()
            for slot in self._busy():
                self._observe(slot, now)
                if now >= slot.deadline:
                    self._kill(slot, now, on_done, pending)
            if tick is not None:
                tick()
            self._draw(pending, source)

    def _draw(self, pending: deque[Task], source: Iterator[Task]) -> None:
        """Top `pending` up from `source` to a few chunks per worker."""
        wanted = 2 * max(self.batch, 1) * len(self.slots) + 1
        while len(pending) < wanted and not self.drawn_all:
            task = next(source, None)
            if task is None:
                self.drawn_all = True
            else:
                pending.append(task)

    def _learn(self, outcome: Outcome) -> None:
        """Fold the task's time into the moving average that sizes the chunks."""
        if outcome.status is Status.SKIPPED:
            return
        seconds = self.kill_s if outcome.status is Status.TIMEOUT else outcome.total_s
        if not math.isfinite(seconds):
            seconds = SETUP_SECONDS
        previous = self.task_seconds
        self.task_seconds = seconds if previous is None else 0.8 * previous + 0.2 * seconds

    def chunk_size(self, pending: int) -> int:
        """How many tasks a worker gets in one message now (`pending`: tasks not yet sent)."""
        if self.batch <= 1 or self.chunk_seconds is None:
            return self.batch
        if self.task_seconds is None:
            return 1  # nothing answered yet: nothing to size a chunk by
        size = int(self.chunk_seconds / max(self.task_seconds, 1e-7))
        if self.drawn_all and len(self.slots) > 1:  # near the end: every worker gets its share
            size = min(size, pending // (2 * len(self.slots)))
        return max(1, min(size, self.batch))

    def _feed(self, pending: deque[Task]) -> None:
        """Give idle workers a task, or a chunk; a batching worker its next chunk while it
        still has a whole one to do (as far as the parent knows, which lags): it never
        waits for the parent. Tasks sized to go one at a time are not queued ahead."""
        for slot in self.slots:
            if not pending:
                return
            if self.batch > 1 and self._holds(slot, pending[0]):
                size = self.chunk_size(len(pending))
                ahead = size > 1 and slot.solving and len(slot.queued) < size
                if slot.task is None or ahead:
                    self._assign_batch(slot, pending, size)
            elif slot.task is None:
                self._assign(slot, pending.popleft())

    def prepare(self, names: Iterable[str]) -> None:
        """Have every worker build these back-ends' solvers now, while the caller does
        something else (reads its puzzles); `run` waits for them before its first task.
        A solver that fails to build is built again, and its failure recorded, by the
        first task that needs it."""
        backends = [self.backends[name] for name in names]
        for slot in self.slots:
            with contextlib.suppress(OSError):  # a worker already gone is replaced in `run`
                slot.conn.send(("build", backends))
                slot.building = True

    def _await_builds(self) -> None:
        for slot in self.slots:
            if not slot.building:
                continue
            try:  # still `building` meanwhile: Ctrl-C here kills it at once (`close`)
                if slot.conn.poll(SETUP_SECONDS):
                    slot.built.update(slot.conn.recv()[1])
                    slot.building = False
                    continue
            except (EOFError, OSError):
                pass
            slot.building = False
            self._replace(slot)  # it died or hung building: the first task builds anew

    def close(self) -> None:
        """Stop the workers: idle ones are asked to, busy ones (after Ctrl-C, or an error of
        the caller's while they build) are killed."""
        for slot in self.slots:
            if slot.task is not None or slot.building:
                slot.process.kill()
            with contextlib.suppress(OSError):
                slot.conn.send(None)
        for slot in self.slots:
            slot.process.join(timeout=1.0)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
            slot.conn.close()

    # ----- the parts of `run` --------------------------------------------------------------

    def _start_worker(self) -> _Slot:
        parent_end, child_end = self.ctx.Pipe()
        try:
            progress = self.ctx.RawValue(ctypes.c_int64, 0)
        except OSError:  # no shared memory (`ulimit -f` below a page): each answer at once
            progress = None
        process = self.ctx.Process(  # type: ignore[attr-defined]
            target=worker.main, args=(child_end, list(sys.path), progress), daemon=True
        )
        process.start()
        child_end.close()
        return _Slot(process, parent_end, progress)

    def _busy(self) -> list[_Slot]:
        return [slot for slot in self.slots if slot.task is not None]

    def _assign(self, slot: _Slot, task: Task) -> None:
        backend = self.backends[task.solver]
        warmup = self.settings.warmup
        # A worker that has built this solver before starts solving at once: no "start" message
        # (one wake-up fewer per task), and the clock runs from now.
        ready = backend.name in slot.built and not warmup
        slot.task, slot.solving = task, ready
        slot.started = time.monotonic()
        if ready:
            slot.deadline = slot.started + self.kill_s
        else:  # no warm-up, no product: 0 times an infinite limit is NaN
            slot.deadline = slot.started + SETUP_SECONDS + (warmup * self.kill_s if warmup else 0.0)
        try:
            slot.conn.send((task, backend, self.settings, not ready))
        except OSError:  # the idle worker died (killed from outside): give the task a new one
            self._replace(slot)
            self._assign(slot, task)

    def _holds(self, slot: _Slot, task: Task) -> bool:
        """Whether the worker can start `task` at once: it holds the solver, no warm-up."""
        return task.solver in slot.built and not self.settings.warmup

    def _assign_batch(self, slot: _Slot, pending: deque[Task], size: int) -> None:
        """Send the worker the next tasks whose solvers it holds, up to `size` of them: its
        first chunk, or the next one behind the tasks it has."""
        tasks = [pending.popleft()]
        while pending and len(tasks) < size and self._holds(slot, pending[0]):
            tasks.append(pending.popleft())
        idle = slot.task is None
        self.largest_chunk = max(self.largest_chunk, len(tasks))
        try:
            jobs = [
                (task.key, self.backends[task.solver], task.rules, task.puzzle) for task in tasks
            ]
            slot.conn.send(("batch", self.settings, jobs))
        except OSError:  # the worker died: its sentinel tells, a new one builds the solver
            pending.extendleft(reversed(tasks))
            if idle:
                self._replace(slot)
                self._assign(slot, pending.popleft())
            return
        if idle:
            slot.task, slot.queued, slot.solving = tasks[0], deque(tasks[1:]), True
            self._restart_clock(slot, time.monotonic())
        else:
            slot.queued.extend(tasks)

    def _next(self, slot: _Slot, now: float) -> None:
        """The worker answered its current task: its clock moves to the next of its batch,
        starting `now` (when the answer was read)."""
        slot.answered += 1
        if not slot.queued:
            self._free(slot)
            return
        slot.task = slot.queued.popleft()
        self._restart_clock(slot, now)

    def _restart_clock(self, slot: _Slot, now: float) -> None:
        slot.started = now
        slot.deadline = now + self.kill_s

    def _observe(self, slot: _Slot, now: float) -> None:
        """A worker that finished a task since the parent last looked has begun the next:
        that task's clock starts now (later than the task did, so its kill is only ever
        delayed, never brought forward)."""
        finished = slot.finished if slot.progress is None else slot.progress.value
        if finished != slot.finished:
            slot.finished = finished
            if slot.solving:
                self._restart_clock(slot, now)

    def _receive(
        self, slot: _Slot, on_done: Callable[[Outcome], None], pending: deque[Task]
    ) -> None:
        if self._read_answers(slot, on_done):
            return  # a worker that died since is seen at the next wait (its sentinel)
        if slot.process.is_alive():
            return
        slot.process.join()
        # read before `_salvage`, which frees the slot (and so forgets its phase)
        solving = slot.solving
        elapsed = time.monotonic() - slot.started if solving else 0.0
        culprit = self._salvage(slot, on_done, pending)
        if culprit is None:  # it died after its last task: nothing was lost but its answers
            self._replace(slot)
            return
        limit = self.settings.memory_limit_mb
        # Native code that cannot allocate under the cap aborts rather than raising.
        memout = solving and limit is not None and slot.process.exitcode in _ALLOC_DEATHS
        outcome = Outcome(
            culprit,
            Status.MEMOUT if memout else Status.ERROR,
            error=f"the worker process died ({_exit_reason(slot.process.exitcode)})"
            + (" while solving" if solving else " while building the solver")
            + (f" under the {limit:g} MB memory limit" if memout else ""),
            solve_s=elapsed,
            wall_s=elapsed if solving else None,
            worker=slot.process.pid or 0,
        )
        self._replace(slot)
        on_done(outcome)

    def _read_answers(self, slot: _Slot, on_done: Callable[[Outcome], None]) -> bool:
        """Report the answers waiting in the worker's pipe; False when there were none."""
        answers = []
        try:
            while slot.task is not None and slot.conn.poll():
                message = slot.conn.recv()
                now = time.monotonic()  # once per message: it holds up to hundreds of answers
                if message[0] == "start":
                    slot.solving = True
                    self._restart_clock(slot, now)
                    continue
                for packed in message[1] if message[0] == "answers" else [message[1]]:
                    # in the order of the worker's tasks: the parent's own task object
                    answer = Outcome.unpacked(slot.task, packed)
                    if answer.status != Status.ERROR:  # the worker keeps the solver
                        slot.built.add(answer.task.solver)
                    answers.append(answer)
                    self._next(slot, now)
        except (EOFError, OSError):  # the pipe broke: the worker died (see the caller)
            pass
        # outside the `try`: an error of the caller's (its stdout is full) is its own
        for answer in answers:
            on_done(self._judged(answer))
        return bool(answers)

    def _salvage(
        self, slot: _Slot, on_done: Callable[[Outcome], None], pending: deque[Task]
    ) -> Task | None:
        """After a worker stopped (killed or dead): report the answers it had sent, give the
        rest of its batch back to `pending` and return the task it stopped in (None when
        it had finished them all). Tasks it finished whose answers it had not sent yet run
        again in a fresh worker."""
        self._read_answers(slot, on_done)
        if slot.task is None:
            return None
        tasks = [slot.task, *slot.queued]
        finished = slot.answered if slot.progress is None else slot.progress.value
        lost = max(finished - slot.answered, 0)  # finished, answer never sent
        culprit = tasks[lost] if lost < len(tasks) else None
        pending.extendleft(reversed(tasks[:lost] + tasks[lost + 1 :]))
        self._free(slot)
        return culprit

    def _judged(self, outcome: Outcome) -> Outcome:
        """An answer that came after the time limit counts as a timeout: every back-end gets
        the same limit, whether it stops itself or is stopped."""
        timeout = self.settings.timeout
        if timeout == math.inf:
            return outcome
        if (outcome.answered or outcome.status is Status.GAVE_UP) and outcome.total_s > timeout:
            outcome.error = (
                f"{outcome.status} after {outcome.total_s:.3f} s, past the {timeout:g} s limit"
            )
            outcome.status = Status.TIMEOUT
        return outcome

    def _kill(
        self, slot: _Slot, now: float, on_done: Callable[[Outcome], None], pending: deque[Task]
    ) -> None:
        solving = slot.solving
        elapsed = now - slot.started
        slot.process.kill()
        slot.process.join()
        culprit = self._salvage(slot, on_done, pending)
        worker_pid = slot.process.pid or 0
        self._replace(slot)
        if culprit is None:  # it finished its last task as the time ran out
            return
        phase = "" if solving else " while building or warming up the solver"
        on_done(
            Outcome(
                culprit,
                Status.TIMEOUT,
                solve_s=elapsed if solving else 0.0,
                wall_s=elapsed if solving else None,
                error=f"killed after {elapsed:.3f} s{phase} (time limit {self.settings.timeout:g} s)",
                worker=worker_pid,
            )
        )

    def _free(self, slot: _Slot) -> None:
        slot.task, slot.solving, slot.deadline = None, False, float("inf")
        slot.queued = deque()

    def _replace(self, slot: _Slot) -> None:
        slot.conn.close()
        fresh = self._start_worker()
        slot.process, slot.conn, slot.progress = fresh.process, fresh.conn, fresh.progress
        slot.built, slot.finished, slot.answered = set(), 0, 0
        self._free(slot)


# How a process dies when an allocation fails in C or C++ code (abort, or a null pointer used).
_ALLOC_DEATHS = (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS)


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
