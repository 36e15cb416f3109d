"""`Rules`: what a solution must satisfy. Every other part asks the rules, never assumes them.

The rules of a puzzle are a shape (`sudoku_bench.puzzles.shape.GridShape`: side N, the regions, the unit
families rows, columns and regions) plus a tuple of constraints (`sudoku_bench.puzzles.constraints`: one
value of one kind each: the Sudoku-X diagonals, extra regions, anti-knight, anti-king,
non-consecutive, parity, killer cages, ...). The constraints are the source of truth; the
fields of earlier versions (`diagonals`, `anti_knight`, `cages`, ...) are views of them and
their constructors still build rules. Nothing else hard-codes 9, 3 or 81, or assumes that
boxes are the only regions. Cells are numbered 0..N²-1 in row-major order.

Structure derived from the shape is built once per shape and shared (`GridShape.of`);
structure derived from the constraints (peers, pairs, allowed digits) is computed once per
`Rules` object and cached on it; `Rules.of_size` shares one object per classic size.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError
from functools import cache, cached_property, lru_cache
from typing import Any

from sudoku_bench.puzzles.constraints import (
    KINDS,
    KING_MOVES,
    KNIGHT_MOVES,
    ORTHOGONAL_MOVES,
    AntiKing,
    AntiKnight,
    Cage,
    Constraint,
    Diagonal,
    DistinctPairs,
    ExtraRegion,
    NonConsecutive,
    Parity,
    UnitConstraint,
    move_pairs,
)
from sudoku_bench.puzzles.constraints.base import json_list
from sudoku_bench.puzzles.errors import RulesError
from sudoku_bench.puzzles.shape import MAX_SIZE, GridShape, default_box_shape, usual_box_shape

__all__ = [
    "COMMON_SIZES",
    "MAX_SIZE",
    "Cage",
    "GridShape",
    "Rules",
    "default_box_shape",
]


# The kinds that the fields of earlier versions stand for, in the order `Rules.constraints`
# lists them; kinds added since come after, in the order `sudoku_bench.puzzles.constraints` imports them.
LEGACY_KINDS: tuple[type[Constraint], ...] = (
    Diagonal, ExtraRegion, AntiKnight, AntiKing, NonConsecutive, Parity, Cage,
)  # fmt: skip


def kind_rank(kind: type[Constraint]) -> int:
    """Where a kind's constraints stand in `Rules.constraints`: a kind that is not registered
    (no `kind` name, as one made for a test) comes last."""
    if kind in LEGACY_KINDS:
        return LEGACY_KINDS.index(kind)
    registered = list(KINDS.values())
    return len(LEGACY_KINDS) + (registered.index(kind) if kind in registered else len(registered))


def all_kinds() -> list[type[Constraint]]:
    """Every kind, in `Rules.constraints` order (what JSON and f-puzzles readers ask)."""
    return sorted(KINDS.values(), key=kind_rank)


# Keys of the JSON form that the shape writes; every other key is a kind's (`json_keys`).
SHAPE_JSON_KEYS = ("size", "box", "regions")


class Rules:
    """The rules of an N x N Sudoku: a shape plus constraints.

    `Rules(size, box_rows, box_cols, diagonals, layout, extra_regions, anti_knight,
    anti_king, non_consecutive, odd, even, cages, constraints=...)` builds them from the
    fields of earlier versions (each adds its constraints); `Rules.from_constraints(shape,
    constraints)` from a shape and constraint values. The defaults are classic Sudoku with
    boxes of `box_rows` x `box_cols`. `layout` gives each cell's region (row-major, 0..N-1)
    for jigsaw rules; None means the boxes (`box_rows` and `box_cols` then only draw a frame).
    Rules are immutable values: equal shape and equal constraints make equal rules.
    """

    shape: GridShape
    constraints: tuple[Constraint, ...]
    size: int
    box_rows: int
    box_cols: int
    layout: tuple[int, ...] | None
    diagonals: bool
    extra_regions: tuple[tuple[int, ...], ...]
    anti_knight: bool
    anti_king: bool
    non_consecutive: bool
    odd: frozenset[int]
    even: frozenset[int]
    cages: tuple[Cage, ...]
    _hash: int

    def __init__(
        self,
        size: int,
        box_rows: int,
        box_cols: int,
        diagonals: bool = False,
        layout: Sequence[int] | None = None,
        extra_regions: Iterable[Iterable[int]] = (),
        anti_knight: bool = False,
        anti_king: bool = False,
        non_consecutive: bool = False,
        odd: Iterable[int] = frozenset(),
        even: Iterable[int] = frozenset(),
        cages: Iterable[Cage] = (),
        *,
        constraints: Iterable[Constraint] = (),
    ) -> None:
        shape = GridShape.of(size, box_rows, box_cols, None if layout is None else tuple(layout))
        found: list[Constraint] = list(Diagonal.pair()) if diagonals else []
        found += [ExtraRegion(tuple(region)) for region in extra_regions]
        found += [AntiKnight()] if anti_knight else []
        found += [AntiKing()] if anti_king else []
        found += [NonConsecutive()] if non_consecutive else []
        odd, even = frozenset(odd), frozenset(even)
        found += [Parity(odd, even)] if odd or even else []
        found += cages
        self._set(shape, (*found, *constraints))

    @staticmethod
    def from_constraints(shape: GridShape, constraints: Iterable[Constraint] = ()) -> Rules:
        """The rules of `shape` (`GridShape.of_size(9)`, ...) with these constraints."""
        rules = Rules.__new__(Rules)
        rules._set(shape, tuple(constraints))
        return rules

    def _set(self, shape: GridShape, constraints: tuple[Constraint, ...]) -> None:
        by_kind: dict[type[Constraint], list[Constraint]] = {}
        for constraint in constraints:
            if not isinstance(constraint, Constraint):
                raise RulesError(f"{constraint!r} is not a constraint (puzzles.constraints)")
            by_kind.setdefault(type(constraint), []).append(constraint)
        normal: list[Constraint] = []
        for kind in sorted(by_kind, key=kind_rank):
            normal += kind.combine(by_kind[kind])
        if sum(isinstance(c, Diagonal) for c in normal) == 1:
            raise RulesError(
                "one diagonal alone is an extra region (ExtraRegion.main_diagonal(shape)); "
                "Sudoku-X has both diagonals"
            )
        for constraint in normal:
            constraint.validate(shape)
        # the views of earlier versions' fields, set once: solvers read them in inner loops
        parity = next((c for c in normal if isinstance(c, Parity)), Parity())
        view = object.__setattr__
        view(self, "shape", shape)
        view(self, "constraints", tuple(normal))
        view(self, "size", shape.size)
        view(self, "box_rows", shape.box_rows)
        view(self, "box_cols", shape.box_cols)
        view(self, "layout", shape.layout)
        view(self, "diagonals", any(isinstance(c, Diagonal) for c in normal))
        regions = tuple(c.members for c in normal if isinstance(c, ExtraRegion))
        view(self, "extra_regions", regions)
        view(self, "anti_knight", any(isinstance(c, AntiKnight) for c in normal))
        view(self, "anti_king", any(isinstance(c, AntiKing) for c in normal))
        view(self, "non_consecutive", any(isinstance(c, NonConsecutive) for c in normal))
        view(self, "odd", parity.odd)
        view(self, "even", parity.even)
        view(self, "cages", tuple(c for c in normal if isinstance(c, Cage)))
        view(self, "_hash", hash((shape, self.constraints)))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: Rules are immutable")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: Rules are immutable")

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Rules):
            return NotImplemented
        return self._hash == other._hash and (self.shape, self.constraints) == (
            other.shape,
            other.constraints,
        )

    def __hash__(self) -> int:
        return self._hash

    def __getstate__(self) -> tuple[GridShape, tuple[Constraint, ...]]:
        return self.shape, self.constraints  # the derived tables are rebuilt where needed

    def __setstate__(self, state: tuple[GridShape, tuple[Constraint, ...]]) -> None:
        shape, constraints = state
        self._set(
            GridShape.of(shape.size, shape.box_rows, shape.box_cols, shape.layout), constraints
        )

    def __repr__(self) -> str:
        return f"Rules.from_constraints({self.shape!r}, {self.constraints!r})"

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
        """A copy with some rules changed, e.g. `rules.with_rules(anti_knight=True)`; the
        fields of earlier versions, and `constraints`: the constraints of the kinds that
        have no field (those kept when it is not given)."""
        fields: dict[str, Any] = {
            "size": self.size, "box_rows": self.box_rows, "box_cols": self.box_cols,
            "diagonals": self.diagonals, "layout": self.layout,
            "extra_regions": self.extra_regions, "anti_knight": self.anti_knight,
            "anti_king": self.anti_king, "non_consecutive": self.non_consecutive,
            "odd": self.odd, "even": self.even, "cages": self.cages,
            "constraints": [c for c in self.constraints if type(c) not in LEGACY_KINDS],
        }  # fmt: skip
        unknown = sorted(set(changes) - set(fields))
        if unknown:
            raise TypeError(
                f"Rules has no field {unknown[0]!r}: the fields are {', '.join(fields)}"
            )
        fields.update(changes)
        return Rules(**fields)

    def with_constraints(self, *constraints: Constraint) -> Rules:
        """A copy with these constraints added."""
        return Rules.from_constraints(self.shape, (*self.constraints, *constraints))

    def by_kind(self) -> list[tuple[type[Constraint], tuple[Constraint, ...]]]:
        """The constraints grouped by kind, kinds in `constraints` order."""
        groups: dict[type[Constraint], list[Constraint]] = {}
        for constraint in self.constraints:
            groups.setdefault(type(constraint), []).append(constraint)
        return [(kind, tuple(items)) for kind, items in groups.items()]

    # ----- names and the JSON form ----------------------------------------------------------


    @cached_property
    def is_classic(self) -> bool:
        """Boxes of a box shape, maybe the diagonals, nothing else: what a name says whole."""
        return self.layout is None and all(isinstance(c, Diagonal) for c in self.constraints)

    @property
    def shape_name(self) -> str:
        """`9x9`, `6x6`, `9x9-x`; the box shape is added where it is not the usual one."""
        base = f"{self.size}x{self.size}"
        if not self.shape.no_boxes and (self.box_rows, self.box_cols) != usual_box_shape(self.size):
            base += f":{self.box_rows}x{self.box_cols}"
        return base + ("-x" if self.diagonals else "")

    @property
    def name(self) -> str:
        """A short name for people: `9x9`, `9x9-x`, `9x9 jigsaw anti-knight`, `9x9 killer`."""
        words = [self.shape_name if self.layout is None else self.shape_name.split(":")[0]]
        words += ["jigsaw"] if self.layout is not None else []
        words += [kind.word for kind, _ in self.by_kind() if kind.word]
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
        numbers (from 1), a picture of the jigsaw. Each kind writes its own keys
        (`Constraint.to_json`). A new dict each call; the lists in it are shared by every
        call: copy one before changing it.
        """
        return dict(self._json_form)

    @cached_property  # written into every `--json` record of `solve` and `count`
    def _json_form(self) -> dict[str, Any]:
        parts: dict[str, Any] = {}
        for kind, items in self.by_kind():
            parts.update(kind.to_json(items, self.shape))
        data: dict[str, Any] = {"size": self.size}
        if not self.shape.no_boxes and (self.box_rows, self.box_cols) != usual_box_shape(self.size):
            data["box"] = f"{self.box_rows}x{self.box_cols}"
        if "diagonals" in parts:  # the key order of earlier versions' files
            data["diagonals"] = parts.pop("diagonals")
        if self.layout is not None:
            n = self.size
            data["regions"] = [[r + 1 for r in self.layout[i * n : (i + 1) * n]] for i in range(n)]
        data.update(parts)
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
        kinds = all_kinds()
        known = {*SHAPE_JSON_KEYS, *(key for kind in kinds for key in kind.json_keys)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                f"unknown rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}"
            )
        size = data.get("size")
        if not isinstance(size, int) or isinstance(size, bool):
            raise RulesError('rules need "size", a whole number such as 9')
        if "regions" in data and "box" not in data:  # a jigsaw; 7x7 has no boxes to draw
            shape = GridShape.jigsaw(size, _layout_from_json(data["regions"], size))
        else:
            base = Rules.parse(f"{size}:{data['box']}") if "box" in data else Rules.of_size(size)
            shape = base.shape
            if "regions" in data:
                shape = shape.with_layout(_layout_from_json(data["regions"], size))
        constraints = [c for kind in kinds for c in kind.from_json(data, shape)]
        return Rules.from_constraints(shape, constraints)

    # ----- cells (the shape's) ----------------------------------------------------------------

    @property
    def cell_count(self) -> int:
        return self.size * self.size

    @property
    def cells(self) -> range:
        return range(self.size * self.size)

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
        return self.shape.region_layout[cell]

    def cell_name(self, cell: int) -> str:
        """`r1c1` notation, 1-based, as human solvers write it."""
        return f"r{cell // self.size + 1}c{cell % self.size + 1}"

    # ----- derived structure (computed once) ------------------------------------------------

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        return self.shape.rows

    @property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        return self.shape.columns

    @property
    def regions(self) -> tuple[tuple[int, ...], ...]:
        """The N regions of N cells: the boxes, or the jigsaw pieces."""
        return self.shape.regions

    def family(self, name: str) -> tuple[tuple[int, ...], ...]:
        """The units of a family by name: `row`, `column`, `region` (or `box`), `extra`."""
        return self.extra_units if name == "extra" else self.shape.family(name)

    def family_start(self, name: str) -> int:
        """The index (into `units`) of the first unit of a family: the units of family f
        are `units[family_start(f) : family_start(f) + len(family(f))]`."""
        return len(self.shape.units) if name == "extra" else self.shape.family_start(name)

    def family_of(self, unit: int) -> str:
        """The family (`row`, `column`, `region`, `extra`) of a unit index into `units`."""
        return self.shape.family_of(unit)

    @cached_property
    def extra_units(self) -> tuple[tuple[int, ...], ...]:
        """Units beyond rows, columns and regions: those of the unit constraints (the
        diagonals, then the extra regions)."""
        shape = self.shape
        return tuple(
            unit
            for c in self.constraints
            if isinstance(c, UnitConstraint)
            for unit in c.units(shape)
        )

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit (rows, columns, regions, extras): cells that hold distinct digits.

        A unit of N cells holds every digit once (a house); an extra region may be smaller.
        Cages are not units: they are in `cages`, with their sums.
        """
        return self.shape.units + self.extra_units

    @cached_property
    def houses(self) -> tuple[int, ...]:
        """Indices (into `units`) of the units of N cells, which hold every digit once."""
        return tuple(i for i, unit in enumerate(self.units) if len(unit) == self.size)

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """`row 1`, `column 1`, `box 1` (`region 1` for jigsaw), ..., `diagonal`,
        `anti-diagonal`, `extra region 1` (1-based)."""
        names = list(self.shape.unit_names)
        numbers: dict[type[Constraint], int] = {}
        for c in self.constraints:
            if isinstance(c, UnitConstraint):
                if c.numbered:
                    for _ in c.units(self.shape):
                        numbers[type(c)] = numbers.get(type(c), 0) + 1
                        names.append(f"{c.title} {numbers[type(c)]}")
                else:
                    names += c.unit_names(self.shape)
        return tuple(names)

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into `units`) of the units it belongs to."""
        if not self.extra_units:
            return self.shape.units_of
        owners: list[list[int]] = [list(units) for units in self.shape.units_of]
        for index, unit in enumerate(self.extra_units, len(self.shape.units)):
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
        shape = self.shape
        pairs = {
            p for c in self.constraints if isinstance(c, DistinctPairs) for p in c.pairs(shape)
        }
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

    # ----- helpers --------------------------------------------------------------------------

    def _move_pairs(self, moves: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        return move_pairs(self, moves)


def _layout_from_json(rows: object, size: int) -> tuple[int, ...]:
    """`regions`: N rows of N region numbers from 1, or N strings of N symbols (1-9, A-P)."""
    layout: list[int] = []
    for row in json_list(rows, "regions"):
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


# Sizes people play, with their usual box shapes; `Rules.of_size` accepts any other valid size.
COMMON_SIZES = (4, 6, 8, 9, 12, 16, 25)
