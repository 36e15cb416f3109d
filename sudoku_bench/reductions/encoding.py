"""How a model walks a puzzle's constraints through its encoder table.

Each model (exact cover, CNF, CP-SAT, MILP, CSP, polynomials) keeps an `EncoderTable` from
constraint kind or family to its encoder; its builder lays out what the shape gives (cells,
rows, columns, regions), then calls each encoder once with the group of the rules'
constraints that share it (`grouped`), in the rules' fixed order. One call per group lets a
model encode several kinds as one family: anti-knight and anti-king pairs are numbered
together, diagonals and extra regions are one run of extra units.

The helpers below read the constraint objects (`units`, `pairs`, `allowed`, `summed`), never
the rules' per-kind fields, so an encoder works for every kind of its family.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from sudoku_bench.puzzles.constraints import (
    Automaton,
    CellDigits,
    Constraint,
    EncoderTable,
    Equation,
    LinearConstraint,
    PairConstraint,
    RegularConstraint,
    State,
    SumConstraint,
    Table,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.rules import Rules

E = TypeVar("E")
Units = tuple[tuple[int, ...], ...]


class UnsupportedConstraintError(SudokuBenchError):
    """A model was asked to encode a constraint its encoder table has no entry for (`accepts`
    was not asked first); the message names the kind."""


def grouped(
    table: EncoderTable[E],
    constraints: Iterable[Constraint],
    model: str = "this",
    size: int | None = None,
) -> list[tuple[E, tuple[Constraint, ...]]]:
    """The constraints grouped by the encoder the table gives each (on an N x N grid when
    `size` is given: see `EncoderTable.lookup`): groups in the order of their first
    constraint, each group's constraints in the rules' order. A constraint with no encoder
    raises `UnsupportedConstraintError`: a model never leaves a rule out."""
    groups: dict[int, tuple[E, list[Constraint]]] = {}
    for constraint in constraints:
        encoder = table.lookup(constraint, size)
        if encoder is None:
            raise UnsupportedConstraintError(
                f"the {model} model has no encoder for {constraint.title} "
                f"({constraint.kind}): it cannot express these rules"
            )
        groups.setdefault(id(encoder), (encoder, []))[1].append(constraint)
    return [(encoder, tuple(members)) for encoder, members in groups.values()]


def shape_units(rules: Rules) -> Units:
    """Rows, then columns, then regions (boxes or jigsaw pieces): every puzzle's units."""
    return rules.rows + rules.columns + rules.regions


def extra_units(rules: Rules, constraints: Iterable[Constraint] | None = None) -> Units:
    """The units the unit constraints add (diagonals, extra regions), in the rules' order."""
    found = rules.constraints if constraints is None else constraints
    return tuple(
        unit
        for constraint in found
        if isinstance(constraint, UnitConstraint)
        for unit in constraint.units(rules)
    )


def all_units(rules: Rules) -> Units:
    """The shape's units, then the extra units: cells that hold distinct digits."""
    return shape_units(rules) + extra_units(rules)


# rules -> their unit mates, by identity: a worker meets the same rules object for every
# puzzle of a file, and hashing rules costs more than looking them up this way
_MATES: dict[int, tuple[Rules, tuple[frozenset[int], ...]]] = {}
_MATES_KEPT = 64


def unit_mates(rules: Rules) -> tuple[frozenset[int], ...]:
    """For each cell, the other cells that share a unit (shape or extra) with it."""
    found = _MATES.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    if len(_MATES) >= _MATES_KEPT:
        _MATES.clear()
    mates = _unit_mates(rules)
    _MATES[id(rules)] = (rules, mates)
    return mates


def _unit_mates(rules: Rules) -> tuple[frozenset[int], ...]:
    mates: list[set[int]] = [set() for _ in rules.cells]
    for unit in all_units(rules):
        for cell in unit:
            mates[cell].update(unit)
    for cell in rules.cells:
        mates[cell].discard(cell)
    return tuple(frozenset(cells) for cells in mates)


def different_pairs(
    rules: Rules, group: Sequence[PairConstraint], mates: Sequence[frozenset[int]]
) -> tuple[tuple[int, int], ...]:
    """The pairs of cells (a < b, sorted, once) the group makes hold different digits that
    share no unit (a unit already makes them differ)."""
    pairs = {pair for constraint in group for pair in constraint.pairs(rules)}
    return tuple(sorted((a, b) for a, b in pairs if b not in mates[a]))


def relation_pairs(
    rules: Rules, group: Sequence[PairConstraint]
) -> list[tuple[PairConstraint, tuple[int, int]]]:
    """Each constraint of the group with each of its pairs of cells, in order."""
    return [(constraint, pair) for constraint in group for pair in constraint.pairs(rules)]


def forbidden_digit_pairs(rules: Rules, constraint: PairConstraint) -> list[tuple[int, int]]:
    """The digit pairs (first cell's, second cell's) the constraint's relation rules out."""
    return [
        (first, second)
        for first in rules.digits
        for second in rules.digits
        if not constraint.allows(first, second)
    ]


def equations(rules: Rules, group: Iterable[Constraint]) -> list[Equation]:
    """The linear equations of the group's linear constraints, in the rules' order."""
    return [
        equation
        for constraint in group
        if isinstance(constraint, LinearConstraint)
        for equation in constraint.equations(rules)
    ]


def tables(rules: Rules, group: Iterable[Constraint]) -> list[Table]:
    """The tables of the group's table constraints, in the rules' order."""
    return [
        table
        for constraint in group
        if isinstance(constraint, TableConstraint)
        for table in constraint.tables(rules)
    ]


def automata(rules: Rules, group: Iterable[Constraint]) -> list[Automaton]:
    """The automata of the group's regular constraints, in the rules' order."""
    return [
        automaton
        for constraint in group
        if isinstance(constraint, RegularConstraint)
        for automaton in constraint.automata(rules)
    ]


# An arc of a layered automaton: (the state it leaves, its digit, the state it enters), the
# states numbered within their layers.
Arc = tuple[int, int, int]


@dataclass(frozen=True)
class Layered:
    """An automaton unrolled along its cells (the layered graph of Pesant's `regular`):
    `states[i]` are the states it can be in before reading `cells[i]` that some filling of
    the cells left still leads to acceptance (`states[0]` the start, the last layer the
    accepting states reached), and `arcs[i]` the steps from layer i to layer i + 1 on a
    digit of the cell's domain. A filling keeps the rule exactly when it spells a path from
    the start to the last layer; every layer is empty when none does. A grid's digits pick
    one arc per layer (the automaton is deterministic), so a model with a variable per arc
    or per state has each of them fixed by the grid."""

    cells: tuple[int, ...]
    states: tuple[tuple[State, ...], ...]
    arcs: tuple[tuple[Arc, ...], ...]

    @property
    def feasible(self) -> bool:
        return bool(self.states[0])

    def arcs_into(self, layer: int, state: int) -> tuple[int, ...]:
        """The positions in `arcs[layer - 1]` of the arcs that enter `states[layer][state]`."""
        return self._entering[layer - 1][state]

    @cached_property
    def _entering(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        found = []
        for i, arcs in enumerate(self.arcs):
            into: list[list[int]] = [[] for _ in self.states[i + 1]]
            for k, (_, _, v) in enumerate(arcs):
                into[v].append(k)
            found.append(tuple(tuple(ks) for ks in into))
        return tuple(found)


def layered(automaton: Automaton, domains: Sequence[Sequence[int]]) -> Layered:
    """The automaton unrolled over its cells, each cell reading only the digits of its domain
    (`domains[cell]`: the digits the rules, or the rules and the givens, leave it)."""
    cells = automaton.cells
    reached: list[dict[State, list[tuple[int, State]]]] = []
    layer: set[State] = {automaton.start}
    for cell in cells:  # forwards: the states reachable, and each one's steps
        steps: dict[State, list[tuple[int, State]]] = {}
        following: set[State] = set()
        for state in layer:
            for digit in domains[cell]:
                after = automaton.step(state, digit)
                if after is not None:
                    steps.setdefault(state, []).append((digit, after))
                    following.add(after)
        reached.append(steps)
        layer = following
    live: set[State] = {state for state in layer if automaton.accepting(state)}
    kept_states: list[tuple[State, ...]] = [tuple(sorted(live, key=repr))]
    kept_arcs: list[list[tuple[State, int, State]]] = []
    for steps in reversed(reached):  # backwards: only what still leads to acceptance
        arcs = [
            (state, digit, after)
            for state, moves in steps.items()
            for digit, after in moves
            if after in live
        ]
        live = {state for state, _, _ in arcs}
        kept_arcs.append(arcs)
        kept_states.append(tuple(sorted(live, key=repr)))
    kept_states.reverse()
    kept_arcs.reverse()
    numbers = [{state: j for j, state in enumerate(states)} for states in kept_states]
    return Layered(
        cells,
        tuple(kept_states),
        tuple(
            tuple(sorted((numbers[i][u], d, numbers[i + 1][v]) for u, d, v in arcs))
            for i, arcs in enumerate(kept_arcs)
        ),
    )


# An outside clue whose table has at most this many rows is written as its table by the models
# that take both forms: on 6x6 every clue's table is that small (145 rows at most) and solves
# faster than its automaton; on 9x9 most have hundreds to tens of thousands of rows, and the
# automaton (about a thousand arcs) solves faster (docs/measurements/line-clues.md).
TABLE_ROWS_AT_MOST = 256


def as_table(rules: Rules, constraint: Constraint) -> bool:
    """Whether a model that takes both forms writes `constraint` as its table rather than
    its automaton: a kind of both families (an outside clue) whose table is listed on this
    side and has at most `TABLE_ROWS_AT_MOST` rows."""
    if not (isinstance(constraint, TableConstraint) and isinstance(constraint, RegularConstraint)):
        return False
    if not constraint.listed_on(rules.size):
        return False
    return sum(len(table.rows) for table in constraint.tables(rules)) <= TABLE_ROWS_AT_MOST


def by_form(
    rules: Rules, group: Iterable[Constraint]
) -> tuple[tuple[Constraint, ...], tuple[Constraint, ...]]:
    """The group's constraints a model writes as tables (`as_table`), and the others."""
    tabled: list[Constraint] = []
    others: list[Constraint] = []
    for constraint in group:
        (tabled if as_table(rules, constraint) else others).append(constraint)
    return tuple(tabled), tuple(others)


def has_wildcard(table: Table) -> bool:
    """Whether some row of the table leaves some cell free (a 0: any digit)."""
    return any(0 in row for row in table.rows)


def fixed_columns(table: Table) -> list[bool]:
    """For each of the table's cells, whether every row names its digit (no 0 in its column):
    then the chosen row decides the cell's digit, and a model may tie the two both ways."""
    return [all(row[i] for row in table.rows) for i in range(len(table.cells))]


Domains = list[tuple[int, ...]]


def narrow_to_allowed(rules: Rules, group: Sequence[Constraint], domains: Domains) -> None:
    """Keep in each cell's domain only the digits the group's cell-digit constraints allow
    (the encoder of `CellDigits` in every model that has domains)."""
    for constraint in group:
        assert isinstance(constraint, CellDigits)
        for cell, digits in constraint.allowed(rules).items():
            domains[cell] = tuple(d for d in domains[cell] if d in digits)


def cell_domains(
    rules: Rules, groups: Iterable[tuple[E, Sequence[Constraint]]]
) -> tuple[tuple[int, ...], ...]:
    """For each cell, the digits its domain keeps after every encoder's `narrow` (its
    `narrow` attribute: None or a function like `narrow_to_allowed`), in order; all digits
    for a cell nothing restricts."""
    domains: Domains = [tuple(rules.digits)] * rules.cell_count
    for encoder, group in groups:
        narrow = getattr(encoder, "narrow", None)
        if narrow is not None:
            narrow(rules, group, domains)
    return tuple(domains)


def constraint_domains(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """For each cell, the digits the rules' cell-digit constraints allow (all digits for a
    cell none restricts)."""
    domains: Domains = [tuple(rules.digits)] * rules.cell_count
    narrow_to_allowed(rules, [c for c in rules.constraints if isinstance(c, CellDigits)], domains)
    return tuple(domains)


def given_candidates(
    rules: Rules, values: Sequence[int], domains: Sequence[Sequence[int]]
) -> list[set[int]]:
    """For each empty cell, the digits of its domain that no given rules out (none for a given
    cell): a unit mate's or distinct-sum mate's digit, and the digits a pair relation forbids
    next to a given (anti-knight: its digit; non-consecutive: its digit and the ones beside)."""
    candidates = [set(domains[c]) if not value else set() for c, value in enumerate(values)]
    mates = unit_mates(rules)
    for cell, value in enumerate(values):
        if value:
            for mate in mates[cell]:
                candidates[mate].discard(value)
    for constraint in rules.constraints:
        if isinstance(constraint, PairConstraint):
            for a, b in constraint.pairs(rules):
                if values[a] and not values[b]:
                    candidates[b] = {d for d in candidates[b] if constraint.allows(values[a], d)}
                if values[b] and not values[a]:
                    candidates[a] = {d for d in candidates[a] if constraint.allows(d, values[b])}
        elif isinstance(constraint, SumConstraint) and constraint.distinct:
            placed = {values[c] for c in constraint.summed} - {0}
            for cell in constraint.summed:
                candidates[cell] -= placed
    return candidates
