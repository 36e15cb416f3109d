"""Quadruple: the digits in a small circle at the corner four cells share must all appear
among those four cells (a digit written twice, twice).

f-puzzles writes `"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2]}]`
(the values as numbers). As a table: a row per filling of the four cells that holds the
digits, neighbours differing (they share a row or a column), so rows are exclusive.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import (
    LABELS,
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    Named,
    Shape,
    Table,
    TableConstraint,
    check_cells,
    fpuzzles_cell,
    json_cells,
    json_list,
    label_of,
    read_cells,
)
from sudoku_bench.puzzles.constraints.outside import legend_of
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True, order=True)
class Quadruple(TableConstraint):
    cells: tuple[int, ...]  # the 2x2 block, row by row
    digits: tuple[int, ...]  # sorted; a digit may repeat

    kind = "quadruple"
    title = "quadruple"
    word = "quadruple"
    json_keys = ("quadruple",)
    fpuzzles_keys = ("quadruple",)
    reads_digit_values = True

    def name(self, shape: Named) -> str:
        digits = "".join(str(d) if d < 10 else f"({d})" for d in self.digits)
        return f"quadruple {digits} at {shape.cell_name(self.cells[0])}"

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted(self.cells))

    def tables(self, shape: Shape) -> tuple[Table, ...]:
        return (Table(self.cells, _fillings(shape.size, self.digits)),)

    def validate(self, shape: GridShape) -> None:
        check_cells(shape, self.cells, self.title)
        n = shape.size
        top = self.cells[0] if self.cells else -1
        row, col = divmod(top, n)
        block = (top, top + 1, top + n, top + n + 1)
        if len(self.cells) != 4 or row >= n - 1 or col >= n - 1 or self.cells != block:
            raise RulesError(
                f"quadruple at {shape.cell_name(top) if 0 <= top < shape.cell_count else top}: "
                "its cells are the four round one corner, row by row"
            )
        if not 1 <= len(self.digits) <= 4 or not all(
            isinstance(d, int) and 1 <= d <= n for d in self.digits
        ):
            raise RulesError(f"{self.name(shape)}: one to four digits 1 to {n}")
        if any(count > 2 for count in Counter(self.digits).values()):
            raise RulesError(
                f"{self.name(shape)}: a digit appears at most twice in four cells round a corner"
            )

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """Broken when the empty cells are too few for the digits still missing."""
        held = Counter(values[cell] for cell in self.cells if values[cell])
        missing = Counter(self.digits) - held
        empty = sum(1 for cell in self.cells if not values[cell])
        if sum(missing.values()) > empty:
            name = self.name(rules)
            lacks = ", ".join(str(d) for d in sorted(missing.elements()))
            yield Conflict(name, 0, self.cells, f"{name}: its cells lack {lacks}")

    def moved(self, move: Move) -> Constraint:
        n = move.shape.size
        digits = tuple(sorted(n + 1 - d for d in self.digits) if move.reverse else self.digits)
        return Quadruple(move.cells(self.cells), digits)

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted({item for item in items if isinstance(item, Quadruple)}))

    @classmethod
    def of(cls, cells: Sequence[int], digits: Sequence[Any], what: str) -> Quadruple:
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in digits):
            raise RulesError(f"{what}: the digits are whole numbers, not {list(digits)!r}")
        return cls(tuple(sorted(cells)), tuple(sorted(digits)))

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        quads = [
            {"cells": json_cells(shape, q.cells), "digits": list(q.digits)} for q in _quads(items)
        ]
        return {"quadruple": quads} if quads else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        if "quadruple" not in data:
            return []
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data["quadruple"], "quadruple")):
            what = f"quadruple[{index}]"
            if not isinstance(entry, Mapping) or not {"cells", "digits"} <= set(entry):
                raise RulesError(f'{what} is an object with "cells" and "digits"')
            digits = json_list(entry["digits"], f"{what} digits")
            found.append(cls.of(read_cells(shape, entry["cells"], what), digits, what))
        return found

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        found: list[Constraint] = []
        for entry in reader.entries("quadruple"):
            what = "f-puzzles quadruple"
            values = entry.get("values") or []
            if not isinstance(values, list):
                reader.refuse(f"{what}: values is a list of digits")
            digits = [int(v) if isinstance(v, str) and v.isdigit() else v for v in values]
            found.append(cls.of(reader.group(entry, what), digits, what))
        return found

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        quads = [
            {"cells": [fpuzzles_cell(shape, c) for c in q.cells], "values": list(q.digits)}
            for q in _quads(items)
        ]
        return {"quadruple": quads} if quads else {}

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        quads = _quads(items)
        owners: list[list[int]] = [[] for _ in shape.cells]
        for index, quad in enumerate(quads):
            for cell in quad.cells:
                owners[cell].append(index)
        words = [
            f"{LABELS[i % len(LABELS)]}={','.join(map(str, q.digits))}" for i, q in enumerate(quads)
        ]
        return Drawing(
            "quadruples (a letter per block of four) and their digits:",
            tuple(label_of(owner) for owner in owners),
            None,
            legend_of(words),
        )

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        parts = []
        radius = canvas.unit * 0.3
        for quad in _quads(items):
            x, y = canvas.corner(*divmod(quad.cells[3], shape.size))  # the shared corner
            text = " ".join(map(str, quad.digits))
            font = radius * (0.9 if len(quad.digits) <= 2 else 0.6)
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="white" '
                'stroke="black" stroke-width="1" class="quadruple"/>'
                f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font:.1f}" text-anchor="middle" '
                f'dominant-baseline="central" class="quadruple">{escape(text)}</text>'
            )
        return parts

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """One quadruple per block of four cells, holding one to four of its digits."""
        n = shape.size
        found: list[Constraint] = []
        for row in range(n - 1):
            for col in range(n - 1):
                top = row * n + col
                cells = (top, top + 1, top + n, top + n + 1)
                digits = [solution[c] for c in cells]
                rng.shuffle(digits)
                found.append(cls(cells, tuple(sorted(digits[: rng.randint(1, 4)]))))
        rng.shuffle(found)
        return found


def _quads(items: Sequence[Constraint]) -> list[Quadruple]:
    return [item for item in Quadruple.combine(items) if isinstance(item, Quadruple)]


@lru_cache(maxsize=256)
def _fillings(size: int, digits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Fillings of a block (a b / c d) holding `digits`, neighbours a-b, a-c, b-d, c-d
    differing."""
    need = Counter(digits)
    rows = []
    for a, b, c, d in itertools.product(range(1, size + 1), repeat=4):
        if a in (b, c) or d in (b, c):
            continue
        if not need - Counter((a, b, c, d)):
            rows.append((a, b, c, d))
    return tuple(rows)
