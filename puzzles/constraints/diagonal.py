"""Diagonal (Sudoku-X): the N cells of a main diagonal hold distinct digits.

`anti` False is the diagonal from r1c1 to rNcN, True the one from r1cN to rNc1; Sudoku-X has
both (`9x9-x`, `-x`, `"diagonals": true`).
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import Shape, UnitConstraint


@dataclass(frozen=True)
class Diagonal(UnitConstraint):
    anti: bool = False

    kind = "diagonal"
    title = "diagonal"

    def units(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        n = shape.size
        return (tuple(shape.cell(i, n - 1 - i if self.anti else i) for i in range(n)),)

    def unit_names(self, shape: Shape) -> tuple[str, ...]:
        return ("anti-diagonal" if self.anti else "diagonal",)
