"""Diagonal (Sudoku-X): the N cells of a main diagonal hold distinct digits.

`anti` False is the diagonal from r1c1 to rNcN, True the one from r1cN to rNc1. Rules hold
both or neither (`9x9-x`, `-x`, `"diagonals": true`, f-puzzles `diagonal+` with
`diagonal-`); one diagonal alone is an extra region (`ExtraRegion.main_diagonal`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Constraint,
    FpuzzlesReader,
    Move,
    Shape,
    UnitConstraint,
    json_flag,
)

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Diagonal(UnitConstraint):
    anti: bool = False

    kind = "diagonal"
    title = "diagonal"
    json_keys = ("diagonals",)
    fpuzzles_keys = ("diagonal+", "diagonal-")

    def units(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        n = shape.size
        return (tuple(shape.cell(i, n - 1 - i if self.anti else i) for i in range(n)),)

    def unit_names(self, shape: Shape) -> tuple[str, ...]:
        return ("anti-diagonal" if self.anti else "diagonal",)

    @staticmethod
    def pair() -> tuple[Diagonal, Diagonal]:
        """Both diagonals, as Sudoku-X has them."""
        return Diagonal(anti=False), Diagonal(anti=True)

    def validate(self, shape: GridShape) -> None:
        """Every square grid has both diagonals."""

    def moved(self, move: Move) -> Constraint:
        """A symmetry of the square maps a diagonal onto one of the two."""
        cells = move.cells(self.units(move.shape)[0])
        return Diagonal(anti=cells != Diagonal(anti=False).units(move.shape)[0])

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted(set(items), key=lambda d: isinstance(d, Diagonal) and d.anti))

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {"diagonals": True} if items else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        return list(Diagonal.pair()) if json_flag(data, "diagonals") else []

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """Both flags; one alone is read by `ExtraRegion` as an extra region."""
        both = reader.flag("diagonal+") and reader.flag("diagonal-")
        return list(Diagonal.pair()) if both else []

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {"diagonal+": True, "diagonal-": True} if items else {}

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        """Each diagonal a thin blue line from corner to corner of the grid."""
        n, drawn = shape.size, []
        for diagonal in items:
            anti = isinstance(diagonal, Diagonal) and diagonal.anti
            x1, y1 = canvas.corner(0, n if anti else 0)
            x2, y2 = canvas.corner(n, 0 if anti else n)
            drawn.append(
                f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#6a8fd0" '
                'stroke-width="1.5" opacity="0.7" class="diagonal"/>'
            )
        return drawn

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """Both diagonals when each holds every digit once (rules hold both or neither, so
        the generator adds and drops them together), else none."""
        both = Diagonal.pair()
        kept = all(len({solution[c] for c in d.units(shape)[0]}) == shape.size for d in both)
        return list(both) if kept else []
