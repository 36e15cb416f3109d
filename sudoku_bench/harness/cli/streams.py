"""Standard streams the CLI can trust: every failed write is an error, never a cut file.

Python's buffered writer loses an error when a large write goes through only in part (a full
disk, `ulimit -f`): `convert --to json > FILE` exited 0 with FILE cut short. Here stdout is
written through `CheckedWriter`, which writes every byte or raises, so a failure reaches
`main` as `OutputError` ("writing standard output failed: No space left on device", exit 2).

A stream that was closed when the command started (`sudoku-bench ... >&-`, `<&-`) is kept
closed for the command but its file descriptor is held open on /dev/null: otherwise the
next file opened (the results store, a worker's pipe) would take the number 1 and receive
what was meant for stdout.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

STDIN, STDOUT, STDERR = 0, 1, 2


class OutputError(OSError):
    """Writing standard output failed (the disk is full, the file is too large, it is closed)."""


class CheckedWriter(io.RawIOBase):
    """A raw stream over a file descriptor whose `write` writes everything or raises."""

    def __init__(self, fd: int, *, closed_at_start: bool = False) -> None:
        super().__init__()
        self.fd = fd
        self.closed_at_start = closed_at_start
        self.discarding = False  # after a reported failure: drop the rest quietly

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return not self.closed_at_start and os.isatty(self.fd)

    def write(self, data: ReadableBuffer) -> int:
        view = memoryview(data).cast("B")
        if self.discarding:
            return len(view)
        if self.closed_at_start:
            raise OutputError(errno.EBADF, "standard output is closed")
        done = 0
        while done < len(view):
            try:
                done += os.write(self.fd, view[done:])
            except BrokenPipeError:  # `| head`: the reader has what it wanted, not an error
                raise
            except InterruptedError:
                continue
            except OSError as error:
                raise OutputError(error.errno, error.strerror) from None
        return done


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _hold_on_devnull(fd: int) -> None:
    """Open /dev/null as `fd`, so that no file opened later takes this number."""
    null = os.open(os.devnull, os.O_RDWR)
    if null != fd:
        os.dup2(null, fd)  # inheritable, as a standard stream is
        os.close(null)
    else:
        os.set_inheritable(fd, True)  # worker processes start from a fresh program


def guard_standard_streams() -> None:
    """Make stdout a checked stream, and hold the numbers of closed standard streams.

    Only the process's own streams are touched: a stream replaced by the caller (pytest's
    capture, an embedding program) is left as it is.
    """
    closed = {fd: not _is_open(fd) for fd in (STDIN, STDOUT, STDERR)}
    for fd in (STDIN, STDOUT, STDERR):  # in order: os.open takes the lowest free number
        if closed[fd]:
            _hold_on_devnull(fd)
    if sys.stdin is None or closed[STDIN]:
        sys.stdin = None  # reading '-' says it is closed
    if sys.stderr is None or closed[STDERR]:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  # messages go nowhere
    elif isinstance(sys.stderr, io.TextIOWrapper):
        sys.stderr.reconfigure(errors="replace")  # "µs" on an ASCII terminal was a traceback
    if isinstance(sys.stdout, io.TextIOWrapper) and not _is_process_stdout(sys.stdout):
        sys.stdout.reconfigure(errors="replace")  # a stream the caller put in place
    elif sys.stdout is None or closed[STDOUT] or _is_process_stdout(sys.stdout):
        encoding = "utf-8" if sys.stdout is None else sys.stdout.encoding
        raw = CheckedWriter(STDOUT, closed_at_start=closed[STDOUT] or sys.stdout is None)
        sys.stdout = io.TextIOWrapper(
            io.BufferedWriter(raw, buffer_size=1 << 16),
            encoding=encoding,
            errors="replace",
            line_buffering=raw.isatty(),
        )


def _is_process_stdout(stream: object) -> bool:
    if not isinstance(stream, io.TextIOWrapper) or stream is not sys.__stdout__:
        return False
    try:
        return stream.fileno() == STDOUT
    except (OSError, ValueError):
        return False


def silence_stdout() -> None:
    """After stdout failed: drop what is still buffered and whatever comes, so the flush at
    exit cannot fail again (and print a traceback of its own)."""
    stream = sys.stdout
    raw = getattr(getattr(stream, "buffer", None), "raw", None)
    if isinstance(raw, CheckedWriter):
        raw.discarding = True
        return
    try:
        stream.flush()
    except (OSError, ValueError):
        if sys.__stdout__ is not None and stream is sys.__stdout__:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
