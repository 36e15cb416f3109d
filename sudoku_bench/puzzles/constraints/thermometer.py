"""Thermometer: digits strictly increase along the line from its bulb (its first cell).

A branching thermometer is several lines from one bulb, each its own constraint, as
f-puzzles writes it (an entry's `lines` all start at the bulb). Pairs of neighbours on the
line, bulb side first (a directed relation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sudoku_bench.puzzles.constraints.base import Canvas, Checked, Conflict, PairConstraint, Shape
from sudoku_bench.puzzles.constraints.lines import LineRule, Step, circle, polyline

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Thermometer(LineRule, PairConstraint):
    cells: tuple[int, ...]

    kind = "thermometer"
    title = "thermometer"
    word = "thermo"
    json_keys = ("thermometer",)
    fpuzzles_keys = ("thermometer",)
    reads_digit_values = True
    flips_when_reversed = True  # d -> N + 1 - d turns increasing into decreasing
    colour = "#b8b8b8"
    symbol = "thermometers, bulb first"
    strict: ClassVar[bool] = True  # False: a slow thermometer (digits may stay equal)

    def longest(self, shape: GridShape) -> int:
        return shape.size if self.strict else shape.cell_count

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.cells, self.cells[1:], strict=False))

    def allows(self, first: int, second: int) -> bool:
        return first < second

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = self.name(rules)
        order = "increase" if self.strict else "do not decrease"
        text = (
            f"{name}: digits {order} from the bulb, but {rules.cell_name(a)}={values[a]} "
            f"comes before {rules.cell_name(b)}={values[b]}"
        )
        return Conflict(name, values[b], (a, b), text)

    def svg_marks(self, canvas: Canvas) -> list[str]:
        return [
            polyline(canvas, self.cells, self.colour, 0.3),
            circle(canvas, self.cells[0], self.colour, 0.38, self.colour),
        ]

    @classmethod
    def step_ok(cls, solution: Sequence[int], shape: GridShape) -> Step:
        if cls.strict:
            return lambda path, cell: solution[cell] > solution[path[-1]]
        return lambda path, cell: solution[cell] >= solution[path[-1]]
