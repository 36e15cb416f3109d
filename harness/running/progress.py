"""A progress bar on stderr: tasks done, failures (timeouts and errors) so far, elapsed and estimated time left.

Refreshed from the caller's loop (no refresh thread), so the process that starts workers
has no threads of its own.
"""

from __future__ import annotations

import time
from types import TracebackType

from harness.running.tasks import Outcome

FAILURES = ("timeout", "error", "skipped")  # a skipped repeat counts as a timeout


class TaskProgress:
    def __init__(
        self, total: int, description: str, *, enabled: bool = True, done: int = 0
    ) -> None:
        # rich is imported here, not at the top: every command imports this module through
        # the parser, and ~30 ms of import should be paid by the commands that draw a bar
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
        if outcome.status in FAILURES:
            self.failures += 1
        self.progress.update(self.task, advance=1, failures=self.failures)

    def tick(self) -> None:
        """Redraw, at most ten times a second (the run loop calls this after every event)."""
        now = time.monotonic()
        if now - self.drawn >= 0.1:
            self.drawn = now
            self.progress.refresh()
