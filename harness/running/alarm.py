"""A wall-clock limit on work done in this process (building a model, not a solve: solves
run in worker processes, which are killed at their limit).

The work is interrupted by a timer signal (SIGALRM), which Python delivers between bytecodes:
sound for pure-Python work such as building a sympy ideal. Only the main thread gets signals;
elsewhere, or without SIGALRM, the limit is not enforced.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from puzzles.errors import SudokuBenchError


class TimeLimitExceeded(SudokuBenchError):
    """The work did not end within its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float | None, what: str) -> Iterator[None]:
    """Run the block for at most `seconds` (None: no limit); past it, `TimeLimitExceeded`
    says that `what` took longer."""
    usable = (
        seconds is not None
        and hasattr(signal, "SIGALRM")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)
    )
    if not usable:
        yield
        return
    assert seconds is not None

    def expired(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(f"{what} took longer than the time limit ({seconds:g} s)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
