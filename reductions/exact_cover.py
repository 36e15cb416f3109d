"""Sudoku as exact cover: rows are placements, columns are the rules each placement meets.

A placement is "digit d in cell (r, c)". It satisfies one constraint of each family:

    cell r,c is filled          column  r{r}c{c}     N² columns
    row r has d                 column  r{r}#{d}     N² columns
    column c has d              column  c{c}#{d}     N² columns
    box b has d                 column  b{b}#{d}     N² columns
    extra unit k has d          column  x{k}#{d}     N per extra unit (Sudoku-X: x1 is the
                                                     main diagonal, x2 the anti-diagonal)

A filled grid is exactly a set of placements that meets every constraint exactly once, so
before the givens the matrix has N³ rows and 4·N² columns (729 x 324 for 9x9, 64 x 64 for
4x4, 342 columns for 9x9 Sudoku-X). Rows are numbered as in the source thesis
(section 2.3.1): placement (cell, d) is row cell·N + d - 1, so 0-based row 18 of a 4x4 is
"3 in r2c1" (the thesis's 1-based row 19).

Givens select their rows up front: each given's placement is taken into the solution before
any search, its columns are removed, and so is every row that meets one of them (the other
digits of that cell, the same digit elsewhere in its units). The model the engine sees is
that smaller matrix. We do it this way rather than only deleting a given cell's other
digits because the given rows are forced choices either way: removing them up front makes
the matrix smaller (a 17-clue 9x9 keeps 256 of 324 columns), means the engine never spends
search nodes re-deriving the givens, and makes its counters measure real search. If two
givens meet the same column (the same digit twice in a unit), that column is kept with no
row left to cover it: the matrix then has no exact cover, which is the truth for such a
puzzle, and the engine says so at once.

The matrix exports as text in the input format of Knuth's DLX programs (see `to_text`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from puzzles.errors import PuzzleFormatError
from puzzles.grid import Grid
from puzzles.rules import Rules
from reductions.base import Reduction


@dataclass(frozen=True)
class ExactCoverMatrix:
    """A sparse 0/1 matrix: choose rows so that every primary column holds exactly one 1
    and every secondary column at most one.

    Columns `0 .. primary-1` are primary, the rest secondary; `rows[i]` lists the columns
    where row i has a 1. Nothing here is Sudoku-specific.
    """

    columns: tuple[str, ...]
    primary: int
    rows: tuple[tuple[int, ...], ...]

    @property
    def secondary(self) -> int:
        return len(self.columns) - self.primary

    @property
    def ones(self) -> int:
        return sum(len(row) for row in self.rows)

    def size(self) -> dict[str, int]:
        return {
            "columns": len(self.columns),
            "primary": self.primary,
            "secondary": self.secondary,
            "rows": len(self.rows),
            "ones": self.ones,
        }

    def rows_by_column(self) -> list[list[int]]:
        """For each column, the rows that have a 1 in it."""
        by_column: list[list[int]] = [[] for _ in self.columns]
        for row, columns in enumerate(self.rows):
            for column in columns:
                by_column[column].append(row)
        return by_column

    def is_exact_cover(self, chosen: Iterable[int]) -> bool:
        """Whether the chosen rows meet every primary column once and no column twice."""
        hits = [0] * len(self.columns)
        for row in chosen:
            for column in self.rows[row]:
                hits[column] += 1
        return all(h == 1 for h in hits[: self.primary]) and all(h <= 1 for h in hits)

    def to_text(self, comments: Sequence[str] = ()) -> str:
        """The matrix in the input format of Knuth's DLX programs (dlx1).

        Lines starting with `|` (in column 1) are comments. The first other line names the
        columns, separated by spaces: the primary ones, then `|`, then the secondary ones
        (the `|` and what follows are left out when there are none). Every further line is one row
        of the matrix: the names of the columns where it has a 1. Row i of the matrix is
        the i-th such line. Column names contain no spaces and no `|`.
        """
        lines = [f"| {comment}" for comment in comments]
        header = " ".join(self.columns[: self.primary])
        if self.secondary:
            header += " | " + " ".join(self.columns[self.primary :])
        lines.append(header)
        lines += [" ".join(self.columns[column] for column in row) for row in self.rows]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "<text>") -> ExactCoverMatrix:
        """Read the format `to_text` writes; errors name the line and column."""
        columns: list[str] = []
        primary = 0
        index: dict[str, int] = {}
        rows: list[tuple[int, ...]] = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("|"):  # a `|` in column 1: a comment
                continue
            words = line.split()
            if not index:
                primary = words.index("|") if "|" in words else len(words)
                columns = [word for word in words if word != "|"]
                index = {name: i for i, name in enumerate(columns)}
                if len(index) != len(columns) or words.count("|") > 1:
                    raise PuzzleFormatError(
                        "the column line repeats a name or a '|'", source=source, line=number
                    )
                continue
            row = []
            for match in re.finditer(r"\S+", line):
                word = match.group()
                if word not in index or index[word] in row:
                    problem = "unknown" if word not in index else "repeated"
                    raise PuzzleFormatError(
                        f"{problem} column {word!r}",
                        source=source,
                        line=number,
                        column=match.start() + 1,
                    )
                row.append(index[word])
            rows.append(tuple(row))
        if not index:
            raise PuzzleFormatError("no column line found", source=source)
        return cls(tuple(columns), primary, tuple(rows))


@dataclass(frozen=True)
class SudokuCover:
    """What `invert` needs: the puzzle and, for each row of the model, its placement."""

    puzzle: Grid
    placements: tuple[tuple[int, int], ...]  # model row -> (cell, digit)
    given_rows: tuple[int, ...]  # rows of the full matrix the givens selected
    full: ExactCoverMatrix  # the matrix before givens
    clashes: tuple[str, ...]  # columns two givens both cover (then there is no solution)


class SudokuExactCover(Reduction[ExactCoverMatrix, Iterable[int]]):
    """Puzzle -> exact-cover matrix after givens; chosen rows -> grid."""

    name = "exact-cover"

    def apply(self, puzzle: Grid) -> tuple[ExactCoverMatrix, SudokuCover]:
        rules = puzzle.rules
        full = full_matrix(rules)
        given_rows = tuple(
            placement_row(rules, cell, digit) for cell, digit in enumerate(puzzle.values) if digit
        )
        covered = [0] * len(full.columns)
        for row in given_rows:
            for column in full.rows[row]:
                covered[column] += 1
        clashes = tuple(full.columns[c] for c, times in enumerate(covered) if times > 1)
        # A clashing column stays, with no row left that could cover it: no exact cover.
        keep = [c for c, times in enumerate(covered) if times != 1]
        renumber = [-1] * len(full.columns)
        for new, column in enumerate(keep):
            renumber[column] = new
        removed: set[int] = set()
        meeting = rows_meeting(rules)
        for column, times in enumerate(covered):
            if times:
                removed.update(meeting[column])
        kept_rows = [row for row in range(len(full.rows)) if row not in removed]
        matrix = ExactCoverMatrix(
            columns=tuple(full.columns[c] for c in keep),
            primary=sum(1 for c in keep if c < full.primary),
            rows=tuple(tuple([renumber[c] for c in full.rows[row]]) for row in kept_rows),
        )
        data = SudokuCover(
            puzzle=puzzle,
            placements=tuple(placement_of(rules, row) for row in kept_rows),
            given_rows=given_rows,
            full=full,
            clashes=clashes,
        )
        return matrix, data

    def invert(self, answer: Iterable[int], data: SudokuCover) -> Grid:
        """The puzzle with the placements of the chosen model rows filled in."""
        values = list(data.puzzle.values)
        rules = data.puzzle.rules
        for row in answer:
            cell, digit = data.placements[row]
            if values[cell]:
                raise ValueError(
                    f"rows place both {values[cell]} and {digit} in {rules.cell_name(cell)}"
                )
            values[cell] = digit
        return Grid(rules, tuple(values))

    def encode(self, grid: Grid, data: SudokuCover) -> list[int]:
        """The model rows that stand for the cells `grid` fills beyond the puzzle's givens."""
        index = {placement: row for row, placement in enumerate(data.placements)}
        return [
            index[cell, digit]
            for cell, digit in enumerate(grid.values)
            if digit and not data.puzzle.values[cell]
        ]

    def size(self, model: ExactCoverMatrix) -> dict[str, int]:
        return model.size()


def placement_row(rules: Rules, cell: int, digit: int) -> int:
    """The row of the full matrix for `digit` in `cell` (the thesis's order, 0-based)."""
    return cell * rules.size + digit - 1


def placement_of(rules: Rules, row: int) -> tuple[int, int]:
    """The (cell, digit) of a row of the full matrix."""
    cell, index = divmod(row, rules.size)
    return cell, index + 1


@cache
def full_matrix(rules: Rules) -> ExactCoverMatrix:
    """The matrix of the empty grid: N³ rows, (4 + extra units / N)·N² columns."""
    n = rules.size
    cells = rules.cell_count
    families = (rules.rows, rules.columns, rules.regions, rules.extra_units)
    names = [rules.cell_name(cell) for cell in rules.cells]
    for prefix, units in zip("rcbx", families, strict=True):
        names += [f"{prefix}{u + 1}#{d}" for u in range(len(units)) for d in rules.digits]
    extra_of = [
        [k for k, unit in enumerate(rules.extra_units) if cell in unit] for cell in rules.cells
    ]
    rows = []
    for cell in rules.cells:
        r, c, b = rules.row_of(cell), rules.col_of(cell), rules.region_of(cell)
        for d in range(n):
            columns = [cell, cells + r * n + d, 2 * cells + c * n + d, 3 * cells + b * n + d]
            columns += [4 * cells + k * n + d for k in extra_of[cell]]
            rows.append(tuple(columns))
    return ExactCoverMatrix(tuple(names), len(names), tuple(rows))


@cache
def rows_meeting(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """For each column of the full matrix, the rows that have a 1 in it."""
    return tuple(tuple(rows) for rows in full_matrix(rules).rows_by_column())


REDUCTION = SudokuExactCover()


# ----- the `reduce --to exact-cover` target ---------------------------------------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    """The matrix's size before and after the givens select their rows."""
    model, data = REDUCTION.apply(puzzle)
    before = data.full.size()
    after = model.size()
    return {
        "geometry": puzzle.rules.name,
        "givens": len(data.given_rows),
        "before": {key: before[key] for key in ("columns", "rows", "ones")},
        "after": {key: after[key] for key in ("columns", "rows", "ones")},
        "secondary": after["secondary"],
        "clashes": list(data.clashes),
    }


def export(puzzle: Grid) -> str:
    """The matrix after givens in Knuth's DLX format, with the puzzle and sizes as comments."""
    model, data = REDUCTION.apply(puzzle)
    full = data.full
    rules = puzzle.rules
    given = ", ".join(
        f"{rules.cell_name(cell)}={digit}" for cell, digit in enumerate(puzzle.values) if digit
    )
    comments = [
        "sudoku-bench exact cover (Knuth's DLX format: column line, then one row per line)",
        f"puzzle {rules.name} {puzzle.to_line()}",
        f"before givens: {len(full.columns)} columns, {len(full.rows)} rows, {full.ones} ones",
        f"after givens: {len(model.columns)} columns, {len(model.rows)} rows, {model.ones} ones",
        f"givens selected up front ({len(data.given_rows)}): {given or 'none'}",
    ]
    if data.clashes:
        comments.append(f"givens clash on {', '.join(data.clashes)}: no exact cover exists")
    return model.to_text(comments)
