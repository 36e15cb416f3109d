"""Clone: two regions of the same shape hold the same digits, cell by cell (f-puzzles'
`{"cells": [...], "cloneCells": [...]}`: the i-th cell of one is the i-th of the other)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    PairConstraint,
    Shape,
    check_cells,
    fpuzzles_cell,
    json_cells,
    json_list,
    label_of,
    read_cells,
)
from sudoku_bench.puzzles.constraints.lines import WALK_TRIES, king_neighbours, wrap
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Clone(PairConstraint):
    cells: tuple[int, ...]
    clones: tuple[int, ...]  # clones[i] holds the digit of cells[i]

    kind = "clone"
    title = "clone"
    word = "clone"
    json_keys = ("clone",)
    fpuzzles_keys = ("clone",)

    def name(self, shape: Any) -> str:
        return f"clone {shape.cell_name(self.cells[0])}~{shape.cell_name(self.clones[0])}"

    def validate(self, shape: GridShape) -> None:
        check_cells(shape, self.cells + self.clones, self.title)
        what = self.name(shape) if self.cells and self.clones else self.title
        if not self.cells or len(self.cells) != len(self.clones):
            raise RulesError(f"{what}: a clone pairs as many cells as it clones (at least one)")
        if len(set(self.cells)) != len(self.cells) or len(set(self.clones)) != len(self.clones):
            raise RulesError(f"{what}: each region lists a cell once")
        if any(a == b for a, b in zip(self.cells, self.clones, strict=True)):
            raise RulesError(f"{what}: a cell is its own clone")

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return tuple(
            sorted({(min(a, b), max(a, b)) for a, b in zip(self.cells, self.clones, strict=True)})
        )

    def allows(self, first: int, second: int) -> bool:
        return first == second

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = self.name(rules)
        text = (
            f"{name}: {rules.cell_name(a)}={values[a]} and its clone "
            f"{rules.cell_name(b)}={values[b]} differ"
        )
        return Conflict(name, 0, (a, b), text)

    def moved(self, move: Move) -> Constraint:
        """Equal digits stay equal under any relabelling."""
        return Clone(
            tuple(move.target[c] for c in self.cells), tuple(move.target[c] for c in self.clones)
        )

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        entries = [
            {"cells": json_cells(shape, item.cells), "clones": json_cells(shape, item.clones)}
            for item in items
            if isinstance(item, Clone)
        ]
        return {"clone": entries} if entries else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data.get("clone", []), "clone")):
            what = f"clone[{index}]"
            if not isinstance(entry, Mapping) or "cells" not in entry or "clones" not in entry:
                raise RulesError(f'{what} is an object with "cells" and "clones"')
            found.append(
                Clone(
                    read_cells(shape, entry["cells"], what),
                    read_cells(shape, entry["clones"], what),
                )
            )
        return found

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """Cells paired with themselves are passed over, as f-puzzles' solver does."""
        found: list[Constraint] = []
        for entry in reader.entries("clone"):
            cells = reader.group(entry, "clone")
            clones = reader.group({"cells": entry.get("cloneCells")}, "clone cloneCells")
            if len(cells) != len(clones):
                reader.refuse(f"f-puzzles clone: {len(cells)} cells but {len(clones)} cloneCells")
            kept = [(a, b) for a, b in zip(cells, clones, strict=True) if a != b]
            if kept:
                found.append(Clone(tuple(a for a, _ in kept), tuple(b for _, b in kept)))
        return found

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        entries = [
            {
                "cells": [fpuzzles_cell(shape, c) for c in item.cells],
                "cloneCells": [fpuzzles_cell(shape, c) for c in item.clones],
            }
            for item in items
            if isinstance(item, Clone)
        ]
        return {"clone": entries} if entries else {}

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        clones = [item for item in items if isinstance(item, Clone)]
        owners: list[list[int]] = [[] for _ in shape.cells]
        for index, item in enumerate(clones):
            for cell in item.cells + item.clones:
                owners[cell].append(index)
        words = [
            f"{LABELS[index % len(LABELS)]}: "
            + " ".join(
                f"{shape.cell_name(a)}={shape.cell_name(b)}"
                for a, b in zip(item.cells, item.clones, strict=True)
            )
            for index, item in enumerate(clones)
        ]
        return Drawing(
            "clones (a letter per pair of regions):",
            tuple(label_of(owner) for owner in owners),
            None,
            tuple(wrap(words)),
        )

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        parts = []
        for item in items:
            if isinstance(item, Clone):
                for cell in item.cells + item.clones:
                    x, y = canvas.cell_centre(cell)
                    side = canvas.unit * 0.9
                    parts.append(
                        f'<rect x="{x - side / 2:.1f}" y="{y - side / 2:.1f}" width="{side:.1f}" '
                        f'height="{side:.1f}" fill="#d0d0ff" fill-opacity="0.6"/>'
                    )
        return parts

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """Small regions (a walk of 1 to 3 cells) and a shift of them that holds the same
        digits (the first of the shifts, in random order, that does)."""
        n = shape.size
        offsets = [(dr, dc) for dr in range(1 - n, n) for dc in range(1 - n, n) if dr or dc]
        found: dict[tuple[tuple[int, ...], tuple[int, ...]], Constraint] = {}
        for _ in range(WALK_TRIES // 4):
            path = [rng.randrange(shape.cell_count)]
            for _ in range(rng.randint(0, 2)):
                options = [c for c in king_neighbours(shape, path[-1]) if c not in path]
                path.append(rng.choice(options))
            rng.shuffle(offsets)
            for dr, dc in offsets:
                moved = [cell + dr * n + dc for cell in path]
                if not all(
                    0 <= cell // n + dr < n and 0 <= cell % n + dc < n for cell in path
                ) or set(moved) & set(path):
                    continue
                if all(solution[a] == solution[b] for a, b in zip(path, moved, strict=True)):
                    key = (tuple(path), tuple(moved))
                    found.setdefault(key, Clone(*key))
                    break
        rules = list(found.values())
        rng.shuffle(rules)
        return rules
