"""The deadline of the logic search in progress, for the techniques whose one search can be
long (forcing nets, Franken fish): they look at it inside their loops, so that a timed solve
stops near its limit instead of being killed by the harness (and its worker replaced, every
back-end built again). Without a deadline (`explain`, `rate`, a technique called directly)
`check` does nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from sudoku_bench.solvers.base import Deadline, SearchTimeout

_CURRENT: ContextVar[Deadline | None] = ContextVar("logic_deadline", default=None)


@contextmanager
def until(deadline: Deadline | None) -> Iterator[None]:
    """Make `deadline` the one `check` looks at while the block runs."""
    token = _CURRENT.set(deadline)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def check() -> None:
    """Raise SearchTimeout when the current search's deadline has passed."""
    deadline = _CURRENT.get()
    if deadline is not None and deadline.expired():
        raise SearchTimeout
