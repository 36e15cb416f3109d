"""Non-consecutive: orthogonal neighbours differ by more than 1."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import PairConstraint, Shape, move_pairs

ORTHOGONAL_MOVES = ((0, 1), (1, 0))


@dataclass(frozen=True)
class NonConsecutive(PairConstraint):
    kind = "non_consecutive"
    title = "non-consecutive"

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, ORTHOGONAL_MOVES)

    def allows(self, first: int, second: int) -> bool:
        return abs(first - second) > 1
