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
  removed from the rest of v. This is on by default (`locked=False` turns it off; it
  saves nodes and time: docs/measurements/engines.md).
- on grids of 16 digits or more (`alldiff=None`, the default; True or False forces it),
  when the rules above are stuck, full AllDifferent filtering (`alldiff_filter`: Régin's
  matching-based generalised arc consistency, which subsumes naked and hidden subsets of
  every size) on each unit changed since its last filtering. On 9x9 it saves nodes but
  costs more time than it saves, so it stays off there. With it come restarts (a node
  budget of 100, growing 1.5 times per run, the weights kept) and cell branching only.
- rules beyond units and peers have propagators of their own, run on the cells whose
  candidates changed, alternating with the rules above until neither changes anything
  (`_VariantSearch`): non-consecutive neighbours; any other pair relation by arc
  consistency on its support table (a partner keeps the digits some candidate allows
  beside it: a thermometer's order gives its bounds along the line); cages by their digit
  sets; linear equations by bounds (each term's least and greatest value from its cell's
  candidates, a digit whose term lies outside the total less the other terms' range goes);
  tables of admissible fillings by support (a cell keeps a digit only while a row still
  possible uses it); automata read along a line (sandwich, X-sum and skyscraper clues) by
  the filtering of Pesant's REGULAR constraint (`regular_support`: a digit stays only on a
  step of some path from the start to an accepting state through the line's candidates;
  with the line's digits kept distinct, `distinct_support`: both in
  `sudoku_bench.solvers.engines.automata`, which `logic` shares).
- with `shaving=True` (off by default), singleton consistency (shaving, SAC) on top of the
  rules above, at every node: each candidate of each open cell is assumed on a copy and
  propagated by the rules above; one that leads to a contradiction is removed (and its
  consequences propagated), until a whole pass removes nothing. Its probes are not search
  nodes: a puzzle it settles at the root has `guesses` 0.
Search branches on the open cell with the highest ratio of weight to candidates
(dom/wdeg, Boussemart et al. 2004: a unit's weight counts the contradictions found in it,
a cell's weight is the sum over its units), or, when that cell has three candidates or
more, on the two places left for a digit in a unit (fewer nodes and less time than the
fewest-candidates cell). Each alternative is tried on a copy of the state: copying a short
list of ints is cheaper in Python than an undo trail. Solutions are counted up to the limit.

The tables (peers, units, units of each cell, unit intersections, cages, relations,
equations, tables of fillings) are tuples of ints,
built by the encoder table (`ENCODERS`: each constraint kind or family to what implements
it here) and cached in two bounded parts (`sudoku_bench.solvers.tables`): the units' tables per shape,
the rest per rules. The figures behind these choices are in docs/measurements/engines.md.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.puzzles.constraints import (
    Cage,
    CellDigits,
    Constraint,
    DistinctPairs,
    EncoderTable,
    LinearConstraint,
    NonConsecutive,
    PairConstraint,
    RegularConstraint,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Deadline, SearchOutcome, Solver
from sudoku_bench.solvers.engines.automata import (
    TooManyNodes,
    compiled,
    distinct_support,
    regular_support,
)
from sudoku_bench.solvers.tables import by_shape, per_puzzle

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
class CageTable:
    """A killer cage with a sum, in the form its propagator wants."""

    cells: Cells
    total: int
    # every set of len(cells) distinct digits (as a mask) that adds up to `total`; None
    # when there could be too many to list (big grids, big cages): then sum bounds only
    combos: tuple[int, ...] | None
    seen_by_all: Cells  # cells outside the cage that are peers of every cage cell
    weight: int  # its index in the search's dom/wdeg weights (they follow the units')


@dataclass(frozen=True)
class LinearTable:
    """A linear equation over digits (digits may repeat), in the form its propagator wants."""

    cells: Cells
    coefficients: tuple[int, ...]
    total: int
    weight: int  # its index in the search's dom/wdeg weights


@dataclass(frozen=True)
class FillingTable:
    """A table of admissible fillings: each row a candidate mask per cell (a digit's bit, or
    every digit where the table's row says 0)."""

    cells: Cells
    rows: tuple[Cells, ...]
    weight: int  # its index in the search's dom/wdeg weights


@dataclass(frozen=True)
class AutomatonTable:
    """An automaton read along `cells`, its states numbered from 0 (the start): per state,
    per digit d (index d - 1), the bit of the state it steps to (0: no step), and the
    accepting states as a bit set."""

    cells: Cells
    steps: tuple[Cells, ...]
    accepting: int
    weight: int  # its index in the search's dom/wdeg weights


# per digit d of a cell (index d - 1), the digits a related cell may hold beside it, as a mask
Support = tuple[int, ...]


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
    houses: tuple[Cells, ...]  # the units of N cells: each holds every digit once
    # per unit, the `placed` mask a search starts from: 0 for a house, every digit for a
    # smaller unit, so that the hidden-single scan (sound only where every digit must go)
    # passes it by at no cost to classic rules
    start_placed: tuple[int, ...]
    start_masks: tuple[int, ...]  # per cell, the digits its parity allows
    weighted_of: tuple[Cells, ...]  # per cell, its dom/wdeg weights: its units, its cages
    weight_count: int
    neighbours: tuple[Cells, ...]  # per cell, its non-consecutive partners
    cages: tuple[CageTable, ...]  # the cages with a sum
    cages_of: tuple[Cells, ...]  # per cell, indices into `cages`
    # per cell, its pair relations beyond distinct and non-consecutive: (the other cell,
    # the digits that cell may hold beside each digit here)
    relations_of: tuple[tuple[tuple[int, Support], ...], ...]
    linear: tuple[LinearTable, ...]  # the linear equations
    linear_of: tuple[Cells, ...]  # per cell, indices into `linear`
    fillings: tuple[FillingTable, ...]  # the tables of admissible fillings
    fillings_of: tuple[Cells, ...]  # per cell, indices into `fillings`
    automata: tuple[AutomatonTable, ...]  # the automata read along lines
    automata_of: tuple[Cells, ...]  # per cell, indices into `automata`

    @property
    def variant(self) -> bool:
        """Rules that units and peers do not express (non-consecutive, pair relations, cage
        sums, equations, tables): the search then takes its variant path, chosen once, so
        classic rules pay nothing."""
        return (
            bool(self.cages or self.linear or self.fillings or self.automata)
            or any(self.neighbours)
            or any(self.relations_of)
        )


MAX_MEMO = 200_000  # remembered cage fillings per search (then forgotten, and begun again)
MAX_COMBOS = 5000  # cages whose digit sets could be more are propagated by sum bounds only


@dataclass(frozen=True)
class UnitTables:
    """The tables of a rules' units: the shape's part, shared by every puzzle of the shape."""

    units: tuple[Cells, ...]
    units_of: tuple[Cells, ...]
    unit_bits: tuple[int, ...]
    house_indices: tuple[int, ...]
    intersections: tuple[tuple[int, Cells, Cells, Cells], ...]
    start_placed: tuple[int, ...]
    unit_peers: tuple[frozenset[int], ...]  # per cell, the cells that share a unit with it


@dataclass
class _Encoded:
    """What the constraints add to the tables, gathered by their encoders."""

    extra_units: list[Cells]
    peers: list[set[int]]  # per cell, the cells it must differ from beyond its units
    neighbours: list[list[int]]  # per cell, its non-consecutive partners
    start_masks: list[int]  # per cell, the digits it may hold
    cages: list[Cage]
    relations: list[list[tuple[int, Support]]]  # per cell, its pair relations (relations_of)
    equations: list[tuple[Cells, tuple[int, ...], int]]  # cells, coefficients, total
    fillings: list[tuple[Cells, tuple[Cells, ...]]]  # cells, rows as candidate masks
    automata: list[tuple[Cells, tuple[Cells, ...], int]]  # cells, steps, accepting states


def _encode_units(constraint: UnitConstraint, rules: Rules, found: _Encoded) -> None:
    found.extra_units += constraint.units(rules)


def _encode_distinct_pairs(constraint: DistinctPairs, rules: Rules, found: _Encoded) -> None:
    for a, b in constraint.pairs(rules):
        found.peers[a].add(b)
        found.peers[b].add(a)


def _encode_non_consecutive(constraint: NonConsecutive, rules: Rules, found: _Encoded) -> None:
    for a, b in constraint.pairs(rules):
        found.neighbours[a].append(b)
        found.neighbours[b].append(a)


def _encode_pair_relation(constraint: PairConstraint, rules: Rules, found: _Encoded) -> None:
    """Any other pair relation, as its support table for arc consistency; a relation that
    never allows one digit twice also makes its cells peers (singles then see it)."""
    digits = range(1, rules.size + 1)
    allows = constraint.allows
    forward = tuple(sum(1 << (e - 1) for e in digits if allows(d, e)) for d in digits)
    backward = tuple(sum(1 << (d - 1) for d in digits if allows(d, e)) for e in digits)
    distinct = not any(allows(d, d) for d in digits)
    for a, b in constraint.pairs(rules):
        found.relations[a].append((b, forward))
        found.relations[b].append((a, backward))
        if distinct:
            found.peers[a].add(b)
            found.peers[b].add(a)


def _encode_linear(constraint: LinearConstraint, rules: Rules, found: _Encoded) -> None:
    for equation in constraint.equations(rules):
        cells = tuple(cell for cell, _ in equation.terms)
        coefficients = tuple(k for _, k in equation.terms)
        found.equations.append((cells, coefficients, equation.total))


def _encode_table(constraint: TableConstraint, rules: Rules, found: _Encoded) -> None:
    full = (1 << rules.size) - 1
    for table in constraint.tables(rules):
        rows = tuple(
            tuple(1 << (d - 1) if d else full for d in row) for row in dict.fromkeys(table.rows)
        )
        found.fillings.append((table.cells, rows))


# A rule that is both a table of fillings and an automaton (an outside clue) is propagated as
# its table on sides up to this one where its table is listed, as its automaton on the others
# (None: as its automaton on every side). The automaton with the line's digits kept distinct
# (`distinct_support`) filters at least as much as the table while it stays under its bound
# of nodes (`DISTINCT_NODES`) and, on the 9x9 collections, solves faster
# (docs/measurements/line-clues.md), so it is used on every side.
TABLES_TO: int | None = None


def _encode_regular(constraint: RegularConstraint, rules: Rules, found: _Encoded) -> None:
    if (
        isinstance(constraint, TableConstraint)
        and TABLES_TO is not None
        and rules.size <= TABLES_TO
        and constraint.listed_on(rules.size)
    ):
        _encode_table(constraint, rules, found)
        return
    for automaton in constraint.automata(rules):
        found.automata.append((automaton.cells, *compiled(automaton, rules.size)))


def _encode_cell_digits(constraint: CellDigits, rules: Rules, found: _Encoded) -> None:
    for cell, digits in constraint.allowed(rules).items():
        found.start_masks[cell] &= sum(1 << (d - 1) for d in digits)


def _encode_cage(constraint: Cage, rules: Rules, found: _Encoded) -> None:
    for cell in constraint.cells:  # cage mates hold distinct digits
        found.peers[cell].update(constraint.cells)
    found.cages.append(constraint)


# What implements each kind here: units join the unit tables (singles, locked candidates,
# AllDifferent filtering), distinct pairs join the peers, non-consecutive pairs get their
# propagator, any other pair relation its support table (arc consistency), cell digits
# narrow the starting candidates, cages join the peers and get their sum propagator (with
# their digit-set tables), linear equations their bounds propagator, tables of fillings
# their support propagator, automata (where no table is listed, or past `TABLES_TO`) their
# REGULAR filtering. The lookup goes along a kind's bases, kind before family.
Encoder = Callable[[Any, Rules, _Encoded], None]
# (a tuple of pairs, not a dict display: mypy takes an abstract family there only)
_ENCODERS: tuple[tuple[type[Constraint], Encoder], ...] = (
    (UnitConstraint, _encode_units),
    (DistinctPairs, _encode_distinct_pairs),
    (NonConsecutive, _encode_non_consecutive),
    (PairConstraint, _encode_pair_relation),
    (CellDigits, _encode_cell_digits),
    (Cage, _encode_cage),
    (LinearConstraint, _encode_linear),
    (RegularConstraint, _encode_regular),
    (TableConstraint, _encode_table),
)
ENCODERS: EncoderTable[Encoder] = EncoderTable(dict(_ENCODERS))


def _unit_constraints(rules: Rules) -> list[Cells]:
    """The units the rules' unit constraints add, in their order."""
    found = _Encoded([], [], [], [], [], [], [], [], [])
    for constraint in rules.constraints:
        if isinstance(constraint, UnitConstraint):
            ENCODERS.encoder(constraint)(constraint, rules, found)
    return found.extra_units


@by_shape
def unit_tables(rules: Rules) -> UnitTables:
    """Rows, columns, regions and the unit constraints' units, with their intersections."""
    n = rules.size
    units = (*rules.rows, *rules.columns, *rules.regions, *_unit_constraints(rules))
    owners: list[list[int]] = [[] for _ in range(n * n)]
    for index, unit in enumerate(units):
        for cell in unit:
            owners[cell].append(index)
    units_of = tuple(tuple(owner) for owner in owners)
    house_indices = tuple(i for i, unit in enumerate(units) if len(unit) == n)
    houses = frozenset(house_indices)
    full = (1 << n) - 1
    unit_peers = []
    for cell, owner in enumerate(units_of):
        others = {peer for index in owner for peer in units[index]}
        others.discard(cell)
        unit_peers.append(frozenset(others))
    return UnitTables(
        units=units,
        units_of=units_of,
        unit_bits=tuple(sum(1 << unit for unit in owner) for owner in units_of),
        house_indices=house_indices,
        intersections=tuple(
            (i.units, i.common, i.u_rest, i.v_rest)
            for i in intersections(units, among=house_indices)
        ),
        start_placed=tuple(0 if index in houses else full for index in range(len(units))),
        unit_peers=tuple(unit_peers),
    )


@per_puzzle
def tables_for(rules: Rules) -> Tables:
    shape = unit_tables(rules)
    n = rules.size
    full = (1 << n) - 1
    cells = range(n * n)
    found = _Encoded(
        [], [set() for _ in cells], [[] for _ in cells], [full] * (n * n), [],
        [[] for _ in cells], [], [], [],
    )  # fmt: skip
    for constraint in rules.constraints:
        if not isinstance(constraint, UnitConstraint):  # in the shape's part
            ENCODERS.encoder(constraint)(constraint, rules, found)
    units = shape.units
    peer_sets = [
        shape.unit_peers[cell] | (found.peers[cell] - {cell})
        if found.peers[cell]
        else shape.unit_peers[cell]
        for cell in cells
    ]
    summed = [cage for cage in found.cages if cage.total is not None]
    summed += implied_cages(rules, shape, peer_sets, summed)
    cages_of: list[list[int]] = [[] for _ in cells]
    for index, cage in enumerate(summed):
        for cell in cage.cells:
            cages_of[cell].append(index)
    cages = []
    for index, cage in enumerate(summed):
        assert cage.total is not None
        seen = frozenset.intersection(*(peer_sets[cell] for cell in cage.cells))
        cages.append(
            CageTable(
                cells=cage.cells,
                total=cage.total,
                combos=digit_sets(n, len(cage.cells), cage.total),
                seen_by_all=tuple(sorted(seen - set(cage.cells))),
                weight=len(units) + index,
            )
        )
    first = len(units) + len(cages)  # the equations' weights, then the tables'
    linear = tuple(
        LinearTable(cells, coefficients, total, first + index)
        for index, (cells, coefficients, total) in enumerate(found.equations)
    )
    first += len(linear)
    fillings = tuple(
        FillingTable(cells, rows, first + index)
        for index, (cells, rows) in enumerate(found.fillings)
    )
    first += len(fillings)
    automata = tuple(
        AutomatonTable(cells, steps, accepting, first + index)
        for index, (cells, steps, accepting) in enumerate(found.automata)
    )
    linear_of = _owners(n * n, (item.cells for item in linear))
    fillings_of = _owners(n * n, (item.cells for item in fillings))
    automata_of = _owners(n * n, (item.cells for item in automata))
    return Tables(
        size=n,
        full=full,
        peers=tuple(tuple(sorted(peers)) for peers in peer_sets),
        units=units,
        units_of=shape.units_of,
        unit_bits=shape.unit_bits,
        intersections=shape.intersections,
        houses=tuple(units[index] for index in shape.house_indices),
        start_placed=shape.start_placed,
        start_masks=tuple(found.start_masks),
        weighted_of=tuple(
            owners
            + tuple(len(units) + index for index in cages_of[cell])
            + tuple(linear[index].weight for index in linear_of[cell])
            + tuple(fillings[index].weight for index in fillings_of[cell])
            + tuple(automata[index].weight for index in automata_of[cell])
            for cell, owners in enumerate(shape.units_of)
        ),
        weight_count=len(units) + len(cages) + len(linear) + len(fillings) + len(automata),
        neighbours=tuple(tuple(sorted(partners)) for partners in found.neighbours),
        cages=tuple(cages),
        cages_of=tuple(tuple(owners) for owners in cages_of),
        relations_of=tuple(tuple(relations) for relations in found.relations),
        linear=linear,
        linear_of=linear_of,
        fillings=fillings,
        fillings_of=fillings_of,
        automata=automata,
        automata_of=automata_of,
    )


def _owners(count: int, scopes: Iterable[Cells]) -> tuple[Cells, ...]:
    """Per cell (of `count`), the indices of the scopes that hold it."""
    owners: list[list[int]] = [[] for _ in range(count)]
    for index, cells in enumerate(scopes):
        for cell in dict.fromkeys(cells):
            owners[cell].append(index)
    return tuple(tuple(owner) for owner in owners)


def implied_cages(
    rules: Rules, shape: UnitTables, peer_sets: list[frozenset[int]], cages: list[Cage]
) -> list[Cage]:
    """Cages the sums imply (the killer solver's "45 rule"), as redundant constraints.

    A house holds every digit once, so its digits add up to N(N+1)/2. Innies: the cells of
    a house outside the cages that lie wholly inside it add up to that less those cages'
    sums. Outies: when cages cover the whole house, the cells of the cages that cross its
    border, outside it, add up to those cages' sums less the house's share; they make a
    cage when they hold distinct digits (they are peers of one another). They cut the
    nodes of zero-given killers (docs/measurements/engines.md).
    """
    house_sum = rules.size * (rules.size + 1) // 2
    known = {frozenset(cage.cells) for cage in cages}
    found = []
    for index in shape.house_indices:
        house = frozenset(shape.units[index])
        touching = [cage for cage in cages if house & set(cage.cells)]
        inner = [cage for cage in touching if house >= set(cage.cells)]
        crossing = [cage for cage in touching if not house >= set(cage.cells)]
        covered = [cell for cage in touching for cell in cage.cells if cell in house]
        if len(covered) != len(set(covered)):
            continue  # overlapping cages: their sums do not add up to the house's
        inside = sum(cage.total or 0 for cage in inner)
        rest = house - {cell for cage in inner for cell in cage.cells}
        if inner and rest and rest not in known:
            found.append(Cage(tuple(sorted(rest)), house_sum - inside))
            known.add(rest)
        if crossing and len(covered) == len(house):
            out = frozenset(cell for cage in crossing for cell in cage.cells) - house
            distinct = all(out - {cell} <= peer_sets[cell] for cell in out)
            if distinct and len(out) <= rules.size and out not in known:
                total = sum(cage.total or 0 for cage in crossing) - (house_sum - inside)
                found.append(Cage(tuple(sorted(out)), total))
                known.add(out)
    return found


def digit_sets(size: int, count: int, total: int) -> tuple[int, ...] | None:
    """The sets of `count` distinct digits 1..size adding up to `total`, as bit masks (bit
    d-1 = digit d); None when there could be more than MAX_COMBOS of them."""
    if math.comb(size, count) > MAX_COMBOS:
        return None
    return tuple(
        sum(1 << (d - 1) for d in digits)
        for digits in itertools.combinations(range(1, size + 1), count)
        if sum(digits) == total
    )


def intersections(
    units: tuple[Cells, ...], among: Iterable[int] | None = None
) -> list[Intersection]:
    """Box/row, box/column (and diagonal/box) pairs: where locked candidates can be found.

    `among`: the indices of the units to pair (default: all). The search pairs houses only:
    "the digit must go somewhere in u" holds only for a unit of N cells.
    """
    chosen = list(range(len(units))) if among is None else sorted(among)
    found = []
    for place, first in enumerate(chosen):
        u = units[first]
        for second in chosen[place + 1 :]:
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
    honours_node_limit = True
    frames_per_cell = 2  # it recurses per branch point (solvers.deep)
    encoders = ENCODERS

    def __init__(
        self,
        *,
        locked: bool = True,
        alldiff: bool | None = None,
        restarts: bool | None = None,
        shaving: bool = False,
    ) -> None:
        self.locked = locked
        self.shaving = shaving
        self.restarts = restarts  # None: with AllDifferent filtering
        self.alldiff = alldiff  # None: on for grids of ALLDIFF_FROM digits or more

    def _build(self, puzzle: Grid, deadline: Deadline) -> PropagatingModel:
        tables = tables_for(puzzle.rules)
        # a given its parity forbids leaves its cell no candidate: no solution, found in `run`
        candidates = [
            (1 << (value - 1)) & allowed if value else allowed
            for value, allowed in zip(puzzle.values, tables.start_masks, strict=True)
        ]
        givens = [cell for cell, value in enumerate(puzzle.values) if value]
        return PropagatingModel(tables, State(candidates, list(tables.start_placed)), givens)

    def _search(
        self, model: PropagatingModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        alldiff = self.alldiff
        if alldiff is None:
            alldiff = model.tables.size >= ALLDIFF_FROM
        restarts = alldiff if self.restarts is None else self.restarts
        engine = _VariantSearch if model.tables.variant else _Search
        search = engine(
            model.tables,
            limit,
            deadline,
            locked=self.locked,
            alldiff=alldiff,
            restarts=restarts,
            shaving=self.shaving,
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
                "nonconsecutive_eliminations": search.nonconsecutive_eliminations,
                "cage_eliminations": search.cage_eliminations,
                "relation_eliminations": search.relation_eliminations,
                "equation_eliminations": search.equation_eliminations,
                "table_eliminations": search.table_eliminations,
                "automaton_eliminations": search.automaton_eliminations,
                **(
                    {
                        "shaving_probes": search.shaving_probes,
                        "shaving_eliminations": search.shaving_eliminations,
                    }
                    if self.shaving
                    else {}
                ),
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
        shaving: bool = False,
    ) -> None:
        self.tables = tables
        self.shaving = shaving
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
        self.nonconsecutive_eliminations = 0  # candidates removed next to a placed digit
        self.cage_eliminations = 0  # candidates removed by cage sums and digit sets
        self.relation_eliminations = 0  # candidates removed by pair relations (no support)
        self.equation_eliminations = 0  # candidates removed by linear equations' bounds
        self.table_eliminations = 0  # candidates no admissible filling left uses
        self.automaton_eliminations = 0  # candidates on no accepting path of an automaton
        self.shaving_probes = 0  # candidates assumed and propagated by shaving
        self.shaving_eliminations = 0  # candidates whose probe reached a contradiction
        # per unit (then per cage, equation and table): 1 + the contradictions found in it
        self.weights = [1] * tables.weight_count
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
        if 0 in state.candidates:  # a given its parity forbids
            return True
        if not self.propagate(state.candidates, state.placed, pending, every_unit):
            return True
        if self.shaving:
            try:
                if not self.shave(state.candidates, state.placed):
                    return True
            except _Stop:
                return False
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
            if self.nodes % CHECK_EVERY == 0 and self.deadline.spent(self.nodes):
                self.timed_out = True
                raise _Stop
            if self.nodes == self.budget:
                raise _Restart
            trial = candidates.copy()
            trial[cell] = bit
            trial_placed = placed.copy()
            consistent = self.propagate(trial, trial_placed, [cell], unit_bits[cell])
            if consistent and self.shaving:
                consistent = self.shave(trial, trial_placed)
            if consistent:
                if number < last:
                    self.untried += 1
                    self.branch(trial, trial_placed)
                    self.untried -= 1
                else:
                    self.branch(trial, trial_placed)

    def shave(self, candidates: list[int], placed: list[int]) -> bool:
        """Singleton consistency over `propagate`: each candidate of each open cell is
        assumed on a copy and propagated; one that reaches a contradiction is removed from
        `candidates` (changed in place) and the removal propagated; passes repeat until one
        removes nothing. False when the state itself is contradictory."""
        unit_bits = self.tables.unit_bits
        cells = range(len(candidates))
        while True:
            removed = False
            for cell in cells:
                rest = candidates[cell]
                if not rest & (rest - 1):
                    continue
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    self.shaving_probes += 1
                    if self.shaving_probes % CHECK_EVERY == 0 and self.deadline.spent(self.nodes):
                        self.timed_out = True
                        raise _Stop
                    trial = candidates.copy()
                    trial[cell] = bit
                    if self.propagate(trial, placed.copy(), [cell], unit_bits[cell]):
                        continue
                    self.shaving_eliminations += 1
                    removed = True
                    left = candidates[cell] & ~bit
                    candidates[cell] = left
                    if not left:
                        return False
                    pending = [] if left & (left - 1) else [cell]
                    if not self.propagate(candidates, placed, pending, unit_bits[cell]):
                        return False
                    left = candidates[cell]
                    if not left & (left - 1):
                        break  # settled: a single candidate is not probed
                    rest &= left  # what the propagation left of this cell
            if not removed:
                return True

    def choices(self, candidates: list[int]) -> list[tuple[int, int]]:
        """The alternatives (cell, digit bit) to branch on; empty when the grid is full.

        The open cell with the most weight per candidate (the last of equals), unless it has
        three candidates or more and some digit has only two places left in a unit: then
        those two places.
        """
        weights, units_of = self.weights, self.tables.weighted_of
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
            for members in self.tables.houses:  # a digit must go in one of its two places
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
                    cells = [
                        cell for cell in units[index] if candidates[cell] & (candidates[cell] - 1)
                    ]
                    if len(cells) < 2:  # nothing to filter (and a smaller unit's `placed`
                        continue  # is every digit from the start: it cannot say)
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


class _VariantSearch(_Search):
    """The search for rules beyond units and peers: non-consecutive neighbours, pair
    relations (arc consistency on their support), cage sums, linear equations (bounds) and
    tables of fillings (support).

    Its propagation alternates two stages until neither changes anything: the classic
    rules to their fixpoint (`_Search.propagate`), then the variant rules on the cells whose
    candidates changed since they last ran. Classic rules never come here (`Tables.variant`
    chooses the class once), so they pay nothing for it.
    """

    def __init__(self, tables: Tables, *args: Any, **options: Any) -> None:
        super().__init__(tables, *args, **options)
        self.every_cell = range(tables.size * tables.size)
        self.first = True  # the root: every cell counts as changed
        # cage fillings by (cage, its cells' candidates): the same ones recur all the time
        self.fillings: dict[tuple[int, Cells], tuple[Cells | None, int]] = {}
        # tables' and automata's supports by (weight, its cells' candidates), likewise
        self.supports: dict[tuple[int, Cells], Cells | None] = {}
        self.relations = any(tables.relations_of)  # (a tuple per cell, maybe all empty)

    def propagate(
        self, candidates: list[int], placed: list[int], pending: list[int], dirty: int
    ) -> bool:
        if self.first:
            self.first = False
            touched: Iterable[int] = self.every_cell
        else:
            touched = list(pending)  # a guess: set before the call, so not in the difference
        while True:
            before = candidates.copy()
            if not super().propagate(candidates, placed, pending, dirty):
                return False
            changed = {cell for cell in self.every_cell if candidates[cell] != before[cell]}
            changed.update(touched)
            before = candidates.copy()
            pending, dirty = [], 0
            if not self.variant_rules(candidates, changed, pending):
                return False
            touched = [cell for cell in self.every_cell if candidates[cell] != before[cell]]
            if not touched:
                return True
            for cell in touched:
                dirty |= self.tables.unit_bits[cell]

    def variant_rules(self, candidates: list[int], changed: set[int], pending: list[int]) -> bool:
        """Non-consecutive neighbours, pair relations, the cages, the equations and the
        tables, for the `changed` cells; the cells they reduce to one candidate go on
        `pending`. False on a contradiction. (What one rule changes here the others see on
        the next round of `propagate`, which runs until nothing changes.)"""
        tables = self.tables
        neighbours, full = tables.neighbours, tables.full
        removed = 0
        for cell in changed:
            if not neighbours[cell]:
                continue
            mask = candidates[cell]
            # The digits next to every candidate of the cell: for a placed digit d, d - 1
            # and d + 1; for exactly {d - 1, d + 1}, d; else none.
            near = ((mask << 1) | (mask >> 1)) & full
            if mask & (mask - 1):
                low = mask & -mask
                near = low << 1 if mask == low | (low << 2) else 0
            if not near:
                continue
            for other in neighbours[cell]:
                before = candidates[other]
                if before & near:
                    after = before & ~near
                    removed += (before & near).bit_count()
                    if not self.set_mask(candidates, other, after, pending):
                        self.nonconsecutive_eliminations += removed
                        return False
        self.nonconsecutive_eliminations += removed
        if self.relations and not self.relation_rules(candidates, changed, pending):
            return False
        # cages, linear equations, tables of fillings: each rule whose cells changed
        families: tuple[tuple[Sequence[Any], Sequence[Sequence[int]], Any], ...] = (
            (tables.cages, tables.cages_of, self.cage_rules),
            (tables.linear, tables.linear_of, self.linear_rules),
            (tables.fillings, tables.fillings_of, self.filling_rules),
            (tables.automata, tables.automata_of, self.automaton_rules),
        )
        for found, of_cell, rule in families:
            if found:
                due = {index for cell in changed for index in of_cell[cell]}
                for index in sorted(due):
                    if not rule(found[index], candidates, pending):
                        self.weights[found[index].weight] += 1
                        return False
        return True

    def relation_rules(self, candidates: list[int], changed: set[int], pending: list[int]) -> bool:
        """Arc consistency on the pair relations, from the `changed` cells to a fixpoint: a
        partner keeps the digits some candidate of the cell allows beside it."""
        relations_of = self.tables.relations_of
        work = [cell for cell in changed if relations_of[cell]]
        queued = set(work)
        removed = 0
        try:
            while work:
                cell = work.pop()
                queued.discard(cell)
                mask = candidates[cell]
                for other, support in relations_of[cell]:
                    allowed = 0
                    rest = mask
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        allowed |= support[low.bit_length() - 1]
                    before = candidates[other]
                    if before & ~allowed:
                        removed += (before & ~allowed).bit_count()
                        if not self.set_mask(candidates, other, before & allowed, pending):
                            return False
                        if other not in queued:
                            queued.add(other)
                            work.append(other)
            return True
        finally:
            self.relation_eliminations += removed

    def linear_rules(
        self, equation: LinearTable, candidates: list[int], pending: list[int]
    ) -> bool:
        """Bounds reasoning on one equation sum(k * digit) == total: each term's least and
        greatest value from its cell's candidates; a digit whose term falls outside what
        the total less the other terms' range leaves is removed, to a fixpoint."""
        cells, coefficients = equation.cells, equation.coefficients
        masks = [candidates[cell] for cell in cells]
        narrowed = linear_bounds(equation.total, coefficients, masks)
        if narrowed is None:
            return False
        removed = 0
        for cell, old, mask in zip(cells, masks, narrowed, strict=True):
            if mask != old:
                removed += (old ^ mask).bit_count()
                if not self.set_mask(candidates, cell, mask, pending):
                    return False
        self.equation_eliminations += removed
        return True

    def filling_rules(self, table: FillingTable, candidates: list[int], pending: list[int]) -> bool:
        """Table support: a cell keeps a digit only while some row still possible (each of
        its digits among its cell's candidates) uses it; no row possible is a contradiction."""
        masks = tuple(candidates[cell] for cell in table.cells)
        key = (table.weight, masks)
        narrowed = self.supports.get(key, masks)
        if narrowed is masks:
            if len(self.supports) >= MAX_MEMO:
                self.supports.clear()
            narrowed = self.supports[key] = table_support(table.rows, masks)
        removed = self.narrow(table.cells, masks, narrowed, candidates, pending)
        if removed is None:
            return False
        self.table_eliminations += removed
        return True

    def automaton_rules(
        self, automaton: AutomatonTable, candidates: list[int], pending: list[int]
    ) -> bool:
        """REGULAR filtering: a cell keeps a digit only while some path from the start to an
        accepting state through the line's candidates, reading distinct digits, steps on it
        there (`distinct_support`; where that unrolls too many nodes, a path that may
        repeat a digit: `regular_support`); no such path is a contradiction."""
        masks = tuple(candidates[cell] for cell in automaton.cells)
        key = (automaton.weight, masks)
        narrowed = self.supports.get(key, masks)
        if narrowed is masks:
            if len(self.supports) >= MAX_MEMO:
                self.supports.clear()
            try:
                narrowed = distinct_support(automaton.steps, automaton.accepting, masks)
            except TooManyNodes:
                narrowed = regular_support(automaton.steps, automaton.accepting, masks)
            self.supports[key] = narrowed
        removed = self.narrow(automaton.cells, masks, narrowed, candidates, pending)
        if removed is None:
            return False
        self.automaton_eliminations += removed
        return True

    def narrow(
        self,
        cells: Sequence[int],
        masks: Sequence[int],
        narrowed: Sequence[int] | None,
        candidates: list[int],
        pending: list[int],
    ) -> int | None:
        """Narrow each of `cells` from its `masks` to `narrowed` (None: the rule has no
        support left); the candidates removed, or None on a contradiction."""
        if narrowed is None:
            return None
        removed = 0
        for cell, old, mask in zip(cells, masks, narrowed, strict=True):
            if mask != old:
                removed += (old ^ mask).bit_count()
                if not self.set_mask(candidates, cell, mask, pending):
                    return None
        return removed

    def set_mask(self, candidates: list[int], cell: int, mask: int, pending: list[int]) -> bool:
        """Narrow a cell's candidates to `mask` (a subset); False when none are left."""
        if not mask:
            for index in self.tables.units_of[cell]:
                self.weights[index] += 1
            return False
        if not mask & (mask - 1) and candidates[cell] & (candidates[cell] - 1):
            pending.append(cell)
        candidates[cell] = mask
        return True

    def cage_rules(self, cage: CageTable, candidates: list[int], pending: list[int]) -> bool:
        """A cage's fillings (or, without its digit sets, its sum bounds); False when no
        filling of it is left. The digits every filling uses leave the cells that see the
        whole cage (a cage along a row keeps them from the rest of the row)."""
        masks = tuple(candidates[cell] for cell in cage.cells)
        if cage.combos is None:
            narrowed = sum_bounds(cage.total, masks)
            required = 0
        else:
            key = (cage.weight, masks)
            found = self.fillings.get(key)
            if found is None:
                if len(self.fillings) >= MAX_MEMO:
                    self.fillings.clear()
                found = self.fillings[key] = cage_fillings(cage.combos, masks)
            narrowed, required = found
        if narrowed is None:
            return False
        removed = 0
        for cell, old, mask in zip(cage.cells, masks, narrowed, strict=True):
            if mask != old:
                removed += (old ^ mask).bit_count()
                if not self.set_mask(candidates, cell, mask, pending):
                    return False
        if required:
            for cell in cage.seen_by_all:
                mask = candidates[cell]
                if mask & required:
                    removed += (mask & required).bit_count()
                    if not self.set_mask(candidates, cell, mask & ~required, pending):
                        return False
        self.cage_eliminations += removed
        return True


def cage_fillings(combos: tuple[int, ...], masks: Cells) -> tuple[Cells | None, int]:
    """Generalised arc consistency for a cage: per cell, the digits it takes in some filling
    of the cage (distinct digits, one of the digit sets `combos`), and the digits every
    filling uses; (None, 0) when there is no filling.

    A filling is a digit set plus a perfect matching of the cells to its digits, so each
    set that holds every placed digit and lies within the cells' candidates is given to
    `alldiff_filter` over the cells' candidates within it.
    """
    fixed = union = 0
    for mask in masks:
        union |= mask
        if not mask & (mask - 1):
            fixed |= mask
    possible, required = 0, -1
    supported = [0] * len(masks)
    for combo in combos:
        if combo & fixed != fixed or combo & ~union:
            continue
        within = [mask & combo for mask in masks]
        if 0 in within:
            continue
        matched = alldiff_filter(within)
        if matched is None:
            continue
        possible |= combo
        required &= combo
        for place, mask in enumerate(matched):
            supported[place] |= mask
    if not possible:
        return None, 0
    return tuple(supported), required & ~fixed


def linear_bounds(total: int, coefficients: Cells, masks: list[int]) -> list[int] | None:
    """Per cell, the digits d whose term k * d lies within what `total` less the other
    terms' least and greatest values leaves, to a fixpoint; None when a cell has none left
    or the total is out of the terms' range (a cell may appear in one term only)."""
    narrowed = list(masks)
    count = len(narrowed)
    while True:
        lows, highs = [0] * count, [0] * count
        for place, mask in enumerate(narrowed):
            if not mask:
                return None
            k = coefficients[place]
            smallest, largest = (mask & -mask).bit_length(), mask.bit_length()
            lows[place], highs[place] = (
                (k * smallest, k * largest) if k > 0 else (k * largest, k * smallest)
            )
        low, high = sum(lows), sum(highs)
        if not low <= total <= high:
            return None
        changed = False
        for place, mask in enumerate(narrowed):
            k = coefficients[place]
            floor = total - (high - highs[place])  # this term's least value
            ceiling = total - (low - lows[place])  # and its greatest
            if floor <= lows[place] and highs[place] <= ceiling:
                continue
            keep, rest = 0, mask
            while rest:
                bit = rest & -rest
                rest ^= bit
                if floor <= k * bit.bit_length() <= ceiling:
                    keep |= bit
            if keep != mask:
                if not keep:
                    return None
                narrowed[place] = keep
                changed = True
        if not changed:
            return narrowed


def table_support(rows: tuple[Cells, ...], masks: Cells) -> Cells | None:
    """Per cell of a table, the digits of its candidates some possible row uses (a row is
    possible when each of its masks meets its cell's candidates); None when no row is."""
    count = len(masks)
    supported = [0] * count
    found = False
    for row in rows:
        for place in range(count):
            if not row[place] & masks[place]:
                break
        else:
            found = True
            for place in range(count):
                supported[place] |= row[place]
    if not found:
        return None
    return tuple(s & m for s, m in zip(supported, masks, strict=True))


def sum_bounds(total: int, masks: Cells) -> Cells | None:
    """Per cell, the digits d that leave the other cells' smallest and largest candidates
    room for total - d, to a fixpoint (for cages whose digit sets are too many to list);
    None when a cell has none left."""
    narrowed = list(masks)
    changed = True
    while changed:
        changed = False
        low = high = 0
        for mask in narrowed:
            low += (mask & -mask).bit_length()
            high += mask.bit_length()
        for place, mask in enumerate(narrowed):
            smallest = (mask & -mask).bit_length()
            largest = mask.bit_length()
            floor = total - (high - largest)  # total - d <= the others' largest sum
            ceiling = total - (low - smallest)  # total - d >= the others' smallest sum
            keep = mask
            if floor > 1:
                keep &= -1 << (floor - 1)
            if ceiling < largest:
                keep &= (1 << max(ceiling, 0)) - 1
            if keep != mask:
                if not keep:
                    return None
                narrowed[place] = keep
                changed = True
    return tuple(narrowed)


def alldiff_filter(masks: list[int]) -> list[int] | None:
    """Generalised arc consistency for one AllDifferent over the open cells of a unit.

    `masks` are the candidates of the open cells of a unit. Returns the masks with every
    digit removed that no assignment of distinct digits to all the cells can give its cell
    (Régin 1994), or None when there is no such assignment. A matching of cells to digits
    that covers every cell is found first; then a digit graph where a -> b when the cell
    matched to a may take b. Cell(a) may take b in some such matching exactly when b is
    free (matched to no cell), or b reaches a free digit (an alternating path), or a and b
    are in the same strongly connected component (an alternating cycle). In a house the
    open digits are as many as the cells, so no digit is free and only the cycles count;
    a smaller unit (an extra region, a windoku piece of fewer cells) has free digits.
    This subsumes naked and hidden subsets of any size.
    """
    count = len(masks)
    owner: dict[int, int] = {}  # digit bit -> index of its matched cell
    mate = [0] * count  # per cell, its matched digit bit
    union = 0
    for mask in masks:
        union |= mask
    if union.bit_count() < count:  # fewer digits than cells (pigeonhole)
        return None
    free = union
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
    matched = 0
    for bit in mate:
        matched |= bit
    free = union & ~matched
    # `keep`: the free digits and the matched digits that reach one (backward closure)
    keep = free
    grown = bool(free)
    while grown:
        grown = False
        rest = matched & ~keep
        while rest:
            bit = rest & -rest
            rest ^= bit
            if masks[owner[bit]] & keep:
                keep |= bit
                grown = True
    # Strongly connected components of the digit graph among the other digits, one at a
    # time: the forward and the backward closure of the lowest digit left (a cycle through
    # a kept digit would make every digit on it reach a free one). Usually one component.
    filtered = masks
    if keep:  # a cell matched to a kept digit may take the kept digits only
        for cell, bit in enumerate(mate):
            mask = masks[cell]
            if bit & keep and mask & ~keep:
                if filtered is masks:
                    filtered = masks.copy()
                filtered[cell] = mask & keep
    remaining = matched & ~keep
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
        allowed = component | keep
        members = component
        while members:
            bit = members & -members
            members ^= bit
            cell = owner[bit]
            mask = masks[cell]
            if mask & ~allowed:
                if filtered is masks:
                    filtered = masks.copy()
                filtered[cell] = mask & allowed
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
