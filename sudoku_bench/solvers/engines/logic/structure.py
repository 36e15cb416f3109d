"""What the logic solver reads of a puzzle's rules: its unit families by name, and what each
constraint adds, through the encoder table from constraint kind to the techniques that
reason about it.

- The shape's part (`families`): the units (rows, columns, regions, then the extra units of
  the unit constraints: diagonals, extra regions), the index range of each family among
  them, and each cell's unit peers. Every technique that reasons about units reads them
  here, so no technique computes a unit's index.
- The puzzle's part (`logic_tables`): the peers beyond the units (pair rules, cage mates),
  the pair rules' partners with the words a person uses, the non-consecutive neighbours,
  the other pair relations with their support tables, the starting candidates of the
  cell-digit rules (parity), the cages, the linear equations, the tables of fillings and
  the automata read along lines (outside clues past the side their tables are listed to).

Both are cached in bounded parts (`sudoku_bench.solvers.tables`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from inspect import signature
from typing import Any

from sudoku_bench.puzzles.constraints import (
    AntiKing,
    AntiKnight,
    Cage,
    CellDigits,
    Constraint,
    DistinctPairs,
    EncoderTable,
    Equation,
    LinearConstraint,
    NonConsecutive,
    PairConstraint,
    RegularConstraint,
    Table,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.constraints.lines import LineRule
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.automata import compiled
from sudoku_bench.solvers.tables import by_shape, per_puzzle

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Families:
    """The units of a shape and where each family lies among them (indices into `units`)."""

    units: tuple[Cells, ...]
    names: tuple[str, ...]  # `row 1`, `column 1`, `box 1` / `region 1`, `diagonal`, ...
    rows: range
    columns: range
    regions: range
    extras: range  # the unit constraints' units: diagonals, extra regions
    houses: tuple[int, ...]  # the units of N cells, which hold every digit once
    units_of: tuple[Cells, ...]  # per cell, the units it is in
    unit_peers: tuple[frozenset[int], ...]  # per cell, the other cells of its units


@by_shape
def families(rules: Rules) -> Families:
    rows, columns, regions = len(rules.rows), len(rules.columns), len(rules.regions)
    lines = rows + columns
    units = rules.units
    owners: list[list[int]] = [[] for _ in rules.cells]
    for index, unit in enumerate(units):
        for cell in unit:
            owners[cell].append(index)
    peers = []
    for cell, owner in enumerate(owners):
        others = {peer for index in owner for peer in units[index]}
        others.discard(cell)
        peers.append(frozenset(others))
    return Families(
        units=units,
        names=rules.unit_names,
        rows=range(rows),
        columns=range(rows, lines),
        regions=range(lines, lines + regions),
        extras=range(lines + regions, len(units)),
        houses=tuple(i for i, unit in enumerate(units) if len(unit) == rules.size),
        units_of=tuple(tuple(owner) for owner in owners),
        unit_peers=tuple(peers),
    )


# per digit d of a cell (index d - 1), the digits a related cell may hold beside it, as a mask
Support = tuple[int, ...]


@dataclass(frozen=True)
class Relation:
    """One pair of a pair relation (any but distinct and non-consecutive, which have their
    own techniques): `first`'s digit is read first, as `PairConstraint.allows` does."""

    title: str  # the kind's words: "thermometer"
    first: int
    second: int
    forward: Support  # per digit of `first`, the digits `second` may hold
    backward: Support  # per digit of `second`, the digits `first` may hold


@dataclass(frozen=True)
class LinearRule:
    """One linear equation of a `LinearConstraint`, with its kind's words."""

    title: str
    equation: Equation


@dataclass(frozen=True)
class FillingRule:
    """One table of admissible fillings of a `TableConstraint`, with its kind's words."""

    title: str
    table: Table
    # the houses wholly among the table's cells, each as positions in `table.cells` (a
    # sandwich's or a skyscraper's row): a row's cells left open (0) hold the house's others
    houses: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class AutomatonRule:
    """One automaton of a `RegularConstraint` (a sandwich, X-sum or skyscraper clue where its
    table of fillings is not listed), compiled (`automata.compiled`), with its words."""

    name: str  # `sandwich sum 31 at r0c3`
    line: str  # the unit its cells make (`column 3`), else the cells
    cells: Cells  # in reading order, nearest the clue first
    steps: tuple[Cells, ...]  # per state, per digit, the bit of the state it steps to
    accepting: int  # the accepting states as a bit set


# A rule read whole has at most this many cells (longer lines are left to their pieces).
MAX_GROUP_CELLS = 12


@dataclass(frozen=True)
class RuleGroup:
    """The pieces of one constraint (its equations, tables and line pairs, by index into
    `LogicTables`), which the joint techniques read together, as a setter reads a line."""

    name: str  # `arrow r1c1>r1c2>r1c3`, `sandwich 12 at r0c3`
    cells: Cells  # sorted
    equations: tuple[int, ...] = ()
    tables: tuple[int, ...] = ()
    relations: tuple[int, ...] = ()


@dataclass
class LogicTables:
    """What the constraints beyond the units ask of the techniques, per cell."""

    peers: tuple[Cells, ...]  # every cell that must hold another digit, sorted
    # anti-knight / anti-king partners outside the cell's units, with the rule's words
    partners: tuple[tuple[tuple[int, str], ...], ...]
    neighbours: tuple[Cells, ...]  # non-consecutive partners
    allowed: tuple[int, ...]  # the starting candidates the cell-digit rules allow, as masks
    cages: tuple[Cage, ...]
    cages_of: tuple[Cells, ...]  # per cell, indices into `cages`
    relations: tuple[Relation, ...]
    # per cell, its relations' partners, each with the digits it allows there beside each
    # digit here
    related: tuple[tuple[tuple[int, Support], ...], ...]
    equations: tuple[LinearRule, ...]
    fillings: tuple[FillingRule, ...]
    groups: tuple[RuleGroup, ...]  # each constraint with equations, tables or line pairs
    # the pairs of groups (indices) that share a cell
    crossing: tuple[tuple[int, int], ...]
    automata: tuple[AutomatonRule, ...]
    # the technique keys the constraints call for ("distinct_pairs", "cage_combinations", ...)
    techniques: frozenset[str]
    # constraints other than units (their givens are checked whole, not by units alone)
    beyond_units: bool


@dataclass
class _Found:
    peers: list[set[int]]
    partners: list[list[tuple[int, str]]]
    neighbours: list[list[int]]
    allowed: list[int]
    cages: list[Cage]
    techniques: set[str]
    relations: list[Relation]
    equations: list[LinearRule]
    fillings: list[FillingRule]
    groups: list[RuleGroup]
    automata: list[AutomatonRule]


def rule_words(constraint: Constraint, rules: Rules) -> str:
    """A constraint's name in a step: a line's path, a clue's place, else its cells."""
    if isinstance(constraint, LineRule):
        return constraint.name(rules)
    name = getattr(constraint, "name", None)
    if callable(name):  # a clue's name stands alone; a cage's or quadruple's reads the shape
        return str(name(rules) if signature(name).parameters else name())
    cells = ", ".join(rules.cell_name(c) for c in constraint.scope(rules))
    return f"{constraint.title} {cells}"


def _group(
    constraint: Constraint, rules: Rules, found: _Found, before: tuple[int, int, int]
) -> None:
    """Records the pieces `constraint` added since `before` (equations, tables, relations)."""
    equations = tuple(range(before[0], len(found.equations)))
    tables = tuple(range(before[1], len(found.fillings)))
    relations = tuple(range(before[2], len(found.relations)))
    cells = {c for i in equations for c, _ in found.equations[i].equation.terms}
    cells |= {c for i in tables for c in found.fillings[i].table.cells}
    cells |= {c for i in relations for c in (found.relations[i].first, found.relations[i].second)}
    if cells and len(cells) <= MAX_GROUP_CELLS:
        name = rule_words(constraint, rules)
        found.groups.append(RuleGroup(name, tuple(sorted(cells)), equations, tables, relations))


def _sizes(found: _Found) -> tuple[int, int, int]:
    return len(found.equations), len(found.fillings), len(found.relations)


# a pair rule's words in a step ("r2c3 is a knight's move away")
MOVE_WORDS: dict[type[Constraint], str] = {AntiKnight: "a knight's move", AntiKing: "a king's move"}


def _units(constraint: UnitConstraint, rules: Rules, found: _Found) -> None:
    """Nothing beyond the units: they are among `families`' units, which every technique
    that reasons about units reads."""


def _distinct_pairs(constraint: DistinctPairs, rules: Rules, found: _Found) -> None:
    unit_peers = families(rules).unit_peers
    words = MOVE_WORDS.get(type(constraint), f"an {constraint.title} partner")
    for a, b in constraint.pairs(rules):
        found.peers[a].add(b)
        found.peers[b].add(a)
        if b not in unit_peers[a]:  # a pair inside a unit is the unit's to tell
            found.partners[a].append((b, words))
            found.partners[b].append((a, words))
            found.techniques.add("distinct_pairs")


def _non_consecutive(constraint: NonConsecutive, rules: Rules, found: _Found) -> None:
    for a, b in constraint.pairs(rules):
        found.neighbours[a].append(b)
        found.neighbours[b].append(a)
    found.techniques.add("non_consecutive")


def _pair_relation(constraint: PairConstraint, rules: Rules, found: _Found) -> None:
    """Any other pair relation: its support both ways, for `pair_filter`; cells it never
    lets hold one digit twice are peers too (singles, wings and chains then see them)."""
    digits = rules.digits
    allows = constraint.allows
    forward = tuple(sum(1 << (e - 1) for e in digits if allows(d, e)) for d in digits)
    backward = tuple(sum(1 << (d - 1) for d in digits if allows(d, e)) for e in digits)
    distinct = not any(allows(d, d) for d in digits)
    before = _sizes(found)
    for a, b in constraint.pairs(rules):
        found.relations.append(Relation(constraint.title, a, b, forward, backward))
        if distinct:
            found.peers[a].add(b)
            found.peers[b].add(a)
    found.techniques.add("pair_filter")
    if isinstance(constraint, LineRule):  # a line's pairs read whole (not the grid-wide rules)
        found.techniques.update(("rule_fillings", "rule_house", "cross_rules"))
        _group(constraint, rules, found, before)


def _linear(constraint: LinearConstraint, rules: Rules, found: _Found) -> None:
    before = _sizes(found)
    for equation in constraint.equations(rules):
        found.equations.append(LinearRule(constraint.title, equation))
    found.techniques.update(("sum_bounds", "sum_combinations", "rule_house", "cross_rules"))
    if len(found.equations) - before[0] > 1:
        found.techniques.add("rule_fillings")
    _group(constraint, rules, found, before)


def _table(constraint: TableConstraint, rules: Rules, found: _Found) -> None:
    houses = [set(families(rules).units[index]) for index in families(rules).houses]
    before = _sizes(found)
    for table in constraint.tables(rules):
        cells = set(table.cells)
        within = tuple(
            tuple(table.cells.index(c) for c in sorted(house)) for house in houses if house <= cells
        )
        found.fillings.append(FillingRule(constraint.title, table, within))
        if within:
            found.techniques.add("house_table")
    found.techniques.update(("table", "rule_fillings", "rule_house", "cross_rules"))
    _group(constraint, rules, found, before)


def _regular(constraint: RegularConstraint, rules: Rules, found: _Found) -> None:
    """Up to the side its table is listed to, a clue that is also a table of fillings is
    read as that table (`table`, `house_table` and the joint techniques); past it, as its
    automata (`line_clue`)."""
    if isinstance(constraint, TableConstraint) and constraint.listed_on(rules.size):
        _table(constraint, rules, found)
        return
    shape = families(rules)
    name = rule_words(constraint, rules)
    for automaton in constraint.automata(rules):
        cells = set(automaton.cells)
        line = next(
            (shape.names[i] for i, unit in enumerate(shape.units) if set(unit) == cells),
            ", ".join(rules.cell_name(c) for c in automaton.cells),
        )
        steps, accepting = compiled(automaton, rules.size)
        found.automata.append(AutomatonRule(name, line, automaton.cells, steps, accepting))
    found.techniques.add("line_clue")


def _cell_digits(constraint: CellDigits, rules: Rules, found: _Found) -> None:
    for cell, digits in constraint.allowed(rules).items():
        found.allowed[cell] &= sum(1 << (d - 1) for d in digits)


def _cage(constraint: Cage, rules: Rules, found: _Found) -> None:
    for cell in constraint.cells:
        found.peers[cell].update(constraint.cells)
    found.cages.append(constraint)
    found.techniques.update(("cage_combinations", "innies_outies", "cage_unit"))


Encoder = Callable[[Any, Rules, _Found], None]
# The logic solver's table: each kind with what it adds to the tables its techniques read
# (unit constraints: units for every technique; distinct pairs: `distinct_pairs`;
# non-consecutive: `non_consecutive`; any other pair relation: `pair_filter`; cell digits:
# the starting candidates; cages: the cage techniques; linear equations: `sum_bounds` and
# `sum_combinations`; tables of fillings: `table`; automata read along a line where no table
# is listed: `line_clue`). A kind it has no technique for is
# answered `unsupported`; the lookup goes along a kind's bases, kind before family. (A
# tuple of pairs: mypy takes an abstract family as a key only there.)
_ENCODERS: tuple[tuple[type[Constraint], Encoder], ...] = (
    (UnitConstraint, _units),
    (DistinctPairs, _distinct_pairs),
    (NonConsecutive, _non_consecutive),
    (PairConstraint, _pair_relation),
    (CellDigits, _cell_digits),
    (Cage, _cage),
    (LinearConstraint, _linear),
    (RegularConstraint, _regular),
    (TableConstraint, _table),
)
ENCODERS: EncoderTable[Encoder] = EncoderTable(dict(_ENCODERS))


# Two rules that share no cell but see each other are read together up to this many cells.
MAX_SEEING_CELLS = 8


def _crossing(groups: list[RuleGroup], rules: Rules) -> tuple[tuple[int, int], ...]:
    """The pairs of groups that share a cell, or whose cells see each other, whose cells
    together are few enough."""
    peers = families(rules).unit_peers
    found = []
    for i, first in enumerate(groups):
        for j in range(i + 1, len(groups)):
            second = groups[j]
            union = set(first.cells) | set(second.cells)
            if len(union) < len(first.cells) + len(second.cells):
                if len(union) <= MAX_GROUP_CELLS:
                    found.append((i, j))
            elif len(union) <= MAX_SEEING_CELLS and any(
                peers[a] & set(second.cells) for a in first.cells
            ):
                found.append((i, j))
    return tuple(found)


@per_puzzle
def logic_tables(rules: Rules) -> LogicTables:
    shape = families(rules)
    cells = rules.cells
    full = (1 << rules.size) - 1
    found = _Found(
        peers=[set() for _ in cells],
        partners=[[] for _ in cells],
        neighbours=[[] for _ in cells],
        allowed=[full] * rules.cell_count,
        cages=[],
        techniques=set(),
        relations=[],
        equations=[],
        fillings=[],
        groups=[],
        automata=[],
    )
    for constraint in rules.constraints:
        ENCODERS.encoder(constraint)(constraint, rules, found)
    cages_of: list[list[int]] = [[] for _ in cells]
    for index, cage in enumerate(found.cages):
        for cell in cage.cells:
            cages_of[cell].append(index)
    related: list[list[tuple[int, Support]]] = [[] for _ in cells]
    for relation in found.relations:
        related[relation.first].append((relation.second, relation.forward))
        related[relation.second].append((relation.first, relation.backward))
    return LogicTables(
        peers=tuple(
            tuple(sorted(shape.unit_peers[cell] | (found.peers[cell] - {cell}))) for cell in cells
        ),
        partners=tuple(tuple(sorted(p)) for p in found.partners),
        neighbours=tuple(tuple(sorted(p)) for p in found.neighbours),
        allowed=tuple(found.allowed),
        cages=tuple(found.cages),
        cages_of=tuple(tuple(owners) for owners in cages_of),
        relations=tuple(found.relations),
        related=tuple(tuple(partners) for partners in related),
        equations=tuple(found.equations),
        fillings=tuple(found.fillings),
        groups=tuple(found.groups),
        crossing=_crossing(found.groups, rules),
        automata=tuple(found.automata),
        techniques=frozenset(found.techniques),
        beyond_units=any(not isinstance(c, UnitConstraint) for c in rules.constraints),
    )
