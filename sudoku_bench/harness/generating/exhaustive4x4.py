"""Every 4x4 puzzle made by keeping some givens of a complete grid, counted exactly.

A puzzle here is a pair (grid g, cell set S): the values g has on the cells S. Its solutions
are the grids h that agree with g on S. With A(g, h) the 16-bit mask of the cells where g and
h agree, the solution count of (g, S) is #{h : S is a subset of A(g, h)}. For one g, the
counts of all 2^16 sets S at once are a superset-sum (zeta) transform of the histogram of the
masks A(g, h) over the 288 grids h: 16 passes over a 65,536-entry array (numpy), one per cell.

Counting pairs (g, S) gives the distribution of "take a random grid, keep k random cells":
the design of the `clues` experiment's 9x9 samples. A distinct puzzle with c solutions is the
pair (h, S) for each of its c solutions h, so the number of distinct puzzles with k givens is
the sum over c of (pairs with count c) / c, and the distinct unique puzzles are the pairs with
count 1; those two match `facts4x4.puzzles_by_givens`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from sudoku_bench.harness.generating.facts4x4 import FOUR, all_grids
from sudoku_bench.puzzles.grid import Grid

CELLS = FOUR.cell_count  # 16
SETS = 1 << CELLS  # 65,536 cell sets per grid


def agreement_mask(grid: Grid, other: Grid) -> int:
    """The cells (bit c for cell c) where two grids hold the same digit."""
    return sum(
        1 << cell
        for cell, (a, b) in enumerate(zip(grid.values, other.values, strict=True))
        if a == b
    )


def solution_counts(grid: Grid, grids: Sequence[Grid]) -> npt.NDArray[np.int64]:
    """For every cell set S (as a 16-bit index), how many of `grids` agree with `grid` on S."""
    masks = [agreement_mask(grid, other) for other in grids]
    counts = np.bincount(np.array(masks, dtype=np.int64), minlength=SETS).astype(np.int64)
    for cell in range(CELLS):
        # S without the cell gains the count of S with it: a superset sum along this bit
        halves = counts.reshape(-1, 2, 1 << cell)
        halves[:, 0, :] += halves[:, 1, :]
    return counts


def popcounts() -> npt.NDArray[np.int64]:
    """The number of givens of each cell set S."""
    return np.array([s.bit_count() for s in range(SETS)], dtype=np.int64)


@dataclass(frozen=True)
class GivensRow:
    """All (grid, cell set) pairs with `givens` cells, by their solution count."""

    givens: int
    pairs: int  # 288 x C(16, givens)
    by_count: dict[int, int]  # solution count -> pairs with that count

    @property
    def unique(self) -> int:
        return self.by_count.get(1, 0)

    @property
    def multiple(self) -> int:
        """Pairs with two or more solutions."""
        return self.pairs - self.unique

    @property
    def unique_share(self) -> float:
        return self.unique / self.pairs

    @property
    def multiple_share(self) -> float:
        return self.multiple / self.pairs

    @property
    def distinct(self) -> int:
        """Distinct puzzles: a puzzle with c solutions is c of the pairs."""
        assert all(pairs % count == 0 for count, pairs in self.by_count.items())
        return sum(pairs // count for count, pairs in self.by_count.items())

    @property
    def mean_count(self) -> float:
        return sum(count * pairs for count, pairs in self.by_count.items()) / self.pairs


@dataclass(frozen=True)
class Exhaustive:
    grids: int
    rows: tuple[GivensRow, ...]  # givens 0..16

    @property
    def first_unique(self) -> int | None:
        """The fewest givens with which some puzzle has exactly one solution."""
        return next((row.givens for row in self.rows if row.unique), None)


@cache
def exhaustive() -> Exhaustive:
    """Every 4x4 grid and every subset of its cells, by number of givens and solution count."""
    grids = all_grids(FOUR)
    givens = popcounts()
    most = len(grids)  # the empty puzzle: every grid
    table = np.zeros((CELLS + 1) * (most + 1), dtype=np.int64)
    for grid in grids:
        counts = solution_counts(grid, grids)
        table += np.bincount(givens * (most + 1) + counts, minlength=table.size)
    by_givens = table.reshape(CELLS + 1, most + 1)
    rows = tuple(
        GivensRow(
            k,
            int(by_givens[k].sum()),
            {int(c): int(n) for c, n in enumerate(by_givens[k]) if n},
        )
        for k in range(CELLS + 1)
    )
    return Exhaustive(len(grids), rows)
