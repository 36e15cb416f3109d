"""Reading and writing puzzle files. Every reader yields `PuzzleEntry` items with an id.

Formats are chosen by file extension (see `FORMATS`); `.txt` and unknown extensions are
one puzzle per line. A bad entry raises `PuzzleFormatError` naming file, line and column,
or, with `skip_invalid=True`, is recorded in `ReadReport.skipped` and reading goes on.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzles.checker import conflicts
from puzzles.errors import InvalidPuzzleError, PuzzleFormatError
from puzzles.geometry import Geometry
from puzzles.grid import Grid
from puzzles.symbols import DEFAULT, Alphabet


@dataclass(frozen=True)
class PuzzleEntry:
    """A puzzle read from a collection: `id` is `source:line`; `solution` if the file has one."""

    id: str
    puzzle: Grid
    solution: Grid | None = None
    metadata: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass
class ReadReport:
    """What a read skipped (with `skip_invalid=True`): one error per bad entry."""

    skipped: list[PuzzleFormatError] = field(default_factory=list)


@dataclass(frozen=True)
class ReadOptions:
    alphabet: Alphabet = DEFAULT
    geometry: Geometry | None = None  # None: inferred from each puzzle's length
    diagonals: bool = False  # read every puzzle as Sudoku-X
    check_givens: bool = True  # reject puzzles whose givens repeat a digit in a unit
    skip_invalid: bool = False


def parse_puzzle(text: str, options: ReadOptions = ReadOptions()) -> Grid:
    """One puzzle from one line of text, checked as `options` say."""
    grid = Grid.from_string(text, options.geometry, alphabet=options.alphabet)
    if options.diagonals and not grid.geometry.diagonals:
        g = grid.geometry
        grid = Grid(Geometry(g.size, g.box_rows, g.box_cols, diagonals=True), grid.values)
    if options.check_givens:
        broken = conflicts(grid)
        if broken:
            raise InvalidPuzzleError(
                "the givens break the rules: " + "; ".join(c.describe(grid) for c in broken)
            )
    return grid


def _content(line: str) -> str:
    """A line without its comment (`#` at the start, or `//` anywhere) and surrounding space."""
    if line.lstrip().startswith("#"):
        return ""
    return line.split("//", 1)[0].strip()


def read_lines(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    """One puzzle per line; blank lines and comments are passed over."""
    for number, line in enumerate(lines, 1):
        text = _content(line)
        if not text:
            continue
        with _located(source, number, options, report):
            yield PuzzleEntry(f"{source}:{number}", parse_puzzle(text, options))


def read_csv(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    """Kaggle-style CSV: a header naming `quizzes` (or `puzzle`) and optionally `solutions`."""
    rows = csv.reader(lines)
    header = [name.strip().lower() for name in next(rows, [])]
    puzzle_column = _find_column(header, ("quizzes", "quiz", "puzzle", "puzzles"))
    solution_column = _find_column(header, ("solutions", "solution"))
    if puzzle_column is None:
        raise PuzzleFormatError("the CSV header has no column 'quizzes'", source=source, line=1)
    for number, row in enumerate(rows, 2):
        if not any(cell.strip() for cell in row):
            continue
        with _located(source, number, options, report):
            if len(row) <= puzzle_column:
                raise PuzzleFormatError(f"expected {len(header)} CSV fields, got {len(row)}")
            puzzle = parse_puzzle(row[puzzle_column], options)
            solution = None
            if solution_column is not None and len(row) > solution_column:
                solved = ReadOptions(options.alphabet, puzzle.geometry)
                solution = parse_puzzle(row[solution_column], solved)
            yield PuzzleEntry(f"{source}:{number}", puzzle, solution)


def _find_column(header: list[str], names: tuple[str, ...]) -> int | None:
    return next((header.index(name) for name in names if name in header), None)


class _located:
    """Context manager: attach file and line to a format error; swallow it when skipping."""

    def __init__(self, source: str, line: int, options: ReadOptions, report: ReadReport) -> None:
        self.source, self.line, self.options, self.report = source, line, options, report

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: object
    ) -> bool:
        if not isinstance(error, PuzzleFormatError):
            return False
        located = error.located(source=self.source, line=self.line)
        if self.options.skip_invalid:
            self.report.skipped.append(located)
            return True
        raise located from None


Reader = Callable[[Iterable[str], str, ReadOptions, ReadReport], Iterator[PuzzleEntry]]

# File extension -> reader. One puzzle per line for anything not listed.
FORMATS: dict[str, Reader] = {
    ".txt": read_lines,
    ".csv": read_csv,
}


def read_text(
    text: str,
    source: str,
    fmt: str = ".txt",
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
) -> list[PuzzleEntry]:
    """Every puzzle in `text`, read as format `fmt` (an extension such as `.csv`)."""
    reader = FORMATS.get(fmt, read_lines)
    return list(reader(io.StringIO(text), source, options, report or ReadReport()))


def read_file(
    path: Path,
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
    source: str | None = None,
) -> list[PuzzleEntry]:
    """Every puzzle in the file at `path`; ids are `source:line` (source defaults to the path)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise PuzzleFormatError(f"cannot read: {error.strerror}", source=str(path)) from None
    except UnicodeDecodeError:
        raise PuzzleFormatError("not a text file (expected UTF-8)", source=str(path)) from None
    return read_text(text, source or str(path), path.suffix.lower(), options, report)
