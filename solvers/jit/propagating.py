"""`propagating-jit`: the `propagating` back-end's search compiled with numba.

Same algorithm, same counters, same answers as `solvers.propagating` with its default
rules on 9x9 (singles, locked candidates, dom/wdeg branching with two-place branching);
AllDifferent filtering and restarts (the pure-Python default from 16 digits up) are not
compiled, so on 16x16 and larger grids the counters are those of
`PropagatingSolver(alldiff=False)`. The tables come from the same `Rules` fields
(`peers`, `units`, `units_of`, `houses`) in the same order, as padded numpy arrays.

Compilation: the kernel is compiled with `cache=True` (machine code on disk, reused by
every later process) and warmed up when the solver is constructed, on an empty 4x4 grid,
so that no timed `solve` ever pays for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np

from puzzles.grid import Grid
from puzzles.rules import RuleKind, Rules
from solvers.base import Deadline, SearchOutcome, Solver
from solvers.jit import propagating_kernel as kernel
from solvers.propagating import intersections

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


@dataclass(frozen=True)
class JitTables:
    """A rules' index tables as numpy arrays, in the order the kernel reads them."""

    size: int
    full: int
    peers: Array
    npeers: Array
    units: Array
    ulen: Array
    house: Array
    units_of: Array
    nunits_of: Array
    inter: Array
    common: Array
    ncommon: Array
    u_rest: Array
    nu_rest: Array
    v_rest: Array
    nv_rest: Array

    def arguments(self) -> tuple[object, ...]:
        return (
            self.peers, self.npeers, self.units, self.ulen, self.house, self.units_of,
            self.nunits_of, self.inter, self.common, self.ncommon, self.u_rest, self.nu_rest,
            self.v_rest, self.nv_rest, self.full,
        )  # fmt: skip


@cache
def jit_tables(rules: Rules) -> JitTables:
    houses = set(rules.houses)
    # locked candidates need a digit that must appear in the unit: houses only
    found = intersections(tuple(rules.units[i] for i in sorted(houses)))
    order = sorted(houses)  # intersections() numbered the houses 0..; map back to units
    pairs = []
    for item in found:
        first = (item.units & -item.units).bit_length() - 1
        second = item.units.bit_length() - 1
        pairs.append((order[first], order[second]))
    peers, npeers = _padded(rules.peers)
    units, ulen = _padded(rules.units)
    units_of, nunits_of = _padded(rules.units_of)
    common, ncommon = _padded(tuple(item.common for item in found))
    u_rest, nu_rest = _padded(tuple(item.u_rest for item in found))
    v_rest, nv_rest = _padded(tuple(item.v_rest for item in found))
    return JitTables(
        size=rules.size,
        full=(1 << rules.size) - 1,
        peers=peers,
        npeers=npeers,
        units=units,
        ulen=ulen,
        house=np.array([index in houses for index in range(len(rules.units))], dtype=np.bool_),
        units_of=units_of,
        nunits_of=nunits_of,
        inter=np.array(pairs, dtype=np.int64).reshape(len(pairs), 2),
        common=common,
        ncommon=ncommon,
        u_rest=u_rest,
        nu_rest=nu_rest,
        v_rest=v_rest,
        nv_rest=nv_rest,
    )


@dataclass
class JitModel:
    tables: JitTables
    start: Array  # candidates per cell (int64 bit masks)
    givens: Array  # the cells to place first


class PropagatingJitSolver(Solver[JitModel]):
    """`propagating`'s singles, locked candidates and dom/wdeg branching, compiled."""

    name = "propagating-jit"
    rule_kinds: ClassVar[frozenset[RuleKind]] = frozenset(
        {RuleKind.REGIONS, RuleKind.EXTRA_UNITS}
    )

    def __init__(self) -> None:
        warm_up()

    def _build(self, puzzle: Grid, deadline: Deadline) -> JitModel:
        tables = jit_tables(puzzle.rules)
        values = np.asarray(puzzle.values, dtype=np.int64)
        start = np.where(values > 0, np.left_shift(1, values - 1), tables.full).astype(np.int64)
        return JitModel(tables, start, np.flatnonzero(values).astype(np.int64))

    def _search(
        self, model: JitModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        found, exhausted, timed_out, st = run(model, limit, deadline)
        solutions = [Grid(puzzle.rules, _digits(masks)) for masks in found]
        return SearchOutcome(
            solutions,
            exhausted=exhausted,
            timed_out=timed_out,
            counters={
                "nodes": int(st[kernel.NODES]),
                "guesses": int(st[kernel.GUESSES]),
                "propagations": int(st[kernel.PROPAGATIONS]),
                "hidden_singles": int(st[kernel.HIDDEN]),
                "locked_eliminations": int(st[kernel.LOCKED]),
                "alldiff_eliminations": 0,
            },
        )


def _digits(masks: Array) -> tuple[int, ...]:
    return tuple(int(mask).bit_length() for mask in masks.tolist())


def run(model: JitModel, limit: int, deadline: Deadline) -> tuple[list[Array], bool, bool, Array]:
    """Search to the limit: (solutions as mask rows, exhausted, timed out, state vector)."""
    tables = model.tables
    cells = model.start.shape[0]
    nunits = tables.units.shape[0]
    depth = cells + 1  # every level places a cell at least
    cands = np.empty((depth + 1, cells), dtype=np.int64)
    cands[0] = model.start
    placeds = np.zeros((depth + 1, nunits), dtype=np.int64)
    width = max(tables.size, int(tables.ulen.max()))
    choice_cells = np.empty((depth + 1, width), dtype=np.int64)
    choice_bits = np.empty((depth + 1, width), dtype=np.int64)
    nchoices = np.zeros(depth + 1, dtype=np.int64)
    current = np.zeros(depth + 1, dtype=np.int64)
    pending = np.empty(2 * cells + 1, dtype=np.int64)
    dirty = np.zeros(nunits, dtype=np.bool_)
    changed = np.zeros(nunits, dtype=np.bool_)
    weights = np.ones(nunits, dtype=np.int64)
    st = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    buffer = np.empty((min(limit, SOLUTION_BUFFER), cells), dtype=np.int64)
    found: list[Array] = []
    while True:
        code = kernel.search(
            cands, placeds, model.givens, choice_cells, choice_bits, nchoices, current,
            pending, dirty, changed, *tables.arguments(), weights, st, buffer, limit,
            CHECK_EVERY,
        )  # fmt: skip
        found.extend(buffer[i].copy() for i in range(st[kernel.BUFFERED]))
        st[kernel.BUFFERED] = 0
        if code == kernel.EXHAUSTED:
            return found, True, False, st
        if code == kernel.AT_LIMIT:
            depth_now = int(st[kernel.DEPTH])
            untried = kernel.untried_levels(current, nchoices, depth_now) if cands.size else 0
            return found, untried == 0, False, st
        if deadline.expired():
            return found, False, True, st


_warm = False


def warm_up() -> None:
    """Load (or compile, the first time on this machine) the kernel: one empty 4x4 grid."""
    global _warm
    if _warm:
        return
    rules = Rules.of_size(4)
    model = PropagatingJitSolver._build(
        PropagatingJitSolver.__new__(PropagatingJitSolver), Grid.empty(rules), Deadline(None)
    )
    run(model, 2, Deadline(None))
    _warm = True
