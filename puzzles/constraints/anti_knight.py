"""Anti-knight: two cells a chess knight's move apart hold different digits."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import DistinctPairs, Shape, move_pairs

KNIGHT_MOVES = ((1, -2), (1, 2), (2, -1), (2, 1))


@dataclass(frozen=True)
class AntiKnight(DistinctPairs):
    kind = "anti_knight"
    title = "anti-knight"

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, KNIGHT_MOVES)
