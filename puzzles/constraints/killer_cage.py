"""Killer cage: its cells hold distinct digits that add up to `total` (None: any sum)."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import SumConstraint


@dataclass(frozen=True)
class Cage(SumConstraint):
    cells: tuple[int, ...]
    total: int | None = None

    kind = "killer_cage"
    title = "killer cage"

    @property
    def summed(self) -> tuple[int, ...]:
        return self.cells

    @property
    def target(self) -> int | None:
        return self.total

    @property
    def distinct(self) -> bool:
        return True
