"""Whispers (German whispers): neighbours on the line differ by at least the line's
difference. f-puzzles' lines without a `value` take Rangsk's default, (N + 1) // 2: 5 on
9x9, 3 on 6x6, 2 on 4x4, 8 on 16x16 (a difference of 5 is what "German whispers" means
on 9x9); a `value` (text, as f-puzzles writes it) sets another, from 1 to N - 1."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import (
    Checked,
    Conflict,
    Constraint,
    FpuzzlesReader,
    PairConstraint,
    Shape,
    json_cells,
    read_cells,
)
from sudoku_bench.puzzles.constraints.lines import LineRule, Step
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape


def default_difference(size: int) -> int:
    """Rangsk's SudokuSolver's default for a line without a value: 5 on 9x9."""
    return (size + 1) // 2


@dataclass(frozen=True)
class Whispers(LineRule, PairConstraint):
    cells: tuple[int, ...]
    difference: int = 5

    kind = "whispers"
    title = "whispers"
    word = "whispers"
    json_keys = ("whispers",)
    fpuzzles_keys = ("whispers",)
    reads_digit_values = True
    colour = "#60c060"
    symbol = "whispers lines"

    @classmethod
    def of_line(cls, cells: tuple[int, ...], shape: GridShape) -> Constraint:
        return cls(cells, default_difference(shape.size))

    def with_cells(self, cells: tuple[int, ...]) -> Whispers:
        return Whispers(cells, self.difference)

    def validate(self, shape: GridShape) -> None:
        super().validate(shape)
        if type(self.difference) is not int or not 1 <= self.difference <= shape.size - 1:
            raise RulesError(
                f"{self.name(shape)}: its difference {self.difference!r} is not a whole "
                f"number from 1 to {shape.size - 1}"
            )

    def name(self, shape: Any) -> str:
        return f"{super().name(shape)} (difference {self.difference})"

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return tuple(
            sorted((min(a, b), max(a, b)) for a, b in zip(self.cells, self.cells[1:], strict=False))
        )

    def allows(self, first: int, second: int) -> bool:
        return abs(first - second) >= self.difference

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = self.name(rules)
        text = (
            f"{name}: neighbours {rules.cell_name(a)}={values[a]} and "
            f"{rules.cell_name(b)}={values[b]} differ by less than {self.difference}"
        )
        return Conflict(name, 0, (a, b), text)

    def json_entry(self, shape: GridShape) -> Any:
        return {"cells": json_cells(shape, self.cells), "difference": self.difference}

    @classmethod
    def from_json_entry(cls, entry: Any, shape: GridShape, what: str) -> Constraint:
        """An object `{"cells": [...], "difference": 5}`, or a bare list of cells (the
        default difference)."""
        if isinstance(entry, list):
            return cls.of_line(read_cells(shape, entry, what), shape)
        if not isinstance(entry, Mapping) or "cells" not in entry:
            raise RulesError(f'{what} is a list of cells or an object with "cells"')
        difference = entry.get("difference", default_difference(shape.size))
        if type(difference) is not int:
            raise RulesError(f'{what}: "difference" is a whole number, not {difference!r}')
        return cls(read_cells(shape, entry["cells"], what), difference)

    def fpuzzles_entry(self, shape: GridShape) -> dict[str, Any]:
        return {**super().fpuzzles_entry(shape), "value": str(self.difference)}

    @classmethod
    def from_fpuzzles_line(
        cls, cells: tuple[int, ...], entry: Mapping[str, Any], reader: FpuzzlesReader,
        shape: GridShape,
    ) -> Constraint | None:  # fmt: skip
        difference = reader.number(entry, "whispers")
        return cls(cells, default_difference(shape.size) if difference is None else difference)

    @classmethod
    def step_ok(cls, solution: Sequence[int], shape: GridShape) -> Step:
        least = default_difference(shape.size)
        return lambda path, cell: abs(solution[cell] - solution[path[-1]]) >= least

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """Lines of the default difference (the one setters use)."""
        return super().candidates(solution, shape, rng)
