"""Killer cage: its cells hold distinct digits that add up to `total` (None: any sum)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints import marks
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
    SumConstraint,
    check_cells,
    fpuzzles_cell,
    json_cells,
    json_list,
    label_of,
    read_cells,
    repeats,
)
from sudoku_bench.puzzles.constraints.extra_region import grown_group
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape

LEGEND_WIDTH = 72  # the picture's legend of sums wraps at this width
# a new cage's number of cells is drawn from these (then cut at the largest size asked)
CAGE_SIZES = (1, 2, 2, 3, 3, 3, 4, 4, 5)


@dataclass(frozen=True)
class Cage(SumConstraint):
    cells: tuple[int, ...]
    total: int | None = None

    kind = "killer_cage"
    title = "killer cage"
    word = "killer"
    json_keys = ("cages",)
    fpuzzles_keys = ("killercage",)
    reads_digit_values = True

    @property
    def summed(self) -> tuple[int, ...]:
        return self.cells

    @property
    def target(self) -> int | None:
        return self.total

    @property
    def distinct(self) -> bool:
        return True

    def name(self, shape: Named) -> str:
        """`cage r1c1+r1c2 = 3` (or without the sum), as the checker and the logs name it."""
        cells = "+".join(shape.cell_name(cell) for cell in self.cells)
        return f"cage {cells}" + ("" if self.total is None else f" = {self.total}")

    def validate(self, shape: GridShape) -> None:
        first = "+".join(shape.cell_name(c) for c in self.cells[:3])
        what = f"cage {first}{'+...' if len(self.cells) > 3 else ''}"
        check_cells(shape, self.cells, what)
        if len(set(self.cells)) != len(self.cells) or not 1 <= len(self.cells) <= shape.size:
            raise RulesError(f"{what}: a cage has 1 to {shape.size} distinct cells")
        if self.total is not None and not isinstance(self.total, int):
            raise RulesError(f"{what}: its sum is a whole number, not {self.total!r}")
        # a sum past every digit once cannot be met by any cage; refused here, it never
        # reaches a model as an integer beyond the solvers' 64 bits
        most = shape.size * (shape.size + 1) // 2
        if self.total is not None and not 0 <= self.total <= most:
            raise RulesError(
                f"{what}: its sum {self.total} is out of reach (a {shape.size}x{shape.size} "
                f"cage sums to at most {most}, every digit once)"
            )

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """A digit twice; a sum over the total, or a full cage off its total. (Named only
        when broken: most cages checked hold.)"""
        filled = [values[cell] for cell in self.cells if values[cell]]
        if len(set(filled)) != len(filled):
            yield from repeats(self.name(rules), self.cells, values)
        if self.total is not None:
            total = sum(filled)
            full = len(filled) == len(self.cells)
            if total > self.total or (full and total != self.total):
                name = self.name(rules)
                text = f"{name}: its digits add up to {total}" + ("" if full else " already")
                yield Conflict(name, 0, self.cells, text)

    def moved(self, move: Move) -> Constraint:
        """d -> N + 1 - d maps a sum s of k cells to k(N + 1) - s."""
        total = self.total
        if total is not None and move.reverse:
            total = len(self.cells) * (move.shape.size + 1) - total
        return Cage(move.cells(self.cells), total)

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        cages = [
            {
                "cells": json_cells(shape, cage.cells),
                **({} if cage.total is None else {"sum": cage.total}),
            }
            for cage in _cages(items)
        ]
        return {"cages": cages} if cages else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        if "cages" not in data:
            return []
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data["cages"], "cages")):
            what = f"cages[{index}]"
            if not isinstance(entry, Mapping) or "cells" not in entry:
                raise RulesError(f'{what} is an object with "cells" (and "sum")')
            total = entry.get("sum")
            if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
                raise RulesError(f'{what}: "sum" is a whole number, not {total!r}')
            found.append(Cage(read_cells(shape, entry["cells"], what), total))
        return found

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        cages = _cages(items)
        owners: list[list[int]] = [[] for _ in shape.cells]
        for index, cage in enumerate(cages):
            for cell in cage.cells:
                owners[cell].append(index)
        groups = tuple(tuple(owner) for owner in owners)
        return Drawing(
            "cages (a letter each) and their sums:",
            tuple(label_of(owner) for owner in owners),
            groups.__getitem__,
            tuple(legend(cages, shape)),
        )

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        return [
            Cage(reader.group(entry, "killercage"), reader.number(entry, "killercage"))
            for entry in reader.entries("killercage")
        ]

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        cages = [
            {
                "cells": [fpuzzles_cell(shape, c) for c in cage.cells],
                **({} if cage.total is None else {"value": str(cage.total)}),
            }
            for cage in _cages(items)
        ]
        return {"killercage": cages} if cages else {}

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        """Each cage a dashed outline inside its cells, its sum in its first cell's corner."""
        return [
            mark for cage in _cages(items) for mark in marks.cage(canvas, cage.cells, cage.total)
        ]

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """A partition of the grid into cages of 1 to 5 cells with their sums (`partition`)."""
        return list(partition(solution, shape, rng))


def partition(
    solution: Sequence[int], shape: GridShape, rng: Random, largest: int = 5
) -> tuple[Cage, ...]:
    """A random partition of the grid into connected cages of 1 to `largest` cells whose
    digits differ, with their sums from the full grid `solution`. Cells are taken in random
    order; each starts a cage that grows into free neighbours up to a random size."""
    free = set(shape.cells)
    order = list(shape.cells)
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        size = rng.choice(CAGE_SIZES[: max(1, 2 * largest - 1)])
        cells = grown_group(solution, shape, rng, min(size, largest), free, start)
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return tuple(cages)


def legend(cages: Sequence[Cage], shape: Named) -> list[str]:
    """`a=15 b=7 c=23 ...` wrapped to lines; a cage without a sum is `a=any`; past the
    letters, each word also names the cage's first cell."""
    named_by_cell = len(cages) > len(LABELS)
    words = []
    for index, cage in enumerate(cages):
        word = f"{LABELS[index % len(LABELS)]}={'any' if cage.total is None else cage.total}"
        if named_by_cell:
            word += f"@{shape.cell_name(min(cage.cells))}"
        words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= LEGEND_WIDTH:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _cages(items: Sequence[Constraint]) -> list[Cage]:
    return [item for item in items if isinstance(item, Cage)]
