"""Parity: marked cells hold an odd digit (a circle in f-puzzles) or an even one (a square).

Rules hold at most one `Parity` (the odd cells and the even cells); several combine into one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints import marks
from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    CellDigits,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    Shape,
    check_cells,
    fpuzzles_cell,
    json_cells,
    read_cells,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Parity(CellDigits):
    odd: frozenset[int] = field(default_factory=frozenset)
    even: frozenset[int] = field(default_factory=frozenset)

    kind = "parity"
    title = "odd/even"
    word = "odd-even"
    json_keys = ("odd", "even")
    fpuzzles_keys = ("odd", "even")
    reads_digit_values = True

    def allowed(self, shape: Shape) -> Mapping[int, frozenset[int]]:
        digits = range(1, shape.size + 1)
        odd = frozenset(d for d in digits if d % 2)
        even = frozenset(d for d in digits if d % 2 == 0)
        return {**dict.fromkeys(self.odd, odd), **dict.fromkeys(self.even, even)}

    def validate(self, shape: GridShape) -> None:
        for name, cells in (("odd", self.odd), ("even", self.even)):
            check_cells(shape, cells, f"the {name} cells")
        if self.odd & self.even:
            both = ", ".join(shape.cell_name(c) for c in sorted(self.odd & self.even))
            raise RulesError(f"{both}: a cell cannot be both odd and even")

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        for parity, cells, remainder in (("odd", self.odd, 1), ("even", self.even, 0)):
            for cell in sorted(cells):
                if values[cell] and values[cell] % 2 != remainder:
                    text = f"{rules.cell_name(cell)} holds {values[cell]} but must be {parity}"
                    yield Conflict(f"{parity} cell", values[cell], (cell,), text)

    def moved(self, move: Move) -> Constraint:
        """d -> N + 1 - d turns odd digits into even ones when N is even."""
        odd, even = frozenset(move.cells(self.odd)), frozenset(move.cells(self.even))
        if move.reverse and move.shape.size % 2 == 0:
            odd, even = even, odd
        return Parity(odd, even)

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        odd = frozenset().union(*(p.odd for p in items if isinstance(p, Parity)))
        even = frozenset().union(*(p.even for p in items if isinstance(p, Parity)))
        return (Parity(odd, even),) if odd or even else ()

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for parity in _parities(items):
            if parity.odd:
                data["odd"] = json_cells(shape, sorted(parity.odd))
            if parity.even:
                data["even"] = json_cells(shape, sorted(parity.even))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        odd, even = (
            frozenset(read_cells(shape, data[key], key)) if key in data else frozenset()
            for key in ("odd", "even")
        )
        return [Parity(odd, even)] if odd or even else []

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        odd = frozenset().union(*(p.odd for p in _parities(items)))
        even = frozenset().union(*(p.even for p in _parities(items)))
        symbols = tuple("o" if c in odd else "e" if c in even else "." for c in shape.cells)
        return Drawing("odd (o) and even (e) cells:", symbols)

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        odd, even = (
            frozenset(reader.cell(entry.get("cell"), key) for entry in reader.entries(key))
            for key in ("odd", "even")
        )
        return [Parity(odd, even)] if odd or even else []

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for parity in _parities(items):
            for key, cells in (("odd", parity.odd), ("even", parity.even)):
                if cells:
                    data[key] = [{"cell": fpuzzles_cell(shape, c)} for c in sorted(cells)]
        return data

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        """A grey circle in each odd cell, a grey square in each even one (f-puzzles' marks)."""
        odd = sorted(frozenset().union(*(p.odd for p in _parities(items))))
        even = sorted(frozenset().union(*(p.even for p in _parities(items))))
        return marks.circles(canvas, odd, "odd") + marks.squares(canvas, even, "even")

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """One mark per cell, odd or even as its digit is (rules merge them into one
        `Parity`)."""
        marks: list[Constraint] = [
            Parity(odd=frozenset((cell,)))
            if solution[cell] % 2
            else Parity(even=frozenset((cell,)))
            for cell in shape.cells
        ]
        rng.shuffle(marks)
        return marks


def _parities(items: Sequence[Constraint]) -> list[Parity]:
    return [item for item in items if isinstance(item, Parity)]
