"""The numba kernel of `dlx-jit`: `sudoku_bench.solvers.engines.dlx.engine.DancingLinks`, step for step.

The links are the pure-Python engine's flat lists as one int64 matrix `links` (rows L, R,
U, D, S: what a search changes), with C and ROW (never changed) beside it. The search is
the engine's loop (fewest rows first, first on ties; rows of a column top to bottom), so
`nodes`, `updates` and `guesses` are the same. It returns to Python every `check_every`
nodes (numba cannot read the clock) and resumes where it stopped; `chosen` is its stack.
Compiled with `cache=True`: machine code on disk, reused by later processes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

L, R, U, D, S = 0, 1, 2, 3, 4  # rows of `links`

# Indices into the state vector `st`.
NODES = 0
UPDATES = 1
GUESSES = 2
FOUND = 3
BUFFERED = 4
DEPTH = 5  # rows on the `chosen` stack
STARTED = 6
CLASHES = 7  # columns two given rows share (written to `clashes`)
COLUMNS = 8  # primary columns left after the givens
STATE_SIZE = 9

EXHAUSTED = 0
AT_LIMIT = 1
PAUSED = 2


@njit(cache=True)
def _cover(links: np.ndarray, col: np.ndarray, c: int) -> int:
    """Knuth's cover(c); returns the updates (the header and each node unlinked)."""
    left = links[L]
    right = links[R]
    up = links[U]
    down = links[D]
    size = links[S]
    left[right[c]] = left[c]
    right[left[c]] = right[c]
    count = 1
    i = down[c]
    while i != c:
        j = right[i]
        while j != i:
            u = up[j]
            d = down[j]
            down[u] = d
            up[d] = u
            size[col[j]] -= 1
            count += 1
            j = right[j]
        i = down[i]
    return count


@njit(cache=True)
def _uncover(links: np.ndarray, col: np.ndarray, c: int) -> None:
    left = links[L]
    right = links[R]
    up = links[U]
    down = links[D]
    size = links[S]
    i = up[c]
    while i != c:
        j = left[i]
        while j != i:
            size[col[j]] += 1
            down[up[j]] = j
            up[down[j]] = j
            j = left[j]
        i = up[i]
    left[right[c]] = c
    right[left[c]] = c


@njit(cache=True)
def _take(links: np.ndarray, col: np.ndarray, x: int) -> int:
    right = links[R]
    count = 0
    j = right[x]
    while j != x:
        count += _cover(links, col, col[j])
        j = right[j]
    return count


@njit(cache=True)
def _untake(links: np.ndarray, col: np.ndarray, x: int) -> None:
    left = links[L]
    j = left[x]
    while j != x:
        _uncover(links, col, col[j])
        j = left[j]


@njit(cache=True)
def _write(
    row_out: np.ndarray, values: np.ndarray, chosen: np.ndarray, depth: int, rowof: np.ndarray,
    size: int,
) -> None:  # fmt: skip
    """A solution's digits: the givens, and (cell, digit) of each chosen row."""
    row_out[:] = values
    for k in range(depth):
        row = rowof[chosen[k]]
        row_out[row // size] = row % size + 1


@njit(cache=True)
def search(
    links: np.ndarray,
    col: np.ndarray,
    rowof: np.ndarray,
    first: np.ndarray,
    given_rows: np.ndarray,
    values: np.ndarray,
    size: int,
    chosen: np.ndarray,
    taken: np.ndarray,
    clashes: np.ndarray,
    st: np.ndarray,
    solutions: np.ndarray,
    limit: int,
    check_every: int,
) -> int:
    """Select the givens' rows (first call), then search or resume; EXHAUSTED, AT_LIMIT or
    PAUSED. `taken` (one flag per header, all 0) marks the columns the givens covered."""
    right = links[R]
    down = links[D]
    ssize = links[S]
    capacity = solutions.shape[0]
    if st[STARTED] == 0:
        st[STARTED] = 1
        for k in range(given_rows.shape[0]):
            x = first[given_rows[k]]
            clash = False
            j = x
            while True:
                if taken[col[j]]:
                    clashes[st[CLASHES]] = col[j] - 1
                    st[CLASHES] += 1
                    clash = True
                j = right[j]
                if j == x:
                    break
            if clash:
                continue
            j = x
            while True:
                taken[col[j]] = 1
                _cover(links, col, col[j])
                j = right[j]
                if j == x:
                    break
        count = 0
        c = right[0]
        while c:
            count += 1
            c = right[c]
        st[COLUMNS] = count
        st[NODES] = 1
        if st[CLASHES]:
            return EXHAUSTED
    depth = st[DEPTH]
    budget = check_every
    while True:
        # Descend (a resumed call starts here too: it paused before a descent).
        c = right[0]
        if c == 0:
            if st[BUFFERED] >= capacity:  # hand the buffer to Python first
                st[DEPTH] = depth
                return PAUSED
            _write(solutions[st[BUFFERED]], values, chosen, depth, rowof, size)
            st[BUFFERED] += 1
            st[FOUND] += 1
            if st[FOUND] >= limit:
                st[DEPTH] = depth
                return AT_LIMIT
        else:
            best = ssize[c]
            if best > 1:
                j = right[c]
                while j:
                    if ssize[j] < best:
                        c = j
                        best = ssize[j]
                        if best <= 1:
                            break
                    j = right[j]
            if best:
                st[UPDATES] += _cover(links, col, c)
                x = down[c]
                st[UPDATES] += _take(links, col, x)
                chosen[depth] = x
                depth += 1
                st[NODES] += 1
                if best > 1:
                    st[GUESSES] += 1
                budget -= 1
                if budget <= 0:
                    st[DEPTH] = depth
                    return PAUSED
                continue
        # Backtrack: undo the deepest row and try the next row of its column.
        moved = False
        while depth:
            depth -= 1
            x = chosen[depth]
            _untake(links, col, x)
            c = col[x]
            x = down[x]
            if x != c:
                st[UPDATES] += _take(links, col, x)
                chosen[depth] = x
                depth += 1
                st[NODES] += 1
                st[GUESSES] += 1
                moved = True
                break
            _uncover(links, col, c)
        if not moved:
            st[DEPTH] = 0
            return EXHAUSTED


@njit(cache=True)
def all_last(links: np.ndarray, col: np.ndarray, chosen: np.ndarray, depth: int) -> bool:
    """Whether no level of the stack has another row left to try (then: exhausted)."""
    down = links[D]
    for k in range(depth):  # noqa: SIM110 (numba: no generators in all())
        if down[chosen[k]] != col[chosen[k]]:
            return False
    return True
