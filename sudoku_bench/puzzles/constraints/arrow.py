"""Arrow: the digits on the arrow's line add up to the number in its bulb (digits may
repeat on the line). A bulb of several cells (a pill) reads as a number, its cells' digits
in the order listed, most significant first, as f-puzzles' solver reads it (a pill r1c1 r1c2
holding 1 and 3 is 13); pills are read on grids up to 9x9, where a cell is one decimal digit.

f-puzzles writes an arrow as `{"cells": bulb, "lines": [[start, ...]]}`: each line starts in
a bulb cell, which is not on the line; several lines from one bulb are several arrows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Equation,
    FpuzzlesReader,
    LinearConstraint,
    Move,
    Shape,
    check_cells,
    fpuzzles_cell,
    json_cells,
    read_cells,
)
from sudoku_bench.puzzles.constraints.lines import (
    LineRule,
    circle,
    digits_words,
    fpuzzles_lines,
    path_words,
    polyline,
    walks,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.shape import GridShape

LONGEST_PILL = 3
PILL_SIZES = 9  # pills read decimal digits: one cell, one digit


@dataclass(frozen=True)
class Arrow(LineRule, LinearConstraint):
    bulb: tuple[int, ...]
    line: tuple[int, ...]

    kind = "arrow"
    title = "arrow"
    word = "arrow"
    json_keys = ("arrow",)
    fpuzzles_keys = ("arrow",)
    reads_digit_values = True
    digits_reversible = False  # no relabelling keeps a sum equal to a digit
    colour = "#a8a8a8"
    symbol = "arrows"

    @property
    def cells(self) -> tuple[int, ...]:  # type: ignore[override]
        return self.bulb + self.line

    def name(self, shape: Any) -> str:
        return f"arrow {'+'.join(shape.cell_name(c) for c in self.bulb)}"

    def validate(self, shape: GridShape) -> None:
        check_cells(shape, self.cells, self.title)
        what = self.name(shape) if self.bulb else self.title
        if not self.bulb or not self.line:
            raise RulesError(f"{what}: an arrow has a bulb and a line of at least one cell")
        if len(set(self.cells)) != len(self.cells):
            raise RulesError(f"{what}: its bulb and line pass each cell once")
        if len(self.bulb) > 1 and shape.size > PILL_SIZES:
            raise RulesError(
                f"{what}: a bulb of several cells reads as a decimal number, one digit a "
                f"cell, so it needs digits up to 9, not {shape.size}"
            )
        if len(self.bulb) > LONGEST_PILL:
            raise RulesError(f"{what}: a bulb has 1 to {LONGEST_PILL} cells")

    def weights(self) -> tuple[int, ...]:
        """What each bulb cell's digit counts for: 10, 1 for a pill of two."""
        return tuple(10 ** (len(self.bulb) - 1 - i) for i in range(len(self.bulb)))

    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        terms = [(cell, 1) for cell in self.line]
        terms += [(cell, -w) for cell, w in zip(self.bulb, self.weights(), strict=True)]
        return (Equation(tuple(terms), 0),)

    def violations(self, rules: Checked, values: Sequence[int]) -> Any:
        """A full arrow off its sum, or a line already past what its bulb can hold."""
        if not all(values[c] for c in self.bulb):
            total = sum(values[c] for c in self.line)
            most = sum(9 * w if rules.shape.size <= PILL_SIZES else rules.shape.size * w
                       for w in self.weights())  # fmt: skip
            if total > most:
                yield self.conflict(rules, values, f"its line adds up to {total} already")
            return
        bulb = sum(values[c] * w for c, w in zip(self.bulb, self.weights(), strict=True))
        total = sum(values[c] for c in self.line)
        if all(values[c] for c in self.line) and total != bulb:
            yield self.conflict(rules, values, f"its line adds up to {total}, its bulb is {bulb}")
        elif total > bulb:
            yield self.conflict(rules, values, f"its line adds up to {total} already, past {bulb}")

    def conflict(self, rules: Checked, values: Sequence[int], text: str) -> Conflict:
        name = self.name(rules)
        words = digits_words(rules, [c for c in self.cells if values[c]], values)
        return Conflict(name, 0, self.cells, f"{name}: {text} ({words})")

    def moved(self, move: Move) -> Constraint:
        if move.reverse:
            raise RulesError("an arrow does not survive relabelling d -> N + 1 - d")
        return Arrow(
            tuple(move.target[c] for c in self.bulb), tuple(move.target[c] for c in self.line)
        )

    def json_entry(self, shape: GridShape) -> Any:
        return {"bulb": json_cells(shape, self.bulb), "line": json_cells(shape, self.line)}

    @classmethod
    def from_json_entry(cls, entry: Any, shape: GridShape, what: str) -> Constraint:
        if not isinstance(entry, Mapping) or "bulb" not in entry or "line" not in entry:
            raise RulesError(f'{what} is an object with "bulb" and "line" (lists of cells)')
        return Arrow(read_cells(shape, entry["bulb"], what), read_cells(shape, entry["line"], what))

    def fpuzzles_entry(self, shape: GridShape) -> dict[str, Any]:
        """The line starts in the bulb cell nearest its first cell, as f-puzzles draws it."""
        row, col = divmod(self.line[0], shape.size)
        start = min(
            self.bulb,
            key=lambda c: abs(c // shape.size - row) + abs(c % shape.size - col),
        )
        return {
            "cells": [fpuzzles_cell(shape, c) for c in self.bulb],
            "lines": [[fpuzzles_cell(shape, c) for c in (start, *self.line)]],
        }

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """An arrow per line; a bulb without a line, or a line of only its start, states
        no rule (f-puzzles' solver passes them over too)."""
        found: list[Constraint] = []
        for entry in reader.entries("arrow"):
            bulb = reader.group(entry, "arrow cells")
            for cells in fpuzzles_lines(reader, entry, "arrow"):
                if bulb and len(cells) > 1:
                    found.append(Arrow(bulb, cells[1:]))
        return found

    def legend_words(self, shape: GridShape) -> str:
        return f"({'+'.join(shape.cell_name(c) for c in self.bulb)}) {path_words(shape, self.line)}"

    def svg_marks(self, canvas: Canvas) -> list[str]:
        start = self.bulb[-1] if len(self.bulb) > 1 else self.bulb[0]
        parts = [polyline(canvas, (start, *self.line), self.colour, 0.06)]
        if len(self.bulb) > 1:  # a pill: a thick rounded band under a thinner white one
            parts.append(polyline(canvas, self.bulb, self.colour, 0.8))
            parts.append(polyline(canvas, self.bulb, "#ffffff", 0.68))
        else:
            parts.append(circle(canvas, self.bulb[0], self.colour, 0.4, "#ffffff"))
        parts.append(arrow_head(canvas, (start, *self.line)))
        return parts

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """One-cell bulbs whose digit a walk from a neighbour adds up to."""
        found: dict[tuple[tuple[int, ...], tuple[int, ...]], Constraint] = {}
        for walk in walks(shape, rng, shape.size // 2 + 2, lambda path, cell: True):
            bulb, line = walk[0], walk[1:]
            total = 0
            for end, cell in enumerate(line, 1):
                total += solution[cell]
                if total == solution[bulb] and end >= min(2, shape.size // 4):
                    found.setdefault(((bulb,), line[:end]), Arrow((bulb,), line[:end]))
                    break
                if total >= solution[bulb]:
                    break
        arrows = list(found.values())
        rng.shuffle(arrows)
        return arrows


def arrow_head(canvas: Canvas, cells: Sequence[int]) -> str:
    """Two short strokes at the line's last cell, pointing the way it goes."""
    (x0, y0), (x1, y1) = canvas.cell_centre(cells[-2]), canvas.cell_centre(cells[-1])
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    size = canvas.unit * 0.25
    left = (x1 - size * (ux - uy), y1 - size * (uy + ux))
    right = (x1 - size * (ux + uy), y1 - size * (uy - ux))
    return (
        f'<polyline points="{left[0]:.1f},{left[1]:.1f} {x1:.1f},{y1:.1f} '
        f'{right[0]:.1f},{right[1]:.1f}" fill="none" stroke="#a8a8a8" '
        f'stroke-width="{canvas.unit * 0.06:.1f}" stroke-linecap="round"/>'
    )
