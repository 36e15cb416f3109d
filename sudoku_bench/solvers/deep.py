"""Running a recursive search where Python's recursion limit cannot stop it.

The textbook backtracker recurses once per placed cell and the propagating one once per
branch point, so an empty 32x32 or 36x36 grid needs more than Python's default 1,000
frames (`RecursionError`). Their search code stays as the source documents write it; instead
a search that may go that deep runs in a thread of its own, with a stack of `STACK_BYTES`
(reserved, touched only as used) and the recursion limit raised for as long as it runs.

That is sound: the limit only guards the C stack, and the thread's stack is sized for the
frames it allows (a Python frame takes well under `BYTES_PER_FRAME` of C stack even when the
recursion passes through C code such as a comparison). The caller waits for the thread, and
gets its result or its exception (a `SearchTimeout` included) as if it had called directly.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# A recursion this deep or more runs in its own thread (the default limit is 1,000 frames).
DEEP_FROM = 800
BYTES_PER_FRAME = 16 * 1024
STACK_BYTES = 512 * 1024 * 1024  # room for 32,768 frames: 8 per cell of a 64x64 grid

_lock = threading.Lock()  # the recursion limit and the thread stack size are process-wide
_deep_calls = 0
_usual_limit = sys.getrecursionlimit()


def call_deep(function: Callable[[], T], frames: int) -> T:
    """`function()`, allowed `frames` levels of recursion beyond the caller's."""
    if frames < DEEP_FROM:
        return function()
    found: dict[str, object] = {}

    def run() -> None:
        try:
            found["value"] = function()
        except BaseException as error:  # handed to the caller, whatever it is
            found["error"] = error

    _raise_limit(frames)
    try:
        _start(thread := threading.Thread(target=run, name="deep search", daemon=True), frames)
        thread.join()
    finally:
        _restore_limit()
    if "error" in found:
        raise found["error"]  # type: ignore[misc]
    return found["value"]  # type: ignore[return-value]


def _start(thread: threading.Thread, frames: int) -> None:
    """Start `thread` with a stack for `frames` frames (the size applies to threads started
    while it is set, so it is set and put back around the start)."""
    size = min(max(frames * BYTES_PER_FRAME, 32 * 1024 * 1024), STACK_BYTES)
    with _lock:
        previous = threading.stack_size(size)
        try:
            thread.start()
        finally:
            threading.stack_size(previous)


def _raise_limit(frames: int) -> None:
    global _deep_calls, _usual_limit
    with _lock:
        if _deep_calls == 0:
            _usual_limit = sys.getrecursionlimit()
        _deep_calls += 1
        wanted = _usual_limit + min(frames, STACK_BYTES // BYTES_PER_FRAME)
        if sys.getrecursionlimit() < wanted:
            sys.setrecursionlimit(wanted)


def _restore_limit() -> None:
    global _deep_calls
    with _lock:
        _deep_calls -= 1
        if _deep_calls == 0:
            sys.setrecursionlimit(_usual_limit)
