"""Little killer: the digits along a diagonal, from a clue outside the grid in the direction
of its arrow, add up to the clue; digits may repeat.

f-puzzles writes `"littlekillersum": [{"cell": "R0C3", "direction": "DR", "value": "15"}]`:
the clue's place outside the grid (R0 / C0 above / left of it, R10 / C10 below / right on a
9x9) and its arrow, UL, UR, DL or DR. A clue without a value is no rule (f-puzzles and
Rangsk's SudokuSolver pass it over); one placed on the diagonal's first cell is read as the
place one step before it, as Rangsk's SudokuSolver reads it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import (
    LABELS,
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    Equation,
    FpuzzlesReader,
    LinearConstraint,
    Move,
    Shape,
    json_list,
    label_of,
)
from sudoku_bench.puzzles.constraints.outside import (
    Place,
    fpuzzles_place,
    is_outside,
    legend_of,
    moved_place,
    moved_step,
    place_name,
    read_place,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape

DIRECTIONS: dict[str, Place] = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}
ARROWS = {step: name for name, step in DIRECTIONS.items()}


@dataclass(frozen=True, order=True)
class LittleKiller(LinearConstraint):
    place: Place  # outside the grid, one diagonal step before the first cell
    step: Place  # (row step, column step), each -1 or 1
    total: int

    kind = "little_killer"
    title = "little killer"
    word = "little-killer"
    json_keys = ("little_killer",)
    fpuzzles_keys = ("littlekillersum",)
    reads_digit_values = True
    outside_clues = True

    @property
    def direction(self) -> str:
        return ARROWS.get(self.step, "?")

    def cells(self, size: int) -> tuple[int, ...]:
        """The diagonal's cells, from the clue on."""
        row, col = self.place[0] + self.step[0], self.place[1] + self.step[1]
        found = []
        while 0 <= row < size and 0 <= col < size:
            found.append(row * size + col)
            row, col = row + self.step[0], col + self.step[1]
        return tuple(found)

    def name(self) -> str:
        return f"little killer {self.total} at {place_name(self.place)} {self.direction}"

    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        return (Equation(tuple((cell, 1) for cell in self.cells(shape.size)), self.total),)

    def validate(self, shape: GridShape) -> None:
        n = shape.size
        if self.step not in ARROWS:
            raise RulesError(f"{self.name()}: the arrow is UL, UR, DL or DR, not {self.step}")
        row, col = self.place
        if not (-1 <= row <= n and -1 <= col <= n and is_outside(n, self.place)):
            raise RulesError(f"{self.name()}: the clue stands on the border round the grid")
        cells = self.cells(n)
        if not cells:
            raise RulesError(f"{self.name()}: its arrow points away from the grid")
        if not isinstance(self.total, int) or isinstance(self.total, bool):
            raise RulesError(f"{self.name()}: the sum is a whole number, not {self.total!r}")
        if not len(cells) <= self.total <= len(cells) * n:
            raise RulesError(
                f"{self.name()}: {len(cells)} digits 1 to {n} add up to {len(cells)} to "
                f"{len(cells) * n}"
            )

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """Empty cells count as 1 at least: a sum already past the clue is broken."""
        cells = self.cells(rules.shape.size)
        filled = [values[cell] for cell in cells if values[cell]]
        total = sum(filled)
        full = len(filled) == len(cells)
        if total + (len(cells) - len(filled)) > self.total or (full and total != self.total):
            text = f"{self.name()}: its diagonal adds up to {total}" + ("" if full else " already")
            yield Conflict(self.name(), 0, cells, text)

    def moved(self, move: Move) -> Constraint:
        """d -> N + 1 - d maps a sum s of k digits to k(N + 1) - s."""
        total = self.total
        if move.reverse:
            total = len(self.cells(move.shape.size)) * (move.shape.size + 1) - total
        return LittleKiller(moved_place(move, self.place), moved_step(move, self.step), total)

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted({item for item in items if isinstance(item, LittleKiller)}))

    @classmethod
    def at(cls, shape: Shape, place: Place, direction: str, total: int, what: str) -> LittleKiller:
        """A clue as f-puzzles places it: outside the grid, or on the diagonal's first cell."""
        step = DIRECTIONS.get(str(direction).upper())
        if step is None:
            raise RulesError(f"{what}: the direction is UL, UR, DL or DR, not {direction!r}")
        if not is_outside(shape.size, place):
            place = (place[0] - step[0], place[1] - step[1])
        return cls(place, step, total)

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        clues = [
            {"place": place_name(lk.place), "direction": lk.direction, "sum": lk.total}
            for lk in _clues(items)
        ]
        return {"little_killer": clues} if clues else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        if "little_killer" not in data:
            return []
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data["little_killer"], "little_killer")):
            what = f"little_killer[{index}]"
            if not isinstance(entry, Mapping) or not {"place", "direction", "sum"} <= set(entry):
                raise RulesError(f'{what} is an object with "place", "direction" and "sum"')
            total = entry["sum"]
            if not isinstance(total, int) or isinstance(total, bool):
                raise RulesError(f'{what}: "sum" is a whole number, not {total!r}')
            place = read_place(shape.size, entry["place"], what)
            found.append(cls.at(shape, place, entry["direction"], total, what))
        return found

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        found: list[Constraint] = []
        for entry in reader.entries("littlekillersum"):
            total = reader.number(entry, "littlekillersum")
            if total is None:
                continue
            what = "f-puzzles littlekillersum"
            place = read_place(shape.size, entry.get("cell"), what)
            found.append(cls.at(shape, place, entry.get("direction", ""), total, what))
        return found

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        clues = [
            {"cell": fpuzzles_place(lk.place), "direction": lk.direction, "value": str(lk.total)}
            for lk in _clues(items)
        ]
        return {"littlekillersum": clues} if clues else {}

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        clues = _clues(items)
        owners: list[list[int]] = [[] for _ in shape.cells]
        for index, clue in enumerate(clues):
            for cell in clue.cells(shape.size):
                owners[cell].append(index)
        words = [
            f"{LABELS[i % len(LABELS)]}={c.total}@{place_name(c.place)}{c.direction}"
            for i, c in enumerate(clues)
        ]
        return Drawing(
            "little killers (a letter per diagonal; sum@place and arrow; r0 / c0 above / left):",
            tuple(label_of(owner) for owner in owners),
            None,
            legend_of(words),
        )

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        parts = []
        unit = canvas.unit
        for clue in _clues(items):
            x, y = canvas.centre(*clue.place)
            dy, dx = clue.step
            # the sum sits back from the corner the arrow leaves by; the arrow points inwards
            tx, ty = x - dx * unit * 0.12, y - dy * unit * 0.12
            ax, ay = x + dx * unit * 0.18, y + dy * unit * 0.18
            bx, by = x + dx * unit * 0.42, y + dy * unit * 0.42
            head = unit * 0.1
            parts.append(
                f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="{unit * 0.36:.1f}" '
                'text-anchor="middle" dominant-baseline="central" class="little_killer">'
                f"{escape(str(clue.total))}</text>"
                f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="black" '
                'stroke-width="1" class="little_killer"/>'
                f'<polyline points="{bx - dx * head:.1f},{by:.1f} {bx:.1f},{by:.1f} '
                f'{bx:.1f},{by - dy * head:.1f}" fill="none" stroke="black" stroke-width="1" '
                'class="little_killer"/>'
            )
        return parts

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """Every diagonal of two cells or more from every border place, with its true sum."""
        n = shape.size
        found: list[Constraint] = []
        for row in range(-1, n + 1):
            for col in range(-1, n + 1):
                if not is_outside(n, (row, col)):
                    continue
                for step in DIRECTIONS.values():
                    clue = cls((row, col), step, 0)
                    cells = clue.cells(n)
                    if len(cells) >= 2:
                        found.append(cls((row, col), step, sum(solution[c] for c in cells)))
        rng.shuffle(found)
        return found


def _clues(items: Sequence[Constraint]) -> list[LittleKiller]:
    return [item for item in LittleKiller.combine(items) if isinstance(item, LittleKiller)]
