"""Between line: the digits on the line lie strictly between the digits of its two ends
(its first and last cells), whichever end is the larger.

A table per middle cell, over (one end, the cell, the other end): every triple with the
middle digit strictly between the ends' (rows exclusive: each is a full filling). A line of
two cells has no middle and states nothing beyond its cells.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Shape,
    Table,
    TableConstraint,
)
from sudoku_bench.puzzles.constraints.lines import (
    LineRule,
    Step,
    circle,
    line_conflict,
    polyline,
)

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@lru_cache(maxsize=32)
def between_rows(size: int) -> tuple[tuple[int, int, int], ...]:
    """(end, middle, other end) with the middle digit strictly between the ends'."""
    return tuple(
        (a, m, b)
        for a in range(1, size + 1)
        for b in range(1, size + 1)
        for m in range(min(a, b) + 1, max(a, b))
    )


@dataclass(frozen=True)
class BetweenLine(LineRule, TableConstraint):
    cells: tuple[int, ...]

    kind = "between_line"
    title = "between line"
    word = "between"
    json_keys = ("between_line",)
    fpuzzles_keys = ("betweenline",)
    reads_digit_values = True
    colour = "#c0c0c0"
    symbol = "between lines"

    def longest(self, shape: GridShape) -> int:
        return shape.cell_count  # middle digits may repeat where no unit forbids it

    def tables(self, shape: Shape) -> tuple[Table, ...]:
        first, last = self.cells[0], self.cells[-1]
        rows = between_rows(shape.size)
        return tuple(Table((first, middle, last), rows) for middle in self.cells[1:-1])

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        first, last = values[self.cells[0]], values[self.cells[-1]]
        if not (first and last):
            return
        low, high = min(first, last), max(first, last)
        outside = [c for c in self.cells[1:-1] if values[c] and not low < values[c] < high]
        if outside:
            words = ", ".join(f"{rules.cell_name(c)}={values[c]}" for c in outside)
            text = f"{words} not strictly between the ends' {first} and {last}"
            yield line_conflict(self, rules, (self.cells[0], *outside, self.cells[-1]), text)

    def svg_marks(self, canvas: Canvas) -> list[str]:
        return [
            polyline(canvas, self.cells, self.colour, 0.12),
            circle(canvas, self.cells[0], self.colour, 0.4, "#ffffff"),
            circle(canvas, self.cells[-1], self.colour, 0.4, "#ffffff"),
        ]

    # ----- the generator -------------------------------------------------------------------

    @classmethod
    def longest_walk(cls, shape: GridShape) -> int:
        """Up to two thirds of a side (6 cells on 9x9): a steered walk reaches lines that
        long, and longer lines leave a puzzle fewer clues to need."""
        return max(3, 2 * shape.size // 3)

    @classmethod
    def step_ok(cls, solution: Sequence[int], shape: GridShape) -> Step:
        """Every cell after the first on the side of the first cell's digit that the second
        takes: only such a walk can end in a line (the end beyond every middle digit), where
        an unsteered walk of four cells on 9x9 hardly ever does."""

        def ok(path: Sequence[int], cell: int) -> bool:
            first = solution[path[0]]
            if len(path) == 1:
                return solution[cell] != first
            return (solution[cell] > first) == (solution[path[1]] > first)

        return ok

    @classmethod
    def found_on(
        cls, path: tuple[int, ...], solution: Sequence[int], shape: GridShape
    ) -> Constraint | None:
        """A line of two cells states nothing, so it is no clue to offer."""
        if len(path) < 3:
            return None
        return super().found_on(path, solution, shape)
