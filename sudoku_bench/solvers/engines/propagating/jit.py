"""`propagating-jit`: the `propagating` back-end's search compiled with numba.

Same algorithm, same counters, same answers as `sudoku_bench.solvers.engines.propagating.solver` with the same
options: singles, locked candidates, dom/wdeg branching with two-place branching, and from
16 digits up (`alldiff=None`, the default, as there) AllDifferent filtering (Régin's
matching-based filtering on bit masks: augmenting paths, then strongly connected
components) with restarts and cell branching only. The tables are `propagating`'s unit
tables (`unit_tables`: units, their cells' peers and intersections) in the same order, as
padded numpy arrays; they are the shape's, so they are cached by shape (`sudoku_bench.solvers.tables`).

Compilation: the kernel is compiled with `cache=True` (machine code on disk, reused by
every later process) and warmed up when the solver is constructed, on an empty 4x4 grid,
so that no timed `solve` ever pays for it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from sudoku_bench.puzzles.constraints import (
    Constraint,
    EncoderTable,
    PairConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import NO_NODE_LIMIT, Deadline, Result, SearchOutcome, Solver, Status
from sudoku_bench.solvers.engines.propagating import kernel
from sudoku_bench.solvers.engines.propagating.solver import ALLDIFF_FROM, intersections, unit_tables
from sudoku_bench.solvers.tables import by_shape, per_puzzle

CHECK_EVERY = 4096  # search nodes between two returns to Python to read the clock
SOLUTION_BUFFER = 64  # solutions the kernel keeps before it hands them to Python

Array = np.ndarray


def _padded(rows: tuple[tuple[int, ...], ...]) -> tuple[Array, Array]:
    """Ragged rows of ints as a padded int64 matrix and the length of each row."""
    width = max((len(row) for row in rows), default=0)
    matrix = np.zeros((len(rows), max(width, 1)), dtype=np.int64)
    lengths = np.zeros(len(rows), dtype=np.int64)
    for number, row in enumerate(rows):
        matrix[number, : len(row)] = row
        lengths[number] = len(row)
    return matrix, lengths


def pack(arrays: list[Array]) -> Array:
    """Arrays as one int64 blob headed by its index: (offset, rows, columns) per array, the
    offsets from the blob's start (one argument for the kernel: each costs at every call)."""
    head = 3 * len(arrays)
    sizes = [max(array.size, 1) for array in arrays]
    blob = np.zeros(head + sum(sizes), dtype=np.int64)
    offset = head
    for number, array in enumerate(arrays):
        matrix = array.reshape(array.shape[0], -1) if array.ndim else array.reshape(1, 1)
        blob[3 * number : 3 * number + 3] = (offset, matrix.shape[0], matrix.shape[1])
        blob[offset : offset + array.size] = array.ravel()
        offset += sizes[number]
    return blob


@dataclass(frozen=True)
class JitTables:
    """A rules' index tables packed for the kernel (see `kernel.search` for the order)."""

    size: int
    cells: int
    units: int
    width: int  # the most alternatives a branch point can have
    blob: Array
    arrays: list[Array] = field(default_factory=list)  # the shape's arrays, before packing


# The kernel's table per kind: the kernel arrays that implement it. Units (rows, columns
# and regions are the shape's) and pair relations of any kind (a table per pair of digits,
# read in the pair's direction); cell digits, cages, tables and linear equations have no
# kernel arrays, so puzzles with them are `unsupported` here.
_ENCODERS: tuple[tuple[type[Constraint], tuple[str, ...]], ...] = (
    (UnitConstraint, ("units", "peers", "units_of", "intersections")),
    (PairConstraint, ("rel", "support")),
)
ENCODERS: EncoderTable[tuple[str, ...]] = EncoderTable(dict(_ENCODERS))


def jit_tables(rules: Rules) -> JitTables:
    """The kernel's tables: the shape's, with the rules' pair relations where it has any."""
    if any(isinstance(c, PairConstraint) for c in rules.constraints):
        return _tables_with_relations(rules)
    return _shape_tables(rules)


@per_puzzle
def _tables_with_relations(rules: Rules) -> JitTables:
    shape = _shape_tables(rules)
    return JitTables(
        shape.size, shape.cells, shape.units, shape.width, pack(shape.arrays + relations(rules))
    )


def relations(rules: Rules) -> list[Array]:
    """The pair relations as the kernel reads them: `rel[cell]` is the number of the cell's
    partners, then (partner, row of `support`) for each; a row of `support` gives, for the
    cell's digit d at slot (1 << d-1) % SLOTS, the mask of digits the partner may hold. Each
    pair gives a row each way (a relation need not be symmetric); pairs of one relation
    object share their two rows."""
    n = rules.size
    partners: list[list[int]] = [[] for _ in rules.cells]
    rows: list[list[int]] = []
    for constraint in rules.constraints:
        if not isinstance(constraint, PairConstraint):
            continue
        allows = constraint.allows
        forward = [0] * kernel.SLOTS  # first cell's digit -> the second's allowed digits
        backward = [0] * kernel.SLOTS
        for d in range(1, n + 1):
            forward[(1 << (d - 1)) % kernel.SLOTS] = sum(
                1 << (e - 1) for e in range(1, n + 1) if allows(d, e)
            )
            backward[(1 << (d - 1)) % kernel.SLOTS] = sum(
                1 << (e - 1) for e in range(1, n + 1) if allows(e, d)
            )
        first = len(rows)
        rows += [forward, backward]
        for a, b in constraint.pairs(rules):
            partners[a] += [b, first]
            partners[b] += [a, first + 1]
    rel, _ = _padded(tuple((len(found) // 2, *found) for found in partners))
    support = np.array(rows or [[0] * kernel.SLOTS], dtype=np.int64)
    return [rel, support]


@by_shape
def _shape_tables(rules: Rules) -> JitTables:
    shape = unit_tables(rules)
    houses = list(shape.house_indices)
    # locked candidates need a digit that must appear in the unit: houses only
    found = intersections(tuple(shape.units[i] for i in houses))
    pairs = []
    for item in found:  # intersections() numbered the houses 0..; map back to units
        first = (item.units & -item.units).bit_length() - 1
        second = item.units.bit_length() - 1
        pairs.append((houses[first], houses[second]))
    peers, npeers = _padded(tuple(tuple(sorted(peers)) for peers in shape.unit_peers))
    units, ulen = _padded(shape.units)
    units_of, nunits_of = _padded(shape.units_of)
    common, ncommon = _padded(tuple(item.common for item in found))
    u_rest, nu_rest = _padded(tuple(item.u_rest for item in found))
    v_rest, nv_rest = _padded(tuple(item.v_rest for item in found))
    house = np.array([index in houses for index in range(len(shape.units))], dtype=np.int64)
    inter = np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)
    # the order `kernel.search` unpacks them in
    arrays = [peers, npeers, units, ulen, house, units_of, nunits_of, inter, common, ncommon]
    arrays += [u_rest, nu_rest, v_rest, nv_rest, np.array([(1 << rules.size) - 1])]  # every digit
    no_relations = [
        np.zeros((rules.cell_count, 1), dtype=np.int64),  # no partners
        np.zeros((1, kernel.SLOTS), dtype=np.int64),
    ]
    return JitTables(
        size=rules.size,
        cells=rules.cell_count,
        units=len(shape.units),
        width=max(rules.size, int(ulen.max())),
        blob=pack(arrays + no_relations),
        arrays=arrays,
    )


@dataclass
class JitModel:
    tables: JitTables
    values: bytearray  # the puzzle's digits, 0 for empty
    flags: int = 0  # kernel.WITH_ALLDIFF, kernel.WITH_RESTARTS


class Workspace:
    """The kernel's work arrays for one rules, allocated once and reused for every puzzle."""

    def __init__(self, tables: JitTables) -> None:
        cells, nunits, width = tables.cells, tables.units, tables.width
        levels = cells + 2  # the root, and every level places a cell at least
        self.blob = pack(
            [
                np.zeros((levels, cells)),  # candidates per level
                np.zeros((levels, nunits)),  # digits placed per unit, per level
                np.zeros((levels, width)),  # the alternatives' cells, per level
                np.zeros((levels, width)),  # the alternatives' digit bits, per level
                np.zeros(levels),  # how many alternatives, per level
                np.zeros(levels),  # the alternative being tried, per level
                np.zeros(2 * cells + 1),  # the pending cells
                np.zeros(nunits),  # dirty units
                np.zeros(nunits),  # changed units
                np.zeros(nunits),  # the dom/wdeg weights
                np.zeros(cells),  # the peers that lose a digit being placed
                np.zeros(nunits),  # units scanned since their last AllDifferent filtering
                # AllDifferent filtering's cells, masks, results, mates, owners, queue,
                # parents (cell, digit) and unmatched cells
                np.zeros((9, max(width + 1, kernel.SLOTS))),
                np.zeros(kernel.STATE_SIZE),  # the kernel's state vector
                np.zeros((SOLUTION_BUFFER, cells)),  # solutions' digits not yet read
            ]
        )
        # views of the last two, which Python reads and sets between calls
        self.state = unpacked(self.blob, kernel.STATE_ARRAY).reshape(-1)
        self.buffer = unpacked(self.blob, kernel.SOLUTIONS_ARRAY)


def unpacked(blob: Array, index: int) -> Array:
    """Array `index` of a packed blob, as a matrix view (what the kernel's `_matrix` reads)."""
    offset, rows, cols = blob[3 * index : 3 * index + 3].tolist()
    return blob[offset : offset + rows * cols].reshape(rows, cols)


@by_shape
def workspace(rules: Rules) -> Workspace:
    return Workspace(jit_tables(rules))


class PropagatingJitSolver(Solver[JitModel]):
    """`propagating`'s singles, locked candidates and dom/wdeg branching, compiled; pair
    relations of any kind filter a placed cell's partners through their digit tables."""

    name = "propagating-jit"
    honours_node_limit = True
    encoders = ENCODERS

    def __init__(self, *, alldiff: bool | None = None, restarts: bool | None = None) -> None:
        warm_up()
        self.alldiff = alldiff  # None: on for grids of ALLDIFF_FROM digits or more
        self.restarts = restarts  # None: with AllDifferent filtering
        # the last rules' tables and work arrays: hashing a Rules costs more than an easy solve
        self._rules: Rules | None = None
        self._tables: JitTables | None = None
        self._space: Workspace | None = None
        self._flags = 0

    def flags(self, rules: Rules) -> int:
        """The kernel's options for these rules: `PropagatingSolver`'s defaults."""
        alldiff = rules.size >= ALLDIFF_FROM if self.alldiff is None else self.alldiff
        restarts = alldiff if self.restarts is None else self.restarts
        return kernel.WITH_ALLDIFF * alldiff + kernel.WITH_RESTARTS * restarts

    def _switch(self, rules: Rules) -> None:
        self._rules = rules
        self._tables, self._space = jit_tables(rules), workspace(rules)
        self._flags = self.flags(rules)

    def _build(self, puzzle: Grid, deadline: Deadline) -> JitModel:
        if puzzle.rules is not self._rules:
            self._switch(puzzle.rules)
        assert self._tables is not None
        values = bytearray(puzzle.values)  # numba reads it as uint8: the cheapest conversion
        return JitModel(self._tables, values, self._flags)

    def _search(
        self, model: JitModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        space = self._space if puzzle.rules is self._rules else None
        space = space or workspace(puzzle.rules)
        found, exhausted, timed_out, st = run(
            model.values, model.tables, model.flags, space, limit, deadline.at, deadline.nodes_at
        )
        return SearchOutcome(
            [_grid(puzzle.rules, digits) for digits in found],
            exhausted=exhausted,
            timed_out=timed_out,
            counters=counters_of(st),
        )

    def solve(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Result:
        """`Solver.solve`, the same result by a shorter path for the rules of the last call:
        on an easy puzzle the general path's objects (model, outcome, deadline, the counters
        merged twice) cost a large share of the kernel's own time."""
        rules = puzzle.rules
        short = rules is self._rules and limit >= 1 and (timeout is None or timeout > 0)
        if not short or node_limit is not None:  # a node budget: the general path's messages
            return super().solve(puzzle, limit=limit, timeout=timeout, node_limit=node_limit)
        assert self._tables is not None and self._space is not None
        start = time.perf_counter()
        values = bytearray(puzzle.values)  # numba reads it as uint8: the cheapest conversion
        built = time.perf_counter()
        deadline = math.inf if timeout is None else start + timeout
        found, exhausted, timed_out, st = run(
            values, self._tables, self._flags, self._space, limit, deadline
        )
        # one solution is the usual case: a comprehension costs more than making its grid
        if len(found) == 1:
            solutions = [_grid(rules, found[0])]
        else:
            solutions = [_grid(rules, digits) for digits in found]
        end = time.perf_counter()
        if timed_out:
            status = Status.TIMEOUT
        elif exhausted:
            status = Status.SOLVED if solutions else Status.NO_SOLUTION
        else:
            status = Status.LIMIT  # stopped at the limit with branches left untried
        # positional: build_s, search_s, counters (a third cheaper than by keyword)
        return Result(
            self.name,
            status,
            solutions,
            exhausted and not timed_out,
            built - start,
            end - built,
            counters_of(st),
        )


def _grid(rules: Rules, digits: tuple[int, ...]) -> Grid:
    """A solution's grid, without `Grid`'s range check: the kernel writes digits 1..N only."""
    grid = object.__new__(Grid)
    object.__setattr__(grid, "rules", rules)
    object.__setattr__(grid, "values", digits)
    return grid


def counters_of(state: list[int]) -> dict[str, float]:
    """The counters of `propagating`, from the kernel's state vector (as a list)."""
    return {
        "nodes": state[kernel.NODES],
        "guesses": state[kernel.GUESSES],
        "propagations": state[kernel.PROPAGATIONS],
        "hidden_singles": state[kernel.HIDDEN],
        "locked_eliminations": state[kernel.LOCKED],
        "alldiff_eliminations": state[kernel.ALLDIFF],
        # the same keys as `propagating`'s, for comparable records: the kernel takes no cages,
        # equations, tables or automata (answered unsupported), and filters pair relations
        # (non-consecutive among them) as each placement is made, not as a counted propagator
        "nonconsecutive_eliminations": 0,
        "cage_eliminations": 0,
        "relation_eliminations": 0,
        "equation_eliminations": 0,
        "table_eliminations": 0,
        "automaton_eliminations": 0,
    }


# the kernel's return codes and state fields, as module constants: read on every solve
_EXHAUSTED, _AT_LIMIT, _RESTARTED = kernel.EXHAUSTED, kernel.AT_LIMIT, kernel.RESTARTED
_BUFFERED, _UNTRIED, _FLAGS = kernel.BUFFERED, kernel.UNTRIED, kernel.FLAGS
_NODES = kernel.NODES


def run(
    values: bytearray,
    tables: JitTables,
    flags: int,
    space: Workspace,
    limit: int,
    deadline: float,
    node_limit: int = NO_NODE_LIMIT,
) -> tuple[list[tuple[int, ...]], bool, bool, list[int]]:
    """Search to the limit, to `deadline` (a `time.perf_counter` reading; math.inf: no
    limit) or past `node_limit` nodes (read where the clock is): (solutions' digits,
    exhausted, timed out, state vector as a list).

    With restarts, a run that spends its node budget is abandoned and its solutions no
    longer count (the next run finds them again); on a timeout every solution seen in any
    run is returned, as `propagating` does.
    """
    st = space.state
    st.fill(0)
    st[_FLAGS] = flags
    buffer = space.buffer
    found: list[tuple[int, ...]] = []
    seen: list[tuple[int, ...]] = []  # the solutions of abandoned runs (with restarts)
    while True:
        code = kernel.search(values, tables.blob, space.blob, limit, CHECK_EVERY)
        state = st.tolist()  # one conversion: numpy scalars one by one cost more
        buffered = state[_BUFFERED]
        if buffered == 1:  # the usual case: one row, without slicing
            found.append(tuple(buffer[0].tolist()))
            st[_BUFFERED] = 0
        elif buffered:
            found += map(tuple, buffer[:buffered].tolist())
            st[_BUFFERED] = 0
        if code == _EXHAUSTED:
            return found, True, False, state
        if code == _AT_LIMIT:
            return found, state[_UNTRIED] == 0, False, state
        if code == _RESTARTED:
            seen += [solution for solution in found if solution not in seen]
            found = []
        if time.perf_counter() >= deadline or state[_NODES] > node_limit:
            found += [solution for solution in seen if solution not in found]
            return found[:limit], False, True, state


_warm = False


def warm_up() -> None:
    """Load (or compile, the first time on this machine) the kernel: one empty 4x4 grid."""
    global _warm
    if _warm:
        return
    rules = Rules.of_size(4)
    # a bytearray, as `_build` makes them: numba compiles per argument type
    empty = bytearray(rules.cell_count)
    run(empty, jit_tables(rules), 0, workspace(rules), 2, math.inf)
    _warm = True
