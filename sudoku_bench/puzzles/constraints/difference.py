"""Difference (white kropki dot): the two neighbours' digits differ by the dot's value
(1 unless it says otherwise); and its negative rule.

f-puzzles writes the dots as `"difference": [{"cells": ["R1C1", "R1C2"], "value": "2"}]`
(no value: 1) and their negative rule as `"nonconsecutive": true` beside them: then every
orthogonal pair without a white or a black dot differs by more than 1, as Rangsk's
SudokuSolver reads it. Without any dot that flag is the `non_consecutive` kind, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import Constraint, FpuzzlesReader, Move
from sudoku_bench.puzzles.constraints.dots import Dot, NegativeRule

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True, order=True)
class Difference(Dot):
    value: int = 1

    kind = "difference"
    title = "white dot"
    word = "white-kropki"
    json_keys = ("difference",)
    fpuzzles_keys = ("difference",)
    default_value = 1
    mark = "white dot"
    relation = "differ by {value}"
    a_mark = "a white dot"
    fill = "white"
    symbol = "o"

    @staticmethod
    def related(value: int, a: int, b: int) -> bool:
        return abs(a - b) == value

    def moved_value(self, move: Move) -> int:
        return self.value  # d -> N + 1 - d keeps every difference


@dataclass(frozen=True)
class DifferenceNegative(NegativeRule):
    kind = "difference_negative"
    title = "negative white dots"
    word = "negative-white-kropki"
    json_keys = ("difference_negative",)
    dot = Difference

    @classmethod
    def marking_kinds(cls) -> tuple[type[Dot], ...]:
        from sudoku_bench.puzzles.constraints.ratio import Ratio  # black dots are exceptions too

        return (Difference, Ratio)

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """`"nonconsecutive": true` with dots beside it (without: `non_consecutive`)."""
        dots = cls.fpuzzles_marks(reader, shape)
        if not (dots and reader.flag("nonconsecutive")):
            return []
        return [cls.of(frozenset({1}), dots)]

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {"nonconsecutive": True} if items else {}
