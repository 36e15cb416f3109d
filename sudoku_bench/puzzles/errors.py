"""Errors a user can act on. The CLI prints them as one line and exits with `exit_code`."""

from __future__ import annotations


class SudokuBenchError(Exception):
    """Base of every error sudoku-bench raises on purpose (bad input, unknown names, ...)."""

    exit_code = 2


class PuzzleFormatError(SudokuBenchError):
    """Text that is not a puzzle: names where (source, line, column) and what was expected."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(str(self))

    def located(self, *, source: str | None = None, line: int | None = None) -> PuzzleFormatError:
        """The same error with the file and line filled in where they were unknown."""
        return type(self)(
            self.message,
            source=self.source or source,
            line=self.line if self.line is not None else line,
            column=self.column,
        )

    def __str__(self) -> str:
        if self.source is not None:  # compiler style: file:line:column: message
            where = [str(p) for p in (self.source, self.line, self.column) if p is not None]
            return f"{':'.join(where)}: {self.message}"
        words = [
            f"{name} {value}"
            for name, value in (("line", self.line), ("column", self.column))
            if value is not None
        ]
        return f"{', '.join(words)}: {self.message}" if words else self.message


class InvalidPuzzleError(PuzzleFormatError):
    """Well-formed text whose givens break a rule (the same digit twice in a unit)."""


class RulesError(SudokuBenchError):
    """A size or box shape that makes no Sudoku."""


class UnknownCollectionError(SudokuBenchError):
    """A collection name that is neither bundled nor an existing file."""
