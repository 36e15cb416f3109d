"""`propagating`: backtracking with constraint propagation, for every geometry.

The state is a flat list of candidate bit masks, one per cell (bit d-1 set = digit d is
still possible). Propagation runs to a fixpoint:
- a cell reduced to one candidate (a naked single, a given, or a guess) is *placed*: its
  digit is removed from every peer; a peer left with no candidate is a contradiction, a
  peer left with one is placed in turn;
- when no placement is pending, each unit whose candidates changed is scanned with two
  masks (`once`: digits seen, `twice`: digits seen twice or more): a digit missing from
  `once` is a contradiction, a digit in `once` but not in `twice` that is not placed yet
  is a hidden single and its cell is placed;
- when there are no singles left, locked candidates (pointing and claiming, for any two
  units sharing two cells or more): a digit that unit u can hold only inside u & v is
  removed from the rest of v. This is on by default (`locked=False` turns it off):
  measured, it cut the nodes of top95 (first solution) from 66 to 27 per puzzle and made
  it faster too (benchmarks/bench_backtracking.py runs both), and the bundled 16x16 set
  at limit 2 went from 59,000 nodes with one puzzle over 10 s to 8,500 nodes in all.
- on grids of 16 digits or more (`alldiff=None`, the default; True or False forces it),
  when the rules above are stuck, full AllDifferent filtering (`alldiff_filter`: Régin's
  matching-based generalised arc consistency, which subsumes naked and hidden subsets of
  every size) on each unit changed since its last filtering. Measured on 9x9 it halves the
  nodes but costs 10-30% of the time, so it stays off there; the bundled 16x16 set at limit
  2 went from 2.5 s to 0.8-1.1 s, and 2 of the 18 bundled 25x25 puzzles are solved within
  60 s (none before). With it come restarts (a node budget of 100, growing 1.5 times per
  run, the weights kept) and cell branching only.
Search branches on the open cell with the highest ratio of weight to candidates
(dom/wdeg, Boussemart et al. 2004: a unit's weight counts the contradictions found in it,
a cell's weight is the sum over its units), or, when that cell has three candidates or
more, on the two places left for a digit in a unit. Measured against the fewest-candidates
cell: top95 from 27 to 17 nodes per puzzle, the 16x16 set at limit 2 from 8,500 to 3,300
nodes, both faster. Each alternative is tried on a copy of the state: copying a short list
of ints is cheaper in Python than an undo trail. Solutions are counted up to the limit.

The tables (peers, units, units of each cell, unit intersections) come from the geometry,
as tuples of ints, and are built once per geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from puzzles.grid import Grid
from puzzles.rules import Rules
from solvers.base import Deadline, SearchOutcome, Solver

CHECK_EVERY = 256  # search nodes between two reads of the clock
ALLDIFF_FROM = 16  # grids with this many digits or more get AllDifferent filtering by default
RESTART_FIRST = 100  # node budget of the first run of a search with restarts
RESTART_GROWTH = 1.5  # each run's budget over the one before

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Intersection:
    """Two units u and v sharing two cells or more: `common`, `u_rest` = u - v, `v_rest`."""

    units: int  # bit set of the two units
    common: Cells
    u_rest: Cells
    v_rest: Cells


@dataclass(frozen=True)
class Tables:
    """Index tables of a geometry in the form the hot loop wants."""

    size: int
    full: int  # the mask with every digit
    peers: tuple[Cells, ...]
    units: tuple[Cells, ...]
    units_of: tuple[Cells, ...]
    unit_bits: tuple[int, ...]  # per cell, its units as a bit set (bit i = units[i])
    intersections: tuple[tuple[int, Cells, Cells, Cells], ...]  # Intersection as a tuple


@cache
def tables_for(rules: Rules) -> Tables:
    return Tables(
        size=rules.size,
        full=(1 << rules.size) - 1,
        peers=rules.peers,
        units=rules.units,
        units_of=rules.units_of,
        unit_bits=tuple(sum(1 << unit for unit in owners) for owners in rules.units_of),
        intersections=tuple(
            (i.units, i.common, i.u_rest, i.v_rest) for i in intersections(rules.units)
        ),
    )


def intersections(units: tuple[Cells, ...]) -> list[Intersection]:
    """Box/row, box/column (and diagonal/box) pairs: where locked candidates can be found."""
    found = []
    for first, u in enumerate(units):
        for second in range(first + 1, len(units)):
            v = units[second]
            common = set(u) & set(v)
            if len(common) >= 2:
                found.append(
                    Intersection(
                        (1 << first) | (1 << second),
                        tuple(sorted(common)),
                        tuple(cell for cell in u if cell not in common),
                        tuple(cell for cell in v if cell not in common),
                    )
                )
    return found


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
    """Bit-mask candidates, singles (and locked candidates) to a fixpoint, dom/wdeg branching."""

    name = "propagating"

    def __init__(
        self, *, locked: bool = True, alldiff: bool | None = None, restarts: bool | None = None
    ) -> None:
        self.locked = locked
        self.restarts = restarts  # None: with AllDifferent filtering
        self.alldiff = alldiff  # None: on for grids of ALLDIFF_FROM digits or more

    def _build(self, puzzle: Grid, deadline: Deadline) -> PropagatingModel:
        tables = tables_for(puzzle.rules)
        candidates = [1 << (value - 1) if value else tables.full for value in puzzle.values]
        givens = [cell for cell, value in enumerate(puzzle.values) if value]
        return PropagatingModel(tables, State(candidates, [0] * len(tables.units)), givens)

    def _search(
        self, model: PropagatingModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        alldiff = self.alldiff
        if alldiff is None:
            alldiff = model.tables.size >= ALLDIFF_FROM
        restarts = alldiff if self.restarts is None else self.restarts
        search = _Search(
            model.tables, limit, deadline, locked=self.locked, alldiff=alldiff, restarts=restarts
        )
        state = State(list(model.start.candidates), list(model.start.placed))
        exhausted = search.run(state, list(model.pending))
        solutions = [
            Grid(puzzle.rules, tuple(mask.bit_length() for mask in found))
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
                "locked_eliminations": search.locked_eliminations,
                "alldiff_eliminations": search.alldiff_eliminations,
            },
        )


class _Stop(Exception):
    """Ends the search early: the limit was reached or the deadline passed."""


class _Restart(Exception):
    """Ends one run of a search with restarts: its node budget is spent."""


class _Search:
    def __init__(
        self,
        tables: Tables,
        limit: int,
        deadline: Deadline,
        *,
        locked: bool,
        alldiff: bool,
        restarts: bool,
    ) -> None:
        self.tables = tables
        self.intersections = tables.intersections if locked else ()
        self.alldiff = alldiff
        # branching on a digit's two places helps singles, not the full filtering (measured)
        self.pairs = not alldiff
        self.restarts = restarts
        self.budget = -1  # the node count at which the current run restarts (-1: never)
        self.limit = limit
        self.deadline = deadline
        self.solutions: list[list[int]] = []
        self.timed_out = False
        self.nodes = 0  # states propagated: the root and every alternative tried at a branch
        self.guesses = 0  # branch points
        self.propagations = 0  # cells placed (givens, guesses, naked and hidden singles)
        self.hidden_singles = 0
        self.locked_eliminations = 0  # candidates removed by locked candidates
        self.alldiff_eliminations = 0  # candidates removed by AllDifferent filtering
        self.weights = [1] * len(tables.units)  # per unit: 1 + contradictions found in it
        self.untried = 0  # branch points on the current path with alternatives still to try

    def run(self, state: State, pending: list[int]) -> bool:
        """Search from `state`; True when the whole tree was explored.

        With restarts, each run may spend a node budget that grows geometrically; a run
        that spends it is abandoned and the next starts from the root again, with the
        weights its contradictions taught. Only a run that ends by itself counts, so the
        count stays exact; on a timeout, every solution seen in any run is returned.
        """
        self.nodes += 1
        every_unit = (1 << len(self.tables.units)) - 1
        if not self.propagate(state.candidates, state.placed, pending, every_unit):
            return True
        budget = RESTART_FIRST
        seen: list[list[int]] = []
        while True:
            self.budget = self.nodes + budget if self.restarts else -1
            try:
                self.branch(state.candidates.copy(), state.placed.copy())
            except _Restart:
                seen += [found for found in self.solutions if found not in seen]
                self.solutions, self.untried = [], 0
                budget = int(budget * RESTART_GROWTH)
                continue
            except _Stop:
                if self.timed_out:
                    self.solutions += [found for found in seen if found not in self.solutions]
                # stopped at the limit with nothing left to try: the count is exact all the same
                return not self.timed_out and self.untried == 0
            return True

    def branch(self, candidates: list[int], placed: list[int]) -> None:
        choices = self.choices(candidates)
        if not choices:
            self.solutions.append(candidates)
            if len(self.solutions) >= self.limit:
                raise _Stop
            return
        self.guesses += 1
        unit_bits = self.tables.unit_bits
        last = len(choices) - 1
        for number, (cell, bit) in enumerate(choices):
            self.nodes += 1
            if self.nodes % CHECK_EVERY == 0 and self.deadline.expired():
                self.timed_out = True
                raise _Stop
            if self.nodes == self.budget:
                raise _Restart
            trial = candidates.copy()
            trial[cell] = bit
            trial_placed = placed.copy()
            if self.propagate(trial, trial_placed, [cell], unit_bits[cell]):
                if number < last:
                    self.untried += 1
                    self.branch(trial, trial_placed)
                    self.untried -= 1
                else:
                    self.branch(trial, trial_placed)

    def choices(self, candidates: list[int]) -> list[tuple[int, int]]:
        """The alternatives (cell, digit bit) to branch on; empty when the grid is full.

        The open cell with the most weight per candidate (the last of equals), unless it has
        three candidates or more and some digit has only two places left in a unit: then
        those two places.
        """
        weights, units_of = self.weights, self.tables.units_of
        best, best_score = -1, 0.0
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                weight = 0
                for index in units_of[cell]:
                    weight += weights[index]
                score = weight / mask.bit_count()
                if score >= best_score:
                    best, best_score = cell, score
        if best < 0:
            return []
        if candidates[best].bit_count() > 2 and self.pairs:
            for members in self.tables.units:
                once = twice = thrice = 0
                for cell in members:
                    mask = candidates[cell]
                    thrice |= twice & mask
                    twice |= once & mask
                    once |= mask
                pairs = twice & ~thrice
                if pairs:
                    bit = pairs & -pairs
                    return [(cell, bit) for cell in members if candidates[cell] & bit]
        found = []
        mask = candidates[best]
        while mask:
            bit = mask & -mask
            found.append((best, bit))
            mask ^= bit
        return found

    def propagate(
        self, candidates: list[int], placed: list[int], pending: list[int], dirty: int
    ) -> bool:
        """Place the pending cells and everything they imply; False on a contradiction.

        `dirty` is a bit set of units whose candidates changed since they were last scanned
        for hidden singles; eliminations add the units of the cells they touch. Units
        scanned go on to `changed`, the units to look at for locked candidates.
        """
        tables = self.tables
        peers, units, units_of, full = tables.peers, tables.units, tables.units_of, tables.full
        unit_bits, intersections, weights = tables.unit_bits, self.intersections, self.weights
        propagations = hidden_singles = locked = alldiff = 0
        whole_pass = self.alldiff  # locked candidates: all intersections in one pass
        changed = stale = 0  # stale: units changed since their last AllDifferent filtering
        try:
            while pending or dirty or changed or stale:
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
                                for index in units_of[peer]:
                                    weights[index] += 1
                                return False
                            candidates[peer] = mask
                            dirty |= unit_bits[peer]
                            if not mask & (mask - 1):
                                pending.append(peer)
                while dirty:
                    lowest = dirty & -dirty
                    dirty ^= lowest
                    changed |= lowest
                    stale |= lowest
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
                        weights[index] += 1
                        return False
                    hidden = once & ~twice & ~done
                    if hidden:
                        for cell in members:
                            mask = candidates[cell] & hidden
                            if mask and mask != candidates[cell]:
                                if mask & (mask - 1):
                                    weights[index] += 1
                                    return False
                                candidates[cell] = mask
                                pending.append(cell)
                                dirty |= unit_bits[cell]
                                hidden_singles += 1
                        if pending:  # place them before scanning more units: that finds more
                            break
                if pending or dirty:
                    continue
                # No singles left: locked candidates, in the intersections of changed units.
                looking, changed = changed, 0
                for pair, common, u_rest, v_rest in intersections:
                    if not pair & looking:
                        continue
                    inside = 0
                    for cell in common:
                        inside |= candidates[cell]
                    u_mask = 0
                    for cell in u_rest:
                        u_mask |= candidates[cell]
                    v_mask = 0
                    for cell in v_rest:
                        v_mask |= candidates[cell]
                    # a digit u keeps only inside u & v is not in the rest of v; and back
                    for rest, remove in (
                        (v_rest, inside & v_mask & ~u_mask),
                        (u_rest, inside & u_mask & ~v_mask),
                    ):
                        if not remove:
                            continue
                        for cell in rest:
                            mask = candidates[cell]
                            if mask & remove:
                                locked += 1
                                mask &= ~remove
                                if not mask:
                                    for index in units_of[cell]:
                                        weights[index] += 1
                                    return False
                                candidates[cell] = mask
                                dirty |= unit_bits[cell]
                                if not mask & (mask - 1):
                                    pending.append(cell)
                    if dirty and not whole_pass:  # back to the cheap rules first
                        changed |= looking  # and look here again later
                        break
                if pending or dirty:
                    continue
                if not self.alldiff:
                    stale = 0
                    continue
                # Nothing cheaper left: AllDifferent filtering of the units changed since
                # their last one, until one gives eliminations (then the cheap rules first).
                while stale:
                    lowest = stale & -stale
                    stale ^= lowest
                    index = lowest.bit_length() - 1
                    if placed[index] == full:
                        continue
                    cells = [
                        cell for cell in units[index] if candidates[cell] & (candidates[cell] - 1)
                    ]
                    masks = [candidates[cell] for cell in cells]
                    filtered = alldiff_filter(masks)
                    if filtered is None:
                        weights[index] += 1
                        return False
                    if filtered is masks:
                        continue
                    for cell, old, mask in zip(cells, masks, filtered, strict=True):
                        if mask != old:
                            alldiff += (old ^ mask).bit_count()
                            candidates[cell] = mask
                            dirty |= unit_bits[cell]
                            if not mask & (mask - 1):
                                pending.append(cell)
                    break
            return True
        finally:
            self.propagations += propagations
            self.hidden_singles += hidden_singles
            self.locked_eliminations += locked
            self.alldiff_eliminations += alldiff


def alldiff_filter(masks: list[int]) -> list[int] | None:
    """Generalised arc consistency for one AllDifferent over as many digits as cells.

    `masks` are the candidates of the open cells of a unit; the digits still open are
    exactly their union, as many as the cells (hidden singles have checked that). Returns
    the masks with every digit removed that no complete assignment of the unit can give
    its cell (Régin 1994), or None when there is none at all. A perfect matching of cells
    to digits is found first; then a digit graph where a -> b when the cell matched to a
    may take b: cell(a) may take b in some perfect matching exactly when a and b are in the
    same strongly connected component. This subsumes naked and hidden subsets of any size.
    """
    count = len(masks)
    owner: dict[int, int] = {}  # digit bit -> index of its matched cell
    mate = [0] * count  # per cell, its matched digit bit
    free = 0
    for mask in masks:
        free |= mask
    if free.bit_count() != count:  # never asked by the search, which checks hidden singles
        return None if free.bit_count() < count else masks  # more digits: no filtering
    unmatched = []
    for index, mask in enumerate(masks):
        available = mask & free
        if available:
            bit = available & -available
            mate[index] = bit
            owner[bit] = index
            free ^= bit
        else:
            unmatched.append(index)
    for index in unmatched:
        if not _augment(index, masks, mate, owner):
            return None
    # Strongly connected components of the digit graph, one at a time: the forward and
    # the backward closure of the lowest digit left. Usually the whole unit is one.
    remaining = 0
    for bit in mate:
        remaining |= bit
    filtered = masks
    while remaining:
        start = remaining & -remaining
        forward = frontier = start
        while frontier:
            reached = 0
            while frontier:
                bit = frontier & -frontier
                frontier ^= bit
                reached |= masks[owner[bit]]
            frontier = reached & remaining & ~forward
            forward |= frontier
        backward = start
        grown = True
        while grown:
            grown = False
            rest = remaining & ~backward
            while rest:
                bit = rest & -rest
                rest ^= bit
                if masks[owner[bit]] & backward:
                    backward |= bit
                    grown = True
        component = forward & backward
        remaining &= ~component
        members = component
        while members:
            bit = members & -members
            members ^= bit
            cell = owner[bit]
            mask = masks[cell]
            if mask & ~component:
                if filtered is masks:
                    filtered = masks.copy()
                filtered[cell] = mask & component
    return filtered


def _augment(index: int, masks: list[int], mate: list[int], owner: dict[int, int]) -> bool:
    """Find an alternating path from the unmatched cell `index` to a free digit (BFS)."""
    seen = 0
    parent: dict[int, tuple[int, int]] = {}  # digit bit -> (cell that reached it, its digit)
    queue = [index]
    for cell in queue:
        options = masks[cell] & ~seen
        while options:
            bit = options & -options
            options ^= bit
            seen |= bit
            parent[bit] = (cell, mate[cell])
            if bit not in owner:  # a free digit: flip the path back to `index`
                while True:
                    cell, previous = parent[bit]
                    mate[cell] = bit
                    owner[bit] = cell
                    if cell == index:
                        return True
                    bit = previous
            queue.append(owner[bit])
    return False
