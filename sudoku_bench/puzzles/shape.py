"""The shape of a grid: its side, its regions and its unit families, apart from any rule.

A `GridShape` is what every puzzle of one size and one region layout shares: the side N,
the regions (the boxes of a box shape, or the pieces of a jigsaw), and the three families of
units that every Sudoku has, by name: `row`, `column` and `region` (whose units are called
`box` or, for a jigsaw, `region`). Code asks the shape for units by family instead of
computing unit indices: `rules.shape.family("column")[2]` is column 3, and
`shape.family_of(unit)` names the family of a unit index.

Shapes are values (frozen, compared by their fields) and `GridShape.of` hands out one shared
object per shape, so the structure derived here (units, names, each cell's units) is built
once and shared by every `Rules` of that shape. The cache is bounded: a file of jigsaws,
each its own shape, keeps only the most recent ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from sudoku_bench.puzzles.errors import RulesError

__all__ = ["FAMILIES", "MAX_SIZE", "GridShape", "default_box_shape", "usual_box_shape"]

# The largest side accepted: a 64x64 grid has 4,096 cells and its exact-cover matrix 262,144
# rows; see docs/measurements/puzzles.md for what larger sizes cost.
MAX_SIZE = 64

# The unit families every shape has, in the order of `GridShape.units`.
FAMILIES = ("row", "column", "region")


def check_not_too_large(size: int) -> None:
    if size > MAX_SIZE:
        raise RulesError(
            f"size {size} is too large: sudoku-bench goes up to {MAX_SIZE}x{MAX_SIZE} "
            f"({MAX_SIZE * MAX_SIZE:,} cells; see 'Sizes' in docs/howto/puzzles.md)"
        )


def default_box_shape(size: int) -> tuple[int, int]:
    """The most nearly square rows x cols box with rows <= cols (6 -> 2x3, 12 -> 3x4)."""
    if size < 4:  # also keeps 0 and negative sizes away from isqrt and max below
        raise RulesError(f"size {size} is too small: the smallest Sudoku is 4x4")
    check_not_too_large(size)  # the search below takes isqrt(size) steps
    rows = max(d for d in range(1, math.isqrt(size) + 1) if size % d == 0)
    if rows == 1:
        raise RulesError(
            f"a {size}x{size} grid has no box shape (a box needs rows x cols = {size}, both > 1)"
        )
    return rows, size // rows


def usual_box_shape(size: int) -> tuple[int, int] | None:
    """`default_box_shape`, or None for a size no box tiles (7x7: only jigsaws)."""
    try:
        return default_box_shape(size)
    except RulesError:
        if 4 <= size <= MAX_SIZE:
            return None
        raise


@cache
def box_layout(size: int, box_rows: int, box_cols: int) -> tuple[int, ...]:
    """Each cell's box, row-major from 0, for boxes of `box_rows` x `box_cols`."""
    per_band = size // box_cols
    return tuple(
        (cell // size // box_rows) * per_band + (cell % size) // box_cols
        for cell in range(size * size)
    )


@dataclass(frozen=True)
class GridShape:
    """Side N, box shape, and the jigsaw layout (each cell's region, row-major, 0..N-1) or
    None for the boxes. `box_rows` x `box_cols` is kept for a jigsaw only to draw a frame."""

    size: int
    box_rows: int
    box_cols: int
    layout: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.size < 4:
            raise RulesError(f"size {self.size} is too small: the smallest Sudoku is 4x4")
        check_not_too_large(self.size)
        if self.no_boxes:
            if self.layout is None:
                raise RulesError(
                    f"a {self.size}x{self.size} grid has no box shape: its regions are a "
                    "jigsaw's, which must be given"
                )
        elif self.box_rows * self.box_cols != self.size or min(self.box_rows, self.box_cols) < 2:
            raise RulesError(
                f"boxes of {self.box_rows}x{self.box_cols} do not tile a "
                f"{self.size}x{self.size} grid (rows x cols must equal {self.size}, both > 1)"
            )
        if self.layout is not None:
            self._check_layout(self.layout)
            if not self.no_boxes and self.layout == box_layout(
                self.size, self.box_rows, self.box_cols
            ):
                object.__setattr__(self, "layout", None)  # the boxes: one form for one shape

    @staticmethod
    def of(
        size: int, box_rows: int, box_cols: int, layout: tuple[int, ...] | None = None
    ) -> GridShape:
        """The shared shape of these fields (its derived structure is built once)."""
        if (
            layout is not None
            and box_rows > 1
            and len(layout) == size * size == box_rows * box_cols * size
            and (layout == box_layout(size, box_rows, box_cols))
        ):
            layout = None  # the boxes: one object for one shape
        return _shared(size, box_rows, box_cols, layout)

    @property
    def no_boxes(self) -> bool:
        """A jigsaw of a size that no box tiles (7x7): its frame is written 1 x N."""
        return (self.box_rows, self.box_cols) == (1, self.size) and usual_box_shape(
            self.size
        ) is None

    @staticmethod
    def jigsaw(size: int, layout: tuple[int, ...]) -> GridShape:
        """A jigsaw's shape: boxes of the usual shape drawn as its frame, or none where no
        box tiles the size (7x7)."""
        rows, cols = usual_box_shape(size) or (1, size)
        return GridShape.of(size, rows, cols, layout)

    @staticmethod
    def of_size(size: int) -> GridShape:
        """The usual box shape of side `size` (6 -> boxes of 2x3)."""
        return GridShape.of(size, *default_box_shape(size))

    def with_layout(self, layout: tuple[int, ...] | None) -> GridShape:
        return GridShape.of(self.size, self.box_rows, self.box_cols, layout)

    # ----- cells ----------------------------------------------------------------------------

    @property
    def cell_count(self) -> int:
        return self.size * self.size

    @property
    def cells(self) -> range:
        return range(self.cell_count)

    @property
    def digits(self) -> range:
        return range(1, self.size + 1)

    def cell(self, row: int, col: int) -> int:
        return row * self.size + col

    def row_of(self, cell: int) -> int:
        return cell // self.size

    def col_of(self, cell: int) -> int:
        return cell % self.size

    def region_of(self, cell: int) -> int:
        """The region (box, or jigsaw piece) of a cell, 0..N-1."""
        return self.region_layout[cell]

    def cell_name(self, cell: int) -> str:
        """`r1c1` notation, 1-based, as human solvers write it."""
        return f"r{cell // self.size + 1}c{cell % self.size + 1}"

    @property
    def is_jigsaw(self) -> bool:
        return self.layout is not None

    @property
    def region_word(self) -> str:
        """What one region is called: `box`, or `region` in a jigsaw."""
        return "box" if self.layout is None else "region"

    @cached_property
    def region_layout(self) -> tuple[int, ...]:
        """Each cell's region, the boxes' too (`layout` is None for boxes)."""
        if self.layout is not None:
            return self.layout
        return box_layout(self.size, self.box_rows, self.box_cols)

    # ----- the unit families ----------------------------------------------------------------

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(range(r * n, (r + 1) * n)) for r in range(n))

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(range(c, n * n, n)) for c in range(n))

    @cached_property
    def regions(self) -> tuple[tuple[int, ...], ...]:
        """The N regions of N cells: the boxes, or the jigsaw pieces."""
        members: list[list[int]] = [[] for _ in range(self.size)]
        for cell, region in enumerate(self.region_layout):
            members[region].append(cell)
        return tuple(tuple(region) for region in members)

    def family(self, name: str) -> tuple[tuple[int, ...], ...]:
        """The units of a family by name: `row`, `column` or `region` (`box` also works)."""
        if name == "row":
            return self.rows
        if name == "column":
            return self.columns
        if name in ("region", "box"):
            return self.regions
        raise KeyError(f"no unit family {name!r}: the families are {', '.join(FAMILIES)}")

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """The rows, then the columns, then the regions: unit i of family f is at
        `family_start(f) + i`."""
        return self.rows + self.columns + self.regions

    def family_start(self, name: str) -> int:
        """The index (into `units`) of the first unit of a family."""
        return FAMILIES.index("region" if name == "box" else name) * self.size

    def family_of(self, unit: int) -> str:
        """The family (`row`, `column`, `region`) of a unit index into `units`; indices past
        the shape's units (a rules' extra units) are `extra`."""
        return FAMILIES[unit // self.size] if 0 <= unit < 3 * self.size else "extra"

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """`row 1`, `column 1`, `box 1` (`region 1` for jigsaw), ... (1-based)."""
        words = ("row", "column", self.region_word)
        return tuple(f"{word} {i + 1}" for word in words for i in range(self.size))

    @cached_property
    def units_of(self) -> tuple[tuple[int, int, int], ...]:
        """For each cell, the indices (into `units`) of its row, column and region."""
        n = self.size
        return tuple(
            (cell // n, n + cell % n, 2 * n + region)
            for cell, region in enumerate(self.region_layout)
        )

    def _check_layout(self, layout: tuple[int, ...]) -> None:
        n = self.size
        if len(layout) != n * n or any(not 0 <= r < n for r in layout):
            raise RulesError(f"regions: each of the {n * n} cells needs a region from 1 to {n}")
        sizes = [0] * n
        for region in layout:
            sizes[region] += 1
        wrong = [str(r + 1) for r, count in enumerate(sizes) if count != n]
        if wrong:
            raise RulesError(f"regions: region {wrong[0]} does not have {n} cells")


@lru_cache(maxsize=64)  # one object per shape in use; jigsaws each have their own
def _shared(size: int, box_rows: int, box_cols: int, layout: tuple[int, ...] | None) -> GridShape:
    return GridShape(size, box_rows, box_cols, layout)
