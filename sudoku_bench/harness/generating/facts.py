"""The facts of the source thesis's results chapter for the small sizes (4x4 and 6x6), computed.

- **Grids.** Every complete grid is counted by backtracking (288 for 4x4, 28,200,960 for 6x6
  with 2x3 boxes). The grids whose first row reads 1..n (one per relabelling class) are also
  listed, and their number times n! must give the same count.
- **Essentially different grids**, two independent ways that must agree. The symmetries are the
  cell maps (band and stack permutations, row and column permutations within them, and
  transposition when the boxes are square; a 2x3 box turns into a 3x2 one under transposition,
  so 6x6 has none) combined with the n! digit relabellings.
  1. Canonical forms: each listed grid's smallest image under every cell map, relabelled so
     that its first row reads 1..n; the classes are the distinct forms.
  2. Burnside's lemma: classes = (1/|G|) sum over the group elements of the grids each fixes.
     A grid is fixed by (cell map m, some relabelling) when its image under m, relabelled, is
     itself, and then by exactly one relabelling; so the sum over the n! relabellings of m is
     n! times the listed grids whose relabelled image under m is themselves.
- **The fewest clues of a unique puzzle.** A puzzle of a grid g is unique when no other grid
  agrees with g on its givens, that is when its givens hit every unavoidable set: the cells
  where g differs from another grid. For one grid of each class (the count is the same over a
  class, since a symmetry maps puzzles to puzzles) the small unavoidable sets are collected from
  every grid, then every cell set of k cells that hits them all is given to a solver; a second
  solution adds the cells where it differs as a new unavoidable set. No unique puzzle with k
  clues in any class proves the minimum is above k (a unique puzzle with fewer clues would
  stay unique with more); one found with k+1 clues, checked by a registered back-end, proves
  it is k+1.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import permutations
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from sudoku_bench.harness.generating import grid_kernels as kernels
from sudoku_bench.harness.generating.facts4x4 import cell_maps
from sudoku_bench.harness.generating.facts_sizes import SIZES
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules

# the smallest unavoidable sets collected before the search: up to this many cells; larger
# ones the search finds when it needs them
UNAVOIDABLE_CELLS = {4: 16, 6: 12}

Array = npt.NDArray[Any]
T = TypeVar("T")


class FactsError(SudokuBenchError):
    """A size these methods cannot do, or a library they need is missing."""


def _cpu(task: Callable[[], T]) -> tuple[T, float]:
    started = time.process_time()
    value = task()
    return value, time.process_time() - started


@dataclass(frozen=True)
class Geometry:
    """One small grid size: its rules and the index tables the kernels take."""

    rules: Rules

    @staticmethod
    def of_size(size: int) -> Geometry:
        if size not in SIZES:
            raise FactsError(
                f"facts are computed for sizes {' and '.join(map(str, SIZES))}, not {size}"
            )
        if size > 4 and not kernels.COMPILED:
            raise FactsError(
                f"facts --size {size} needs numba (pip install 'sudoku-bench[jit]'): in plain "
                "Python its loops would take hours"
            )
        return Geometry(Rules.of_size(size))

    @property
    def n(self) -> int:
        return self.rules.size

    @property
    def cells(self) -> int:
        return self.rules.cell_count

    @cached_property
    def box(self) -> Array:
        """The box of each cell."""
        rules = self.rules
        return np.array(
            [
                (cell // self.n) // rules.box_rows * (self.n // rules.box_cols)
                + (cell % self.n) // rules.box_cols
                for cell in range(self.cells)
            ],
            dtype=np.int64,
        )

    @cached_property
    def maps(self) -> Array:
        """Each cell symmetry as a map new cell -> old cell (`facts4x4.cell_maps`)."""
        return np.array(cell_maps(self.rules), dtype=np.int64)

    @cached_property
    def relabellings(self) -> Array:
        """Each digit permutation as a table old digit -> new digit (entry 0 unused)."""
        return np.array([(0, *p) for p in permutations(range(1, self.n + 1))], dtype=np.int64)

    def completions(self, given: Array, *, store: bool = False) -> tuple[int, Array]:
        """How many complete grids extend `given` (0 = empty), and them when `store`."""
        return self.fill(given, self.cells, store=store)

    def fill(self, given: Array, stop: int, *, store: bool = False) -> tuple[int, Array]:
        """How many ways the first `stop` cells of `given` can be filled, and them when `store`
        (rows of `cells` values, zero past `stop`)."""
        none = np.zeros((1, self.cells), np.int8)
        count = kernels.fill(self.n, self.box, given, kernels.COUNT, none, none[0], stop)
        if not store:
            return count, none[:0]
        out = np.zeros((count, self.cells), np.int8)
        kernels.fill(self.n, self.box, given, kernels.STORE, out, none[0], stop)
        return count, out

    def first_row(self) -> Array:
        """The empty grid with its first row 1..n."""
        given = np.zeros(self.cells, np.int64)
        given[: self.n] = np.arange(1, self.n + 1)
        return given


@dataclass(frozen=True)
class GridCount:
    grids: int  # every complete grid, counted by backtracking from the empty grid
    first_row_fixed: int  # those whose first row reads 1..n
    relabellings: int  # n!


@dataclass(frozen=True)
class Classes:
    """Essentially different grids by canonical forms."""

    representatives: tuple[tuple[int, ...], ...]  # each class's canonical form
    sizes: tuple[int, ...]  # complete grids in each class, in the order of `representatives`


@dataclass(frozen=True)
class Burnside:
    cell_maps: int
    group_order: int  # cell maps x relabellings
    fixed_total: int  # sum over the group of the complete grids each element fixes
    maps_fixing_some_grid: int  # cell maps that, with some relabelling, fix at least one grid
    fixed_by_map: dict[int, int]  # grids fixed (summed over relabellings) -> how many cell maps

    @property
    def classes(self) -> int:
        classes, left = divmod(self.fixed_total, self.group_order)
        if left:  # Burnside's sum is a multiple of the group order, or the counting is wrong
            raise AssertionError(f"{self.fixed_total} fixed grids over {self.group_order}")
        return classes


@dataclass(frozen=True)
class ClassProof:
    """The hitting-set search on one class's grid for puzzles of `clues` clues."""

    grid: tuple[int, ...]
    clues: int
    unavoidable_sets: int  # collected before the search (distinct, minimal)
    added_sets: int  # found by the solver during the search
    nodes: int
    checked: int  # hitting sets given to the solver
    unique: tuple[int, ...] | None  # the cells of a unique puzzle, if one was found


@dataclass(frozen=True)
class MinimumClues:
    minimum: int
    none_below: tuple[ClassProof, ...]  # one per class: no unique puzzle with minimum - 1 clues
    example: ClassProof  # a search that found a unique puzzle with `minimum` clues

    def example_puzzle(self, rules: Rules) -> Grid:
        cells = set(self.example.unique or ())
        grid = self.example.grid
        return Grid(rules, tuple(grid[c] if c in cells else 0 for c in range(len(grid))))


@dataclass
class Facts:
    size: int
    box: str
    counted: GridCount
    classes: Classes
    burnside: Burnside
    minimum: MinimumClues
    cpu_s: dict[str, float] = field(default_factory=dict)


def count_grids(geometry: Geometry) -> tuple[GridCount, Array]:
    """Every grid counted from the empty grid, and the grids with first row 1..n listed."""
    total, _ = geometry.completions(np.zeros(geometry.cells, np.int64))
    listed, grids = geometry.completions(geometry.first_row(), store=True)
    return GridCount(total, listed, math.factorial(geometry.n)), grids


def classes_by_canonical_form(geometry: Geometry, grids: Array) -> Classes:
    """Classes of `grids` (first row 1..n, one per relabelling class) by canonical forms."""
    forms = np.zeros_like(grids)
    kernels.canonical_forms(grids, geometry.maps, geometry.n, forms)
    distinct, counts = np.unique(forms, axis=0, return_counts=True)
    relabel = math.factorial(geometry.n)
    return Classes(
        tuple(tuple(int(v) for v in row) for row in distinct),
        tuple(int(c) * relabel for c in counts),
    )


def burnside(geometry: Geometry, grids: Array, maps: Array | None = None) -> Burnside:
    """Burnside's count over the cell maps `maps` (all of them by default) and relabellings."""
    maps = geometry.maps if maps is None else maps
    fixed = np.zeros(len(maps), np.int64)
    kernels.fixed_counts(grids, maps, geometry.n, fixed)
    relabel = math.factorial(geometry.n)
    values, counts = np.unique(fixed * relabel, return_counts=True)
    return Burnside(
        len(maps),
        len(maps) * relabel,
        int(fixed.sum()) * relabel,
        int((fixed > 0).sum()),
        {int(v): int(c) for v, c in zip(values, counts, strict=True)},
    )


def unavoidable_sets(geometry: Geometry, grid: Array, grids: Array, most: int) -> Array:
    """The minimal sets among the cells where `grid` differs from another grid, up to `most`
    cells, smallest first (`grids`: one per relabelling class; every relabelling is tried)."""
    masks = np.unique(kernels.difference_sets(grid, grids, geometry.relabellings, geometry.n, most))
    sizes = np.array([int(m).bit_count() for m in masks])
    masks = masks[np.argsort(sizes, kind="stable")]
    kept: list[int] = []
    for mask in (int(m) for m in masks):
        if not any(k & mask == k for k in kept):  # a superset of a kept set adds nothing
            kept.append(mask)
    return np.array(kept, dtype=np.uint64)


def search_class(geometry: Geometry, grid: Array, sets: Array, clues: int) -> ClassProof:
    """Every puzzle of `grid` with at most `clues` clues that hits `sets`, until a unique one."""
    room = max(4 * len(sets), 4096)
    while True:
        table = np.zeros(room, np.uint64)
        table[: len(sets)] = sets
        stats = np.zeros(5, np.int64)
        outcome = kernels.hitting_search(
            geometry.n, geometry.box, grid, table, len(sets), clues, stats
        )
        if outcome != kernels.SETS_FULL:
            break
        room *= 4
    unique = None
    if outcome == kernels.UNIQUE_FOUND:
        mask = int(stats[kernels.FOUND_CELLS])
        unique = tuple(c for c in range(geometry.cells) if mask >> c & 1)
    return ClassProof(
        tuple(int(v) for v in grid),
        clues,
        len(sets),
        int(stats[kernels.ADDED]),
        int(stats[kernels.NODES]),
        int(stats[kernels.CHECKED]),
        unique,
    )


def minimum_clues(geometry: Geometry, classes: Classes, grids: Array) -> MinimumClues:
    """The fewest clues of a unique puzzle, proven over one grid of every class."""
    most = UNAVOIDABLE_CELLS[geometry.n]
    representatives = [np.array(r, dtype=np.int64) for r in classes.representatives]
    sets = [unavoidable_sets(geometry, r, grids, most) for r in representatives]
    below: tuple[ClassProof, ...] = ()
    clues = 1
    while clues < geometry.cells:
        proofs = []
        for grid, grid_sets in zip(representatives, sets, strict=True):
            proof = search_class(geometry, grid, grid_sets, clues)
            if proof.unique is not None:
                return MinimumClues(clues, below, proof)
            proofs.append(proof)
        below = tuple(proofs)
        clues += 1
    raise AssertionError("the full grid is a unique puzzle: the search must stop before it")


def compute(size: int) -> Facts:
    """Every fact of one size, with the CPU seconds of each part."""
    geometry = Geometry.of_size(size)
    (counted, grids), grids_s = _cpu(lambda: count_grids(geometry))
    classes, classes_s = _cpu(lambda: classes_by_canonical_form(geometry, grids))
    by_burnside, burnside_s = _cpu(lambda: burnside(geometry, grids))
    minimum, minimum_s = _cpu(lambda: minimum_clues(geometry, classes, grids))
    rules = geometry.rules
    return Facts(
        size,
        f"{rules.box_rows}x{rules.box_cols}",
        counted,
        classes,
        by_burnside,
        minimum,
        {
            "grids": grids_s,
            "classes": classes_s,
            "burnside": burnside_s,
            "minimum_clues": minimum_s,
        },
    )
