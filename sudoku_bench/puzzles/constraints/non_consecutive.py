"""Non-consecutive: orthogonal neighbours differ by more than 1."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_bench.puzzles.constraints.base import (
    Checked,
    Conflict,
    Constraint,
    FpuzzlesReader,
    PairConstraint,
    Shape,
    SingletonRule,
    kept_by,
    move_pairs,
)

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape

ORTHOGONAL_MOVES = ((0, 1), (1, 0))


@dataclass(frozen=True)
class NonConsecutive(PairConstraint, SingletonRule):
    kind = "non_consecutive"
    title = "non-consecutive"
    word = "non-consecutive"
    json_keys = ("non_consecutive",)
    fpuzzles_keys = ("nonconsecutive",)
    reads_digit_values = True  # keeps its meaning only under d -> N + 1 - d

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, ORTHOGONAL_MOVES)

    def allows(self, first: int, second: int) -> bool:
        return abs(first - second) > 1

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """Neighbours with equal digits are left out: they share a row or a column, whose
        repeat names them already."""
        for a, b in self.pairs(rules.shape):
            if values[a] and values[b] and abs(values[a] - values[b]) == 1:
                yield self.broken(rules, a, b, values)

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """`"nonconsecutive": true` with no white or black dot on the grid; beside dots the
        flag is their negative rule (`difference_negative`), which leaves the dots out."""
        if reader.entries("difference") or reader.entries("ratio"):
            return []
        return super().from_fpuzzles(reader, shape)

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        text = (
            f"{name(a)} and {name(b)} are neighbours and hold consecutive digits "
            f"{values[a]} and {values[b]}"
        )
        return Conflict(self.title, min(values[a], values[b]), (a, b), text)

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """The rule itself when no two orthogonal neighbours hold consecutive digits."""
        return kept_by(cls(), solution, shape)
