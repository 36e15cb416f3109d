"""Anti-king: two cells a chess king's move apart (diagonal neighbours included) hold
different digits."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import DistinctPairs, Shape, SingletonRule, move_pairs

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
