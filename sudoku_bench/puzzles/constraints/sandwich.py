"""Sandwich sum: the digits strictly between the 1 and the N of a row or column add up to
the clue outside it (0: the 1 and the N are neighbours).

f-puzzles writes `"sandwichsum": [{"cell": "R0C3", "value": "12"}]`: the clue's place beside
the line, either side. As a table: a row per place of the 1, place of the N and digits
between them (the other cells any digit), so a full line matches one row. As an automaton:
before the 1 and the N, between them (which of the two ends it and the sum so far), past
them: at most 2 (clue + 1) + 2 states, where the table grows with the factorial of N.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from sudoku_bench.puzzles.constraints.base import State
from sudoku_bench.puzzles.constraints.outside import LineClue

# the automaton's phases: before the 1 and the N, between them, past both
_BEFORE, _BETWEEN, _PAST = 0, 1, 2


@dataclass(frozen=True, order=True)
class Sandwich(LineClue):
    kind = "sandwich"
    title = "sandwich sum"
    word = "sandwich"
    json_keys = ("sandwich",)
    fpuzzles_keys = ("sandwichsum",)
    symbol = "s"

    def most(self, size: int) -> int:
        return size * (size + 1) // 2 - 1 - size

    def admissible(self, size: int) -> tuple[tuple[int, ...], ...]:
        return _sandwich_rows(size, self.value)

    def start(self) -> State:
        return (_BEFORE, 0, 0)  # (phase, the end still to come, the sum so far)

    def step(self, size: int, state: State, digit: int) -> State | None:
        phase, end, total = cast(tuple[int, int, int], state)
        if phase == _PAST:
            return state
        if phase == _BEFORE:
            if digit in (1, size):
                return (_BETWEEN, size + 1 - digit, 0)
            return state
        if digit == end:
            return (_PAST, 0, 0) if total == self.value else None
        total += digit
        return (_BETWEEN, end, total) if total <= self.value else None

    def accepting(self, size: int, state: State) -> bool:
        return state == (_PAST, 0, 0)

    def value_of(self, digits: Sequence[int]) -> int | None:
        n = len(digits)
        if 1 not in digits or n not in digits:
            return None
        low, high = sorted((digits.index(1), digits.index(n)))
        return sum(digits[low + 1 : high])

    def broken_by(self, digits: Sequence[int]) -> str | None:
        n = len(digits)
        if 1 not in digits or n not in digits:
            return None
        low, high = sorted((digits.index(1), digits.index(n)))
        between = digits[low + 1 : high]
        total = sum(between)
        if 0 not in between and total != self.value:
            return f"the digits between the 1 and the {n} add up to {total}"
        if total > self.value:
            return f"the digits between the 1 and the {n} add up to {total} already"
        return None


@lru_cache(maxsize=64)
def _sandwich_rows(size: int, total: int) -> tuple[tuple[int, ...], ...]:
    fillings: dict[int, list[tuple[int, ...]]] = {}
    middle = range(2, size)
    for length in range(size - 1):
        fillings[length] = [
            order
            for chosen in itertools.combinations(middle, length)
            if sum(chosen) == total
            for order in itertools.permutations(chosen)
        ]
    rows = []
    for one in range(size):
        for top in range(size):
            if one == top:
                continue
            low, high = sorted((one, top))
            for filling in fillings[high - low - 1]:
                row = [0] * size
                row[one], row[top] = 1, size
                row[low + 1 : high] = filling
                rows.append(tuple(row))
    return tuple(rows)
