"""The loops of `sudoku_bench.harness.generating.facts`, compiled by numba where it is installed.

Without numba the same functions run as plain Python: fine for 4x4, far too slow for 6x6
(`facts` refuses 6x6 then and says why). Compiled with `cache=True`: the machine code is kept
on disk and later processes load it instead of compiling again.

Grids are rows of an int8 array, cells in row-major order, digits 1..n. A cell set is a
uint64 bit mask (bit c for cell c), enough for the 36 cells of a 6x6 grid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

try:
    from numba import njit

    COMPILED = True

    def _jit(function: F) -> F:
        return njit(cache=True)(function)  # type: ignore[return-value]

except ImportError:  # the plain-Python fallback: same code, same answers, slower
    COMPILED = False

    def _jit(function: F) -> F:
        return function


# `fill` modes
COUNT = 0  # count the completions
STORE = 1  # and write each into `out`
DIFFER = 2  # stop at the first completion that differs from `reference`; return 1 if found


@_jit
def fill(
    n: int,
    box: np.ndarray,
    given: np.ndarray,
    mode: int,
    out: np.ndarray,
    reference: np.ndarray,
    stop: int,
) -> int:
    """Complete the first `stop` cells of the grid `given` (0 = empty) every way the rules
    allow, cells in order (`stop` = n * n: whole grids; n * box rows: the first band).

    Every given is placed in the row, column and box masks before the search, so a free cell
    never takes a digit a later given excludes. Returns the number of completions (in
    DIFFER mode: 1 when one that differs from `reference` was found, and it is in `out[0]`).
    """
    cells = n * n
    row_used = np.zeros(n, np.int64)
    col_used = np.zeros(n, np.int64)
    box_used = np.zeros(n, np.int64)
    values = np.zeros(cells, np.int64)
    for cell in range(cells):
        digit = given[cell]
        if digit:
            bit = 1 << digit
            r, c, b = cell // n, cell % n, box[cell]
            if (row_used[r] | col_used[c] | box_used[b]) & bit:
                return 0  # two givens clash: no completion
            row_used[r] |= bit
            col_used[c] |= bit
            box_used[b] |= bit
            values[cell] = digit
    found = 0
    k = 0
    forward = True
    while k >= 0:
        if k == stop:
            if mode == DIFFER:
                for cell in range(cells):
                    if values[cell] != reference[cell]:
                        for x in range(cells):
                            out[0, x] = values[x]
                        return 1
            else:
                if mode == STORE:
                    for cell in range(cells):
                        out[found, cell] = values[cell]
                found += 1
            k -= 1
            forward = False
            continue
        if given[k]:  # a given is passed over in either direction
            k = k + 1 if forward else k - 1
            continue
        r, c, b = k // n, k % n, box[k]
        current = values[k]
        if current:
            bit = 1 << current
            row_used[r] ^= bit
            col_used[c] ^= bit
            box_used[b] ^= bit
        used = row_used[r] | col_used[c] | box_used[b]
        digit = current + 1
        while digit <= n and (used >> digit) & 1:
            digit += 1
        if digit > n:
            values[k] = 0
            k -= 1
            forward = False
            continue
        bit = 1 << digit
        row_used[r] |= bit
        col_used[c] |= bit
        box_used[b] |= bit
        values[k] = digit
        k += 1
        forward = True
    return found


@_jit
def canonical_forms(grids: np.ndarray, maps: np.ndarray, n: int, out: np.ndarray) -> None:
    """out[i] = the smallest image of grids[i] under every cell map, each image relabelled so
    that its first row reads 1..n: one form per class of the whole symmetry group."""
    count, cells = grids.shape
    label = np.zeros(n + 1, np.int64)
    for i in range(count):
        for x in range(cells):
            out[i, x] = 127  # above every digit: the first image replaces it
        for m in range(maps.shape[0]):
            for x in range(n):
                label[grids[i, maps[m, x]]] = x + 1
            # compare the image with the best so far, cell by cell; copy it when smaller
            smaller = False
            for x in range(cells):
                value = label[grids[i, maps[m, x]]]
                if smaller:
                    out[i, x] = value
                elif value < out[i, x]:
                    smaller = True
                    out[i, x] = value
                elif value > out[i, x]:
                    break


@_jit
def fixed_counts(grids: np.ndarray, maps: np.ndarray, n: int, out: np.ndarray) -> None:
    """out[m] = how many of `grids` (each with first row 1..n) equal their own image under
    cell map m once that image is relabelled to first row 1..n: the grids that map m
    combined with one relabelling fixes."""
    count, cells = grids.shape
    label = np.zeros(n + 1, np.int64)
    for m in range(maps.shape[0]):
        fixed = 0
        for i in range(count):
            for x in range(n):
                label[grids[i, maps[m, x]]] = x + 1
            same = True
            for x in range(n, cells):
                if label[grids[i, maps[m, x]]] != grids[i, x]:
                    same = False
                    break
            if same:
                fixed += 1
        out[m] = fixed


@_jit
def difference_sets(
    grid: np.ndarray, grids: np.ndarray, relabellings: np.ndarray, n: int, most: int
) -> np.ndarray:
    """The cells where `grid` differs from each other grid, for every grid that differs in at
    most `most` cells: every relabelling of every row of `grids` (which hold one grid per
    relabelling class). Each such set is unavoidable: a puzzle of `grid` whose givens miss it
    is also a puzzle of the other grid. Returns the masks (with repeats)."""
    count, cells = grids.shape
    agree = np.zeros((n + 1, n + 1), np.int64)
    found = np.zeros(1024, np.uint64)
    total = 0
    for i in range(count):
        agree[:, :] = 0
        for x in range(cells):
            agree[grids[i, x], grid[x]] += 1
        for p in range(relabellings.shape[0]):
            same = 0
            for digit in range(1, n + 1):
                same += agree[digit, relabellings[p, digit]]
            if same == cells or cells - same > most:
                continue
            mask = np.uint64(0)
            for x in range(cells):
                if relabellings[p, grids[i, x]] != grid[x]:
                    mask |= np.uint64(1) << np.uint64(x)
            if total == found.shape[0]:
                grown = np.zeros(2 * total, np.uint64)
                grown[:total] = found
                found = grown
            found[total] = mask
            total += 1
    return found[:total]


@_jit
def _popcount(mask: np.uint64) -> int:
    count = 0
    while mask:
        mask &= mask - np.uint64(1)
        count += 1
    return count


# `hitting_search` outcomes
NONE_UNIQUE = 0  # no puzzle with at most `clues` givens has one solution
UNIQUE_FOUND = 1  # one does: its cells are in stats[FOUND_CELLS]
SETS_FULL = 2  # more unavoidable sets were found than `sets` can hold: call with more room

# `hitting_search` statistics
NODES = 0
CHECKED = 1  # hitting sets given to the solver
ADDED = 2  # unavoidable sets the solver's other solutions added
FOUND_CELLS = 3
SET_COUNT = 4


@_jit
def hitting_search(
    n: int,
    box: np.ndarray,
    grid: np.ndarray,
    sets: np.ndarray,
    set_count: int,
    clues: int,
    stats: np.ndarray,
) -> int:
    """Search every cell set of at most `clues` cells that hits each unavoidable set, and ask
    the solver whether `grid` restricted to it has one solution.

    A unique puzzle of `grid` hits every unavoidable set, so no puzzle is missed. The search
    branches on the cells of the unhit set with the fewest cells still allowed; in the i-th
    branch the set's first i-1 cells are barred, so no cell set is visited twice. When a
    hitting set has a second solution, the cells where that solution differs are a new
    unavoidable set (unhit by construction), added to `sets` and used from then on.
    """
    cells = n * n
    given = np.zeros(cells, np.int64)
    other = np.zeros((1, cells), np.int64)
    chosen = np.zeros(clues + 2, np.uint64)
    barred = np.zeros(clues + 2, np.uint64)
    branch = np.zeros(clues + 2, np.uint64)
    tried = np.zeros(clues + 2, np.uint64)
    one = np.uint64(1)
    depth = 0
    entering = True
    while depth >= 0:
        if entering:
            entering = False
            stats[NODES] += 1
            taken = chosen[depth]
            allowed = ~barred[depth]
            best = -1
            best_live = 1 << 30
            for s in range(set_count):
                if sets[s] & taken:
                    continue
                live = _popcount(sets[s] & allowed)
                if live < best_live:
                    best_live = live
                    best = s
                    if live == 0:
                        break
            if best < 0:  # every set hit: ask the solver
                stats[CHECKED] += 1
                for x in range(cells):
                    given[x] = grid[x] if (taken >> np.uint64(x)) & one else 0
                if fill(n, box, given, DIFFER, other, grid, cells) == 0:
                    stats[FOUND_CELLS] = np.int64(taken)
                    stats[SET_COUNT] = set_count
                    return UNIQUE_FOUND
                if set_count == sets.shape[0]:
                    stats[SET_COUNT] = set_count
                    return SETS_FULL
                mask = np.uint64(0)
                for x in range(cells):
                    if other[0, x] != grid[x]:
                        mask |= one << np.uint64(x)
                sets[set_count] = mask
                set_count += 1
                stats[ADDED] += 1
                entering = True  # the same node again, now with a set it misses
                continue
            left = clues - depth
            if best_live == 0 or left == 0:
                depth -= 1
                continue
            # a lower bound: unhit sets whose allowed cells are pairwise disjoint
            disjoint = 0
            covered = np.uint64(0)
            for s in range(set_count):
                if sets[s] & taken:
                    continue
                live_cells = sets[s] & allowed
                if live_cells & covered:
                    continue
                covered |= live_cells
                disjoint += 1
                if disjoint > left:
                    break
            if disjoint > left:
                depth -= 1
                continue
            branch[depth] = sets[best] & allowed
            tried[depth] = np.uint64(0)
        remaining = branch[depth] & ~tried[depth]
        if remaining == 0:
            depth -= 1
            continue
        cell = remaining & (~remaining + one)  # the lowest cell left
        chosen[depth + 1] = chosen[depth] | cell
        barred[depth + 1] = barred[depth] | tried[depth]
        tried[depth] |= cell
        depth += 1
        entering = True
    stats[SET_COUNT] = set_count
    return NONE_UNIQUE
