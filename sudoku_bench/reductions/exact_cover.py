"""Sudoku as exact cover: rows (options) are placements, columns (items) the rules they meet.

A placement is "digit d in cell (r, c)". It meets one primary column of each family:

    cell r,c is filled          column  r{r}c{c}     N² columns
    row r has d                 column  r{r}#{d}     N² columns
    column c has d              column  c{c}#{d}     N² columns
    region b has d              column  b{b}#{d}     N² columns (boxes, or jigsaw regions)
    extra unit k has d          column  x{k}#{d}     N per extra unit (Sudoku-X: x1 is the
                                                     main diagonal, x2 the anti-diagonal)

A filled classic grid is exactly a set of placements that meets every column once, so
before the givens the matrix has N³ rows and 4·N² columns (729 x 324 for 9x9, 64 x 64 for
4x4, 342 columns for 9x9 Sudoku-X). Rows are numbered as in the source thesis
(section 2.3.1): placement (cell, d) is row cell·N + d - 1, so 0-based row 18 of a 4x4 is
"3 in r2c1" (the thesis's 1-based row 19).

Variant rules (Knuth, TAOCP 7.2.2.1), each by its encoder in `ENCODERS` (a kind the table
has no encoder for is refused). Primary columns must be covered exactly once, secondary
columns at most once; a rule that says "not both" is a secondary column:

- an extra unit of N cells is a house (it holds every digit): primary `x{k}#{d}`. A smaller
  one only holds distinct digits: the same columns, secondary.
- anti-knight / anti-king (pairs that must differ): pair i of the sorted pairs that share no
  unit gets a secondary column `p{i}#{d}` per digit, met by "d in a" and "d in b".
- any other pair relation: pair i gets a secondary column `f{i}#{x}#{y}` per digit pair
  (x, y) it rules out, met by "x in a" and "y in b".
- non-consecutive: pair i of orthogonal neighbours gets a secondary column `v{i}#{k}`
  for k = 1..N-1, met by the four placements k and k+1 in a and in b. At most one of them:
  since neighbours share a row or column, the only pairs this forbids beyond the unit are
  (k, k+1) and (k+1, k), so N-1 columns do the work of 2(N-1) pair columns.
- parity: the placements an odd or even cell forbids are left out of the matrix.
- killer cages, the `cages` option:
  - `fillings` (the default; Knuth's encoding of killer sudoku): a cage with a sum has one
    option per allowed filling, a tuple of distinct digits with that sum, each allowed by
    its cell's parity; the option meets the columns of all its placements (and replaces the
    cells' single placements). A filling whose placements meet a column twice breaks another
    rule (two neighbours in the cage holding consecutive digits) and is left out. A cage of
    k cells has (sets of k digits with the sum) x k! fillings: 2 to 24 per set for 2 to 4
    cells, 120 x 12 = 1440 at most for 5 cells of a 9x9. A cage whose count could pass
    `max_fillings` (default `MAX_FILLINGS`), or one that shares a cell with an earlier filled
    cage, is encoded as in `combinations` instead: fillings make the search tree tiny (40-odd
    nodes for a 9x9 killer without givens) but each choice moves every node of a cage's
    options, and 1440 options of 20 ones each cost more than the nodes they save.
  - `combinations`: the cells keep their placements; cage j gets secondary columns `k{j}#{d}`
    (its cells hold distinct digits) and, with a sum, a primary column `k{j}` with one option
    per digit set S of the right size and sum, meeting `k{j}#{d}` for every d outside S: the
    cage's cells can then only use the digits of S, all different, so exactly S.
  - `distinct`: only the `k{j}#{d}` columns; the sums are left to the caller (the MILP adds
    them as linear equations over the placement variables).
  A cage without a sum is always just its `k{j}#{d}` columns.

Givens select their rows up front: each given's placement is taken into the solution before
any search, its columns are removed, and so is every row that meets one of them (the other
digits of that cell, the same digit elsewhere in its units). A given in a cell that a
filled cage places removes instead the fillings that disagree with it; a given that its
cell's parity forbids removes every placement of that cell. The model the engine sees is
that smaller matrix. We do it this way rather than only deleting a given cell's other
digits because the given rows are forced choices either way: removing them up front makes
the matrix smaller (a 17-clue 9x9 keeps 256 of 324 columns), means the engine never spends
search nodes re-deriving the givens, and makes its counters measure real search. If two
givens meet the same column (the same digit twice in a unit), that column is kept with no
row left to cover it: the matrix then has no exact cover, which is the truth for such a
puzzle, and the engine says so at once.

Two reductions, one after the other (CVXPY's chains): `CoverReduction` gives the rules'
full matrix with the rows the givens select and remove (what the `dlx` back-end links, copies
and searches); `SudokuExactCover` goes on to the smaller matrix after the givens (what
`reduce --to exact-cover` shows and exports, and what the MILP is written from).

The matrix exports as text in the input format of Knuth's DLX programs (see `to_text`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from sudoku_bench.puzzles.constraints import (
    Cage,
    CellDigits,
    Constraint,
    Diagonal,
    DistinctPairs,
    EncoderTable,
    LinearConstraint,
    NonConsecutive,
    PairConstraint,
    SumConstraint,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.constraints.base import Equation
from sudoku_bench.puzzles.errors import PuzzleFormatError, SudokuBenchError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.base import Reduction, puzzle_header
from sudoku_bench.reductions.cages import digit_sets, fillings
from sudoku_bench.reductions.encoding import (
    Domains,
    cell_domains,
    different_pairs,
    extra_units,
    forbidden_digit_pairs,
    grouped,
    narrow_to_allowed,
    relation_pairs,
    unit_mates,
)

CAGE_ENCODINGS = ("fillings", "combinations", "distinct")
# A cage whose fillings could be more than this many options is encoded by its digit sets
# (9 cells summing to 45 would be 9! = 362,880 options of 45 ones each): past it an option's
# ones cost more than the nodes it saves (docs/measurements/models.md, bench_killer.py).
MAX_FILLINGS = 100
KNUTH_NAME_LENGTH = 8  # DLX1 reads item names of one to eight characters
# The most options one coloured item (a table, or an equation's fillings) may have: past it
# the matrix is refused (`TooManyOptionsError`; the `dlx` back-end answers `unsupported`),
# rather than built for minutes and searched with rows that move thousands of nodes each.
MAX_OPTIONS = 5000

Placement = tuple[int, int]  # (cell, digit)


class TooManyOptionsError(SudokuBenchError):
    """A table or a linear equation has more admissible fillings than an item of the
    exact-cover matrix may have options (`MAX_OPTIONS`); the message names it."""


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
    # per row, a colour per column of the row (0: none), or () for a matrix without colours:
    # a secondary column may then be met by several rows that give it the same colour
    colours: tuple[tuple[int, ...], ...] = ()

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
        """Whether the chosen rows meet every primary column once and no column twice,
        except that rows may meet a secondary column together when they give it one colour."""
        hits = [0] * len(self.columns)
        given: dict[int, set[int]] = {}
        for row in chosen:
            colours = self.colours[row] if self.colours else (0,) * len(self.rows[row])
            for column, colour in zip(self.rows[row], colours, strict=True):
                if colour:
                    given.setdefault(column, set()).add(colour)
                else:
                    hits[column] += 1
        return (
            all(h == 1 for h in hits[: self.primary])
            and all(h <= 1 for h in hits)
            and all(len(colours) == 1 and not hits[c] for c, colours in given.items())
        )

    def names_of(self, row: int) -> list[str]:
        """Row `row` as Knuth's programs write it: column names, `name:colour` where coloured."""
        colours = self.colours[row] if self.colours else (0,) * len(self.rows[row])
        return [
            self.columns[column] + (f":{colour}" if colour else "")
            for column, colour in zip(self.rows[row], colours, strict=True)
        ]

    def to_text(self, comments: Sequence[str] = (), notes: dict[int, str] | None = None) -> str:
        """The matrix in the input format of Knuth's DLX programs (dlx1).

        Lines starting with `|` (in column 1) are comments. The first other line names the
        columns, separated by spaces: the primary ones, then `|`, then the
        secondary ones (the `|` and what follows are left out when there are none). Every
        further line is one row of the matrix: the names of the columns where it has a 1.
        Row i of the matrix is the i-th such line. Column names contain no spaces and no
        `|`. A coloured 1 is written `name:colour`, as Knuth's DLX2 (exact cover with
        colours) reads it. `notes[i]` is written as a comment line just before row i.
        """
        notes = notes or {}
        lines = [f"| {comment}".rstrip() for comment in comments]
        header = " ".join(self.columns[: self.primary])
        if self.secondary:
            header += " | " + " ".join(self.columns[self.primary :])
        lines.append(header)
        for number in range(len(self.rows)):
            if number in notes:
                lines.append(f"| {notes[number]}")
            lines.append(" ".join(self.names_of(number)))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "<text>") -> ExactCoverMatrix:
        """Read the format `to_text` writes; errors name the line and column."""
        columns: list[str] = []
        primary = 0
        index: dict[str, int] = {}
        rows: list[tuple[int, ...]] = []
        colours: list[tuple[int, ...]] = []
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
            row: list[int] = []
            row_colours: list[int] = []
            for match in re.finditer(r"\S+", line):
                word, _, colour = match.group().partition(":")
                if colour and not (colour.isdigit() and int(colour) > 0):
                    raise PuzzleFormatError(
                        f"colour {colour!r} is not a positive number",
                        source=source,
                        line=number,
                        column=match.start() + 1,
                    )
                if word not in index or index[word] in row:
                    problem = "unknown" if word not in index else "repeated"
                    raise PuzzleFormatError(
                        f"{problem} column {word!r}",
                        source=source,
                        line=number,
                        column=match.start() + 1,
                    )
                row.append(index[word])
                row_colours.append(int(colour) if colour else 0)
            rows.append(tuple(row))
            colours.append(tuple(row_colours))
        if not index:
            raise PuzzleFormatError("no column line found", source=source)
        coloured = any(any(row) for row in colours)
        return cls(tuple(columns), primary, tuple(rows), tuple(colours) if coloured else ())


# ----- the rules' full matrix -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SudokuMatrix:
    """The exact-cover matrix of a puzzle's rules before any given, and what its rows mean.

    `options[row]` lists the placements (cell, digit) that row makes: one for a placement,
    several for a cage filling, none for a cage's choice of digit set (`digit_sets[row]`
    then gives the cage and its set).
    """

    rules: Rules
    cages: str  # how killer cages are encoded: one of CAGE_ENCODINGS
    max_fillings: int  # the most fillings a cage may have to be encoded by them
    matrix: ExactCoverMatrix
    options: tuple[tuple[Placement, ...], ...]
    placement_rows: dict[Placement, int]  # (cell, digit) -> its single-placement row
    filled_by: tuple[int, ...]  # per cell: the cage whose fillings place it, or -1
    cage_rows: tuple[tuple[int, ...], ...]  # per cage: its fillings or digit-set rows
    cage_encodings: tuple[str, ...]  # per cage: `fillings`, `combinations` or `distinct`
    digit_sets: dict[int, tuple[int, frozenset[int]]] = field(default_factory=dict)
    sums: tuple[SumConstraint, ...] = ()  # the cages, numbered as `cage_rows` numbers them
    domains: tuple[tuple[int, ...], ...] = ()  # per cell: the digits it may hold
    # row -> the digits an option of a coloured item (a table row, an equation's filling)
    # gives cells by colour: it places nothing itself (the cells' own rows do)
    fixes: dict[int, tuple[Placement, ...]] = field(default_factory=dict)

    @cached_property
    def plain(self) -> bool:
        """Whether the rows are exactly the N³ placements in the thesis's order (no parity
        rule and no filled cage took any out)."""
        n = self.rules.size
        return len(self.placement_rows) == len(self.options) == n**3

    @cached_property
    def rows_meeting(self) -> tuple[tuple[int, ...], ...]:
        """For each column, the rows that have a 1 in it."""
        return tuple(tuple(rows) for rows in self.matrix.rows_by_column())

    def cage_encoding(self, cage: int) -> str:
        """How cage `cage` is encoded: `fillings`, `combinations` (digit sets) or `distinct`
        (its `k{j}#{d}` columns only: a cage without a sum, or any cage in `distinct`)."""
        return self.cage_encodings[cage]


@lru_cache(maxsize=16)  # classic rules are shared per size; a killer's rules are its own
def sudoku_matrix(
    rules: Rules, cages: str = "fillings", max_fillings: int = MAX_FILLINGS
) -> SudokuMatrix:
    """The full matrix of `rules` (see the module's docstring for its columns and rows)."""
    _check_cage_options(cages, max_fillings)
    return _Builder(rules, cages, max_fillings).build()


def _check_cage_options(cages: str, max_fillings: int) -> None:
    if cages not in CAGE_ENCODINGS:
        raise ValueError(f"unknown cage encoding {cages!r}; choose one of {CAGE_ENCODINGS}")
    if max_fillings < 1:
        raise ValueError(f"max_fillings must be at least 1, got {max_fillings}")


class _Builder:
    """Builds a `SudokuMatrix`: names the columns, then lists the rows.

    The shape gives the cell columns and the row, column and region families; each encoder of
    the rules' constraints (`ENCODERS`) adds its own columns in the builder's passes, which fix
    the column order: primary columns (`primary`), then secondary columns of sets of cells
    (`secondary`), then those of pairs of cells (`pairs`); then its rows (`rows`)."""

    def __init__(self, rules: Rules, cages: str, max_fillings: int) -> None:
        self.rules, self.mode, self.max_fillings = rules, cages, max_fillings
        self.groups = grouped(ENCODERS, rules.constraints, "exact-cover")
        self.domains = cell_domains(rules, self.groups)
        self.sums: tuple[SumConstraint, ...] = tuple(
            c for _, group in self.groups for c in group if isinstance(c, SumConstraint)
        )
        self.filled_by = self._filled_cages()
        # each family of N columns by digit is a base index: column = base + digit - 1
        self.names: list[str] = [rules.cell_name(cell) for cell in rules.cells]
        self.digit_bases: list[list[int]] = [[] for _ in rules.cells]
        self.pair_bases: list[list[int]] = [[] for _ in rules.cells]  # non-consecutive
        self.relation_columns: dict[Placement, list[int]] = {}  # other pair relations
        for prefix, units in zip("rcb", (rules.rows, rules.columns, rules.regions), strict=True):
            self._unit_family(prefix, range(len(units)), units)
        self.choice_column: dict[int, int] = {}  # cage -> its primary digit-set column
        self.cage_bases: dict[int, int] = {}
        self.colour_column: dict[int, int] = {}  # cell -> its secondary colour column `@r1c1`
        # the coloured items (tables `t{j}`, equations `e{j}`): column and options
        self.fill_items: list[tuple[int, list[tuple[Placement, ...]]]] = []
        self.item_numbers: dict[str, int] = {}
        for encoder, group in self.groups:
            encoder.primary(self, group)
        self.primary = len(self.names)
        self.colour_cells()
        for encoder, group in self.groups:
            encoder.secondary(self, group)
        for encoder, group in self.groups:
            encoder.pairs(self, group)

    @cached_property
    def mates(self) -> tuple[frozenset[int], ...]:
        return unit_mates(self.rules)

    def _filled_cages(self) -> list[int]:
        """Which cage's fillings place each cell (-1: the cell keeps its placements)."""
        filled = [-1] * self.rules.cell_count
        if self.mode != "fillings":
            return filled
        for j, cage in enumerate(self.sums):
            if cage.target is None or any(filled[cell] >= 0 for cell in cage.summed):
                continue
            bound = len(digit_sets(self.rules, cage)) * math.factorial(len(cage.summed))
            if bound > self.max_fillings:
                continue
            for cell in cage.summed:
                filled[cell] = j
        return filled

    def _is_filled(self, cage: int) -> bool:
        return any(self.filled_by[cell] == cage for cell in self.sums[cage].summed)

    def _by_digit_sets(self, j: int, cage: SumConstraint) -> bool:
        return self.mode != "distinct" and cage.target is not None and not self._is_filled(j)

    def _unit_family(
        self, prefix: str, indices: Iterable[int], groups: Sequence[Sequence[int]]
    ) -> dict[int, int]:
        """N columns `{prefix}{k}#{d}` for each group k (its cells hold distinct digits); the
        first column of each group."""
        n = self.rules.size
        bases = {}
        for k in indices:
            bases[k] = base = len(self.names)
            self.names += [f"{prefix}{k + 1}#{d}" for d in range(1, n + 1)]
            for cell in groups[k]:
                self.digit_bases[cell].append(base)
        return bases

    def placement_columns(self, cell: int, digit: int) -> list[int]:
        """The columns "digit in cell" meets."""
        last = self.rules.size - 1
        columns = [cell] + [base + digit - 1 for base in self.digit_bases[cell]]
        for base in self.pair_bases[cell]:
            columns += [base + k - 1 for k in (digit - 1, digit) if 1 <= k <= last]
        columns += self.relation_columns.get((cell, digit), ())
        if cell in self.colour_column:
            columns.append(self.colour_column[cell])
        return columns

    def item_name(self, prefix: str) -> str:
        """The next coloured item's name: `t1`, `t2`, ... for tables, `e1`, ... equations."""
        self.item_numbers[prefix] = self.item_numbers.get(prefix, 0) + 1
        return f"{prefix}{self.item_numbers[prefix]}"

    def add_fill_item(self, name: str, options: list[tuple[Placement, ...]], what: str) -> None:
        """A primary column whose options are `options`, each colouring its cells' colour
        columns with their digits (made in the secondary pass)."""
        if len(options) > MAX_OPTIONS:
            raise TooManyOptionsError(
                f"the {what} table {name} has {len(options)} admissible rows, more than the "
                f"{MAX_OPTIONS} options one item of the exact-cover matrix may have"
            )
        self.fill_items.append((len(self.names), options))
        self.names.append(name)

    def colour_cells(self) -> None:
        """A secondary colour column `@r1c1` for each cell some coloured item's option fixes."""
        cells = sorted({cell for _, options in self.fill_items for o in options for cell, _ in o})
        for cell in cells:
            self.colour_column[cell] = len(self.names)
            self.names.append("@" + self.rules.cell_name(cell))

    def build(self) -> SudokuMatrix:
        rules = self.rules
        rows: list[tuple[int, ...]] = []
        options: list[tuple[Placement, ...]] = []
        placement_rows: dict[Placement, int] = {}
        for cell in rules.cells:
            if self.filled_by[cell] < 0:
                for digit in self.domains[cell]:
                    placement_rows[cell, digit] = len(rows)
                    rows.append(tuple(self.placement_columns(cell, digit)))
                    options.append(((cell, digit),))
        self.rows, self.options = rows, options
        self.cage_rows: list[tuple[int, ...]] = []
        self.sets: dict[int, tuple[int, frozenset[int]]] = {}
        for encoder, group in self.groups:
            encoder.rows(self, group)
        fixes: dict[int, tuple[Placement, ...]] = {}
        for column, item_options in self.fill_items:
            for option in item_options:
                fixes[len(rows)] = option
                rows.append((column, *(self.colour_column[cell] for cell, _ in option)))
                options.append(())
        matrix = ExactCoverMatrix(
            tuple(self.names), self.primary, tuple(rows), self._colours(rows, options, fixes)
        )
        return SudokuMatrix(
            rules,
            self.mode,
            self.max_fillings,
            matrix,
            tuple(options),
            placement_rows,
            tuple(self.filled_by),
            tuple(self.cage_rows),
            tuple(
                "fillings"
                if self._is_filled(j)
                else "combinations"
                if j in self.choice_column
                else "distinct"
                for j in range(len(self.sums))
            ),
            self.sets,
            self.sums,
            self.domains,
            fixes,
        )

    def _colours(
        self,
        rows: Sequence[tuple[int, ...]],
        options: Sequence[tuple[Placement, ...]],
        fixes: dict[int, tuple[Placement, ...]],
    ) -> tuple[tuple[int, ...], ...]:
        """Each row's colours: a cell's colour column takes the digit the row places or fixes
        there; () when no item is coloured (the plain matrix)."""
        if not self.colour_column:
            return ()
        cell_of = {column: cell for cell, column in self.colour_column.items()}
        colours = []
        for number, row in enumerate(rows):
            digit_of = dict(fixes.get(number) or options[number])
            colours.append(tuple(digit_of[cell_of[c]] if c in cell_of else 0 for c in row))
        return tuple(colours)


# ----- the encoders: each constraint kind's or family's columns and rows ----------------------

Group = tuple[Constraint, ...]


class CoverEncoder:
    """A kind's (or family's) part of the exact-cover matrix, pass by pass (see `_Builder`);
    a pass it has nothing to add in is left as it is here. `narrow` (cell-digit constraints)
    leaves placements out of the matrix."""

    narrow: Callable[[Rules, Sequence[Constraint], Domains], None] | None = None

    def primary(self, builder: _Builder, group: Group) -> None:
        """Primary columns: covered exactly once."""

    def secondary(self, builder: _Builder, group: Group) -> None:
        """Secondary columns of sets of cells: covered at most once."""

    def pairs(self, builder: _Builder, group: Group) -> None:
        """Secondary columns of pairs of cells."""

    def rows(self, builder: _Builder, group: Group) -> None:
        """Rows beyond the single placements (which the builder lists from the domains)."""


class _Units(CoverEncoder):
    """An extra unit of N cells is a house: primary `x{k}#{d}`; a smaller one secondary."""

    def primary(self, builder: _Builder, group: Group) -> None:
        units = extra_units(builder.rules, group)  # `x1` is the first: the main diagonal
        houses = [k for k, unit in enumerate(units) if len(unit) == builder.rules.size]
        builder._unit_family("x", houses, units)

    def secondary(self, builder: _Builder, group: Group) -> None:
        units = extra_units(builder.rules, group)
        smaller = [k for k, unit in enumerate(units) if len(unit) < builder.rules.size]
        builder._unit_family("x", smaller, units)


class _Different(CoverEncoder):
    """Pair i of cells that must differ and share no unit: secondary `p{i}#{d}` per digit, met
    by "d in a" and "d in b"."""

    def pairs(self, builder: _Builder, group: Group) -> None:
        pairs = different_pairs(builder.rules, _pair_group(group), builder.mates)
        builder._unit_family("p", range(len(pairs)), pairs)


class _NonConsecutive(CoverEncoder):
    """Neighbours i: secondary `v{i}#{k}` for k = 1..N-1, met by the four placements k and k+1
    in a and in b. At most one of them: since neighbours share a row or column, the only pairs
    this forbids beyond the unit are (k, k+1) and (k+1, k), so N-1 columns do the work of
    2(N-1) pair columns."""

    def pairs(self, builder: _Builder, group: Group) -> None:
        n = builder.rules.size
        for i, (_, pair) in enumerate(relation_pairs(builder.rules, _pair_group(group))):
            base = len(builder.names)
            builder.names += [f"v{i + 1}#{k}" for k in range(1, n)]
            for cell in pair:
                builder.pair_bases[cell].append(base)


class _Relation(CoverEncoder):
    """Any other pair relation: for pair i and each digit pair (x, y) it rules out, secondary
    `f{i}#{x}#{y}`, met by "x in a" and "y in b"."""

    def pairs(self, builder: _Builder, group: Group) -> None:
        rules = builder.rules
        for i, (constraint, (a, b)) in enumerate(relation_pairs(rules, _pair_group(group))):
            for x, y in forbidden_digit_pairs(rules, constraint):
                column = len(builder.names)
                builder.names.append(f"f{i + 1}#{x}#{y}")
                builder.relation_columns.setdefault((a, x), []).append(column)
                builder.relation_columns.setdefault((b, y), []).append(column)


class _CellDigits(CoverEncoder):
    """The placements a cell's domain (parity) leaves out are left out of the matrix."""

    narrow = staticmethod(narrow_to_allowed)


class _Cages(CoverEncoder):
    """Killer cages (see the module docstring): by fillings, by digit sets, or distinct only."""

    def primary(self, builder: _Builder, group: Group) -> None:
        for j, cage in enumerate(builder.sums):
            if builder._by_digit_sets(j, cage):
                builder.choice_column[j] = len(builder.names)
                builder.names.append(f"k{j + 1}")

    def secondary(self, builder: _Builder, group: Group) -> None:
        item_cages = [j for j, _ in enumerate(builder.sums) if not builder._is_filled(j)]
        builder.cage_bases = builder._unit_family(
            "k", item_cages, [cage.summed for cage in builder.sums]
        )

    def rows(self, builder: _Builder, group: Group) -> None:
        rules, rows, options = builder.rules, builder.rows, builder.options
        for j, cage in enumerate(builder.sums):
            first = len(rows)
            if builder._is_filled(j):
                for filling in fillings(rules, cage):
                    columns = [
                        c
                        for cell, digit in zip(cage.summed, filling, strict=True)
                        for c in builder.placement_columns(cell, digit)
                    ]
                    if len(set(columns)) == len(columns):  # else it breaks a pair rule
                        rows.append(tuple(columns))
                        options.append(tuple(zip(cage.summed, filling, strict=True)))
            elif j in builder.choice_column:
                base = builder.cage_bases[j]
                for digits in digit_sets(rules, cage):
                    builder.sets[len(rows)] = (j, digits)
                    others = [base + d - 1 for d in rules.digits if d not in digits]
                    rows.append((builder.choice_column[j], *others))
                    options.append(())
            builder.cage_rows.append(tuple(range(first, len(rows))))


class _Tables(CoverEncoder):
    """A table j of admissible fillings: primary `t{j}`, one option per row, colouring each
    cell the row fixes with its digit (0, any digit, leaves the cell out). Rows are exclusive,
    so a solution's grid matches one row of each table: one option per item, each solution
    counted once. A row no solution can match (a digit its cell's domain forbids, one digit
    twice in a unit) is left out."""

    def primary(self, builder: _Builder, group: Group) -> None:
        mates, domains = builder.mates, builder.domains
        for constraint in group:
            assert isinstance(constraint, TableConstraint)
            for table in constraint.tables(builder.rules):
                options = []
                for row in table.rows:
                    fixed = tuple((c, d) for c, d in zip(table.cells, row, strict=True) if d)
                    if _possible(fixed, domains, mates):
                        options.append(fixed)
                builder.add_fill_item(builder.item_name("t"), options, constraint.title)


class _Equations(CoverEncoder):
    """A linear equation j: primary `e{j}`, one option per admissible filling of its cells
    (digits its cells' domains allow, no digit twice in a unit, the weighted sum right),
    colouring each cell with its digit; enumerated with the sums' bounds, and refused past
    `MAX_OPTIONS`. A filling fixes every cell of the equation, so a solution matches one."""

    def primary(self, builder: _Builder, group: Group) -> None:
        for constraint in group:
            assert isinstance(constraint, LinearConstraint)
            for equation in constraint.equations(builder.rules):
                name = builder.item_name("e")
                what = f"the {constraint.title} equation {name}"
                options = equation_fillings(equation, builder.domains, builder.mates, what)
                builder.add_fill_item(name, options, constraint.title)


def _possible(
    fixed: Sequence[Placement], domains: Sequence[Sequence[int]], mates: Sequence[frozenset[int]]
) -> bool:
    """Whether the cells may hold these digits together: each in its domain, and no two unit
    mates the same digit."""
    return all(d in domains[c] for c, d in fixed) and not any(
        d == e and b in mates[a] for i, (a, d) in enumerate(fixed) for b, e in fixed[i + 1 :]
    )


def equation_fillings(
    equation: Equation,
    domains: Sequence[Sequence[int]],
    mates: Sequence[frozenset[int]],
    name: str = "an equation",
    bound: int = MAX_OPTIONS,
) -> list[tuple[Placement, ...]]:
    """Every filling of the equation's cells (in its terms' order) whose weighted sum is its
    total, with digits the domains allow and no digit twice among unit mates; the search
    cuts a branch when the rest's least and greatest contributions cannot reach the total.
    More than `bound` fillings raise `TooManyOptionsError` as soon as they are found."""
    terms = equation.terms
    low = [min(k * d for d in domains[c]) if domains[c] else 0 for c, k in terms]
    high = [max(k * d for d in domains[c]) if domains[c] else 0 for c, k in terms]
    rest_low = [sum(low[i:]) for i in range(len(terms) + 1)]
    rest_high = [sum(high[i:]) for i in range(len(terms) + 1)]
    found: list[tuple[Placement, ...]] = []
    chosen: list[Placement] = []

    def extend(index: int, total: int) -> None:
        if index == len(terms):
            if total == equation.total:
                if len(found) == bound:
                    raise TooManyOptionsError(
                        f"{name} ({len(terms)} cells) has more than {bound} admissible "
                        "fillings, the most options one item of the exact-cover matrix may have"
                    )
                found.append(tuple(chosen))
            return
        cell, k = terms[index]
        for d in domains[cell]:
            reached = total + k * d
            if not rest_low[index + 1] <= equation.total - reached <= rest_high[index + 1]:
                continue
            if any(e == d and other in mates[cell] for other, e in chosen):
                continue
            chosen.append((cell, d))
            extend(index + 1, reached)
            chosen.pop()

    if any(not domains[c] for c, _ in terms):
        return found
    extend(0, 0)
    return found


def _pair_group(group: Group) -> list[PairConstraint]:
    return [c for c in group if isinstance(c, PairConstraint)]


ENCODERS: EncoderTable[CoverEncoder] = EncoderTable(
    {
        UnitConstraint: _Units(),
        PairConstraint: _Relation(),
        DistinctPairs: _Different(),
        NonConsecutive: _NonConsecutive(),
        CellDigits: _CellDigits(),
        Cage: _Cages(),
        TableConstraint: _Tables(),
        LinearConstraint: _Equations(),
    }
)
# The families whose encoders keep every row a single placement, in the thesis's order, and
# add primary columns only where a unit of N cells does (the native and compiled exact-cover
# back-ends read the matrix so): extra units only.
PLACEMENT_ENCODERS: EncoderTable[CoverEncoder] = EncoderTable(
    {UnitConstraint: ENCODERS.encoder(Diagonal())}
)
# Those and the pair relations, whose encoders add secondary columns only (`p`, `v`, `f`)
# and keep the rows the N³ placements in the thesis's order: what the compiled `dlx-jit`
# reads (it links whatever secondary columns the matrix has).
PAIR_PLACEMENT_ENCODERS: EncoderTable[CoverEncoder] = EncoderTable(
    {
        UnitConstraint: ENCODERS.encoder(Diagonal()),
        PairConstraint: _Relation(),
        DistinctPairs: _Different(),
        NonConsecutive: _NonConsecutive(),
    }
)


# ----- the two reductions ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CoverProblem:
    """The model of `CoverReduction`: the rules' full matrix, and the rows the givens take
    into every solution (`selected`) or rule out (`removed`) before the search."""

    sudoku: SudokuMatrix
    selected: tuple[int, ...]
    removed: tuple[int, ...]

    @property
    def matrix(self) -> ExactCoverMatrix:
        return self.sudoku.matrix

    @cached_property
    def covered(self) -> list[int]:
        """How many selected rows meet each column."""
        covered = [0] * len(self.matrix.columns)
        rows = self.matrix.rows
        for row in self.selected:
            for column in rows[row]:
                covered[column] += 1
        return covered

    @property
    def clashes(self) -> tuple[str, ...]:
        """The columns two selected rows both meet (then there is no solution)."""
        names = self.matrix.columns
        return tuple(names[c] for c, times in enumerate(self.covered) if times > 1)

    def after_givens(self) -> tuple[ExactCoverMatrix, tuple[int, ...]]:
        """The smaller matrix the search really faces, and the full-matrix row of each row.

        With colours, a colour column a given's row colours is settled: it goes, and so does
        every row that gives it another colour (or none); the rows that agree keep their
        other columns."""
        full = self.matrix
        covered = self.covered
        settled: dict[int, int] = {}  # colour column -> the colour the givens gave it
        if full.colours:
            covered = [0] * len(full.columns)
            for row in self.selected:
                for column, colour in zip(full.rows[row], full.colours[row], strict=True):
                    if colour:
                        settled[column] = colour
                    else:
                        covered[column] += 1
        # A clashing column stays, with no row left that could cover it: no exact cover.
        keep = [c for c, times in enumerate(covered) if times != 1 and c not in settled]
        renumber = [-1] * len(full.columns)
        for new, column in enumerate(keep):
            renumber[column] = new
        gone: set[int] = set(self.removed)
        meeting = self.sudoku.rows_meeting
        for column, times in enumerate(covered):
            if times:
                gone.update(meeting[column])
        for column, colour in settled.items():
            for row in meeting[column]:
                if full.colours[row][full.rows[row].index(column)] != colour:
                    gone.add(row)
        kept = tuple(row for row in range(len(full.rows)) if row not in gone)
        rows = []
        colours = []
        for row in kept:
            row_colours = full.colours[row] if full.colours else (0,) * len(full.rows[row])
            pairs = [
                (c, k) for c, k in zip(full.rows[row], row_colours, strict=True) if c not in settled
            ]
            rows.append(tuple(renumber[c] for c, _ in pairs))
            colours.append(tuple(k for _, k in pairs))
        matrix = ExactCoverMatrix(
            columns=tuple(full.columns[c] for c in keep),
            primary=sum(1 for c in keep if c < full.primary),
            rows=tuple(rows),
            colours=tuple(colours) if any(any(k) for k in colours) else (),
        )
        return matrix, kept


@dataclass(frozen=True, eq=False)
class CoverData:
    """What `CoverReduction.invert` needs: the puzzle and the full matrix's rows' meaning."""

    puzzle: Grid
    sudoku: SudokuMatrix


class CoverReduction(Reduction[CoverProblem, Iterable[int]]):
    """Puzzle -> the rules' full matrix with the givens' rows selected and removed; the rows
    of an exact cover of it (full-matrix numbers, selected ones included or not) -> grid."""

    name = "exact-cover-full"
    encoders = ENCODERS

    def __init__(self, cages: str = "fillings", max_fillings: int = MAX_FILLINGS) -> None:
        _check_cage_options(cages, max_fillings)
        self.cages, self.max_fillings = cages, max_fillings

    def apply(self, puzzle: Grid) -> tuple[CoverProblem, CoverData]:
        rules = puzzle.rules
        sudoku = sudoku_matrix(rules, self.cages, self.max_fillings)
        values = puzzle.values
        if sudoku.plain:  # every cell keeps every placement, row cell·N + digit - 1
            n = rules.size
            given = [cell * n + digit - 1 for cell, digit in enumerate(values) if digit]
            return CoverProblem(sudoku, tuple(given), ()), CoverData(puzzle, sudoku)
        placement_rows, filled_by = sudoku.placement_rows, sudoku.filled_by
        selected: list[int] = []
        removed: list[int] = []
        for cell, digit in enumerate(values):
            if not digit or filled_by[cell] >= 0:
                continue
            row = placement_rows.get((cell, digit))
            if row is not None:
                selected.append(row)
            else:  # its domain forbids the given: the cell cannot be filled at all
                removed += [placement_rows[cell, d] for d in sudoku.domains[cell]]
        if sudoku.sums and any(values[cell] for cell in rules.cells if filled_by[cell] >= 0):
            for j, rows in enumerate(sudoku.cage_rows):
                if any(filled_by[cell] == j and values[cell] for cell in sudoku.sums[j].summed):
                    removed += [
                        row
                        for row in rows
                        if any(values[c] and values[c] != d for c, d in sudoku.options[row])
                    ]
        problem = CoverProblem(sudoku, tuple(selected), tuple(removed))
        return problem, CoverData(puzzle, sudoku)

    def invert(self, answer: Iterable[int], data: CoverData) -> Grid:
        """The puzzle with the placements of the chosen full-matrix rows filled in."""
        puzzle = data.puzzle
        values = list(puzzle.values)
        options = data.sudoku.options
        for row in answer:
            for cell, digit in options[row]:
                if values[cell] != digit:  # equal: a given's row, or a filling keeping it
                    if values[cell]:
                        name = puzzle.rules.cell_name(cell)
                        raise ValueError(f"rows place both {values[cell]} and {digit} in {name}")
                    values[cell] = digit
        return Grid(puzzle.rules, tuple(values))

    def size(self, model: CoverProblem) -> dict[str, int]:
        return {
            **model.matrix.size(),
            "selected": len(model.selected),
            "removed": len(model.removed),
        }


@dataclass(frozen=True, eq=False)
class SudokuCover:
    """What `SudokuExactCover.invert` needs: the puzzle, and each model row's full-matrix row
    and placements."""

    puzzle: Grid
    options: tuple[tuple[Placement, ...], ...]  # model row -> its placements
    given_rows: tuple[int, ...]  # rows of the full matrix the givens selected
    full: ExactCoverMatrix  # the matrix before givens
    clashes: tuple[str, ...]  # columns two givens both cover (then there is no solution)
    kept: tuple[int, ...] = ()  # model row -> its row of the full matrix
    removed: tuple[int, ...] = ()  # full-matrix rows the givens ruled out
    cover: CoverData | None = None

    @property
    def placements(self) -> tuple[Placement, ...]:
        """Model row -> its one placement (cell, digit), when every row is one placement (no
        cage fillings or digit-set choices: see `options`)."""
        if any(len(option) != 1 for option in self.options):
            raise ValueError("some rows are cage fillings or digit-set choices: use `options`")
        return tuple(option[0] for option in self.options)


class SudokuExactCover(Reduction[ExactCoverMatrix, Iterable[int]]):
    """Puzzle -> exact-cover matrix after givens; chosen rows -> grid."""

    name = "exact-cover"
    encoders = ENCODERS

    def __init__(self, cages: str = "fillings", max_fillings: int = MAX_FILLINGS) -> None:
        self.first = CoverReduction(cages, max_fillings)

    @property
    def cages(self) -> str:
        return self.first.cages

    def apply(self, puzzle: Grid) -> tuple[ExactCoverMatrix, SudokuCover]:
        problem, cover = self.first.apply(puzzle)
        matrix, kept = problem.after_givens()
        options = problem.sudoku.options
        data = SudokuCover(
            puzzle=puzzle,
            options=tuple(options[row] for row in kept),
            given_rows=problem.selected,
            full=problem.matrix,
            clashes=problem.clashes,
            kept=kept,
            removed=problem.removed,
            cover=cover,
        )
        return matrix, data

    def invert(self, answer: Iterable[int], data: SudokuCover) -> Grid:
        """The puzzle with the placements of the chosen model rows filled in."""
        assert data.cover is not None  # every SudokuCover from `apply` has it
        return self.first.invert((data.kept[row] for row in answer), data.cover)

    def encode(self, grid: Grid, data: SudokuCover) -> list[int]:
        """The model rows of the exact cover that stands for `grid` (a solution of the puzzle):
        the placements and fillings it makes beyond the givens, and its cages' digit sets."""
        assert data.cover is not None
        sets = data.cover.sudoku.digit_sets
        cages = data.cover.sudoku.sums
        fixes = data.cover.sudoku.fixes
        chosen = []
        for row, full_row in enumerate(data.kept):
            if full_row in fixes:
                if all(grid[cell] == digit for cell, digit in fixes[full_row]):
                    chosen.append(row)
            elif full_row in sets:
                cage, digits = sets[full_row]
                if {grid[cell] for cell in cages[cage].summed} == digits:
                    chosen.append(row)
            elif all(grid[cell] == digit for cell, digit in data.options[row]):
                chosen.append(row)
        return chosen

    def size(self, model: ExactCoverMatrix) -> dict[str, int]:
        return model.size()

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        """The matrix's size before and after the givens select their rows."""
        model, data = self.apply(puzzle)
        before = data.full.size()
        after = model.size()
        fixes = data.cover.sudoku.fixes if data.cover is not None else {}
        return {
            "geometry": puzzle.rules.name,
            "givens": len(data.given_rows),
            "before": {key: before[key] for key in ("columns", "rows", "ones")},
            "after": {key: after[key] for key in ("columns", "rows", "ones")},
            "secondary": after["secondary"],
            "clashes": list(data.clashes),
            "cages": self.cages,
            "cage_options": sum(
                1
                for row, option in zip(data.kept, data.options, strict=True)
                if len(option) != 1 and row not in fixes
            ),
            "coloured_options": sum(1 for row in data.kept if row in fixes),
        }

    def export(self, puzzle: Grid) -> str:
        """The matrix after givens in Knuth's DLX format, headed by comment lines that carry
        the puzzle, the column families and how each row maps back to placements."""
        model, data = self.apply(puzzle)
        return model.to_text(export_comments(puzzle, model, data), _row_notes(puzzle, data))


def export_comments(puzzle: Grid, model: ExactCoverMatrix, data: SudokuCover) -> list[str]:
    """The comment lines that head the exported matrix."""
    full = data.full
    rules = puzzle.rules
    name = rules.cell_name
    given = ", ".join(f"{name(cell)}={digit}" for cell, digit in enumerate(puzzle.values) if digit)
    comments = [
        "sudoku-bench exact cover (Knuth's DLX format: column line, then one row per line)",
        *puzzle_header(puzzle),
        f"before givens: {len(full.columns)} columns, {len(full.rows)} rows, {full.ones} ones",
        f"after givens: {len(model.columns)} columns, {len(model.rows)} rows, {model.ones} ones",
        f"givens selected up front ({len(data.given_rows)}): {given or 'none'}",
        "columns: rRcC cell filled; rR#D row R has digit D; cC#D column C; bB#D region B; "
        "xK#D extra unit K (secondary when it has fewer than N cells); kJ#D cage J; "
        "kJ cage J's digit set chosen; pI#D pair I not both D; vI#K pair I not K and K+1; "
        "tJ a row of table J chosen; eJ a filling of equation J chosen; @rRcC the digit of "
        "cell rRcC as a colour (secondary, coloured: Knuth's exact cover with colours)",
        "rows: a row with no comment before it places digit D in cell rRcC, its first column, "
        "D read from its second (rR#D); '| places' before a row lists what it places; "
        "'| cage' before a row names the digit set it chooses and places nothing",
    ]
    sudoku = data.cover.sudoku if data.cover is not None else sudoku_matrix(rules)
    extras = extra_units(rules)
    if extras:
        comments.append(
            "extra units: "
            + " ".join(
                f"x{k + 1}=" + "+".join(name(c) for c in unit) for k, unit in enumerate(extras)
            )
        )
    if sudoku.sums:
        comments.append(
            "cages: "
            + " ".join(
                f"k{j + 1}="
                + "+".join(name(c) for c in cage.summed)
                + ("" if cage.target is None else f"={cage.target}")
                for j, cage in enumerate(sudoku.sums)
            )
        )
    for label, pairs in _pair_listings(rules):
        if pairs:
            comments.append(
                f"{label} pairs: "
                + " ".join(f"{label}{i + 1}={name(a)}~{name(b)}" for i, (a, b) in enumerate(pairs))
            )
    if data.clashes:
        comments.append(f"givens clash on {', '.join(data.clashes)}: no exact cover exists")
    long = [column for column in model.columns if len(column) > KNUTH_NAME_LENGTH]
    if long:
        comments.append(
            f"warning: {len(long)} column names (e.g. {long[0]}) are longer than Knuth's "
            f"DLX1 reads ({KNUTH_NAME_LENGTH} characters)"
        )
    return comments


def _pair_listings(rules: Rules) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """The numbered pairs of the `p` (must differ) and `v` (non-consecutive) columns."""
    groups = grouped(ENCODERS, rules.constraints, "exact-cover")
    different: tuple[tuple[int, int], ...] = ()
    ladder: tuple[tuple[int, int], ...] = ()
    for encoder, group in groups:
        if isinstance(encoder, _Different):
            different = different_pairs(rules, _pair_group(group), unit_mates(rules))
        elif isinstance(encoder, _NonConsecutive):
            ladder = tuple(pair for _, pair in relation_pairs(rules, _pair_group(group)))
    return [("p", different), ("v", ladder)]


def _row_notes(puzzle: Grid, data: SudokuCover) -> dict[int, str]:
    """The comment before each row that is not a single placement."""
    assert data.cover is not None
    name = puzzle.rules.cell_name
    sets = data.cover.sudoku.digit_sets
    fixes = data.cover.sudoku.fixes
    notes = {}
    for row, full_row in enumerate(data.kept):
        option = data.options[row]
        if full_row in fixes:
            fixed = " ".join(f"{name(cell)}={d}" for cell, d in fixes[full_row])
            notes[row] = f"fixes {fixed or 'nothing'} (colours only; places nothing)"
        elif full_row in sets:
            cage, digits = sets[full_row]
            notes[row] = f"cage k{cage + 1} digits {''.join(map(str, sorted(digits)))}"
        elif len(option) != 1:
            notes[row] = "places " + " ".join(f"{name(cell)}={d}" for cell, d in option)
    return notes


# ----- the classic numbering, and shared instances --------------------------------------------


def placement_row(rules: Rules, cell: int, digit: int) -> int:
    """The row of the full matrix for `digit` in `cell` (for classic rules the thesis's
    order, 0-based: cell·N + digit - 1)."""
    row = sudoku_matrix(rules).placement_rows.get((cell, digit))
    if row is None:
        raise ValueError(f"no row places {digit} in {rules.cell_name(cell)} under these rules")
    return row


def full_matrix(rules: Rules) -> ExactCoverMatrix:
    """The matrix of the empty grid: N³ rows and (4 + extra units / N)·N² columns for classic
    rules; see the module's docstring for the variants."""
    return sudoku_matrix(rules).matrix


def rows_meeting(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """For each column of the full matrix, the rows that have a 1 in it."""
    return sudoku_matrix(rules).rows_meeting


REDUCTION = SudokuExactCover()


# ----- the `reduce --to exact-cover` target (kept as functions for callers) -------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    """The matrix's size before and after the givens select their rows."""
    return REDUCTION.describe(puzzle)


def export(puzzle: Grid) -> str:
    """The matrix after givens in Knuth's DLX format, with the puzzle and sizes as comments."""
    return REDUCTION.export(puzzle)
