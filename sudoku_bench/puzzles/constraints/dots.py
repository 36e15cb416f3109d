"""Marks on the edge between two orthogonal neighbours (kropki dots, X and V) and their
negative rules: what the `difference`, `ratio` and `xv` kinds share.

A `Dot` is one mark: two neighbouring cells whose digits stand in the kind's relation with
the mark's value (differ by 1, one twice the other, add up to 10). A `NegativeRule` is the
rule "no other orthogonal pair stands in that relation": its pairs are every orthogonal pair
except the `marked` ones, which f-puzzles takes from the marks beside it (see each kind).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    Named,
    PairConstraint,
    Shape,
    check_cells,
    fpuzzles_cell,
    json_cells,
    json_list,
    move_pairs,
    read_cells,
)
from sudoku_bench.puzzles.constraints.outside import legend_of
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape

ORTHOGONAL = ((0, 1), (1, 0))
Pair = tuple[int, int]


def orthogonal_pairs(shape: Shape) -> tuple[Pair, ...]:
    """Every pair of orthogonal neighbours (a < b), sorted."""
    return move_pairs(shape, ORTHOGONAL)


def _pair(cells: Sequence[int]) -> Pair:
    first, second = cells
    return first, second


def pair_name(shape: Named, pair: Pair) -> str:
    return f"{shape.cell_name(pair[0])}-{shape.cell_name(pair[1])}"


def edge_middle(canvas: Canvas, pair: Pair) -> tuple[float, float]:
    """The middle of the edge two neighbouring cells share, in pixels."""
    (x1, y1), (x2, y2) = canvas.cell_centre(pair[0]), canvas.cell_centre(pair[1])
    return (x1 + x2) / 2, (y1 + y2) / 2


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, order=True)
class Dot(PairConstraint):
    """One mark between the orthogonal neighbours `first` < `second`."""

    first: int
    second: int
    value: int

    reads_digit_values = True
    default_value: ClassVar[int] = 0
    mark: ClassVar[str] = ""  # "white dot": the mark in words
    relation: ClassVar[str] = ""  # "differ by {value}": what the mark says, in words
    fill: ClassVar[str] = "white"  # the SVG circle's fill
    symbol: ClassVar[str] = "o"  # the text picture's mark beside it

    @staticmethod
    @abstractmethod
    def related(value: int, a: int, b: int) -> bool:
        """Whether digits a and b (either way round) stand in the relation with `value`."""

    def pairs(self, shape: Shape) -> tuple[Pair, ...]:
        return ((self.first, self.second),)

    def allows(self, first: int, second: int) -> bool:
        return self.related(self.value, first, second)

    # the mark with its article, in "without a white dot between them"
    a_mark: ClassVar[str] = ""

    @classmethod
    def value_words(cls, value: int) -> str:
        """The value as the relation's words put it ("2", or "1:2" for a ratio)."""
        return str(value)

    def says(self) -> str:
        return self.relation.format(value=self.value_words(self.value))

    def validate(self, shape: GridShape) -> None:
        check_cells(shape, (self.first, self.second), self.mark)
        what = f"{self.mark} {pair_name(shape, (self.first, self.second))}"
        if (self.first, self.second) not in set(orthogonal_pairs(shape)):
            raise RulesError(
                f"{what}: a mark stands between two orthogonal neighbours, the smaller cell first"
            )
        if not _whole(self.value) or not any(
            self.related(self.value, a, b) for a in shape.digits for b in shape.digits if a != b
        ):
            raise RulesError(
                f"{what}: no two digits 1 to {shape.size} {self.says()} (value {self.value!r})"
            )

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = pair_name(rules, (a, b))
        text = (
            f"{name} hold {values[a]} and {values[b]}, but the {self.mark} between them says "
            f"they {self.says()}"
        )
        return Conflict(f"{self.mark} {name}", 0, (a, b), text)

    def moved(self, move: Move) -> Constraint:
        first, second = move.cells((self.first, self.second))
        return type(self)(first, second, self.moved_value(move))

    def moved_value(self, move: Move) -> int:
        """The value after the move's digit relabelling (kinds that survive it say how)."""
        return self.value

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted({item for item in items if isinstance(item, cls)}))

    # ----- the JSON form: {"difference": [{"cells": ["r1c1", "r1c2"], "value": 2}, ...]} -----

    @classmethod
    def json_value(cls, value: int) -> Any:
        return value

    @classmethod
    def read_value(cls, value: Any, what: str) -> int:
        """The mark's value from its JSON or f-puzzles form (absent or empty: the default)."""
        if value is None or value == "":
            return cls.default_value
        if isinstance(value, str) and value.strip().isdigit():
            return int(value)
        if not _whole(value):
            raise RulesError(f"{what}: the value {value!r} is not a whole number")
        return int(value)

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        marks = [
            {
                "cells": json_cells(shape, (dot.first, dot.second)),
                **({} if dot.value == cls.default_value else {"value": cls.json_value(dot.value)}),
            }
            for dot in cls.combine(items)
            if isinstance(dot, Dot)
        ]
        return {cls.json_keys[0]: marks} if marks else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        key = cls.json_keys[0]
        if key not in data:
            return []
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data[key], key)):
            what = f"{key}[{index}]"
            if not isinstance(entry, Mapping) or "cells" not in entry:
                raise RulesError(f'{what} is an object with "cells" (two neighbours)')
            found.append(cls.of(read_cells(shape, entry["cells"], what), entry.get("value"), what))
        return found

    @classmethod
    def of(cls, cells: Sequence[int], value: Any, what: str) -> Dot:
        if len(cells) != 2:
            raise RulesError(f"{what}: a {cls.mark} stands between two cells, not {len(cells)}")
        first, second = sorted(cells)
        return cls(first, second, cls.read_value(value, what))

    # ----- f-puzzles: "difference": [{"cells": ["R1C1", "R1C2"], "value": "2"}] ---------------

    @classmethod
    def fpuzzles_value(cls, value: int) -> str | None:
        """The value as f-puzzles writes it; None: the default, written without a value."""
        return None if value == cls.default_value else str(value)

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        key = cls.fpuzzles_keys[0]
        return [
            cls.of(reader.group(entry, key), entry.get("value"), f"f-puzzles {key}")
            for entry in reader.entries(key)
        ]

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        marks = []
        for dot in cls.combine(items):
            assert isinstance(dot, Dot)
            entry: dict[str, Any] = {
                "cells": [fpuzzles_cell(shape, dot.first), fpuzzles_cell(shape, dot.second)]
            }
            text = cls.fpuzzles_value(dot.value)
            if text is not None:
                entry["value"] = text
            marks.append(entry)
        return {cls.fpuzzles_keys[0]: marks} if marks else {}

    # ----- pictures ---------------------------------------------------------------------------

    @classmethod
    def label(cls, value: int) -> str:
        """The value as the text picture's legend writes it after a mark."""
        return "" if value == cls.default_value else f"={value}"

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        dots = [dot for dot in cls.combine(items) if isinstance(dot, Dot)]
        marked = {cell for dot in dots for cell in (dot.first, dot.second)}
        words = [pair_name(shape, (d.first, d.second)) + cls.label(d.value) for d in dots]
        symbols = tuple(cls.symbol if cell in marked else "." for cell in shape.cells)
        title = f"{cls.title}s ({cls.symbol}: a cell beside one; {cls.relation_default()}):"
        return Drawing(title, symbols, None, legend_of(words))

    @classmethod
    def relation_default(cls) -> str:
        default = cls.value_words(cls.default_value)
        return "they " + cls.relation.format(value=default) + " unless =value"

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        radius = canvas.unit * 0.14
        parts = []
        for dot in cls.combine(items):
            assert isinstance(dot, Dot)
            x, y = edge_middle(canvas, (dot.first, dot.second))
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{cls.fill}" '
                f'stroke="black" stroke-width="1" class="{cls.kind}"/>'
            )
            if dot.value != cls.default_value:
                colour = "white" if cls.fill == "black" else "black"
                parts.append(
                    f'<text x="{x:.1f}" y="{y:.1f}" font-size="{radius * 1.4:.1f}" '
                    f'fill="{colour}" text-anchor="middle" dominant-baseline="central">'
                    f"{escape(str(dot.value))}</text>"
                )
        return parts

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """A mark of the default value on every pair of neighbours that stands in the relation."""
        found: list[Constraint] = [
            cls(a, b, cls.default_value)
            for a, b in orthogonal_pairs(shape)
            if cls.related(cls.default_value, solution[a], solution[b])
        ]
        rng.shuffle(found)
        return found


@dataclass(frozen=True)
class NegativeRule(PairConstraint):
    """No orthogonal pair outside `marked` stands in the dot kind's relation with any of
    `values`: 'every pair of neighbours that could have a mark has it'."""

    values: frozenset[int]
    marked: frozenset[Pair]

    reads_digit_values = True
    dot: ClassVar[type[Dot]]

    def pairs(self, shape: Shape) -> tuple[Pair, ...]:
        marked = self.marked
        return tuple(pair for pair in orthogonal_pairs(shape) if pair not in marked)

    def allows(self, first: int, second: int) -> bool:
        related = self.dot.related
        return not any(related(value, first, second) for value in self.values)

    def words(self) -> str:
        values = " or ".join(self.dot.value_words(value) for value in sorted(self.values))
        return f"no unmarked neighbours {self.dot.relation.format(value=values)}"

    def validate(self, shape: GridShape) -> None:
        pairs = set(orthogonal_pairs(shape))
        for pair in sorted(self.marked):
            check_cells(shape, pair, self.title)
            if pair not in pairs:
                raise RulesError(
                    f"{self.title}: {pair_name(shape, pair)} is not a pair of orthogonal "
                    "neighbours (smaller cell first)"
                )
        if not self.values or not all(_whole(v) and v > 0 for v in self.values):
            raise RulesError(f"{self.title}: its values are whole numbers, at least one")

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """Equal neighbours are left out: their row or column names them already."""
        for a, b in self.pairs(rules.shape):
            a_digit, b_digit = values[a], values[b]
            if a_digit and b_digit and a_digit != b_digit and not self.allows(a_digit, b_digit):
                yield self.broken(rules, a, b, values)

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = pair_name(rules, (a, b))
        text = (
            f"{name} hold {values[a]} and {values[b]} without {self.dot.a_mark} between "
            f"them ({self.title}: {self.words()})"
        )
        return Conflict(self.title, 0, (a, b), text)

    def moved(self, move: Move) -> Constraint:
        marked = frozenset(_pair(move.cells(pair)) for pair in self.marked)
        return type(self)(self.values, marked)

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted(set(items), key=repr))

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        """{"difference_negative": [{"values": [1], "except": [["r1c1", "r1c2"], ...]}]}:
        the exceptions written out, so that the rule reads back whatever marks stand."""
        rules = [
            {
                "values": sorted(rule.values),
                "except": [json_cells(shape, pair) for pair in sorted(rule.marked)],
            }
            for rule in items
            if isinstance(rule, NegativeRule)
        ]
        return {cls.json_keys[0]: rules} if rules else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        """The object form above, or `true`: the default values, and the exceptions the marks
        in `data` make (as f-puzzles reads the rule)."""
        key = cls.json_keys[0]
        if key not in data or data[key] is False:
            return []
        if data[key] is True:
            dots = [d for kind in cls.marking_kinds() for d in kind.from_json(data, shape)]
            return [cls.of(cls.default_values(dots), dots)]
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data[key], key)):
            what = f"{key}[{index}]"
            if not isinstance(entry, Mapping) or "values" not in entry:
                raise RulesError(f'{what} is an object with "values" and "except", or true')
            values = json_list(entry["values"], f"{what} values")
            if not all(_whole(v) for v in values):
                raise RulesError(f"{what}: its values are whole numbers, not {values!r}")
            pairs = []
            for names in json_list(entry.get("except", []), f"{what} except"):
                cells = read_cells(shape, names, f"{what} except")
                if len(cells) != 2:
                    raise RulesError(f"{what}: each exception is a pair of cells")
                pairs.append((min(cells), max(cells)))
            found.append(cls(frozenset(values), frozenset(pairs)))
        return found

    @classmethod
    def marking_kinds(cls) -> tuple[type[Dot], ...]:
        """The kinds whose marks the rule leaves out, as f-puzzles reads it."""
        return (cls.dot,)

    @classmethod
    def default_values(cls, dots: Sequence[Constraint]) -> frozenset[int]:
        return frozenset({cls.dot.default_value})

    @classmethod
    def of(cls, values: frozenset[int], dots: Iterable[Constraint]) -> NegativeRule:
        marked = frozenset((d.first, d.second) for d in dots if isinstance(d, Dot))
        return cls(values, marked)

    def marks(self, solution: Sequence[int]) -> list[Constraint]:
        """The marks (of the rule's own kind) that its exceptions stand for in the full grid
        `solution`: what must stand beside the rule for f-puzzles to read it the same."""
        found: list[Constraint] = []
        for a, b in sorted(self.marked):
            values = [
                v for v in sorted(self.values) if self.dot.related(v, solution[a], solution[b])
            ]
            if values:
                found.append(self.dot(a, b, values[0]))
        return found

    @classmethod
    def fpuzzles_marks(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        return [d for kind in cls.marking_kinds() for d in kind.from_fpuzzles(reader, shape)]

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """The rule with every pair that stands in the relation marked: the generator must
        keep those marks (f-puzzles reads the exceptions from them)."""
        values = cls.default_values(())
        related = cls.dot.related
        marked = frozenset(
            (a, b)
            for a, b in orthogonal_pairs(shape)
            if any(related(value, solution[a], solution[b]) for value in values)
        )
        return [cls(values, marked)]
