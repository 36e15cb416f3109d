"""The worker process: receives tasks on a pipe, solves them, sends back outcomes.

Protocol (parent -> worker): `(task, backend, settings, announce)` or None to stop.
Worker -> parent: if `announce`, `("start",)` once the solver is built and warmed up (the
parent starts the task's clock there, so importing a library is not timed); then
`("done", outcome)`. The parent asks for the announcement only when this worker has not
built the solver yet or warm-up solves come first.
A worker that hangs is killed by the parent; one that dies is noticed by its sentinel.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from harness.running.tasks import Outcome, Task
from solvers.base import Result, Solver, Status
from solvers.registry import Backend


@dataclass(frozen=True)
class Settings:
    """How each task is run: the solver's own timeout (`math.inf`: none), the solution limit,
    warm-up solves, and whether the outcome carries the solver's whole `Result` (its step log
    and partial grid, for `explain`) besides the stored fields."""

    timeout: float
    limit: int = 1
    warmup: int = 0
    keep_result: bool = False


def main(conn: Connection, path: list[str]) -> None:
    """The worker's loop; returns when the parent says stop or goes away."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills us
    # Out of the terminal's process group too: a native solver that installs its own Ctrl-C
    # handler (SCIP does) would otherwise hear it, print and return an "interrupted" result.
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    _stdout_to_stderr()
    sys.path[:] = path  # back-ends registered by the caller import from the caller's path
    solvers: dict[str, Solver[Any]] = {}  # by back-end name: built once per worker
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, backend, settings, announce = message
        try:
            conn.send(("done", _run(conn if announce else None, task, backend, settings, solvers)))
        except OSError:  # the parent is gone (stopped or killed): nobody to answer
            return


def _run(
    conn: Connection | None,
    task: Task,
    backend: Backend,
    settings: Settings,
    solvers: dict[str, Solver[Any]],
) -> Outcome:
    try:
        if backend.name not in solvers:
            solvers[backend.name] = backend.create()
        solver = solvers[backend.name]
        puzzle = task.grid()
        for _ in range(settings.warmup):
            solver.solve(puzzle, limit=settings.limit, timeout=settings.timeout)
        if conn is not None:
            conn.send(("start",))
        result = solver.solve(puzzle, limit=settings.limit, timeout=settings.timeout)
    except Exception as error:  # a back-end's bug is a result to record, not a crash
        return Outcome(task, Status.ERROR.value, error=describe(error), worker=os.getpid())
    outcome = outcome_of(task, result)
    if settings.keep_result:
        outcome.result = result
    return outcome


def outcome_of(task: Task, result: Result) -> Outcome:
    return Outcome(
        task,
        result.status.value,
        count=result.count,
        exact=result.exact,
        verdict=result.verdict,
        solutions=[grid.to_line() for grid in result.solutions],
        build_s=result.build_s,
        solve_s=result.search_s,
        nodes=result.nodes,
        guesses=result.guesses,
        counters=dict(result.counters),
        error=result.message if result.status in (Status.ERROR, Status.UNSUPPORTED) else "",
        worker=os.getpid(),
    )


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
