"""`Rules`: what a solution must satisfy. Every other part asks the rules, never assumes them.

The rules of a puzzle are its side N, its regions (boxes of a box shape, or any partition of
the cells into N regions of N cells: jigsaw), extra units (Sudoku-X diagonals, windoku and
other extra regions: cells that hold distinct digits), pair rules (anti-knight, anti-king:
cells a knight's or king's move apart differ; non-consecutive: orthogonal neighbours differ
by more than 1), parity (cells that must be odd or even) and killer cages (distinct digits,
with an optional sum). Nothing else hard-codes 9, 3 or 81, or assumes that boxes are the
only regions. Cells are numbered 0..N²-1 in row-major order.

Structure derived from the rules (units, peers, pairs, allowed digits) is computed once per
`Rules` object and cached on it; `Rules.of_size` shares one object per classic size.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache, cached_property, lru_cache
from typing import Any

from puzzles.constraints import (
    KING_MOVES,
    KNIGHT_MOVES,
    ORTHOGONAL_MOVES,
    AntiKing,
    AntiKnight,
    Cage,
    Constraint,
    Diagonal,
    ExtraRegion,
    NonConsecutive,
    Parity,
    move_pairs,
)
from puzzles.errors import RulesError

__all__ = ["ALL_KINDS", "CLASSIC", "COMMON_SIZES", "MAX_SIZE", "Cage", "RuleKind", "Rules"]


def default_box_shape(size: int) -> tuple[int, int]:
    """The most nearly square rows x cols box with rows <= cols (6 -> 2x3, 12 -> 3x4)."""
    if size < 4:  # also keeps 0 and negative sizes away from isqrt and max below
        raise RulesError(f"size {size} is too small: the smallest Sudoku is 4x4")
    _check_not_too_large(size)  # the search below takes isqrt(size) steps
    rows = max(d for d in range(1, math.isqrt(size) + 1) if size % d == 0)
    if rows == 1:
        raise RulesError(
            f"a {size}x{size} grid has no box shape (a box needs rows x cols = {size}, both > 1)"
        )
    return rows, size // rows


# The largest side accepted: a 64x64 grid has 4,096 cells and its exact-cover matrix 262,144
# rows (about 300 MB in `dlx`); the back-ends fill an empty 36x36 (propagating) or 49x49
# (dlx) in seconds to minutes and time out beyond. Past it, an empty 1024x1024 ran out of
# memory while building the tables, and `--geometry 10**30` factored for hours.
MAX_SIZE = 64


def _check_not_too_large(size: int) -> None:
    if size > MAX_SIZE:
        raise RulesError(
            f"size {size} is too large: sudoku-bench goes up to {MAX_SIZE}x{MAX_SIZE} "
            f"({MAX_SIZE * MAX_SIZE:,} cells; see 'Sizes' in docs/howto/puzzles.md)"
        )


class RuleKind(StrEnum):
    """The kinds of rule beyond classic Sudoku; a back-end declares the kinds it can express.

    Rows, columns and boxes (any box shape, any size) are every back-end's; so are the two
    diagonals of Sudoku-X, which are extra units of N cells.
    """

    REGIONS = "irregular regions"  # jigsaw: regions that are not the boxes of a box shape
    EXTRA_UNITS = "extra units"  # diagonals, windoku, any cells that hold distinct digits
    DISTINCT_PAIRS = "anti-knight/anti-king"  # two cells that must differ, in no common unit
    NONCONSECUTIVE = "non-consecutive"  # orthogonal neighbours differ by more than 1
    PARITY = "odd/even"  # cells that must hold an odd or an even digit
    CAGES = "killer cages"  # distinct digits, with an optional sum


CLASSIC: frozenset[RuleKind] = frozenset()
ALL_KINDS: frozenset[RuleKind] = frozenset(RuleKind)

@dataclass(frozen=True)
class Rules:
    """The rules of an N x N Sudoku. The defaults are classic Sudoku with boxes of
    `box_rows` x `box_cols`; every other field adds a variant rule.

    `layout` gives each cell's region (row-major, 0..N-1) for jigsaw rules; None means the
    boxes. `box_rows` and `box_cols` are then kept only to draw a familiar frame.
    """

    size: int
    box_rows: int
    box_cols: int
    diagonals: bool = False
    layout: tuple[int, ...] | None = None
    extra_regions: tuple[tuple[int, ...], ...] = ()
    anti_knight: bool = False
    anti_king: bool = False
    non_consecutive: bool = False
    odd: frozenset[int] = field(default_factory=frozenset)
    even: frozenset[int] = field(default_factory=frozenset)
    cages: tuple[Cage, ...] = ()

    def __post_init__(self) -> None:
        if self.size < 4:
            raise RulesError(f"size {self.size} is too small: the smallest Sudoku is 4x4")
        _check_not_too_large(self.size)
        if self.box_rows * self.box_cols != self.size or min(self.box_rows, self.box_cols) < 2:
            raise RulesError(
                f"boxes of {self.box_rows}x{self.box_cols} do not tile a "
                f"{self.size}x{self.size} grid (rows x cols must equal {self.size}, both > 1)"
            )
        if self.layout is not None:
            self._check_layout(self.layout)
            if self.layout == _box_layout(self.size, self.box_rows, self.box_cols):
                object.__setattr__(self, "layout", None)  # the boxes: one form for one rule
        for name, cells in (("odd", self.odd), ("even", self.even)):
            self._check_cells(cells, f"the {name} cells")
        if self.odd & self.even:
            both = ", ".join(self.cell_name(c) for c in sorted(self.odd & self.even))
            raise RulesError(f"{both}: a cell cannot be both odd and even")
        for number, region in enumerate(self.extra_regions, 1):
            self._check_group(region, f"extra region {number}")
        for cage in self.cages:
            self._check_cage(cage)

    # ----- building -------------------------------------------------------------------------

    @staticmethod
    @cache
    def of_size(size: int, *, diagonals: bool = False) -> Rules:
        """The usual rules of side `size` (shared instance, so its tables are built once)."""
        rows, cols = default_box_shape(size)
        return Rules(size, rows, cols, diagonals)

    @staticmethod
    def for_cell_count(count: int, *, diagonals: bool = False) -> Rules:
        """The classic rules whose grid has `count` cells (81 -> 9x9), or a RulesError."""
        size = math.isqrt(count)
        if size * size != count:
            raise RulesError(f"{count} cells is not a square grid (81 for 9x9, 16 for 4x4, ...)")
        return Rules.of_size(size, diagonals=diagonals)

    @staticmethod
    @lru_cache(maxsize=64)  # a worker reads the same rules for every task of a file
    def parse(text: str) -> Rules:
        """Read rules: a classic name (`9`, `9x9`, `6x6:3x2` with its box shape, `9x9-x` for
        Sudoku-X) or the JSON form of any rules (`{"size": 9, "anti_knight": true}`)."""
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as error:
                raise RulesError(f"rules are not valid JSON: {error}") from None
            return Rules.from_json(data)
        spec = text.strip().lower()
        diagonals = spec.endswith("-x")
        spec = spec.removesuffix("-x")
        side, _, box = spec.partition(":")
        try:
            sides = [int(part) for part in side.split("x")]
            size = sides[0]
            if len(sides) > 2:
                raise ValueError(side)
            if len(set(sides)) > 1:  # `9x8` was read as 9x9
                raise RulesError(f"a Sudoku grid is square: {text.strip()!r} is not")
            if box:
                rows, cols = (int(part) for part in box.split("x"))
                return Rules(size, rows, cols, diagonals)
        except ValueError:
            raise RulesError(
                f"cannot read geometry {text!r}: expected e.g. 9, 9x9, 6x6:2x3 or 9x9-x"
            ) from None
        return Rules.of_size(size, diagonals=diagonals)

    def with_rules(self, **changes: Any) -> Rules:
        """A copy with some rules changed, e.g. `rules.with_rules(anti_knight=True)`."""
        return replace(self, **changes)

    # ----- names and the JSON form ----------------------------------------------------------

    @cached_property  # asked on every solve (`Solver.accepts`) and every check
    def kinds(self) -> frozenset[RuleKind]:
        """The kinds of rule beyond classic Sudoku that these rules use."""
        kinds = set()
        if self.layout is not None:
            kinds.add(RuleKind.REGIONS)
        if self.extra_regions:
            kinds.add(RuleKind.EXTRA_UNITS)
        if self.anti_knight or self.anti_king:
            kinds.add(RuleKind.DISTINCT_PAIRS)
        if self.non_consecutive:
            kinds.add(RuleKind.NONCONSECUTIVE)
        if self.odd or self.even:
            kinds.add(RuleKind.PARITY)
        if self.cages:
            kinds.add(RuleKind.CAGES)
        return frozenset(kinds)

    @cached_property
    def constraints(self) -> tuple[Constraint, ...]:
        """The rules beyond the shape as constraint values (`puzzles.constraints`), in a
        fixed order: diagonals, extra regions, anti-knight, anti-king, non-consecutive,
        parity, cages. Models encode these through their encoder tables."""
        found: list[Constraint] = []
        if self.diagonals:
            found += [Diagonal(anti=False), Diagonal(anti=True)]
        found += [ExtraRegion(region) for region in self.extra_regions]
        if self.anti_knight:
            found.append(AntiKnight())
        if self.anti_king:
            found.append(AntiKing())
        if self.non_consecutive:
            found.append(NonConsecutive())
        if self.odd or self.even:
            found.append(Parity(self.odd, self.even))
        found += self.cages
        return tuple(found)

    @property
    def is_classic(self) -> bool:
        """Boxes of a box shape, maybe the diagonals, nothing else: what a name says whole."""
        return not self.kinds

    @property
    def shape_name(self) -> str:
        """`9x9`, `6x6`, `9x9-x`; the box shape is added where it is not the usual one."""
        base = f"{self.size}x{self.size}"
        if (self.box_rows, self.box_cols) != default_box_shape(self.size):
            base += f":{self.box_rows}x{self.box_cols}"
        return base + ("-x" if self.diagonals else "")

    @property
    def name(self) -> str:
        """A short name for people: `9x9`, `9x9-x`, `9x9 jigsaw anti-knight`, `9x9 killer`."""
        words = [self.shape_name if self.layout is None else self.shape_name.split(":")[0]]
        words += [
            word
            for word, present in (
                ("jigsaw", self.layout is not None),
                ("extra-regions", bool(self.extra_regions)),
                ("anti-knight", self.anti_knight),
                ("anti-king", self.anti_king),
                ("non-consecutive", self.non_consecutive),
                ("odd-even", bool(self.odd or self.even)),
                ("killer", bool(self.cages)),
            )
            if present
        ]
        return " ".join(words)

    @cached_property  # asked for every task of a run
    def spec(self) -> str:
        """What `Rules.parse` reads back to these rules: the name of classic rules, else the
        canonical JSON. Stores and `--json` output identify a puzzle's rules by it."""
        return self.shape_name if self.is_classic else self.canonical_json()

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> dict[str, Any]:
        """The JSON form: only what differs from classic rules of this size is written.

        Cells are named `r1c1` (row and column from 1); `regions` is N rows of N region
        numbers (from 1), a picture of the jigsaw. A new dict each call; the lists in it are
        shared by every call: copy one before changing it.
        """
        return dict(self._json_form)

    @cached_property  # written into every `--json` record of `solve` and `count`
    def _json_form(self) -> dict[str, Any]:
        data: dict[str, Any] = {"size": self.size}
        if (self.box_rows, self.box_cols) != default_box_shape(self.size):
            data["box"] = f"{self.box_rows}x{self.box_cols}"
        if self.diagonals:
            data["diagonals"] = True
        if self.layout is not None:
            n = self.size
            data["regions"] = [[r + 1 for r in self.layout[i * n : (i + 1) * n]] for i in range(n)]
        if self.extra_regions:
            data["extra_regions"] = [self._names(region) for region in self.extra_regions]
        for flag in ("anti_knight", "anti_king", "non_consecutive"):
            if getattr(self, flag):
                data[flag] = True
        if self.odd:
            data["odd"] = self._names(sorted(self.odd))
        if self.even:
            data["even"] = self._names(sorted(self.even))
        if self.cages:
            data["cages"] = [
                {
                    "cells": self._names(cage.cells),
                    **({} if cage.total is None else {"sum": cage.total}),
                }
                for cage in self.cages
            ]
        return data

    def canonical_json(self) -> str:
        """The JSON form with sorted keys and no spaces: equal rules give equal text."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @property
    def fingerprint(self) -> str:
        """A short hash of the canonical JSON (12 hex digits): the rules' identity."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()[:12]

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Rules:
        """Rules from their JSON form (`to_json`); an error names the key that is wrong."""
        if not isinstance(data, Mapping):
            raise RulesError('rules in JSON are an object, e.g. {"size": 9, "anti_knight": true}')
        known = {"size", "box", "diagonals", "regions", "extra_regions", "anti_knight",
                 "anti_king", "non_consecutive", "odd", "even", "cages"}  # fmt: skip
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                f"unknown rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}"
            )
        size = data.get("size")
        if not isinstance(size, int) or isinstance(size, bool):
            raise RulesError('rules need "size", a whole number such as 9')
        base = Rules.parse(f"{size}:{data['box']}") if "box" in data else Rules.of_size(size)
        names = _CellNames(size)
        changes: dict[str, Any] = {}
        for flag in ("diagonals", "anti_knight", "anti_king", "non_consecutive"):
            if flag in data:
                if not isinstance(data[flag], bool):
                    raise RulesError(f'"{flag}" is true or false, not {data[flag]!r}')
                changes[flag] = data[flag]
        if "regions" in data:
            changes["layout"] = _layout_from_json(data["regions"], size)
        if "extra_regions" in data:
            changes["extra_regions"] = tuple(
                names.cells(region, f"extra_regions[{i}]")
                for i, region in enumerate(_list(data["extra_regions"], "extra_regions"))
            )
        for parity in ("odd", "even"):
            if parity in data:
                changes[parity] = frozenset(names.cells(data[parity], parity))
        if "cages" in data:
            changes["cages"] = tuple(
                _cage_from_json(cage, names, i)
                for i, cage in enumerate(_list(data["cages"], "cages"))
            )
        return base.with_rules(**changes)

    # ----- cells ----------------------------------------------------------------------------

    @property
    def cell_count(self) -> int:
        return self.size * self.size

    @property
    def cells(self) -> range:
        return range(self.cell_count)

    @property
    def digits(self) -> range:
        return range(1, self.size + 1)

    def cell(self, row: int, col: int) -> int:
        return row * self.size + col

    def row_of(self, cell: int) -> int:
        return cell // self.size

    def col_of(self, cell: int) -> int:
        return cell % self.size

    def region_of(self, cell: int) -> int:
        """The region (box, or jigsaw piece) of a cell, 0..N-1."""
        if self.layout is not None:
            return self.layout[cell]
        row, col = divmod(cell, self.size)
        boxes_per_band = self.size // self.box_cols
        return (row // self.box_rows) * boxes_per_band + col // self.box_cols

    def cell_name(self, cell: int) -> str:
        """`r1c1` notation, 1-based, as human solvers write it."""
        return f"r{self.row_of(cell) + 1}c{self.col_of(cell) + 1}"

    # ----- derived structure (computed once) ------------------------------------------------

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(range(r * n, (r + 1) * n)) for r in range(n))

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(range(c, n * n, n)) for c in range(n))

    @cached_property
    def regions(self) -> tuple[tuple[int, ...], ...]:
        """The N regions of N cells: the boxes, or the jigsaw pieces."""
        members: list[list[int]] = [[] for _ in range(self.size)]
        for cell in self.cells:
            members[self.region_of(cell)].append(cell)
        return tuple(tuple(region) for region in members)

    @cached_property
    def extra_units(self) -> tuple[tuple[int, ...], ...]:
        """Units beyond rows, columns and regions: the diagonals, then the extra regions."""
        units: tuple[tuple[int, ...], ...] = ()
        if self.diagonals:
            n = self.size
            units = (
                tuple(self.cell(i, i) for i in range(n)),
                tuple(self.cell(i, n - 1 - i) for i in range(n)),
            )
        return units + self.extra_regions

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit (rows, columns, regions, extras): cells that hold distinct digits.

        A unit of N cells holds every digit once (a house); an extra region may be smaller.
        Cages are not units: they are in `cages`, with their sums.
        """
        return self.rows + self.columns + self.regions + self.extra_units

    @cached_property
    def houses(self) -> tuple[int, ...]:
        """Indices (into `units`) of the units of N cells, which hold every digit once."""
        return tuple(i for i, unit in enumerate(self.units) if len(unit) == self.size)

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """`row 1`, `column 1`, `box 1` (`region 1` for jigsaw), ..., `diagonal`,
        `anti-diagonal`, `extra region 1` (1-based)."""
        region = "box" if self.layout is None else "region"
        names = [f"{kind} {i + 1}" for kind in ("row", "column", region) for i in range(self.size)]
        names += ["diagonal", "anti-diagonal"] if self.diagonals else []
        names += [f"extra region {i + 1}" for i in range(len(self.extra_regions))]
        return tuple(names)

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into `units`) of the units it belongs to."""
        owners: list[list[int]] = [[] for _ in self.cells]
        for index, unit in enumerate(self.units):
            for cell in unit:
                owners[cell].append(index)
        return tuple(tuple(owner) for owner in owners)

    @cached_property
    def knight_pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs of cells a knight's move apart (a < b), when anti-knight is on."""
        return self._move_pairs(KNIGHT_MOVES) if self.anti_knight else ()

    @cached_property
    def king_pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs of cells a king's move apart (a < b), when anti-king is on."""
        return self._move_pairs(KING_MOVES) if self.anti_king else ()

    @cached_property
    def distinct_pairs(self) -> tuple[tuple[int, int], ...]:
        """The pairs of cells the pair rules make differ and that share no unit (a < b)
        (a king's move inside a box is already a box rule). Cage mates are not listed."""
        pairs = set(self.knight_pairs) | set(self.king_pairs)
        unit_mates = self.unit_peers
        return tuple(sorted((a, b) for a, b in pairs if b not in unit_mates[a]))

    @cached_property
    def nonconsecutive_pairs(self) -> tuple[tuple[int, int], ...]:
        """Orthogonal neighbours (a < b), when non-consecutive is on: their digits differ by more than 1."""
        return self._move_pairs(ORTHOGONAL_MOVES) if self.non_consecutive else ()

    @cached_property
    def allowed(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the digits its parity allows (all digits for most cells)."""
        every = tuple(self.digits)
        odd = tuple(d for d in every if d % 2)
        even = tuple(d for d in every if d % 2 == 0)
        return tuple(
            odd if cell in self.odd else even if cell in self.even else every for cell in self.cells
        )

    @cached_property
    def cages_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into `cages`) of the cages it is in."""
        owners: list[list[int]] = [[] for _ in self.cells]
        for index, cage in enumerate(self.cages):
            for cell in cage.cells:
                owners[cell].append(index)
        return tuple(tuple(owner) for owner in owners)

    @cached_property
    def unit_peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, the other cells that share a unit with it."""
        result = []
        for cell in self.cells:
            others = {peer for u in self.units_of[cell] for peer in self.units[u]}
            others.discard(cell)
            result.append(frozenset(others))
        return tuple(result)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, every other cell that must hold a different digit, sorted: the
        cells of its units, its cages, and its anti-knight / anti-king partners."""
        others = [set(peers) for peers in self.unit_peers]
        for a, b in self.distinct_pairs:
            others[a].add(b)
            others[b].add(a)
        for cage in self.cages:
            for cell in cage.cells:
                others[cell].update(cage.cells)
        for cell in self.cells:
            others[cell].discard(cell)
        return tuple(tuple(sorted(cells)) for cells in others)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, its non-consecutive partners (orthogonal neighbours when the rule
        is on, else none)."""
        others: list[list[int]] = [[] for _ in self.cells]
        for a, b in self.nonconsecutive_pairs:
            others[a].append(b)
            others[b].append(a)
        return tuple(tuple(sorted(cells)) for cells in others)

    # ----- checks of the rules themselves ---------------------------------------------------

    def _move_pairs(self, moves: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        return move_pairs(self, moves)

    def _names(self, cells: Iterable[int]) -> list[str]:
        return [self.cell_name(cell) for cell in cells]

    def _check_layout(self, layout: Sequence[int]) -> None:
        n = self.size
        if len(layout) != n * n or any(not 0 <= r < n for r in layout):
            raise RulesError(f"regions: each of the {n * n} cells needs a region from 1 to {n}")
        sizes = [0] * n
        for region in layout:
            sizes[region] += 1
        wrong = [str(r + 1) for r, count in enumerate(sizes) if count != n]
        if wrong:
            raise RulesError(f"regions: region {wrong[0]} does not have {n} cells")

    def _check_cells(self, cells: Iterable[int], what: str) -> None:
        bad = [cell for cell in cells if not 0 <= cell < self.cell_count]
        if bad:
            raise RulesError(f"{what}: cell {bad[0]} is outside the {self.size}x{self.size} grid")

    def _check_group(self, cells: Sequence[int], what: str) -> None:
        self._check_cells(cells, what)
        if len(set(cells)) != len(cells):
            raise RulesError(f"{what} names a cell twice")
        if not 2 <= len(cells) <= self.size:
            raise RulesError(f"{what} has {len(cells)} cells: a unit has 2 to {self.size}")

    def _check_cage(self, cage: Cage) -> None:
        what = (
            f"cage {'+'.join(self._names(cage.cells[:3]))}{'+...' if len(cage.cells) > 3 else ''}"
        )
        self._check_cells(cage.cells, what)
        if len(set(cage.cells)) != len(cage.cells) or not 1 <= len(cage.cells) <= self.size:
            raise RulesError(f"{what}: a cage has 1 to {self.size} distinct cells")
        if cage.total is not None and not isinstance(cage.total, int):
            raise RulesError(f"{what}: its sum is a whole number, not {cage.total!r}")


@cache
def _box_layout(size: int, box_rows: int, box_cols: int) -> tuple[int, ...]:
    per_band = size // box_cols
    return tuple(
        (cell // size // box_rows) * per_band + (cell % size) // box_cols
        for cell in range(size * size)
    )


class _CellNames:
    """Reads `r1c1` cell names (case-insensitive) of an N x N grid for `Rules.from_json`."""

    def __init__(self, size: int) -> None:
        self.size = size

    def cell(self, name: object, what: str) -> int:
        text = str(name).strip().lower()
        row, _, col = text.removeprefix("r").partition("c")
        if not (text.startswith("r") and row.isdigit() and col.isdigit()):
            raise RulesError(f"{what}: {name!r} is not a cell name such as r1c1")
        r, c = int(row), int(col)
        if not (1 <= r <= self.size and 1 <= c <= self.size):
            raise RulesError(f"{what}: {name} is outside the {self.size}x{self.size} grid")
        return (r - 1) * self.size + c - 1

    def cells(self, names: object, what: str) -> tuple[int, ...]:
        return tuple(self.cell(name, what) for name in _list(names, what))


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RulesError(f'"{what}" is a list, not {type(value).__name__}')
    return value


def _layout_from_json(rows: object, size: int) -> tuple[int, ...]:
    """`regions`: N rows of N region numbers from 1, or N strings of N symbols (1-9, A-P)."""
    layout: list[int] = []
    for row in _list(rows, "regions"):
        values = list(row) if isinstance(row, list | str) else None
        if values is None or len(values) != size:
            raise RulesError(f'"regions" is {size} rows of {size} region numbers')
        for value in values:
            number = int(value, 36) if isinstance(value, str) else value
            if not isinstance(number, int) or not 1 <= number <= size:
                raise RulesError(f'"regions": {value!r} is not a region number from 1 to {size}')
            layout.append(number - 1)
    if len(layout) != size * size:
        raise RulesError(f'"regions" is {size} rows of {size} region numbers')
    return tuple(layout)


def _cage_from_json(data: object, names: _CellNames, index: int) -> Cage:
    what = f"cages[{index}]"
    if not isinstance(data, Mapping) or "cells" not in data:
        raise RulesError(f'{what} is an object with "cells" (and "sum")')
    total = data.get("sum")
    if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
        raise RulesError(f'{what}: "sum" is a whole number, not {total!r}')
    return Cage(names.cells(data["cells"], what), total)


# Sizes people play, with their usual box shapes; `Rules.of_size` accepts any other valid size.
COMMON_SIZES = (4, 6, 8, 9, 12, 16, 25)
