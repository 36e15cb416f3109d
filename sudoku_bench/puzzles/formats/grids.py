"""Multi-line grids (`.grid`, pictures with `|`, `-`, `+`) and SadMan Sudoku's `.sdk`.

A grid is N lines of N cells. Separators (`|`, `+`, `-`, `=`) and spaces between cells are
ignored; a row may also be N whitespace-separated numbers (`10 . 3 16 ...`) for big grids.
A puzzle ends when it has N rows, N being the first row's number of cells (or the size
`--geometry` gives), so blank lines may sit between bands. Between puzzles, blank lines,
rule lines (`========`) and title lines (Project Euler's `Grid 01`) are passed over; a title
is kept as `metadata["title"]`. `|` and rule lines inside the first puzzle reveal the box
shape (`6x6` with 3x2 boxes). In `.sdk` files, `#X text` lines before a puzzle are its
metadata (`#A` author, `#D` description, `#C` comment, `#B` date, `#S` source, `#L` level,
`#U` URL) and `[Puzzle]`-style section lines are passed over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from typing import Any

from sudoku_bench.puzzles.errors import InvalidPuzzleError, PuzzleFormatError, RulesError
from sudoku_bench.puzzles.formats.common import (
    PuzzleEntry,
    ReadOptions,
    ReadReport,
    WriteOptions,
    blank_for,
    checked,
    conflict_cell,
    encode,
    located,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import COMMON_SIZES, Rules
from sudoku_bench.puzzles.symbols import Alphabet

SEPARATORS = frozenset("|+-=")

# SadMan Sudoku's metadata letters, and the metadata keys they are read into.
SDK_FIELDS = {
    "A": "author",
    "D": "description",
    "C": "comment",
    "B": "date",
    "S": "source",
    "L": "level",
    "U": "url",
}
SDK_LETTERS = {name: letter for letter, name in SDK_FIELDS.items()}

Cell = tuple[int, int]  # (column, value)


def row_values(line: str, alphabet: Alphabet) -> list[int]:
    """The values of one grid row (-1 for a character the alphabet lacks), separators dropped."""
    numbers = _numeric_row(line, alphabet)
    if numbers is not None:
        return [value for _, value in numbers]
    value_of = _values(alphabet).get
    return [value_of(char, -1) for char in line.translate(_DROP)]


def cell_columns(line: str, alphabet: Alphabet) -> list[int]:
    """The 1-based column of each cell `row_values` finds (for error messages)."""
    numbers = _numeric_row(line, alphabet)
    if numbers is not None:
        return [column for column, _ in numbers]
    return [column for column, char in enumerate(line, 1) if char.translate(_DROP)]


_DROP = str.maketrans("", "", "|+-= \t\r\n\f\v")


@cache
def _values(alphabet: Alphabet) -> dict[str, int]:
    """Character -> value for every symbol of the alphabet (either case) and its blanks."""
    table = dict.fromkeys(alphabet.blanks, 0)
    for value, symbol in enumerate(alphabet.symbols, 1):
        table[symbol] = table[symbol.lower()] = value
    return table


def _numeric_row(line: str, alphabet: Alphabet) -> list[Cell] | None:
    """`10 . 3 16 ...`: a row of N whitespace-separated numbers (0 or a blank for empty).

    Recognised by a number of two digits or more with no leading zero, every number at most
    N: so `530 070 000` and `123 456 789` stay rows of single-character cells.
    """
    if not _WIDE.search(line):  # the common case, at C speed
        return None
    tokens = line.replace("|", " ").split()
    widest = len(str(len(tokens)))  # digits of the largest number a cell can hold
    cells: list[Cell] = []
    for match in _TOKEN.finditer(line):
        token, column = match.group(), match.start() + 1
        if token in alphabet.blanks:
            cells.append((column, 0))
        elif (
            token.isdigit()
            and (len(token) == 1 or token[0] != "0")
            and len(token) <= widest  # before int(): 4,301 digits are a ValueError
            and int(token) <= len(tokens)
        ):
            cells.append((column, int(token)))
        else:
            return None
    return cells


_TOKEN = re.compile(r"[^\s|]+")
_WIDE = re.compile(r"(?:^|[\s|])[1-9][0-9]+(?=$|[\s|])")  # a number of two digits or more


def _is_rule(line: str) -> bool:
    """A line of separators only (`------+------`, `========`)."""
    return not line.strip("|+-= \t\r\n")


@dataclass
class _Pending:
    """The puzzle being read: its rows so far, the first error in it, what the file said."""

    start: int
    size: int
    rows: list[list[int]] = field(default_factory=list)
    lines: list[tuple[int, str]] = field(default_factory=list)  # (number, text) of each row
    error: PuzzleFormatError | None = None
    bar_cells: int | None = None  # cells before the first `|` of the first row
    rule_after: int | None = None  # rows before the first rule line
    metadata: dict[str, Any] = field(default_factory=dict)


def read_grids(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    return _read_blocks(lines, source, options, report, sdk=False)


def read_sdk(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    return _read_blocks(lines, source, options, report, sdk=True)


def _read_blocks(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport, *, sdk: bool
) -> Iterator[PuzzleEntry]:
    alphabet = options.alphabet
    metadata: dict[str, Any] = {}
    pending: _Pending | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        text = line.strip()
        if pending is None:  # between puzzles
            if not text or _is_rule(text):
                continue
            if text.startswith("#"):
                if sdk:
                    _add_sdk_field(metadata, text)
                continue
            if sdk and text.startswith("[") and text.endswith("]"):
                continue
            cells = row_values(line, alphabet)
            if _is_title(cells, options):
                metadata["title"] = text
                continue
            with located(source, number, options, report):
                numeric = _numeric_row(line, alphabet) is not None
                pending = _Pending(number, _side(len(cells), options, numeric), metadata=metadata)
                metadata = {}
            if pending is None:  # a bad first row, skipped
                continue
        elif not text or text.startswith("#"):
            continue
        elif _is_rule(text):
            if pending.rule_after is None:
                pending.rule_after = len(pending.rows)
            continue
        _add_row(pending, line, number, alphabet)
        if len(pending.rows) == pending.size:
            with located(source, pending.start, options, report):
                yield _finish(pending, source, options)
            pending = None
    if pending is not None:
        with located(source, pending.start, options, report):
            raise pending.error or PuzzleFormatError(
                f"the file ends after {len(pending.rows)} of the puzzle's {pending.size} rows"
            )


def _is_title(cells: list[int], options: ReadOptions) -> bool:
    """Whether a line before a puzzle is its title (`Grid 01`) rather than its first row.

    A title is mostly characters that are no cell; a row with a typo (`53..7..x.`) is mostly
    cells, and read as a row it is reported at its column instead of shifting the puzzle.
    """
    if all(value >= 0 for value in cells):
        return False
    sides = (options.rules.size,) if options.rules is not None else COMMON_SIZES
    side = len(cells)  # the row's own size: `G` is 16, no cell of a 6x6 row like `Grid 01`
    bad = sum(1 for value in cells if not 0 <= value <= side)
    return side not in sides or 2 * bad >= side


def _side(cells: int, options: ReadOptions, numeric: bool = False) -> int:
    """The grid's side, from the first row's number of cells (a row of numbers such as
    `10 . 36 ...` may be of any size: it cannot be a whole puzzle on one line)."""
    if options.rules is not None:
        if cells != options.rules.size:
            raise PuzzleFormatError(
                f"expected {options.rules.size} cells in a row of a {options.rules} "
                f"puzzle, got {cells}"
            )
        return cells
    *smaller, largest = COMMON_SIZES
    expected = f"a row of {cells} cells: expected {', '.join(map(str, smaller))} or {largest}"
    expected += " cells per row"
    if cells > largest and numeric and cells > len(options.alphabet.symbols):
        try:
            Rules.of_size(cells)
        except RulesError as error:
            raise PuzzleFormatError(f"a row of {cells} numbers: {error}") from None
        return cells
    if cells > largest:  # bigger grids exist (say --geometry), but the wrong format is likelier
        raise PuzzleFormatError(f"{expected} (a whole puzzle on one line? that is the line format)")
    try:
        Rules.of_size(cells)
    except RulesError:
        raise PuzzleFormatError(expected) from None
    return cells


def _add_row(pending: _Pending, line: str, number: int, alphabet: Alphabet) -> None:
    """Add a row to the puzzle; a bad row still counts, so the next puzzle starts in step."""
    values = row_values(line, alphabet)
    if not pending.rows and "|" in line:
        pending.bar_cells = len(line.split("|", 1)[0].translate(_DROP))
    pending.rows.append(values)
    pending.lines.append((number, line))
    n = pending.size
    if pending.error is not None or (len(values) == n and min(values) >= 0 and max(values) <= n):
        return
    for column, value in zip(cell_columns(line, alphabet), values, strict=True):
        if not 0 <= value <= n:
            char = line[column - 1] if value < 0 else str(value)
            pending.error = PuzzleFormatError(
                f"unexpected {char!r}: a cell of a {n}x{n} grid is {alphabet.describe(n)}",
                line=number,
                column=column,
            )
            return
    pending.error = PuzzleFormatError(
        f"expected {n} cells in each row (as in the puzzle's first row), got {len(values)}",
        line=number,
    )


def _finish(pending: _Pending, source: str, options: ReadOptions) -> PuzzleEntry:
    if pending.error is not None:
        raise pending.error
    rules = options.rules or _box_shape(pending)
    grid = Grid(rules, tuple(chain.from_iterable(pending.rows)))
    try:
        grid = checked(grid, options)
    except InvalidPuzzleError as error:  # point at the repeated given, on its own line
        cell = conflict_cell(grid, options)
        number, line = pending.lines[rules.row_of(cell)]
        error.line = number
        error.column = cell_columns(line, options.alphabet)[rules.col_of(cell)]
        raise
    return PuzzleEntry(f"{source}:{pending.start}", grid, None, pending.metadata)


def _box_shape(pending: _Pending) -> Rules:
    """The usual geometry of that size, unless the separators draw other boxes."""
    usual = Rules.of_size(pending.size)
    rows, cols = pending.rule_after, pending.bar_cells
    if rows and cols and (rows, cols) != (usual.box_rows, usual.box_cols):
        try:
            return Rules(pending.size, rows, cols)
        except RulesError:
            return usual
    return usual


def _add_sdk_field(metadata: dict[str, Any], text: str) -> None:
    """`#Aauthor` -> metadata["author"]; repeated `#C` comment lines are joined."""
    letter, value = text[1:2].upper(), text[2:].strip()
    if not letter:
        return
    key = SDK_FIELDS.get(letter, letter)
    metadata[key] = f"{metadata[key]}\n{value}" if key in metadata else value


def write_grids(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """Each puzzle as a boxed picture, a blank line between; a title line where there is one."""
    blocks = []
    for entry in entries:
        title = entry.metadata.get("title")
        picture = _picture(entry.puzzle, options)
        blocks.append(f"{title}\n{picture}" if title else picture)
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _picture(grid: Grid, options: WriteOptions) -> str:
    encode(grid, options)  # the alphabet check
    return grid.picture(options.alphabet, blank_for(".", options, grid.rules.size))


def keeps_grid_item(key: str, value: Any) -> bool:
    """The grid writer keeps a title line, nothing else."""
    return key == "title" and isinstance(value, str) and "\n" not in value


def keeps_sdk_item(key: str, value: Any) -> bool:
    """The `.sdk` writer keeps what has a `#X` letter, as text (a list would come back as
    the text of a Python list)."""
    letter = SDK_LETTERS.get(key, key if len(key) == 1 and key.isupper() else None)
    return (
        letter is not None and isinstance(value, str | int | float) and not isinstance(value, bool)
    )


def write_sdk(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """SadMan `.sdk`: `#X` metadata lines, then N lines of N cells; a blank line between."""
    blocks = []
    for entry in entries:
        lines = []
        for key, value in entry.metadata.items():
            if keeps_sdk_item(key, value):
                letter = SDK_LETTERS.get(key, key)
                lines += [f"#{letter}{part}" for part in str(value).split("\n")]
        line = encode(entry.puzzle, options)
        n = entry.puzzle.rules.size
        lines += [line[i : i + n] for i in range(0, len(line), n)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""
