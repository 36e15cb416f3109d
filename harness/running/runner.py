"""Run tasks in worker processes, each with a hard time limit; nothing a back-end does stops the run.

Workers come from a fork server (`multiprocessing` 'forkserver' context): each is a fork of a
small clean process that has already imported the harness, so starting or replacing one costs
milliseconds, and no worker inherits the caller's threads, locks or open files. A task carries
its `Backend` (a picklable `module:Class` entry), so a back-end registered at run time with
`solvers.registry.register` works as long as its module can be imported (the worker gets the
caller's `sys.path`).

A task's clock starts when its worker reports the solver built (imports are not timed). At
`kill_after(timeout)` the worker is killed (SIGKILL) and replaced, and the task recorded as a
timeout; a worker that dies is noticed through its sentinel and the task recorded as an error.

With `batch` > 1 (`solve` and `count`), a worker that holds the solvers of the next tasks gets
up to `batch` of them in one message and answers each as it finishes it: the parent never
waits for a round trip between two tasks (on a loaded machine milliseconds per task, far more
than a fast engine's solve) and reads the answers that gathered every few milliseconds. Each
task still has its own clock (from the answer before it) and its own kill; the tasks after a
killed or dead one go to a fresh worker.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import platform
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

from harness.running import worker
from harness.running.tasks import Outcome, Task
from harness.running.worker import Settings
from solvers.base import Status
from solvers.registry import Backend

# Building a solver may import a large library (OR-Tools, sympy): allowed this long, untimed.
SETUP_SECONDS = 120.0
# While a worker works through a batch, the parent reads its answers at most this often: one
# wake-up per answer cost more than a compiled engine's solve. A task's clock starts when the
# answer before it is read, so this only delays, never shortens, its kill.
GATHER_SECONDS = 0.005


def kill_after(timeout: float) -> float:
    """When a task's worker is killed: a little after the timeout the back-end was given, so
    back-ends that honour it report their own timeout (with their counters) first."""
    return timeout * 1.1 + 0.25


def context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["harness.running.worker"])
    return ctx


@dataclass
class _Slot:
    """One worker process and the task it is running, if any."""

    process: BaseProcess
    conn: Connection
    task: Task | None = None
    solving: bool = False  # False while the solver is built and warmed up
    started: float = 0.0
    deadline: float = float("inf")
    built: set[str] = field(default_factory=set)  # back-ends whose solver the worker holds
    queued: deque[Task] = field(default_factory=deque)  # sent after `task`, in its batch


class Pool:
    """`jobs` workers running tasks under `settings`; use as a context manager."""

    def __init__(
        self, jobs: int, settings: Settings, backends: Mapping[str, Backend], batch: int = 1
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.settings = settings
        self.batch = batch
        self.backends = dict(backends)
        self.ctx = context()
        self.host = platform.node()  # the workers run here: every outcome records it
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
            report(outcome)

        pending = deque(tasks)
        while pending or self._busy():
            for slot in self.slots:
                if slot.task is None and pending:
                    if self.batch > 1 and self._holds(slot, pending[0]):
                        self._assign_batch(slot, pending)
                    else:
                        self._assign(slot, pending.popleft())
            busy = self._busy()
            nearest = min(slot.deadline for slot in busy)
            timeout = min(max(nearest - time.monotonic(), 0.0), tick_seconds)
            ready = set(wait([w for s in busy for w in (s.conn, s.process.sentinel)], timeout))
            if ready and any(slot.queued for slot in busy):
                # a batch answers fast: let the answers gather in the pipe, then read them
                # at one wake-up (the worker sends each at once, so a kill loses none)
                time.sleep(GATHER_SECONDS)
            for slot in busy:
                if slot.conn in ready or slot.process.sentinel in ready:
                    self._receive(slot, on_done, pending)
            now = time.monotonic()
            for slot in self._busy():
                if now >= slot.deadline:
                    on_done(self._kill(slot, now, pending))
            if tick is not None:
                tick()

    def close(self) -> None:
        """Stop the workers: idle ones are asked to, busy ones (after Ctrl-C) are killed."""
        for slot in self.slots:
            if slot.task is not None:
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
        process = self.ctx.Process(  # type: ignore[attr-defined]
            target=worker.main, args=(child_end, list(sys.path)), daemon=True
        )
        process.start()
        child_end.close()
        return _Slot(process, parent_end)

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
        limit = kill_after(self.settings.timeout)
        if ready:
            slot.deadline = slot.started + limit
        else:  # no warm-up, no product: 0 times an infinite limit is NaN
            slot.deadline = slot.started + SETUP_SECONDS + (warmup * limit if warmup else 0.0)
        try:
            slot.conn.send((task, backend, self.settings, not ready))
        except OSError:  # the idle worker died (killed from outside): give the task a new one
            self._replace(slot)
            self._assign(slot, task)

    def _holds(self, slot: _Slot, task: Task) -> bool:
        """Whether the worker can start `task` at once: it holds the solver, no warm-up."""
        return task.solver in slot.built and not self.settings.warmup

    def _assign_batch(self, slot: _Slot, pending: deque[Task]) -> None:
        """Send the worker the next tasks whose solvers it holds, up to `batch` of them."""
        tasks = [pending.popleft()]
        while pending and len(tasks) < self.batch and self._holds(slot, pending[0]):
            tasks.append(pending.popleft())
        slot.task, slot.queued, slot.solving = tasks[0], deque(tasks[1:]), True
        slot.started = time.monotonic()
        slot.deadline = slot.started + kill_after(self.settings.timeout)
        try:
            slot.conn.send(("batch", [(task, self.backends[task.solver]) for task in tasks]))
        except OSError:  # the idle worker died: a new one builds the solver first
            pending.extendleft(reversed(tasks))
            self._replace(slot)
            self._assign(slot, pending.popleft())

    def _next(self, slot: _Slot) -> None:
        """The worker answered its current task: its clock moves to the next of its batch."""
        if not slot.queued:
            self._free(slot)
            return
        slot.task = slot.queued.popleft()
        slot.started = time.monotonic()
        slot.deadline = slot.started + kill_after(self.settings.timeout)

    def _receive(
        self, slot: _Slot, on_done: Callable[[Outcome], None], pending: deque[Task]
    ) -> None:
        task = slot.task
        assert task is not None
        answers = []
        try:
            while slot.task is not None and slot.conn.poll():
                message = slot.conn.recv()
                if message[0] == "start":
                    slot.solving = True
                    slot.started = time.monotonic()
                    slot.deadline = slot.started + kill_after(self.settings.timeout)
                else:
                    answer = message[1]
                    if answer.status != Status.ERROR:  # the worker keeps the solver
                        slot.built.add(slot.task.solver)
                    answers.append(answer)
                    self._next(slot)
        except (EOFError, OSError):  # the pipe broke: the worker died (see below)
            pass
        if answers:
            # outside the `try`: an error of the caller's (its stdout is full) is its own
            for answer in answers:
                on_done(self._judged(answer))
            return  # a worker that died since is seen at the next wait (its sentinel)
        if slot.process.is_alive():
            return
        slot.process.join()
        pending.extendleft(reversed(slot.queued))  # the rest of its batch: to a fresh worker
        elapsed = time.monotonic() - slot.started if slot.solving else 0.0
        limit = self.settings.memory_limit_mb
        # Native code that cannot allocate under the cap aborts rather than raising.
        memout = slot.solving and limit is not None and slot.process.exitcode in _ALLOC_DEATHS
        outcome = Outcome(
            task,
            Status.MEMOUT if memout else Status.ERROR,
            error=f"the worker process died ({_exit_reason(slot.process.exitcode)})"
            + (" while solving" if slot.solving else " while building the solver")
            + (f" under the {limit:g} MB memory limit" if memout else ""),
            solve_s=elapsed,
            wall_s=elapsed if slot.solving else None,
            worker=slot.process.pid or 0,
        )
        self._replace(slot)
        on_done(outcome)

    def _judged(self, outcome: Outcome) -> Outcome:
        """An answer that came after the time limit counts as a timeout: every back-end gets
        the same limit, whether it stops itself or is stopped."""
        limit = self.settings.timeout
        if (outcome.answered or outcome.status is Status.GAVE_UP) and outcome.total_s > limit:
            outcome.error = (
                f"{outcome.status} after {outcome.total_s:.3f} s, past the {limit:g} s limit"
            )
            outcome.status = Status.TIMEOUT
        return outcome

    def _kill(self, slot: _Slot, now: float, pending: deque[Task]) -> Outcome:
        task = slot.task
        assert task is not None
        pending.extendleft(reversed(slot.queued))  # the rest of its batch: to a fresh worker
        elapsed = now - slot.started
        phase = "" if slot.solving else " while building or warming up the solver"
        outcome = Outcome(
            task,
            Status.TIMEOUT,
            solve_s=elapsed if slot.solving else 0.0,
            wall_s=elapsed if slot.solving else None,
            error=f"killed after {elapsed:.3f} s{phase} (time limit {self.settings.timeout:g} s)",
            worker=slot.process.pid or 0,
        )
        slot.process.kill()
        slot.process.join()
        self._replace(slot)
        return outcome

    def _free(self, slot: _Slot) -> None:
        slot.task, slot.solving, slot.deadline = None, False, float("inf")
        slot.queued = deque()

    def _replace(self, slot: _Slot) -> None:
        slot.conn.close()
        fresh = self._start_worker()
        slot.process, slot.conn, slot.built = fresh.process, fresh.conn, set()
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
