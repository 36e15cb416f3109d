"""Anti-king: two cells a chess king's move apart (diagonal neighbours included) hold
different digits."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import DistinctPairs, Shape, move_pairs

KING_MOVES = ((1, -1), (1, 0), (1, 1), (0, 1))


@dataclass(frozen=True)
class AntiKing(DistinctPairs):
    kind = "anti_king"
    title = "anti-king"

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, KING_MOVES)
