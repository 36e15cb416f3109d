"""Anti-king: two cells a chess king's move apart (diagonal neighbours included) hold
different digits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_bench.puzzles.constraints.base import (
    Constraint,
    DistinctPairs,
    Shape,
    SingletonRule,
    kept_by,
    move_pairs,
)

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape

KING_MOVES = ((1, -1), (1, 0), (1, 1), (0, 1))


@dataclass(frozen=True)
class AntiKing(DistinctPairs, SingletonRule):
    kind = "anti_king"
    title = "anti-king"
    word = "anti-king"
    apart = "a king's move apart"
    json_keys = ("anti_king",)
    fpuzzles_keys = ("antiking",)

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, KING_MOVES)

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """The rule itself when no two cells a king's move apart hold the same digit."""
        return kept_by(cls(), solution, shape)
