"""Entropic line: the digits 1..N fall into three groups, low, middle and high (1-3, 4-6,
7-9 on 9x9), and any three cells in a row on the line hold one digit of each group. As
pairs: cells one or two apart on the line hold digits of different groups.

On other sizes the groups are Rangsk's: sizes N // 3 and (N + 2) // 3, the larger two
outside when N % 3 == 2 and the larger one in the middle when N % 3 == 1 (4x4: 1 | 2-3 | 4;
6x6: 1-2 | 3-4 | 5-6; 16x16: 1-5 | 6-11 | 12-16). The groups are symmetric, so
d -> N + 1 - d swaps low and high and keeps the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import (
    Checked,
    Conflict,
    Constraint,
    PairConstraint,
    Shape,
)
from sudoku_bench.puzzles.constraints.lines import LineRule, Step
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape

GROUP_WORDS = ("low", "middle", "high")


@lru_cache(maxsize=64)
def digit_groups(size: int) -> tuple[int, ...]:
    """Each digit's group (0 low, 1 middle, 2 high), indexed by digit (index 0 unused)."""
    small, large = size // 3, (size + 2) // 3
    sizes = (small, large, small) if size % 3 == 1 else (large, small, large)
    groups = [0]
    for group, count in enumerate(sizes):
        groups += [group] * count
    return tuple(groups)


@dataclass(frozen=True)
class EntropicLine(LineRule, PairConstraint):
    cells: tuple[int, ...]
    size: int = 9  # the grid's side, which sets the groups

    kind = "entropic_line"
    title = "entropic line"
    word = "entropic"
    json_keys = ("entropic_line",)
    fpuzzles_keys = ("entropicline",)
    reads_digit_values = True
    colour = "#ffccaa"
    symbol = "entropic lines"

    @classmethod
    def of_line(cls, cells: tuple[int, ...], shape: GridShape) -> Constraint:
        return cls(cells, shape.size)

    def with_cells(self, cells: tuple[int, ...]) -> EntropicLine:
        return EntropicLine(cells, self.size)

    def validate(self, shape: GridShape) -> None:
        super().validate(shape)
        if self.size != shape.size:
            raise RulesError(
                f"{self.name(shape)}: its digit groups are for {self.size}x{self.size}, "
                f"the grid is {shape.size}x{shape.size}"
            )

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        near = [
            (a, b) for step in (1, 2) for a, b in zip(self.cells, self.cells[step:], strict=False)
        ]
        return tuple(sorted((min(a, b), max(a, b)) for a, b in near))

    def allows(self, first: int, second: int) -> bool:
        groups = digit_groups(self.size)
        return groups[first] != groups[second]

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = self.name(rules)
        group = GROUP_WORDS[digit_groups(self.size)[values[a]]]
        text = (
            f"{name}: {rules.cell_name(a)}={values[a]} and {rules.cell_name(b)}={values[b]} "
            f"are within three cells on the line and both {group}"
        )
        return Conflict(name, 0, (a, b), text)

    @classmethod
    def from_json_entry(cls, entry: Any, shape: GridShape, what: str) -> Constraint:
        if isinstance(entry, Mapping):
            raise RulesError(f"{what} is a list of cells")
        return super().from_json_entry(entry, shape, what)

    @classmethod
    def step_ok(cls, solution: Sequence[int], shape: GridShape) -> Step:
        groups = digit_groups(shape.size)

        def ok(path: Sequence[int], cell: int) -> bool:
            return all(groups[solution[c]] != groups[solution[cell]] for c in path[-2:])

        return ok
