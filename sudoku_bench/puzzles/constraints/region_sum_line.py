"""Region sum line: where the line passes through a region (a box, or a jigsaw region),
its cells there add up to the same sum as every other such segment of the line. A line
that leaves a region and comes back makes a new segment, as f-puzzles' solver reads it.
Linear equations: each segment minus the next is 0."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sudoku_bench.puzzles.constraints.base import (
    Checked,
    Conflict,
    Equation,
    LinearConstraint,
    Shape,
)
from sudoku_bench.puzzles.constraints.lines import LineRule, Regioned, digits_words, line_conflict
from sudoku_bench.puzzles.errors import RulesError


@dataclass(frozen=True)
class RegionSumLine(LineRule, LinearConstraint):
    cells: tuple[int, ...]

    kind = "region_sum_line"
    title = "region sum line"
    word = "region-sum"
    json_keys = ("region_sum_line",)
    fpuzzles_keys = ("regionsumline",)
    reads_digit_values = True
    digits_reversible = False  # segments of different lengths would change sums unequally
    colour = "#2ecbff"
    symbol = "region sum lines"

    def segments(self, shape: Shape) -> list[tuple[int, ...]]:
        """The line cut where it crosses into another region."""
        if not isinstance(shape, Regioned):
            raise RulesError("a region sum line needs the grid's regions")
        found: list[list[int]] = []
        last = None
        for cell in self.cells:
            region = shape.region_of(cell)
            if region != last:
                found.append([])
            found[-1].append(cell)
            last = region
        return [tuple(segment) for segment in found]

    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        parts = self.segments(shape)
        return tuple(
            Equation(tuple([(c, 1) for c in a] + [(c, -1) for c in b]), 0)
            for a, b in itertools.pairwise(parts)
        )

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        full = [s for s in self.segments(rules.shape) if all(values[c] for c in s)]
        sums = {sum(values[c] for c in s) for s in full}
        if len(sums) > 1:
            cells = [c for s in full for c in s]
            words = " | ".join(
                f"{sum(values[c] for c in s)} ({digits_words(rules, s, values)})" for s in full
            )
            yield line_conflict(self, rules, cells, f"its segments add up differently: {words}")
