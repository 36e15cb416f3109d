"""A progress bar on stderr: tasks done, failures (timeouts and errors) so far, elapsed and estimated time left.

Refreshed from the caller's loop (no refresh thread), so the process that starts workers
has no threads of its own.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

from sudoku_bench.harness.results import Outcome
from sudoku_bench.solvers.base import Status

FAILURES = (Status.TIMEOUT, Status.ERROR, Status.SKIPPED)  # a skipped repeat: a timeout
# Where stderr is no terminal (a log file, a batch job), no bar is drawn: a plain line says how
# far the work is this often instead, and once more at the end.
LOG_EVERY_S = 30.0


class TaskProgress:
    def __init__(
        self, total: int, description: str, *, enabled: bool = True, done: int = 0
    ) -> None:
        # rich is imported here, not at the top: every command imports this module through
        # the parser, and its import should be paid only by the commands that draw a bar
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.failures = 0
        self.drawn = 0.0
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failures]} failed"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            auto_refresh=False,
            disable=not enabled,
            # rich would move what the command prints to stdout onto its console (stderr)
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.task = self.progress.add_task(description, total=total, completed=done, failures=0)
        # a bar where stderr is a terminal, else a line now and then
        self.lines = enabled and not self.progress.console.is_terminal
        self.description, self.total, self.done_before = description, total, done
        self.started = self.logged = time.monotonic()

    def __enter__(self) -> TaskProgress:
        self.progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.progress.refresh()
        self.progress.stop()
        if self.lines and kind is None:
            self._log_line()

    def done(self, outcome: Outcome) -> None:
        self.advance(failed=outcome.status in FAILURES)

    def advance(self, *, failed: bool = False) -> None:
        """One more item done (of any kind of work: a task, a puzzle generated), and drawn."""
        self.failures += failed
        self.progress.update(self.task, advance=1, failures=self.failures)
        self.tick()

    def write_line(self, text: str, file: TextIO) -> None:
        """Print a line while the bar is drawn: above the bar when both share the terminal
        (else the bar's redraw and the line would overwrite each other), else to `file`."""
        console = self.progress.console
        if self.progress.live.is_started and console.is_terminal and file.isatty():
            console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=file, flush=True)

    def tick(self) -> None:
        """Redraw, at most ten times a second (the run loop calls this after every event);
        without a terminal, a line every `LOG_EVERY_S`."""
        now = time.monotonic()
        if self.lines:
            if now - self.logged >= LOG_EVERY_S:
                self.logged = now
                self._log_line()
            return
        if now - self.drawn >= 0.1:
            self.drawn = now
            self.progress.refresh()

    def _log_line(self) -> None:
        completed = int(self.progress.tasks[0].completed)
        elapsed = time.monotonic() - self.started
        line = (
            f"{self.description}: {completed:,} of {self.total:,} done "
            f"({completed / max(1, self.total):.0%}), {self.failures} failed, "
            f"{_clock(elapsed)} elapsed"
        )
        new = completed - self.done_before
        if new > 0 and completed < self.total:
            line += f", about {_clock(elapsed / new * (self.total - completed))} left"
        print(line, file=sys.stderr, flush=True)


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
