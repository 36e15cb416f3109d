"""Renban: the line's digits are distinct and consecutive, in any order. As pairs: every
two cells of the line differ, by at most its length minus one (k distinct digits spanning
at most k - 1 are exactly a run)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from sudoku_bench.puzzles.constraints.base import Checked, Conflict, PairConstraint, Shape
from sudoku_bench.puzzles.constraints.lines import LineRule, Step

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Renban(LineRule, PairConstraint):
    cells: tuple[int, ...]

    kind = "renban"
    title = "renban"
    word = "renban"
    json_keys = ("renban",)
    fpuzzles_keys = ("renban",)
    reads_digit_values = True
    colour = "#c060c0"
    symbol = "renban lines"

    def longest(self, shape: GridShape) -> int:
        return shape.size

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(combinations(sorted(self.cells), 2)))

    def allows(self, first: int, second: int) -> bool:
        return first != second and abs(first - second) <= len(self.cells) - 1

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = self.name(rules)
        if values[a] == values[b]:
            why = "both hold it"
        else:
            why = f"too far apart for a run of {len(self.cells)} consecutive digits"
        text = (
            f"{name}: {rules.cell_name(a)}={values[a]} and {rules.cell_name(b)}={values[b]} "
            f"are {why}"
        )
        return Conflict(name, values[a] if values[a] == values[b] else 0, (a, b), text)

    @classmethod
    def step_ok(cls, solution: Sequence[int], shape: GridShape) -> Step:
        def ok(path: Sequence[int], cell: int) -> bool:
            digits = {solution[c] for c in path} | {solution[cell]}
            return len(digits) == len(path) + 1 and max(digits) - min(digits) == len(path)

        return ok
