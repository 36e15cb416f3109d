"""`propagating`: backtracking with constraint propagation, for every geometry.

The state is a flat list of candidate bit masks, one per cell (bit d-1 set = digit d is
still possible). Propagation runs to a fixpoint:
- a cell reduced to one candidate (a naked single, a given, or a guess) is *placed*: its
  digit is removed from every peer; a peer left with no candidate is a contradiction, a
  peer left with one is placed in turn;
- when no placement is pending, every unit not yet complete is scanned once with two
  masks (`once`: digits seen, `twice`: digits seen twice or more): a digit missing from
  `once` is a contradiction, a digit in `once` but not in `twice` that is not placed yet
  is a hidden single and its cell is placed.
Search picks the cell with the fewest candidates, tries each in turn on a copy of the
state (copying a short list of ints is cheaper in Python than an undo trail) and counts
solutions up to the limit.

The tables (peers, units, units of each cell) come from the geometry, flattened to
tuples of ints, and are built once per geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from puzzles.geometry import Geometry
from puzzles.grid import Grid
from solvers.base import Deadline, SearchOutcome, Solver

CHECK_EVERY = 256  # search nodes between two reads of the clock


@dataclass(frozen=True)
class Tables:
    """Index tables of a geometry in the form the hot loop wants."""

    size: int
    full: int  # the mask with every digit
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[int, ...], ...]
    unit_bits: tuple[int, ...]  # per cell, its units as a bit set (bit i = units[i])


@cache
def tables_for(geometry: Geometry) -> Tables:
    return Tables(
        size=geometry.size,
        full=(1 << geometry.size) - 1,
        peers=geometry.peers,
        units=geometry.units,
        units_of=geometry.units_of,
        unit_bits=tuple(sum(1 << unit for unit in owners) for owners in geometry.units_of),
    )


@dataclass
class State:
    """A search state: candidates per cell, and per unit the digits already placed in it."""

    candidates: list[int]
    placed: list[int]


@dataclass
class PropagatingModel:
    tables: Tables
    start: State
    pending: list[int]  # cells whose single candidate is not yet propagated (the givens)


class PropagatingSolver(Solver[PropagatingModel]):
    """Bit-mask candidates, naked and hidden singles to a fixpoint, fewest-candidates cell."""

    name = "propagating"

    def _build(self, puzzle: Grid, deadline: Deadline) -> PropagatingModel:
        tables = tables_for(puzzle.geometry)
        candidates = [1 << (value - 1) if value else tables.full for value in puzzle.values]
        givens = [cell for cell, value in enumerate(puzzle.values) if value]
        return PropagatingModel(tables, State(candidates, [0] * len(tables.units)), givens)

    def _search(
        self, model: PropagatingModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        search = _Search(model.tables, limit, deadline)
        state = State(list(model.start.candidates), list(model.start.placed))
        exhausted = search.run(state, list(model.pending))
        solutions = [
            Grid(puzzle.geometry, tuple(mask.bit_length() for mask in found))
            for found in search.solutions
        ]
        return SearchOutcome(
            solutions,
            exhausted=exhausted,
            timed_out=search.timed_out,
            counters={
                "nodes": search.nodes,
                "guesses": search.guesses,
                "propagations": search.propagations,
                "hidden_singles": search.hidden_singles,
            },
        )


class _Stop(Exception):
    """Ends the search early: the limit was reached or the deadline passed."""


class _Search:
    def __init__(self, tables: Tables, limit: int, deadline: Deadline) -> None:
        self.tables = tables
        self.limit = limit
        self.deadline = deadline
        self.solutions: list[list[int]] = []
        self.timed_out = False
        self.nodes = 0  # states propagated: the root and every digit tried at a branch
        self.guesses = 0  # branch points: cells with two or more candidates split
        self.propagations = 0  # cells placed (givens, guesses, naked and hidden singles)
        self.hidden_singles = 0
        self.untried = 0  # branch points on the current path with digits still to try

    def run(self, state: State, pending: list[int]) -> bool:
        """Search from `state`; True when the whole tree was explored."""
        try:
            self.nodes += 1
            every_unit = (1 << len(self.tables.units)) - 1
            if self.propagate(state.candidates, state.placed, pending, every_unit):
                self.branch(state.candidates, state.placed)
        except _Stop:
            # stopped at the limit with nothing left to try: the count is exact all the same
            return not self.timed_out and self.untried == 0
        return True

    def branch(self, candidates: list[int], placed: list[int]) -> None:
        cell = self.fewest_candidates(candidates)
        if cell < 0:
            self.solutions.append(candidates)
            if len(self.solutions) >= self.limit:
                raise _Stop
            return
        self.guesses += 1
        choices = candidates[cell]
        while choices:
            bit = choices & -choices
            choices ^= bit
            self.nodes += 1
            if self.nodes % CHECK_EVERY == 0 and self.deadline.expired():
                self.timed_out = True
                raise _Stop
            trial = candidates.copy()
            trial[cell] = bit
            trial_placed = placed.copy()
            if self.propagate(trial, trial_placed, [cell], self.tables.unit_bits[cell]):
                if choices:
                    self.untried += 1
                    self.branch(trial, trial_placed)
                    self.untried -= 1
                else:
                    self.branch(trial, trial_placed)

    def fewest_candidates(self, candidates: list[int]) -> int:
        """The open cell with the fewest candidates (the first of them), or -1 if none is open."""
        best, best_count = -1, self.tables.size + 1
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < best_count:
                    best, best_count = cell, count
                    if count == 2:
                        break
        return best

    def propagate(
        self, candidates: list[int], placed: list[int], pending: list[int], dirty: int
    ) -> bool:
        """Place the pending cells and every single they imply; False on a contradiction.

        `dirty` is a bit set of units whose candidates changed since they were last scanned
        for hidden singles; eliminations add the units of the cells they touch.
        """
        tables = self.tables
        peers, units, units_of, full = tables.peers, tables.units, tables.units_of, tables.full
        unit_bits = tables.unit_bits
        propagations = hidden_singles = 0
        try:
            while pending:
                while pending:
                    cell = pending.pop()
                    bit = candidates[cell]
                    propagations += 1
                    for index in units_of[cell]:
                        placed[index] |= bit
                    for peer in peers[cell]:
                        mask = candidates[peer]
                        if mask & bit:
                            mask ^= bit
                            if not mask:
                                return False
                            candidates[peer] = mask
                            dirty |= unit_bits[peer]
                            if not mask & (mask - 1):
                                pending.append(peer)
                while dirty:
                    lowest = dirty & -dirty
                    dirty ^= lowest
                    index = lowest.bit_length() - 1
                    done = placed[index]
                    if done == full:
                        continue
                    members = units[index]
                    once = twice = 0
                    for cell in members:
                        mask = candidates[cell]
                        twice |= once & mask
                        once |= mask
                    if once != full:
                        return False
                    hidden = once & ~twice & ~done
                    if hidden:
                        for cell in members:
                            mask = candidates[cell] & hidden
                            if mask and mask != candidates[cell]:
                                if mask & (mask - 1):
                                    return False
                                candidates[cell] = mask
                                pending.append(cell)
                                dirty |= unit_bits[cell]
                                hidden_singles += 1
                        if pending:  # place them before scanning more units: that finds more
                            break
            return True
        finally:
            self.propagations += propagations
            self.hidden_singles += hidden_singles
