"""The 4x4 facts of the source thesis (seed 003), computed rather than quoted.

- There are 288 complete 4x4 grids (enumerated here by plain backtracking).
- Under digit relabelling, row swaps within a band, column swaps within a stack, band swaps,
  stack swaps and transposition they fall into 2 essentially different classes.
- No puzzle with 3 or fewer givens has exactly one solution; some with 4 givens do. A puzzle
  is a set of cells with the values one grid has there; it is unique when no other of the
  288 grids agrees with it on those cells.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules

FOUR = Rules.of_size(4)


@cache
def all_grids(rules: Rules = FOUR) -> tuple[Grid, ...]:
    """Every complete grid of a (small) geometry, in lexicographic order."""
    values = [0] * rules.cell_count
    found: list[Grid] = []

    def fill(cell: int) -> None:
        if cell == rules.cell_count:
            found.append(Grid(rules, tuple(values)))
            return
        for digit in rules.digits:
            if all(values[peer] != digit for peer in rules.peers[cell]):
                values[cell] = digit
                fill(cell + 1)
        values[cell] = 0

    fill(0)
    return tuple(found)


def line_orders(bands: int, per_band: int) -> list[tuple[int, ...]]:
    """Orders of the rows (or columns) that keep bands (stacks) together."""
    orders = []
    for band_order in permutations(range(bands)):
        for inner in product(permutations(range(per_band)), repeat=bands):
            orders.append(
                tuple(
                    band * per_band + inner[i][j]
                    for i, band in enumerate(band_order)
                    for j in range(per_band)
                )
            )
    return orders


def cell_maps(rules: Rules) -> list[tuple[int, ...]]:
    """Each symmetry of the grid as a map new cell -> old cell (transposition needs square boxes)."""
    n = rules.size
    rows = line_orders(n // rules.box_rows, rules.box_rows)
    cols = line_orders(n // rules.box_cols, rules.box_cols)
    transposes = (False, True) if rules.box_rows == rules.box_cols else (False,)
    maps = []
    for row_order, col_order, transpose in product(rows, cols, transposes):
        cells = []
        for r in range(n):
            for c in range(n):
                rr, cc = (c, r) if transpose else (r, c)
                cells.append(row_order[rr] * n + col_order[cc])
        maps.append(tuple(cells))
    return maps


def relabelled(values: tuple[int, ...]) -> tuple[int, ...]:
    """Digits renamed in order of first appearance (1 first): one name per relabelling class."""
    names: dict[int, int] = {}
    return tuple(names.setdefault(v, len(names) + 1) for v in values)


def canonical(grid: Grid, maps: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The smallest relabelled image of the grid under every symmetry: equal for equivalent grids."""
    return min(relabelled(tuple(grid.values[old] for old in cell_map)) for cell_map in maps)


def classes(grids: Sequence[Grid]) -> Counter[tuple[int, ...]]:
    """Class representative -> how many of the grids fall in it."""
    maps = cell_maps(grids[0].rules)
    return Counter(canonical(grid, maps) for grid in grids)


@dataclass(frozen=True)
class GivensCount:
    givens: int
    puzzles: int  # distinct puzzles with that many givens that have a solution
    unique: int  # of which exactly one solution


def puzzles_by_givens(grids: Sequence[Grid], givens: int) -> GivensCount:
    """Every puzzle with `givens` givens drawn from a grid, and how many are unique."""
    cells = range(grids[0].rules.cell_count)
    puzzles = unique = 0
    for chosen in combinations(cells, givens):
        agreeing = Counter(tuple(grid.values[c] for c in chosen) for grid in grids)
        puzzles += len(agreeing)
        unique += sum(1 for n in agreeing.values() if n == 1)
    return GivensCount(givens, puzzles, unique)


@dataclass(frozen=True)
class Facts:
    grids: int
    class_sizes: tuple[int, ...]
    by_givens: tuple[GivensCount, ...]

    @property
    def minimum_givens(self) -> int | None:
        return next((row.givens for row in self.by_givens if row.unique), None)


@cache
def facts(max_givens: int = 4) -> Facts:
    grids = all_grids(FOUR)
    sizes = tuple(sorted(classes(grids).values()))
    by_givens = tuple(puzzles_by_givens(grids, k) for k in range(max_givens + 1))
    return Facts(len(grids), sizes, by_givens)
