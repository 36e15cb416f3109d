"""A progress bar on stderr: tasks done, failures (timeouts and errors) so far, elapsed and estimated time left.

Refreshed from the caller's loop (no refresh thread), so the process that starts workers
has no threads of its own.
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import TextIO

from harness.results import Outcome
from solvers.base import Status

FAILURES = (Status.TIMEOUT, Status.ERROR, Status.SKIPPED)  # a skipped repeat: a timeout


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
        """Redraw, at most ten times a second (the run loop calls this after every event)."""
        now = time.monotonic()
        if now - self.drawn >= 0.1:
            self.drawn = now
            self.progress.refresh()
