"""Zipper line: cells at the same distance from the line's centre add up to the same sum;
on a line of odd length that sum is the centre cell's digit. Linear equations: on an odd
line x_i + x_(k-1-i) - centre == 0; on an even line each pair's sum equals the end pair's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sudoku_bench.puzzles.constraints.base import (
    Checked,
    Conflict,
    Equation,
    LinearConstraint,
    Shape,
)
from sudoku_bench.puzzles.constraints.lines import LineRule, digits_words, line_conflict


@dataclass(frozen=True)
class ZipperLine(LineRule, LinearConstraint):
    cells: tuple[int, ...]

    kind = "zipper_line"
    title = "zipper line"
    word = "zipper"
    json_keys = ("zipper_line",)
    fpuzzles_keys = ("zipperline",)
    reads_digit_values = True
    digits_reversible = False  # an odd line's centre would have to become 2(N+1) - itself
    colour = "#cdb1ec"
    symbol = "zipper lines"

    def folded(self) -> list[tuple[int, ...]]:
        """The groups from the ends in: pairs, and the centre alone on an odd line."""
        k = len(self.cells)
        return [
            (self.cells[i],) if i == k - 1 - i else (self.cells[i], self.cells[k - 1 - i])
            for i in range((k + 1) // 2)
        ]

    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        groups = self.folded()
        if len(self.cells) % 2:
            centre = groups[-1][0]
            return tuple(Equation(((a, 1), (b, 1), (centre, -1)), 0) for a, b in groups[:-1])
        first = groups[0]
        return tuple(
            Equation(((a, 1), (b, 1), (first[0], -1), (first[1], -1)), 0) for a, b in groups[1:]
        )

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        sums = {
            sum(values[c] for c in group): group
            for group in self.folded()
            if all(values[c] for c in group)
        }
        if len(sums) > 1:
            cells = [c for group in sums.values() for c in group]
            text = (
                f"groups from the ends in add up differently ({digits_words(rules, cells, values)})"
            )
            yield line_conflict(self, rules, cells, text)
