"""The shape of a Sudoku: side N, box shape, optional extra units (Sudoku-X diagonals).

Every other part of sudoku-bench asks the geometry for cells, units and peers;
nothing else hard-codes 9, 3 or 81. Cells are numbered 0..N²-1 in row-major order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property

from puzzles.errors import RulesError


def default_box_shape(size: int) -> tuple[int, int]:
    """The most nearly square rows x cols box with rows <= cols (6 -> 2x3, 12 -> 3x4)."""
    if size < 4:  # also keeps 0 and negative sizes away from isqrt and max below
        raise RulesError(f"size {size} is too small: the smallest Sudoku is 4x4")
    _check_not_too_large(size)  # the search below takes isqrt(size) steps
    rows = max(d for d in range(1, math.isqrt(size) + 1) if size % d == 0)
    if rows == 1:
        raise RulesError(
            f"a {size}x{size} grid has no box shape (a box needs rows x cols = {size}, both > 1)"
        )
    return rows, size // rows


# Far past any puzzle a back-end here can solve (25x25 is the largest collection, and the
# alphabets end at 25 symbols); a bound keeps `--geometry 10**30` from factoring for hours.
MAX_SIZE = 1024


def _check_not_too_large(size: int) -> None:
    if size > MAX_SIZE:
        raise RulesError(f"size {size} is too large: sudoku-bench goes up to {MAX_SIZE}")


@dataclass(frozen=True)
class Rules:
    """An N x N Sudoku with boxes of `box_rows` x `box_cols` and, if `diagonals`, Sudoku-X."""

    size: int
    box_rows: int
    box_cols: int
    diagonals: bool = False

    def __post_init__(self) -> None:
        if self.size < 4:
            raise RulesError(f"size {self.size} is too small: the smallest Sudoku is 4x4")
        _check_not_too_large(self.size)
        if self.box_rows * self.box_cols != self.size or min(self.box_rows, self.box_cols) < 2:
            raise RulesError(
                f"boxes of {self.box_rows}x{self.box_cols} do not tile a "
                f"{self.size}x{self.size} grid (rows x cols must equal {self.size}, both > 1)"
            )

    @staticmethod
    @cache
    def of_size(size: int, *, diagonals: bool = False) -> Rules:
        """The usual geometry of side `size` (shared instance, so its tables are built once)."""
        rows, cols = default_box_shape(size)
        return Rules(size, rows, cols, diagonals)

    @staticmethod
    def for_cell_count(count: int, *, diagonals: bool = False) -> Rules:
        """The geometry whose grid has `count` cells (81 -> 9x9), or a RulesError."""
        size = math.isqrt(count)
        if size * size != count:
            raise RulesError(f"{count} cells is not a square grid (81 for 9x9, 16 for 4x4, ...)")
        return Rules.of_size(size, diagonals=diagonals)

    @staticmethod
    def parse(text: str) -> Rules:
        """Read a geometry name: `9`, `9x9`, `6x6:3x2` (explicit box), `9x9-x` (Sudoku-X)."""
        spec = text.strip().lower()
        diagonals = spec.endswith("-x")
        spec = spec.removesuffix("-x")
        side, _, box = spec.partition(":")
        try:
            sides = [int(part) for part in side.split("x")]
            size = sides[0]
            if len(sides) > 2:
                raise ValueError(side)
            if len(set(sides)) > 1:  # `9x8` was read as 9x9
                raise RulesError(f"a Sudoku grid is square: {text.strip()!r} is not")
            if box:
                rows, cols = (int(part) for part in box.split("x"))
                return Rules(size, rows, cols, diagonals)
        except ValueError:
            raise RulesError(
                f"cannot read geometry {text!r}: expected e.g. 9, 9x9, 6x6:2x3 or 9x9-x"
            ) from None
        return Rules.of_size(size, diagonals=diagonals)

    @property
    def name(self) -> str:
        """`9x9`, `6x6`, `9x9-x`; the box shape is added where it is not the usual one."""
        base = f"{self.size}x{self.size}"
        if (self.box_rows, self.box_cols) != default_box_shape(self.size):
            base += f":{self.box_rows}x{self.box_cols}"
        return base + ("-x" if self.diagonals else "")

    def __str__(self) -> str:
        return self.name

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

    def box_of(self, cell: int) -> int:
        row, col = divmod(cell, self.size)
        boxes_per_band = self.size // self.box_cols
        return (row // self.box_rows) * boxes_per_band + col // self.box_cols

    def cell_name(self, cell: int) -> str:
        """`r1c1` notation, 1-based, as human solvers write it."""
        return f"r{self.row_of(cell) + 1}c{self.col_of(cell) + 1}"

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(range(r * n, (r + 1) * n)) for r in range(n))

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        n = self.size
        return tuple(tuple(range(c, n * n, n)) for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        members: list[list[int]] = [[] for _ in range(self.size)]
        for cell in self.cells:
            members[self.box_of(cell)].append(cell)
        return tuple(tuple(box) for box in members)

    @cached_property
    def extra_units(self) -> tuple[tuple[int, ...], ...]:
        """Units beyond rows, columns and boxes: the two diagonals of Sudoku-X."""
        if not self.diagonals:
            return ()
        n = self.size
        main = tuple(self.cell(i, i) for i in range(n))
        anti = tuple(self.cell(i, n - 1 - i) for i in range(n))
        return (main, anti)

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit (rows, then columns, boxes, extras); each holds every digit once."""
        return self.rows + self.columns + self.boxes + self.extra_units

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """`row 1`, `column 1`, `box 1`, ..., `diagonal`, `anti-diagonal` (1-based)."""
        names = [f"{kind} {i + 1}" for kind in ("row", "column", "box") for i in range(self.size)]
        names += ["diagonal", "anti-diagonal"][: len(self.extra_units)]
        return tuple(names)

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into `units`) of the units it belongs to."""
        owners: list[list[int]] = [[] for _ in self.cells]
        for index, unit in enumerate(self.units):
            for cell in unit:
                owners[cell].append(index)
        return tuple(tuple(owner) for owner in owners)

    @cached_property
    def unit_keys(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, `unit * (N + 1)` per unit it is in: adding a digit gives a number
        that stands for (unit, digit), so a repeated number is a digit twice in a unit."""
        stride = self.size + 1
        return tuple(tuple(unit * stride for unit in units) for units in self.units_of)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells that share a unit with it, sorted."""
        result = []
        for cell in self.cells:
            others = {peer for u in self.units_of[cell] for peer in self.units[u]}
            others.discard(cell)
            result.append(tuple(sorted(others)))
        return tuple(result)


# Sizes people play, with their usual box shapes; `Geometry.of_size` accepts any other valid size.
COMMON_SIZES = (4, 6, 8, 9, 12, 16, 25)
