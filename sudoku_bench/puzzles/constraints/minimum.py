"""Minimum: a marked cell's digit is less than each of its orthogonal neighbours' that is
not marked too (`Extremum` is what `maximum` shares).

f-puzzles writes `"minimum": [{"cell": "R1C1"}, ...]`. All of a puzzle's minimum cells make
one rule, as f-puzzles reads them: two marked neighbours are not compared.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    PairConstraint,
    Shape,
    check_cells,
    fpuzzles_cell,
    json_cells,
    read_cells,
)
from sudoku_bench.puzzles.constraints.dots import orthogonal_pairs

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Extremum(PairConstraint):
    """Marked cells, each compared with its unmarked orthogonal neighbours; pairs are
    directed (marked cell first)."""

    cells: frozenset[int] = field(default_factory=frozenset)

    reads_digit_values = True
    than: ClassVar[str] = ""  # "less": how a marked digit stands to its neighbours'
    symbol: ClassVar[str] = ""
    shade: ClassVar[str] = ""
    other: ClassVar[type[Extremum]]  # what d -> N + 1 - d turns the kind into

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        cells = self.cells
        found = []
        for a, b in orthogonal_pairs(shape):
            if a in cells and b not in cells:
                found.append((a, b))
            elif b in cells and a not in cells:
                found.append((b, a))
        return tuple(sorted(found))

    def validate(self, shape: GridShape) -> None:
        check_cells(shape, self.cells, self.title + " cells")

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        text = (
            f"{name(a)} is a {self.title} cell holding {values[a]}, not {self.than} than "
            f"its neighbour {name(b)}'s {values[b]}"
        )
        return Conflict(f"{self.title} {name(a)}", values[a], (a, b), text)

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """Equal neighbours are left out: their row or column names them already."""
        for a, b in self.pairs(rules.shape):
            a_digit, b_digit = values[a], values[b]
            if a_digit and b_digit and a_digit != b_digit and not self.allows(a_digit, b_digit):
                yield self.broken(rules, a, b, values)

    def moved(self, move: Move) -> Constraint:
        """d -> N + 1 - d turns minimum cells into maximum cells and back."""
        kind = self.other if move.reverse else type(self)
        return kind(frozenset(move.cells(self.cells)))

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        cells = frozenset().union(*(item.cells for item in items if isinstance(item, Extremum)))
        return (cls(cells),) if cells else ()

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        cells = sorted(frozenset().union(*(i.cells for i in items if isinstance(i, Extremum))))
        return {cls.json_keys[0]: json_cells(shape, cells)} if cells else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        key = cls.json_keys[0]
        if key not in data:
            return []
        return [cls(frozenset(read_cells(shape, data[key], key)))]

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        key = cls.fpuzzles_keys[0]
        cells = frozenset(reader.cell(entry.get("cell"), key) for entry in reader.entries(key))
        return [cls(cells)] if cells else []

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        cells = sorted(frozenset().union(*(i.cells for i in items if isinstance(i, Extremum))))
        key = cls.fpuzzles_keys[0]
        return {key: [{"cell": fpuzzles_cell(shape, c)} for c in cells]} if cells else {}

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        cells = frozenset().union(*(i.cells for i in items if isinstance(i, Extremum)))
        symbols = tuple(cls.symbol if cell in cells else "." for cell in shape.cells)
        return Drawing(
            f"{cls.title} cells ({cls.symbol}: {cls.than} than each unmarked neighbour):", symbols
        )

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        """The cell shaded, with a small chevron at each edge (pointing in for a minimum,
        out for a maximum)."""
        cells = sorted(frozenset().union(*(i.cells for i in items if isinstance(i, Extremum))))
        unit = canvas.unit
        inward = cls.than == "less"
        parts = []
        for cell in cells:
            x, y = canvas.corner(*divmod(cell, shape.size))
            cx, cy = x + unit / 2, y + unit / 2
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{unit:.1f}" height="{unit:.1f}" '
                f'fill="{cls.shade}" class="{cls.kind}"/>'
            )
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                tip = 0.32 if inward else 0.46
                base = 0.46 if inward else 0.32
                px, py = cx + dx * unit * tip, cy + dy * unit * tip
                qx, qy = cx + dx * unit * base, cy + dy * unit * base
                wx, wy = -dy * unit * 0.08, dx * unit * 0.08
                parts.append(
                    f'<polyline points="{qx + wx:.1f},{qy + wy:.1f} {px:.1f},{py:.1f} '
                    f'{qx - wx:.1f},{qy - wy:.1f}" fill="none" stroke="#555" '
                    f'stroke-width="1" class="{cls.kind}"/>'
                )
        return parts

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """Each cell that stands so to all its neighbours (two such cells are never
        neighbours, so any of them together keep their meaning)."""
        probe = cls(frozenset())
        neighbours: dict[int, list[int]] = {cell: [] for cell in shape.cells}
        for a, b in orthogonal_pairs(shape):
            neighbours[a].append(b)
            neighbours[b].append(a)
        found: list[Constraint] = [
            cls(frozenset({cell}))
            for cell in shape.cells
            if all(probe.allows(solution[cell], solution[other]) for other in neighbours[cell])
        ]
        rng.shuffle(found)
        return found


@dataclass(frozen=True)
class Minimum(Extremum):
    kind = "minimum"
    title = "minimum"
    word = "minimum"
    json_keys = ("minimum",)
    fpuzzles_keys = ("minimum",)
    than = "less"
    symbol = "v"
    shade = "#dfe8f5"

    def allows(self, first: int, second: int) -> bool:
        return first < second
