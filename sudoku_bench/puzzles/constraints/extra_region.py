"""Extra region: 2 to N given cells hold distinct digits (windoku's windows, a disjoint
group, one diagonal alone, any marked region). Of N cells it is a house: every digit once.

Windoku and disjoint groups are extra regions made by the named constructors below; their
JSON is the extra regions' (`"extra_regions": [[...], ...]`), so stores identify them as
before. f-puzzles' `disjointgroups` and a lone `diagonal+` or `diagonal-` are read as extra
regions and written back as those keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints import marks
from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    Shape,
    UnitConstraint,
    check_cells,
    fpuzzles_cell,
    json_cells,
    json_list,
    label_of,
    read_cells,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape

# tries at growing one connected region of N distinct digits; most succeed on a 9x9
REGION_TRIES = 60


@dataclass(frozen=True)
class ExtraRegion(UnitConstraint):
    members: tuple[int, ...]

    kind = "extra_region"
    title = "extra region"
    word = "extra-regions"
    numbered = True
    json_keys = ("extra_regions",)
    fpuzzles_keys = ("extraregion", "disjointgroups", "diagonal+", "diagonal-")

    def units(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        return (self.members,)

    def unit_names(self, shape: Shape) -> tuple[str, ...]:
        return (f"the extra region at {shape.cell_name(min(self.members))}",)

    # ----- named extra regions --------------------------------------------------------------

    @staticmethod
    def windoku(shape: GridShape) -> tuple[ExtraRegion, ...]:
        """Windoku's windows: the boxes one cell in from the top-left corner of each box
        that does not touch the right or bottom edge, every other box (four on 9x9)."""
        n, rows, cols = shape.size, shape.box_rows, shape.box_cols
        return tuple(
            ExtraRegion(
                tuple(shape.cell(top + r, left + c) for r in range(rows) for c in range(cols))
            )
            for top in range(1, n - rows, rows + 1)
            for left in range(1, n - cols, cols + 1)
        )

    @staticmethod
    def disjoint_groups(shape: GridShape) -> tuple[ExtraRegion, ...]:
        """The N groups of cells at the same position within each box (disjoint groups)."""
        if shape.layout is not None:
            raise RulesError(_NO_DISJOINT_GROUPS)
        boxes = shape.regions
        return tuple(ExtraRegion(tuple(box[i] for box in boxes)) for i in range(shape.size))

    @staticmethod
    def main_diagonal(shape: GridShape) -> ExtraRegion:
        """f-puzzles' `diagonal-` alone: r1c1 down to rNcN."""
        return ExtraRegion(tuple(shape.cell(i, i) for i in range(shape.size)))

    @staticmethod
    def anti_diagonal(shape: GridShape) -> ExtraRegion:
        """f-puzzles' `diagonal+` alone: r1cN down to rNc1 (rising from bottom left)."""
        n = shape.size
        return ExtraRegion(tuple(shape.cell(i, n - 1 - i) for i in range(n)))

    # ----- what the kind owns ---------------------------------------------------------------

    def validate(self, shape: GridShape) -> None:
        cells = self.members
        first = "+".join(shape.cell_name(c) for c in cells[:3] if 0 <= c < shape.cell_count)
        what = f"extra region {first}{'+...' if len(cells) > 3 else ''}"
        check_cells(shape, cells, what)
        if len(set(cells)) != len(cells):
            raise RulesError(f"{what} names a cell twice")
        if not 2 <= len(cells) <= shape.size:
            raise RulesError(f"{what} has {len(cells)} cells: a unit has 2 to {shape.size}")

    def moved(self, move: Move) -> Constraint:
        return ExtraRegion(move.cells(self.members))

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        regions = [json_cells(shape, region.members) for region in _regions(items)]
        return {"extra_regions": regions} if regions else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        if "extra_regions" not in data:
            return []
        return [
            ExtraRegion(read_cells(shape, region, f"extra_regions[{i}]"))
            for i, region in enumerate(json_list(data["extra_regions"], "extra_regions"))
        ]

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        owners: list[list[int]] = [[] for _ in shape.cells]
        for index, region in enumerate(_regions(items)):
            for cell in region.members:
                owners[cell].append(index)
        symbols = tuple(label_of(owner) for owner in owners)
        return Drawing("extra regions (a letter each):", symbols)

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """`extraregion`, then `disjointgroups`, then a lone diagonal, in that order."""
        found: list[Constraint] = [
            ExtraRegion(reader.group(entry, "extraregion"))
            for entry in reader.entries("extraregion")
        ]
        if reader.flag("disjointgroups"):
            if shape.layout is not None:
                reader.refuse(f"f-puzzles disjointgroups on {_NO_DISJOINT_GROUPS}")
            found += ExtraRegion.disjoint_groups(shape)
        plus, minus = reader.flag("diagonal+"), reader.flag("diagonal-")
        if minus and not plus:
            found.append(ExtraRegion.main_diagonal(shape))
        elif plus and not minus:
            found.append(ExtraRegion.anti_diagonal(shape))
        return found

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        """What `from_fpuzzles` reads back to the same regions in the same order."""
        extra = [region.members for region in _regions(items)]
        data: dict[str, Any] = {}
        diagonals = {
            ExtraRegion.main_diagonal(shape).members: "diagonal-",
            ExtraRegion.anti_diagonal(shape).members: "diagonal+",
        }
        if extra and extra[-1] in diagonals:  # read from one diagonal alone: write it so again
            other = next(d for d in diagonals if d != extra[-1])
            if other not in extra:
                data[diagonals[extra.pop()]] = True
        n = shape.size
        if shape.layout is None and len(extra) >= n:
            groups = [group.members for group in ExtraRegion.disjoint_groups(shape)]
            if extra[-n:] == groups:
                data["disjointgroups"] = True
                del extra[-n:]
        if extra:
            data["extraregion"] = [
                {"cells": [fpuzzles_cell(shape, cell) for cell in group]} for group in extra
            ]
        return data

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        """The regions' cells shaded light blue."""
        cells = sorted({cell for region in _regions(items) for cell in region.members})
        return shaded_units(canvas, cells)

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """Connected regions of N cells whose digits are all different (each a house of
        the full grid), grown from random cells into neighbours with digits not yet in;
        at most N of them, no two alike, in random order."""
        found: dict[tuple[int, ...], ExtraRegion] = {}
        houses = {tuple(sorted(unit)) for unit in shape.units}
        for _ in range(REGION_TRIES):
            if len(found) >= shape.size:
                break
            cells = grown_group(solution, shape, rng, shape.size)
            key = tuple(sorted(cells))
            if len(key) == shape.size and key not in houses:
                found.setdefault(key, ExtraRegion(key))
        return list(found.values())


def shaded_units(canvas: Canvas, cells: Sequence[int]) -> list[str]:
    """Cells of extra units (regions, windows), shaded light blue: the look of every unit
    kind that draws no other mark."""
    return marks.shaded(canvas, cells, "#c9d8ef", "extra-unit", opacity=0.8)


def orthogonal_neighbours(shape: Shape, cell: int) -> list[int]:
    """The cells sharing a side with `cell`."""
    n = shape.size
    row, col = divmod(cell, n)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    return [
        (row + dr) * n + col + dc for dr, dc in steps if 0 <= row + dr < n and 0 <= col + dc < n
    ]


def grown_group(
    solution: Sequence[int],
    shape: Shape,
    rng: Random,
    size: int,
    free: set[int] | None = None,
    start: int | None = None,
) -> list[int]:
    """Up to `size` connected cells with different digits in `solution`, from `start` (a
    random cell by default) into random neighbours among `free` (default: every cell)."""
    if start is None:
        start = rng.randrange(shape.cell_count)
    cells = [start]
    if free is not None:
        free.discard(start)
    while len(cells) < size:
        digits = {solution[c] for c in cells}
        around = sorted(
            {
                o
                for c in cells
                for o in orthogonal_neighbours(shape, c)
                if (free is None or o in free) and o not in cells and solution[o] not in digits
            }
        )
        if not around:
            break
        chosen = rng.choice(around)
        cells.append(chosen)
        if free is not None:
            free.discard(chosen)
    return cells


_NO_DISJOINT_GROUPS = (
    "irregular regions: the groups are defined by position in a box, and a jigsaw has no boxes"
)


def _regions(items: Sequence[Constraint]) -> list[ExtraRegion]:
    return [item for item in items if isinstance(item, ExtraRegion)]
