"""Skyscraper: the clue outside a row or column counts the digits seen from it, a digit
being seen when it is larger than every digit before it.

f-puzzles writes `"skyscraper": [{"cell": "R0C3", "value": "3"}]`. As a table: a row per
filling of the cells up to and including the N (the tallest, always seen; the cells past it
any digit) that shows exactly the clue's count. As an automaton: the tallest digit so far and how many
were seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from sudoku_bench.puzzles.constraints.base import State
from sudoku_bench.puzzles.constraints.outside import LineClue


@dataclass(frozen=True, order=True)
class Skyscraper(LineClue):
    kind = "skyscraper"
    title = "skyscraper"
    word = "skyscraper"
    json_keys = ("skyscraper",)
    fpuzzles_keys = ("skyscraper",)
    value_key = "seen"
    symbol = "k"

    def most(self, size: int) -> int:
        return size

    def admissible(self, size: int) -> tuple[tuple[int, ...], ...]:
        return _skyscraper_rows(size, self.value)

    def value_of(self, digits: Sequence[int]) -> int | None:
        return _seen(digits)

    def start(self) -> State:
        return (0, 0)  # (the tallest digit so far, how many were seen)

    def step(self, size: int, state: State, digit: int) -> State | None:
        tallest, seen = cast(tuple[int, int], state)
        if digit <= tallest:
            return state
        seen += 1
        if seen > self.value or (digit == size and seen != self.value):
            return None
        return (digit, seen)

    def accepting(self, size: int, state: State) -> bool:
        return state == (size, self.value)

    def broken_by(self, digits: Sequence[int]) -> str | None:
        """Read up to the first empty cell: the N seen settles the count; before it, the
        count so far plus the N still to come may already be too many."""
        n = len(digits)
        prefix = list(digits[: digits.index(0)] if 0 in digits else digits)
        seen = _seen(prefix)
        if n in prefix and seen != self.value:
            return f"{seen} digits are seen from it"
        if n not in prefix and seen + 1 > self.value:
            return f"{seen} digits are seen from it already, and the {n} is still to come"
        return None


def _seen(digits: Sequence[int]) -> int:
    tallest, seen = 0, 0
    for digit in digits:
        if digit > tallest:
            tallest, seen = digit, seen + 1
    return seen


@lru_cache(maxsize=64)
def _skyscraper_rows(size: int, seen: int) -> tuple[tuple[int, ...], ...]:
    rows: list[tuple[int, ...]] = []

    def extend(prefix: list[int], tallest: int, count: int, unused: set[int]) -> None:
        # the N comes next and is seen once more; more digits before it can only add views
        if count + 1 == seen:
            row = (*prefix, size)
            rows.append(row + (0,) * (size - len(row)))
        if count + 1 + sum(digit > tallest for digit in unused) < seen:
            return  # too few taller digits left to be seen
        for digit in sorted(unused):
            more = count + (digit > tallest)
            if more + 1 > seen:
                continue
            extend([*prefix, digit], max(tallest, digit), more, unused - {digit})

    extend([], 0, 0, set(range(1, size)))
    return tuple(rows)
