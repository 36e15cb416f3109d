"""XV: the two neighbours' digits add up to 10 (an X) or to 5 (a V); and its negative rule.

f-puzzles writes the marks as `"xv": [{"cells": ["R1C1", "R1C2"], "value": "X"}]` and the
negative rule as `"negative": ["xv"]`: then no orthogonal pair without an X or a V adds up
to 5 or to 10, as Rangsk's SudokuSolver reads it (black and white dots do not matter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import Constraint, FpuzzlesReader
from sudoku_bench.puzzles.constraints.dots import Dot, NegativeRule
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    import random

    from sudoku_bench.puzzles.shape import GridShape

LETTERS = {10: "X", 5: "V"}


@dataclass(frozen=True, order=True)
class XV(Dot):
    value: int = 10

    kind = "xv"
    title = "XV mark"
    word = "XV"
    json_keys = ("xv",)
    fpuzzles_keys = ("xv",)
    digits_reversible = False  # a V's 5 would become 2(N + 1) - 5
    default_value = 10
    mark = "XV mark"
    relation = "add up to {value}"
    a_mark = "an X or a V"
    symbol = "x"

    @staticmethod
    def related(value: int, a: int, b: int) -> bool:
        return a + b == value

    def says(self) -> str:
        return f"add up to {self.value} ({LETTERS.get(self.value, self.value)})"

    def validate(self, shape: GridShape) -> None:
        super().validate(shape)
        if self.value not in LETTERS:
            raise RulesError(f"XV mark: an X sums to 10 and a V to 5, not {self.value}")

    @classmethod
    def json_value(cls, value: int) -> Any:
        return LETTERS.get(value, value)

    @classmethod
    def read_value(cls, value: Any, what: str) -> int:
        """`"X"` or `"V"` (either case), as f-puzzles writes them; a number is read as one."""
        if isinstance(value, str) and value.strip().upper() in ("X", "V"):
            return 10 if value.strip().upper() == "X" else 5
        if value is None or value == "":
            raise RulesError(f"{what}: an XV mark is an X or a V, not empty")
        return super().read_value(value, what)

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        """Every mark with its letter, the default included: {"cells": [...], "value": "X"}."""
        from sudoku_bench.puzzles.constraints.base import json_cells

        marks = [
            {"cells": json_cells(shape, (m.first, m.second)), "value": LETTERS[m.value]}
            for m in cls.combine(items)
            if isinstance(m, XV)
        ]
        return {"xv": marks} if marks else {}

    @classmethod
    def fpuzzles_value(cls, value: int) -> str | None:
        return LETTERS.get(value, str(value))

    @classmethod
    def label(cls, value: int) -> str:
        return "=" + LETTERS.get(value, str(value))

    @classmethod
    def relation_default(cls) -> str:
        return "=X: they add up to 10, =V: to 5"

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Any) -> list[str] | None:
        from sudoku_bench.puzzles.constraints.dots import edge_middle

        font = canvas.unit * 0.36
        parts = []
        for mark in cls.combine(items):
            assert isinstance(mark, XV)
            x, y = edge_middle(canvas, (mark.first, mark.second))
            half = font * 0.45
            parts.append(
                f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
                f'height="{2 * half:.1f}" fill="white" class="xv"/>'
                f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font:.1f}" font-weight="bold" '
                f'text-anchor="middle" dominant-baseline="central" class="xv">'
                f"{LETTERS.get(mark.value, mark.value)}</text>"
            )
        return parts

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """An X or a V on every pair of neighbours that adds up to 10 or 5."""
        from sudoku_bench.puzzles.constraints.dots import orthogonal_pairs

        found: list[Constraint] = [
            cls(a, b, solution[a] + solution[b])
            for a, b in orthogonal_pairs(shape)
            if solution[a] + solution[b] in LETTERS
        ]
        rng.shuffle(found)
        return found


@dataclass(frozen=True)
class XVNegative(NegativeRule):
    kind = "xv_negative"
    title = "negative XV"
    word = "negative-XV"
    json_keys = ("xv_negative",)
    fpuzzles_keys = ("negative",)
    digits_reversible = False
    dot = XV

    @classmethod
    def default_values(cls, dots: Sequence[Constraint]) -> frozenset[int]:
        return frozenset(LETTERS)  # f-puzzles' negative rule is for X and V together

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        if "xv" not in reader.words("negative"):
            return []
        return [cls.of(cls.default_values(()), cls.fpuzzles_marks(reader, shape))]

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {"negative": ["xv"]} if items else {}
