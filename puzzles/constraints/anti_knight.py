"""Anti-knight: two cells a chess knight's move apart hold different digits."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import DistinctPairs, Shape, SingletonRule, move_pairs

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
