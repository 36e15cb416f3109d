"""The in-process time limit (harness.running.alarm) stops work that swallows exceptions."""

import signal
import sys
import time

import pytest

from sudoku_bench.harness.running.alarm import TimeLimitExceeded, time_limit


def swallowing_work(seconds: float) -> int:
    """Busy work that catches every exception, as some library code does."""
    swallowed = 0
    end = time.monotonic() + seconds
    while True:
        try:
            if time.monotonic() >= end:
                return swallowed
            sum(range(1000))
        except Exception:
            swallowed += 1


def plain_work(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))


def test_work_that_swallows_an_interruption_is_interrupted_again() -> None:
    start = time.monotonic()
    expected = pytest.raises(TimeLimitExceeded, match="the work took longer than the time limit")
    with expected, time_limit(0.2, "the work"):
        assert swallowing_work(0.5) >= 1  # swallows the interruptions of its loop
        plain_work(30)  # stopped by a repetition, long before its end
    assert time.monotonic() - start < 10
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_work_within_the_limit_leaves_no_timer_behind() -> None:
    with time_limit(5, "the work"):
        sum(range(1000))
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_interruption_inside_a_finaliser_is_dropped_quietly() -> None:
    """Python cannot raise in a finaliser: it would print "Exception ignored in ..." with a
    traceback. The interruption is dropped there and the next one stops the work."""
    reported: list[object] = []
    outer = sys.unraisablehook
    sys.unraisablehook = reported.append  # what Python would otherwise print
    try:

        class Slow:
            def __del__(self) -> None:
                plain_work(0.3)  # runs past the limit: interrupted inside a finaliser

        with pytest.raises(TimeLimitExceeded), time_limit(0.1, "the work"):
            Slow()
            plain_work(30)
    finally:
        sys.unraisablehook = outer
    assert reported == []
