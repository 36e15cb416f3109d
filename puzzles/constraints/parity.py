"""Parity: marked cells hold an odd digit (a circle in f-puzzles) or an even one (a square)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from puzzles.constraints.base import CellDigits, Shape


@dataclass(frozen=True)
class Parity(CellDigits):
    odd: frozenset[int] = field(default_factory=frozenset)
    even: frozenset[int] = field(default_factory=frozenset)

    kind = "parity"
    title = "odd/even"

    def allowed(self, shape: Shape) -> Mapping[int, frozenset[int]]:
        digits = range(1, shape.size + 1)
        odd = frozenset(d for d in digits if d % 2)
        even = frozenset(d for d in digits if d % 2 == 0)
        return {**dict.fromkeys(self.odd, odd), **dict.fromkeys(self.even, even)}
