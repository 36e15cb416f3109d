"""Anti-knight: two cells a chess knight's move apart hold different digits."""

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

KNIGHT_MOVES = ((1, -2), (1, 2), (2, -1), (2, 1))


@dataclass(frozen=True)
class AntiKnight(DistinctPairs, SingletonRule):
    kind = "anti_knight"
    title = "anti-knight"
    word = "anti-knight"
    apart = "a knight's move apart"
    json_keys = ("anti_knight",)
    fpuzzles_keys = ("antiknight",)

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, KNIGHT_MOVES)

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """The rule itself when no two cells a knight's move apart hold the same digit."""
        return kept_by(cls(), solution, shape)
