"""A wall-clock limit on work done in this process (building a model, not a solve: solves
run in worker processes, which are killed at their limit).

The work is interrupted by a timer signal (SIGALRM), which Python delivers between bytecodes:
sound for pure-Python work such as building a sympy ideal. Only the main thread gets signals;
elsewhere, or without SIGALRM, the limit is not enforced. The timer repeats until the block
has ended: library code that catches every exception (sympy has such places) may swallow one
interruption, but not all of them. An interruption that lands where Python cannot raise it (a
finaliser, a weak reference's callback) is dropped quietly, not printed as "Exception
ignored": the next repetition interrupts the work again.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

from sudoku_bench.puzzles.errors import SudokuBenchError

# After the limit, the interruption is repeated this often until the block has ended.
REPEAT_SECONDS = 0.1


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

    armed = True

    def expired(signum: int, frame: FrameType | None) -> None:
        if armed:
            raise TimeLimitExceeded(f"{what} took longer than the time limit ({seconds:g} s)")

    report_unraisable = sys.unraisablehook

    def unraisable(info: sys.UnraisableHookArgs) -> None:
        if not isinstance(info.exc_value, TimeLimitExceeded):
            report_unraisable(info)

    previous = signal.signal(signal.SIGALRM, expired)
    sys.unraisablehook = unraisable
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_SECONDS)
    try:
        yield
    finally:
        while armed:  # a repetition may interrupt the disarming itself: disarm again
            with contextlib.suppress(TimeLimitExceeded):
                signal.setitimer(signal.ITIMER_REAL, 0)
                armed = False
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = report_unraisable
