"""The worker process: receives tasks on a pipe, solves them, sends back outcomes.

Protocol (parent -> worker): `(task, backend, settings, announce)` or None to stop.
Worker -> parent: if `announce`, `("start",)` once the solver is built and warmed up (the
parent starts the task's clock there, so importing a library is not timed); then
`("done", packed)`, the outcome packed (`Outcome.packed`: the parent holds the task). The
parent asks for the announcement only when this worker has not built the solver yet or
warm-up solves come first.

Or (parent -> worker) `("batch", settings, [(key, backend, rules, puzzle), ...])`: tasks
whose solvers the worker already built, reduced to what the worker needs of them (a whole
`Task` costs more to send than these four fields), answered in task order with `("answers", [packed
outcome, ...])` messages (`Outbox`, `packed_outcome`, `Outcome.packed`): the answers
finished within ANSWERS_SECONDS of each other, together (one message per fast answer costs
a system call each way, more than a compiled engine's solve).

Or `("build", [backend, ...])`: build those solvers now (while the parent reads its
puzzles), answered by `("built", [name, ...])`.

Besides the pipe, the worker counts the tasks it has finished in `progress`, a shared
integer the parent reads at every wake-up: it tells the parent when each task of a batch
began (its clock and kill) and, when the worker is killed or dies, which task it was in.
A worker that hangs is killed by the parent; one that dies is noticed by its sentinel.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import random
import resource
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from sudoku_bench.harness.results import Outcome, Task, packed_outcome, puzzle_grid
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.transform import Isomorph, random_isomorph
from sudoku_bench.solvers.base import Result, Solver, Status
from sudoku_bench.solvers.registry import Backend

# A batch's answers wait in the worker about this long, to go together: the parent wakes
# once per message, not once per answer.
ANSWERS_SECONDS = 0.005


@dataclass(frozen=True)
class Settings:
    """How each task is run: the solver's own timeout (`math.inf`: none), the solution limit,
    warm-up solves, the memory cap (MB the worker's data may grow by during a solve; None: no
    cap), for `--permute` the run's seed from which each solve's isomorph is drawn, and
    whether the outcome carries the solver's whole `Result` (its step log and partial grid,
    for `explain`) besides the stored fields."""

    timeout: float
    limit: int = 1
    warmup: int = 0
    memory_limit_mb: float | None = None
    permute_seed: int | None = None
    keep_result: bool = False
    # the CPU time and peak resident memory of each solve (two /proc reads and two system
    # calls per task, more than a fast engine's solve): `solve` and `count`, which report
    # neither, turn them off
    resources: bool = True
    # a batch's tasks of one back-end and rules go to its `Solver.solve_many` in one call
    # (`solve` and `count`); False: one `solve` per task, each timed alone (`bench`)
    whole_batches: bool = False
    # the node budget of each solve (None: none), honoured by the engines that count nodes
    # (`Solver.honours_node_limit`): a verdict that does not depend on the machine's speed
    node_limit: int | None = None

    def isomorph_seed(self, key: int, solve: int) -> int | None:
        """The seed of the isomorph that solve number `solve` of the task of `key` meets
        (warm-ups come first, then the timed solve), or None without `--permute`. The same
        run seed gives the same isomorphs, and every repeat and warm-up a different one."""
        if self.permute_seed is None:
            return None
        return random.Random(f"{self.permute_seed}:{key}:{solve}").getrandbits(32)


def main(conn: Connection, path: list[str], progress: ctypes.c_int64 | None) -> None:
    """The worker's loop; returns when the parent says stop or goes away. `progress` counts
    the tasks finished, answered or not yet; without it (None) every answer is sent at once."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's handler, if inherited
    # Out of the terminal's process group too: a native solver that installs its own Ctrl-C
    # handler (SCIP does) would otherwise hear it, print and return an "interrupted" result.
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    _stdout_to_stderr()
    sys.path[:] = path  # back-ends registered by the caller import from the caller's path
    solvers: dict[str, Solver[Any]] = {}  # by back-end name: built once per worker
    outbox = Outbox(conn, 0.0 if progress is None else ANSWERS_SECONDS)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        try:
            if message[0] == "build":  # solvers to hold before the tasks come
                conn.send(("built", _build(message[1], solvers)))
                continue
            if message[0] == "batch":  # tasks whose solvers this worker holds
                settings = message[1]
                _run_batch(message[2], settings, solvers, progress, outbox)
                continue
            task, backend, settings, announce = message
            job = (task.key, backend, task.rules, task.puzzle)
            # packed, like a batch's answers: the parent holds the task and makes the
            # outcome with it (`Outcome.unpacked`)
            answer = _run(conn if announce else None, job, settings, solvers)
            if progress is not None:
                progress.value += 1
            with outbox.lock:  # a batch's last answers have gone: only this send
                conn.send(("done", answer))
        except OSError:  # the parent is gone (stopped or killed): nobody to answer
            return


def _build(backends: list[Backend], solvers: dict[str, Solver[Any]]) -> list[str]:
    """Build the back-ends' solvers (their warm-up included); the names of those built. A
    failure is left for the first task of that back-end to meet and report."""
    for backend in backends:
        if backend.name not in solvers:
            with contextlib.suppress(Exception):
                solvers[backend.name] = backend.create()
    return [backend.name for backend in backends if backend.name in solvers]


# What the worker needs of a task: its key, back-end, rules (`Task.rules`) and puzzle line.
Job = tuple[int, Backend, str, str]


def _run_batch(
    jobs: list[Job],
    settings: Settings,
    solvers: dict[str, Solver[Any]],
    progress: ctypes.c_int64 | None,
    outbox: Outbox,
) -> None:
    """Run the tasks in order, each answer handed to the outbox as it is finished."""
    if settings.whole_batches and not (
        settings.warmup or settings.permute_seed is not None or settings.memory_limit_mb
    ):
        start = 0
        while start < len(jobs):  # runs of tasks with one back-end and rules
            _, backend, rules, _ = jobs[start]
            end = start + 1
            while end < len(jobs) and jobs[end][1] == backend and jobs[end][2] == rules:
                end += 1
            _run_many(jobs[start:end], settings, solvers, progress, outbox)
            start = end
    else:
        for job in jobs:
            answer = _run(None, job, settings, solvers)
            if progress is not None:
                progress.value += 1
            outbox.add(answer)
    outbox.send()


def _run_many(
    jobs: list[Job],
    settings: Settings,
    solvers: dict[str, Solver[Any]],
    progress: ctypes.c_int64 | None,
    outbox: Outbox,
) -> None:
    """Tasks of one back-end and rules through its `solve_many`, each result measured from
    the one before it. A task whose puzzle or result fails is answered with the error and
    the rest go to a new `solve_many` call."""
    backend = jobs[0][1]
    done = 0
    while done < len(jobs):
        key, _, rules, line = jobs[done]
        try:
            solver = solvers.get(backend.name)
            if solver is None:
                solver = solvers[backend.name] = backend.create()
            puzzles = [puzzle_grid(rules, job[3]) for job in jobs[done:]]
            results = solver.solve_many(
                puzzles,
                limit=settings.limit,
                timeout=settings.timeout,
                node_limit=settings.node_limit,
            )
            while done < len(jobs):
                meter = Meter(resources=settings.resources)
                with meter:
                    result = next(results, None)
                if result is None:
                    raise RuntimeError(f"{backend.name}.solve_many gave fewer results than puzzles")
                key = jobs[done][0]
                outbox.add(
                    packed_outcome(
                        key, result, meter, None, _pid(), keep_result=settings.keep_result
                    )
                )
                done += 1
                if progress is not None:
                    progress.value += 1
        except Exception as failure:  # a back-end's bug is a result to record, not a crash
            key, _, rules, line = jobs[done]
            failed = Outcome(Task(key, "", "", rules, line, backend.name, 0), Status.ERROR)
            failed.error, failed.worker = describe(failure), _pid()
            outbox.add(failed.packed())
            done += 1
            if progress is not None:
                progress.value += 1


class Outbox:
    """A batch's answers on their way to the parent, sent together once the oldest has
    waited ANSWERS_SECONDS, and at the end of the batch. A thread sends the late ones, so
    that a long task does not hold back the answers of the quick ones before it. With
    `gather` 0 (no shared progress count to tell the parent which task a killed worker
    was in) each answer goes at once."""

    def __init__(self, conn: Connection, gather: float) -> None:
        self.conn = conn
        self.gather = gather
        self.waiting: list[tuple[Any, ...]] = []  # `Outcome.packed`
        self.since = 0.0  # when the oldest waiting answer came (time.monotonic)
        self.lock = threading.Condition()
        if gather:
            threading.Thread(target=self._send_late, daemon=True, name="outbox").start()

    def add(self, packed: tuple[Any, ...]) -> None:
        with self.lock:
            if not self.waiting:
                self.since = time.monotonic()
                self.lock.notify()
            self.waiting.append(packed)
            if not self.gather:
                self._send()

    def send(self) -> None:
        with self.lock:
            self._send()

    def _send(self) -> None:  # with the lock held
        if self.waiting:
            answers, self.waiting = self.waiting, []
            self.conn.send(("answers", answers))

    def _send_late(self) -> None:
        with self.lock:
            while True:
                if not self.waiting:
                    self.lock.wait()
                    continue
                late = self.since + self.gather - time.monotonic()
                if late > 0:
                    self.lock.wait(late)
                    continue
                try:
                    self._send()
                except OSError:  # the parent is gone: the main thread finds out too
                    return


def _run(
    conn: Connection | None, job: Job, settings: Settings, solvers: dict[str, Solver[Any]]
) -> tuple[Any, ...]:
    """Solve the task; its outcome in the packed form of a batch's answers (`Outcome.packed`)."""
    key, backend, rules, line = job
    meter = Meter(resources=settings.resources)
    seed = settings.isomorph_seed(key, settings.warmup)
    try:
        solver = solvers.get(backend.name)
        if solver is None:
            solver = solvers[backend.name] = backend.create()
        puzzle = puzzle_grid(rules, line)  # the rules parsed once per worker
        for number in range(settings.warmup):
            warm = _isomorph(puzzle, settings.isomorph_seed(key, number))
            solver.solve(
                warm[0],
                limit=settings.limit,
                timeout=settings.timeout,
                node_limit=settings.node_limit,
            )
        target, isomorph = _isomorph(puzzle, seed)
        if conn is not None:
            conn.send(("start",))
        with meter, _memory_capped(settings.memory_limit_mb):
            result = solver.solve(
                target,
                limit=settings.limit,
                timeout=settings.timeout,
                node_limit=settings.node_limit,
            )
        if isomorph is not None:
            result = _mapped_back(result, isomorph)
    except MemoryError:
        limit = settings.memory_limit_mb
        status, error = Status.MEMOUT, f"out of memory (limit {limit:g} MB)"
    except Exception as failure:  # a back-end's bug is a result to record, not a crash
        status, error = Status.ERROR, describe(failure)
    else:
        return packed_outcome(key, result, meter, seed, _pid(), keep_result=settings.keep_result)
    # packed, an outcome holds only its task's key: the parent holds the task
    failed = Outcome(Task(key, "", "", rules, line, backend.name, 0), status, error=error)
    failed.worker = _pid()
    failed.wall_s, failed.cpu_s, failed.peak_rss_mb = meter.wall_s, meter.cpu_s, meter.peak_mb
    failed.permutation = seed
    return failed.packed()


def _isomorph(puzzle: Grid, seed: int | None) -> tuple[Grid, Isomorph | None]:
    if seed is None:
        return puzzle, None
    isomorph = random_isomorph(puzzle.rules, seed)
    return isomorph.apply(puzzle), isomorph


def _mapped_back(result: Result, isomorph: Isomorph) -> Result:
    """The result with its grids mapped back to the original puzzle."""
    result.solutions = [isomorph.invert(grid) for grid in result.solutions]
    if result.partial is not None:
        result.partial = isomorph.invert(result.partial)
    return result


class Meter:
    """Wall time, CPU time (all threads of this process) and peak resident memory of a block.

    The peak is the kernel's high-water mark (VmHWM), reset before the block through
    /proc/self/clear_refs, so each task has its own even in a reused worker; where that
    cannot be reset the process's lifetime peak is given (never less than the true one).
    """

    wall_s: float | None = None
    cpu_s: float | None = None
    peak_mb: float | None = None

    def __init__(self, *, resources: bool = True) -> None:
        self.resources = resources  # False: wall time only (CPU and peak None)

    def __enter__(self) -> Meter:
        if self.resources:
            _reset_peak_rss()
            self._cpu = time.process_time()
        self._wall = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall_s = time.perf_counter() - self._wall
        if self.resources:
            self.cpu_s = time.process_time() - self._cpu
            self.peak_mb = _peak_rss_mb()


def _reset_peak_rss() -> None:
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # 5: reset the peak resident set size (Linux 4.0 and later)


def _peak_rss_mb() -> float:
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def _memory_capped(limit_mb: float | None) -> contextlib.AbstractContextManager[None]:
    """Let this process's data (heap, anonymous maps, thread stacks) grow by at most
    `limit_mb` while the block runs: past it, allocation fails (MemoryError in Python)."""
    return _NO_CAP if limit_mb is None else _data_capped(limit_mb)


_NO_CAP = contextlib.nullcontext()  # reusable: made once, not per task


@contextlib.contextmanager
def _data_capped(limit_mb: float) -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    cap = _data_bytes() + int(limit_mb * 1024 * 1024)
    resource.setrlimit(resource.RLIMIT_DATA, (cap if hard < 0 else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def _data_bytes() -> int:
    """The size of this process's data segment now (VmData), in bytes."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmData in /proc/self/status")


@functools.cache
def _pid() -> int:
    """This process's id, asked once: not a system call per task."""
    return os.getpid()


os.register_at_fork(after_in_child=_pid.cache_clear)


def describe(error: BaseException) -> str:
    """`Type: message` and where it was raised (the innermost frame)."""
    text = f"{type(error).__name__}: {error}".rstrip(": ")
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    if frame is not None:
        code = frame.tb_frame.f_code
        text += f" (in {code.co_name}, {os.path.basename(code.co_filename)}:{frame.tb_lineno})"
    return text


def _stdout_to_stderr() -> None:
    """Whatever a back-end prints goes to stderr: the parent's stdout may be a JSON stream."""
    if sys.stdout is not None:
        sys.stdout.flush()
    os.dup2(2, 1)


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when its parent dies, so a killed run leaves no orphans
    (a back-end stuck in C code would otherwise never read the closed pipe)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(1)
