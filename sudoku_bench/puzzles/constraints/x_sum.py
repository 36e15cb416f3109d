"""X-sum: the first X digits of a row or column, read from the clue outside it, add up to
the clue, where X is the first of those digits.

f-puzzles writes `"xsum": [{"cell": "R0C3", "value": "15"}]`; the side the clue stands on
says which end the line is read from. As a table: a row per first digit X and the X - 1
digits after it (the rest any digit). As an automaton: how many digits are still to be
counted and their sum so far.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from sudoku_bench.puzzles.constraints.base import State
from sudoku_bench.puzzles.constraints.outside import LineClue


@dataclass(frozen=True, order=True)
class XSum(LineClue):
    kind = "x_sum"
    title = "X-sum"
    word = "X-sums"
    json_keys = ("x_sum",)
    fpuzzles_keys = ("xsum",)
    symbol = "x"

    def most(self, size: int) -> int:
        return size * (size + 1) // 2

    def admissible(self, size: int) -> tuple[tuple[int, ...], ...]:
        return _x_sum_rows(size, self.value)

    def value_of(self, digits: Sequence[int]) -> int | None:
        return sum(digits[: digits[0]])

    def start(self) -> State:
        return (-1, 0)  # (digits still to count, -1 before the first; their sum so far)

    def step(self, size: int, state: State, digit: int) -> State | None:
        left, total = cast(tuple[int, int], state)
        if left == 0:
            return state
        left = digit - 1 if left < 0 else left - 1
        total += digit
        if total > self.value or (left == 0 and total != self.value):
            return None
        return (left, total)

    def accepting(self, size: int, state: State) -> bool:
        return state == (0, self.value)

    def broken_by(self, digits: Sequence[int]) -> str | None:
        first = digits[0]
        if not first:
            return None
        counted = digits[:first]
        total = sum(counted)
        if 0 not in counted and total != self.value:
            return f"its first {first} digits add up to {total}"
        if total > self.value:
            return f"its first {first} digits add up to {total} already"
        return None


@lru_cache(maxsize=64)
def _x_sum_rows(size: int, total: int) -> tuple[tuple[int, ...], ...]:
    rows = []
    for first in range(1, size + 1):
        others = [d for d in range(1, size + 1) if d != first]
        for chosen in itertools.combinations(others, first - 1):
            if first + sum(chosen) != total:
                continue
            for order in itertools.permutations(chosen):
                rows.append((first, *order, *([0] * (size - first))))
    return tuple(rows)
