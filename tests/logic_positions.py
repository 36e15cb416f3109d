"""Pencil-mark positions for the technique tests: each is the smallest picture in which one
technique (and no simpler one) finds something. Cells not named hold every digit."""

from __future__ import annotations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import Candidates

NINE = Rules.of_size(9)
ALL = "123456789"


def without(digits: str, remove: str) -> str:
    return "".join(d for d in digits if d not in remove)


def position(marks: dict[str, str], rules: Rules = NINE) -> Candidates:
    return Candidates.from_marks(rules, marks)


def row_cells(row: int, columns: range | list[int]) -> list[str]:
    return [f"r{row}c{c}" for c in columns]


def column_cells(column: int, rows: range | list[int]) -> list[str]:
    return [f"r{r}c{column}" for r in rows]


def digit_only_at(digit: str, keep: list[str], unit_cells: list[str]) -> dict[str, str]:
    """Marks in which `digit` is a candidate of `unit_cells` only at `keep`."""
    return {cell: ALL if cell in keep else without(ALL, digit) for cell in unit_cells}
