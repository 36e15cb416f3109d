"""Ratio (black kropki dot): one neighbour's digit is the other's times the dot's value
(2 unless it says otherwise); and its negative rule.

f-puzzles writes the dots as `"ratio": [{"cells": ["R1C1", "R1C2"], "value": "3"}]` (no
value: 2) and the negative rule as `"negative": ["ratio"]`: then no orthogonal pair without a
black or a white dot stands in the ratio of any black dot on the grid (2 when there is none),
as Rangsk's SudokuSolver reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import Constraint, FpuzzlesReader
from sudoku_bench.puzzles.constraints.dots import Dot, NegativeRule

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True, order=True)
class Ratio(Dot):
    value: int = 2

    kind = "ratio"
    title = "black dot"
    word = "black-kropki"
    json_keys = ("ratio",)
    fpuzzles_keys = ("ratio",)
    digits_reversible = False  # 1 and 2 become N and N - 1
    default_value = 2
    mark = "black dot"
    relation = "stand in the ratio {value}"
    a_mark = "a black dot"
    fill = "black"
    symbol = "*"

    @staticmethod
    def related(value: int, a: int, b: int) -> bool:
        return a * value == b or b * value == a

    @classmethod
    def value_words(cls, value: int) -> str:
        return f"1:{value}"


@dataclass(frozen=True)
class RatioNegative(NegativeRule):
    kind = "ratio_negative"
    title = "negative black dots"
    word = "negative-black-kropki"
    json_keys = ("ratio_negative",)
    fpuzzles_keys = ("negative",)
    digits_reversible = False
    dot = Ratio

    @classmethod
    def marking_kinds(cls) -> tuple[type[Dot], ...]:
        from sudoku_bench.puzzles.constraints.difference import (
            Difference,  # white dots are exceptions too
        )

        return (Ratio, Difference)

    @classmethod
    def default_values(cls, dots: Sequence[Constraint]) -> frozenset[int]:
        """The ratios of the black dots on the grid; 2 when there is none."""
        values = frozenset(d.value for d in dots if isinstance(d, Ratio))
        return values or frozenset({Ratio.default_value})

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        words = reader.words("negative")
        unknown = sorted(set(words) - {"ratio", "xv"})
        if unknown:
            reader.refuse(
                f"f-puzzles negative rule {unknown[0]!r} cannot be represented here (the "
                'negative rules read are "ratio" and "xv")'
            )
        if "ratio" not in words:
            return []
        dots = cls.fpuzzles_marks(reader, shape)
        return [cls.of(cls.default_values(dots), dots)]

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {"negative": ["ratio"]} if items else {}
