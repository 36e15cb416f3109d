"""The compiled loops of `sudoku_bench.harness.generating.minimum_clues`: unavoidable sets of one 9x9 grid
and the hitting-set search over its clue sets (numba, `cache=True`).

A cell set is two int64 words: bit c of word 0 for cells 0..62, bit c - 63 of word 1 for
cells 63..80 (row-major), so no sign bit is ever used. Grids are uint8 rows of 81 digits.

The uniqueness test is the `bitboard-jit` engine's own search (`sudoku_bench.solvers.engines.bitboard.
kernel.search`), called from inside the compiled code with a limit of 2 solutions: the second
solution of a clue set that is not unique differs from the grid in an unavoidable set that the
clue set misses, and the search adds it to the list (McGuire, Tugemann and Civario 2012 do the
same).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

from sudoku_bench.solvers.engines.bitboard import kernel

LOW = 63  # cells in word 0
BIG = 1 << 62  # a node budget the search never reaches: the kernel runs to the end

# `hitting_search`'s statistics vector
SETS = 0  # unavoidable sets in the list (the initial ones, then the ones the search adds)
NODES = 1  # nodes of the hitting-set search
TESTS = 2  # clue sets handed to the uniqueness test
ADDED = 3  # unavoidable sets the test's second solutions added
FOUND = 4  # unique clue sets found (rows of `found`)
STOP_AT_FIRST = 5  # 1: stop at the first unique clue set
STATISTICS = 8

# `hitting_search`'s outcomes
EXHAUSTED = 0  # every clue set of the task was searched
STOPPED = 1  # the first unique clue set was found and STOP_AT_FIRST was set
FOUND_FULL = 2  # more unique clue sets than `found` holds
GROW = 3  # inside the kernel only: the set table is full, double it and look again


@intrinsic
def popcount(typingctx, value):  # type: ignore[no-untyped-def]
    """The number of set bits of an int64 (LLVM's ctpop: one instruction)."""
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        function = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(function, [args[0]])

    return signature, codegen


@njit(cache=True)
def _clue_values(grid: np.ndarray, low: int, high: int, values: np.ndarray) -> None:
    """The puzzle whose givens are the cells of (low, high), digits from `grid`."""
    for cell in range(81):
        kept = (low >> cell) & 1 if cell < LOW else (high >> (cell - LOW)) & 1
        values[cell] = grid[cell] if kept else 0


@njit(cache=True)
def _difference(grid: np.ndarray, other: np.ndarray) -> tuple[int, int]:
    """The cells where `other` differs from `grid`, as a cell set."""
    low = 0
    high = 0
    for cell in range(81):
        if other[cell] != grid[cell]:
            if cell < LOW:
                low |= 1 << cell
            else:
                high |= 1 << (cell - LOW)
    return low, high


@njit(cache=True)
def differences(
    grid: np.ndarray, low: int, high: int, most: int, out: np.ndarray,
    s: np.ndarray, meta: np.ndarray, buffer: np.ndarray,
) -> int:  # fmt: skip
    """Every solution of `grid` with the cells (low, high) emptied, as the cells where it
    differs from `grid` (rows of `out`, the grid itself left out); the count, or -1 when there
    are more than `most` (or than `out` holds): the caller then empties fewer cells."""
    values = np.zeros(81, dtype=np.uint8)
    _clue_values(grid, ~low & ((1 << LOW) - 1), ~high & ((1 << (81 - LOW)) - 1), values)
    for index in range(kernel.STATE_SIZE):
        meta[index] = 0
    room = min(most, out.shape[0])
    count = 0
    while True:
        meta[kernel.BUFFERED] = 0
        code = kernel.search(values, s, meta, buffer, BIG, BIG, True, None)
        for row in range(meta[kernel.BUFFERED]):
            d_low, d_high = _difference(grid, buffer[row])
            if d_low == 0 and d_high == 0:
                continue
            if count >= room:
                return -1
            out[count, 0] = d_low
            out[count, 1] = d_high
            count += 1
        if code != kernel.PAUSED:
            return count


@njit(cache=True)
def _second_solution(
    grid: np.ndarray, low: int, high: int, values: np.ndarray, s: np.ndarray,
    meta: np.ndarray, buffer: np.ndarray,
) -> tuple[bool, int, int]:  # fmt: skip
    """Whether the clue set (low, high) of `grid` is unique; if not, the cells where a second
    solution differs from `grid` (an unavoidable set the clue set misses)."""
    _clue_values(grid, low, high, values)
    for index in range(kernel.STATE_SIZE):
        meta[index] = 0
    code = kernel.search(values, s, meta, buffer, 2, BIG, True, None)
    while code == kernel.PAUSED:
        code = kernel.search(values, s, meta, buffer, 2, BIG, True, None)
    if meta[kernel.FOUND] < 2:
        return True, 0, 0
    for row in range(meta[kernel.BUFFERED]):
        d_low, d_high = _difference(grid, buffer[row])
        if d_low != 0 or d_high != 0:
            return False, d_low, d_high
    return True, 0, 0  # not reached: two distinct solutions cannot both equal the grid


@njit(cache=True)
def _evaluate(
    grid: np.ndarray, sets: np.ndarray, stats: np.ndarray, c_low: int, c_high: int,
    d_low: int, d_high: int, placed: int, clues: int, found: np.ndarray,
    values: np.ndarray, s: np.ndarray, meta: np.ndarray, buffer: np.ndarray,
    lists: np.ndarray, counts: np.ndarray, level: int,
) -> tuple[int, int, int]:  # fmt: skip
    """One node: clue set (c_low, c_high) of `placed` cells, dead cells (d_low, d_high) that
    no later clue may take. Returns (code, low, high): code 0 with the cells to branch on
    (none: nothing below this node), or a `hitting_search` outcome to stop with.

    Only the sets its parent left unhit are looked at (`lists[level]`, `counts[level]` of
    them); the ones this node leaves unhit go to `lists[level + 1]` for its children. A set
    learnt here is unhit by every ancestor too (their clues are fewer), so it joins every
    list up to this node's.

    The cells to branch on are the live cells (not dead) of the unhit unavoidable set with
    the fewest of them, or, when one clue is left, the cells common to every unhit set. The
    node is cut when an unhit set has no live cell, or when more pairwise disjoint unhit sets
    (live cells, taken greedily in list order) than clues are left.
    """
    left = clues - placed
    while True:
        stats[NODES] += 1
        best = 1 << 20
        b_low = 0
        b_high = 0
        u_low = 0  # cells of the disjoint sets taken so far
        u_high = 0
        i_low = -1  # cells common to every unhit set
        i_high = -1
        disjoint = 0
        unhit = False
        kept = 0
        for position in range(counts[level]):
            index = lists[level, position]
            s_low = sets[index, 0]
            s_high = sets[index, 1]
            if (s_low & c_low) != 0 or (s_high & c_high) != 0:
                continue
            l_low = s_low & ~d_low
            l_high = s_high & ~d_high
            size: int = popcount(l_low) + popcount(l_high)  # type: ignore[call-arg]
            if size == 0:
                return EXHAUSTED, 0, 0
            unhit = True
            lists[level + 1, kept] = index
            kept += 1
            if size < best:
                best = size
                b_low = l_low
                b_high = l_high
            if (l_low & u_low) == 0 and (l_high & u_high) == 0:
                disjoint += 1
                if disjoint > left:
                    return EXHAUSTED, 0, 0
                u_low |= l_low
                u_high |= l_high
            i_low &= l_low
            i_high &= l_high
        counts[level + 1] = kept
        if unhit:
            if left == 1:
                return EXHAUSTED, i_low, i_high
            return EXHAUSTED, b_low, b_high
        # every known unavoidable set is hit: ask the solver
        stats[TESTS] += 1
        unique, n_low, n_high = _second_solution(grid, c_low, c_high, values, s, meta, buffer)
        if unique:
            row = stats[FOUND]
            if row >= found.shape[0]:
                return FOUND_FULL, 0, 0
            found[row, 0] = c_low
            found[row, 1] = c_high
            stats[FOUND] += 1
            return (STOPPED if stats[STOP_AT_FIRST] else EXHAUSTED), 0, 0
        if stats[SETS] >= sets.shape[0]:
            # every set learnt is kept: a set thrown away is met again and again, each time
            # at the price of a uniqueness test
            stats[NODES] -= 1  # this look is taken again once the table has room
            stats[TESTS] -= 1
            return GROW, 0, 0
        sets[stats[SETS], 0] = n_low
        sets[stats[SETS], 1] = n_high
        for upper in range(level + 1):
            lists[upper, counts[upper]] = stats[SETS]
            counts[upper] += 1
        stats[SETS] += 1
        stats[ADDED] += 1
        # look at this node again with the new set


@njit(cache=True)
def _grown(sets: np.ndarray, lists: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The set table and the per-level lists with twice the rows, the contents kept."""
    rows = max(2 * sets.shape[0], 64)
    bigger = np.zeros((rows, 2), dtype=np.int64)
    bigger[: sets.shape[0]] = sets
    longer = np.zeros((lists.shape[0], rows), dtype=np.int32)
    longer[:, : lists.shape[1]] = lists
    return bigger, longer


@njit(cache=True)
def hitting_search(
    grid: np.ndarray, sets: np.ndarray, stats: np.ndarray, c_low: int, c_high: int,
    d_low: int, d_high: int, placed: int, clues: int, found: np.ndarray,
) -> tuple[int, np.ndarray]:  # fmt: skip
    """Every clue set of at most `clues` cells that contains (c_low, c_high) (`placed` cells),
    avoids the dead cells (d_low, d_high) and hits every unavoidable set of `sets` (the first
    `stats[SETS]` rows; the search appends the sets it learns) is tested for uniqueness; the
    unique ones go to `found`. A clue set that hits every set with fewer than `clues` cells is
    tested there, and not extended when unique. Returns EXHAUSTED, STOPPED or FOUND_FULL, and
    the set table: `sets` itself, or a larger copy when the learnt sets outgrew it.

    Each node branches on the cells of one unhit set: the i-th branch takes its i-th cell as
    a clue and marks the cells before it dead, so the branches split the clue sets without
    overlap.
    """
    values = np.zeros(81, dtype=np.uint8)
    s = np.zeros((kernel.LEVELS, kernel.WORDS), dtype=np.int64)
    meta = np.zeros(kernel.META_SIZE, dtype=np.int64)
    buffer = np.zeros((2, 81), dtype=np.uint8)
    depth = clues - placed + 1
    cand = np.zeros((depth + 1, 2), dtype=np.int64)
    chosen = np.zeros((depth + 1, 2), dtype=np.int64)
    dead = np.zeros((depth + 1, 2), dtype=np.int64)
    # lists[0]: every set; lists[l + 1]: the sets the node at level l leaves unhit
    lists = np.zeros((depth + 2, max(sets.shape[0], 1)), dtype=np.int32)
    counts = np.zeros(depth + 2, dtype=np.int64)
    for index in range(stats[SETS]):
        lists[0, index] = index
    counts[0] = stats[SETS]
    while True:
        code, low, high = _evaluate(
            grid, sets, stats, c_low, c_high, d_low, d_high, placed, clues, found,
            values, s, meta, buffer, lists, counts, 0,
        )  # fmt: skip
        if code != GROW:
            break
        sets, lists = _grown(sets, lists)
    if code != EXHAUSTED:
        return code, sets
    cand[0, 0] = low
    cand[0, 1] = high
    chosen[0, 0] = c_low
    chosen[0, 1] = c_high
    dead[0, 0] = d_low
    dead[0, 1] = d_high
    level = 0
    while level >= 0:
        low = cand[level, 0]
        high = cand[level, 1]
        if low == 0 and high == 0:
            level -= 1
            continue
        if low != 0:
            bit_low = low & -low
            bit_high = 0
        else:
            bit_low = 0
            bit_high = high & -high
        cand[level, 0] = low ^ bit_low
        cand[level, 1] = high ^ bit_high
        n_low = chosen[level, 0] | bit_low
        n_high = chosen[level, 1] | bit_high
        while True:
            code, low, high = _evaluate(
                grid, sets, stats, n_low, n_high, dead[level, 0], dead[level, 1],
                placed + level + 1, clues, found, values, s, meta, buffer, lists, counts,
                level + 1,
            )  # fmt: skip
            if code != GROW:
                break
            sets, lists = _grown(sets, lists)
        # the later branches of this node may not take this cell
        dead[level, 0] |= bit_low
        dead[level, 1] |= bit_high
        if code != EXHAUSTED:
            return code, sets
        if low == 0 and high == 0:
            continue
        level += 1
        cand[level, 0] = low
        cand[level, 1] = high
        chosen[level, 0] = n_low
        chosen[level, 1] = n_high
        dead[level, 0] = dead[level - 1, 0] & ~bit_low
        dead[level, 1] = dead[level - 1, 1] & ~bit_high
    return EXHAUSTED, sets
