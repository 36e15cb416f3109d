"""Sudoku as propositional satisfiability: the standard CNF encoding, exported as DIMACS.

Variables. x(cell, d) = "cell holds digit d" is variable number `cell·N + d`, with cells
numbered 0..N²-1 row-major (r1c1 is 0) and digits d = 1..N, so the variables are exactly
1..N³ (729 for 9x9): variable v is cell (v - 1) // N holding digit (v - 1) % N + 1.

Clauses: the "extended" encoding of Lynce and Ouaknine ("Sudoku as a SAT problem", 2006),
which states every rule both ways so that unit propagation alone does the work of naked and
hidden singles. With U units (3N, plus 2 for the Sudoku-X diagonals):

    family            clauses              each
    cell-at-least     N²                   (x(c,1) ∨ ... ∨ x(c,N))
    cell-at-most      N²·N(N-1)/2          (¬x(c,a) ∨ ¬x(c,b)), a < b
    unit-at-least     U·N                  (x(c1,d) ∨ ... ∨ x(cN,d)) for unit u, digit d
    unit-at-most      U·N·N(N-1)/2         (¬x(ci,d) ∨ ¬x(cj,d)), ci before cj in unit u
    givens            one per given        (x(c,v))

so 81 + 2916 + 243 + 8748 = 11988 clauses before the givens for 9x9.

Encodings: the `encoding` option names which of the four rule families are written, after
Lynce and Ouaknine:

    encoding    families                                              9x9 clauses
    minimal     cell-at-least, unit-at-most                           81 + 8748 = 8829
    efficient   minimal + cell-at-most                                11745
    extended    efficient + unit-at-least (the default)               11988

All three have the same models: every cell lies in a row of N cells, and a row whose N
cells each hold some digit while no digit appears twice holds each digit exactly once, so
"at least one per cell" and "at most once per unit" already force exactly one digit per
cell. They differ in what unit propagation alone can conclude (the extended encoding does
naked and hidden singles; the minimal one neither). The variant families (pair rules,
parity, cages) are written in every encoding: they are rules, not redundancy, and they
stay correct because the placements mean the same in every model. Each kind or family of
constraint has its encoder in `ENCODERS`, which writes its clauses into its family (a kind
the table has no encoder for is refused). The "optimised" encoding
of Kwon and Jain (2006) is the extended one with the givens simplified away: here that is
`givens="simplify"` (below), which applies to any of the three encodings, so "optimised"
is not a fourth `encoding` value but the name of that combination (`sat` uses it).

The setters' families have auxiliary variables, numbered after the placements and the cage
sums (`FamilyVariables`), each fixed by the placements, so that every model of the formula is
one grid (a solver that enumerates all models counts grids):
- a table (`TableConstraint`, family `table`): one selector per row (none for a row a cell's
  domain rules out) implying each digit the row names, and one clause "some selector"; the
  rows are exclusive, so the selector is the row the grid matches. A cell every row names
  also implies the selectors of the rows naming its digit.
- a linear equation (`LinearConstraint`, family `linear`: arrows, little killers; digits may
  repeat): the layered automaton of its partial sums, a variable per value the first i terms
  can reach and still complete to the total (the BDD encoding of a pseudo-Boolean constraint,
  Abío et al. 2012): "sum so far u and the next cell holds d" implies "sum so far u + k d", or
  is forbidden when that value is dead; a live value implies a next digit that keeps it live.

- an automaton read along cells (`RegularConstraint`, family `regular`: sandwich, X-sum and
  skyscraper clues, on any side), unrolled into layers over the cells' domains
  (`encoding.layered`): a variable per arc and per state between the first and the last
  layer. An arc implies its digit, the state it leaves and the state it enters; a state and
  a digit imply the arc they take (or are forbidden together where the automaton dies); a
  state implies some arc into it. The start is the one state before the first cell, so a
  grid makes true exactly the states and arcs of its own path. A clue whose table is the
  smaller form (`encoding.as_table`: small grids) is written as a table instead.

Givens: two forms, the `givens` option.
- `units` (the default, and what `export` writes): every clause above plus one unit clause
  per given. The file is the textbook encoding, its size follows the formulas exactly, and
  any SAT solver's unit propagation takes the givens at once.
- `simplify`: the givens are propagated away before the formula is written, as a SAT
  preprocessor would: a clause with a true literal is dropped, a false literal is deleted.
  What is left mentions only the candidates of the empty cells (a given's variable, or a
  digit a given rules out of a cell, appears nowhere); variables keep their numbers. The
  formula is several times smaller for a typical puzzle (about 3000 clauses instead of
  12000 for a 17-clue 9x9, 1000 for a 30-given one), which is what the `sat` back-end feeds its solver, since
  building and loading clauses in Python costs more than solving them. A puzzle whose
  givens already break a rule gets an empty clause: unsatisfiable, as it should be.

`invert` takes the true literals of a model (what a SAT solver's `get_model` returns, or
any iterable of positive and negative literals) and reads the digit of every empty cell
from it; variables that appear in no clause are ignored, since a solver may set them
either way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from sudoku_bench.puzzles.checker import has_conflicts
from sudoku_bench.puzzles.constraints import (
    BetweenLine,
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
    SumConstraint,
    Table,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.base import Reduction, puzzle_header
from sudoku_bench.reductions.cages import digit_sets
from sudoku_bench.reductions.encoding import (
    Layered,
    as_table,
    by_form,
    cell_domains,
    constraint_domains,
    different_pairs,
    extra_units,
    forbidden_digit_pairs,
    given_candidates,
    grouped,
    narrow_to_allowed,
    relation_pairs,
    shape_units,
    unit_mates,
)
from sudoku_bench.reductions.encoding import automata as automata_of
from sudoku_bench.reductions.encoding import equations as equations_of
from sudoku_bench.reductions.encoding import layered as unroll
from sudoku_bench.reductions.encoding import tables as tables_of

GIVENS = ("units", "simplify")
RULE_FAMILIES = ("cell-at-least", "cell-at-most", "unit-at-least", "unit-at-most")
# the rule families each encoding writes (Lynce and Ouaknine 2006); the others are left empty
ENCODINGS: dict[str, frozenset[str]] = {
    "minimal": frozenset({"cell-at-least", "unit-at-most"}),
    "efficient": frozenset({"cell-at-least", "unit-at-most", "cell-at-most"}),
    "extended": frozenset(RULE_FAMILIES),
}
FAMILIES = (
    "cell-at-least",
    "cell-at-most",
    "unit-at-least",
    "unit-at-most",
    "pair-distinct",
    "nonconsecutive",
    "parity",
    "cage-at-most",
    "cage-sum",
    "givens",
)

Clause = tuple[int, ...]


@dataclass(frozen=True)
class Cnf:
    """A formula in conjunctive normal form: `clauses` over variables 1..`variables`.

    `families` names, in order, how many consecutive clauses each constraint family gave
    (so clause i's family is known without storing it per clause). `comments` go into the
    DIMACS header.
    """

    variables: int
    clauses: tuple[Clause, ...]
    families: tuple[tuple[str, int], ...] = ()
    comments: tuple[str, ...] = field(default=(), compare=False)

    @property
    def literals(self) -> int:
        return sum(len(clause) for clause in self.clauses)

    @cached_property
    def used_variables(self) -> frozenset[int]:
        """The variables some clause mentions: those of the cell-at-least clauses, which come
        first and name every candidate of every cell that other clauses can mention."""
        cell_clauses = self.clauses[: dict(self.families).get("cell-at-least", len(self.clauses))]
        return frozenset(abs(literal) for clause in cell_clauses for literal in clause)

    @property
    def has_empty_clause(self) -> bool:
        return any(not clause for clause in self.clauses)

    def satisfied_by(self, model: Iterable[int]) -> bool:
        """Whether every clause holds when the positive literals of `model` are the true
        variables and every other variable is false (so a solver's model, or just the
        variables of a grid's placements, will do)."""
        true = {literal for literal in model if literal > 0}
        return all(
            any((lit in true) if lit > 0 else (-lit not in true) for lit in clause)
            for clause in self.clauses
        )

    def to_dimacs(self) -> str:
        """The DIMACS CNF text: `c` comment lines, `p cnf V C`, one clause per line ending in 0."""
        lines = [f"c {comment}".rstrip() for comment in self.comments]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines += [" ".join([*map(str, clause), "0"]) for clause in self.clauses]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class CnfData:
    """What `invert` needs: the puzzle and the variables the formula mentions."""

    puzzle: Grid
    used: frozenset[int]


def variable(rules: Rules, cell: int, digit: int) -> int:
    """The variable of "cell holds digit": cell·N + digit, 1..N³."""
    return cell * rules.size + digit


def placement(rules: Rules, var: int) -> tuple[int, int]:
    """The (cell, digit) a variable stands for: the inverse of `variable`."""
    cell, digit = divmod(var - 1, rules.size)
    return cell, digit + 1


class CnfReduction(Reduction[Cnf, Iterable[int]]):
    """Sudoku as CNF: `encoding` is `minimal`, `efficient` or `extended` (the default);
    `givens` is `units` or `simplify`."""

    name = "cnf"

    def __init__(self, givens: str = "units", encoding: str = "extended") -> None:
        if givens not in GIVENS:
            raise ValueError(f"unknown way to encode givens {givens!r}; choose one of {GIVENS}")
        if encoding not in ENCODINGS:
            raise ValueError(
                f"unknown CNF encoding {encoding!r}; choose one of {', '.join(ENCODINGS)} "
                "(the optimised encoding is extended with givens='simplify')"
            )
        self.givens = givens
        self.encoding = encoding

    @property
    def label(self) -> str:
        """The encoding's name in the papers' terms: `optimised` for extended + simplify."""
        if self.givens == "simplify":
            return "optimised" if self.encoding == "extended" else f"{self.encoding}-simplified"
        return self.encoding

    def apply(self, puzzle: Grid) -> tuple[Cnf, CnfData]:
        families = _families(puzzle) if self.givens == "units" else _simplified(puzzle)
        kept = ENCODINGS[self.encoding]
        families = [
            (name, [] if name in RULE_FAMILIES and name not in kept else part)
            for name, part in families
        ]
        clauses = tuple(clause for _, part in families for clause in part)
        variables = max(FamilyVariables.of(puzzle.rules).variables, puzzle.rules.size**3)
        cnf = Cnf(
            variables,
            clauses,
            tuple((name, len(part)) for name, part in families),
            _comments(puzzle, self.givens, variables, self.encoding),
        )
        return cnf, CnfData(puzzle, cnf.used_variables)

    def invert(self, answer: Iterable[int], data: CnfData) -> Grid:
        rules = data.puzzle.rules
        values = list(data.puzzle.values)
        for literal in answer:
            if literal <= 0 or literal not in data.used:
                continue
            cell, digit = placement(rules, literal)
            if data.puzzle[cell]:
                continue
            if values[cell]:
                raise ValueError(f"the model puts two digits in {rules.cell_name(cell)}")
            values[cell] = digit
        return Grid(rules, tuple(values))

    def size(self, model: Cnf) -> dict[str, int]:
        sizes = {
            "variables": model.variables,
            "used_variables": len(model.used_variables),
            "clauses": len(model.clauses),
            "literals": model.literals,
            "unit_clauses": sum(len(clause) == 1 for clause in model.clauses),
        }
        sizes.update({f"clauses_{name}": count for name, count in model.families})
        return sizes

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        model, _ = self.apply(puzzle)
        return {"givens": self.givens, "encoding": self.encoding, **self.size(model)}

    def export(self, puzzle: Grid) -> str:
        """The formula as DIMACS CNF text, the puzzle and the numbering in its comment lines."""
        model, _ = self.apply(puzzle)
        return model.to_dimacs()

    def blocking_clause(self, data: CnfData, solution: Grid) -> Clause:
        """The clause "some empty cell differs from `solution`", which makes the next model new.

        Empty when the puzzle has no empty cell (then there is no other solution)."""
        rules = data.puzzle.rules
        return tuple(-variable(rules, c, solution[c]) for c in data.puzzle.empty_cells)


Families = list[tuple[str, list[Clause]]]


def _families(puzzle: Grid) -> Families:
    """The full extended encoding, givens as unit clauses."""
    rules = puzzle.rules
    givens: list[Clause] = [(variable(rules, c, v),) for c, v in enumerate(puzzle.values) if v]
    return [*((name, list(clauses)) for name, clauses in _rules(rules)), ("givens", givens)]


@dataclass
class _Clauses:
    """The formula under construction, family by family, as the encoders see it.

    `candidates` is None for the rules' full formula; after the givens are propagated
    (`givens="simplify"`) it holds each cell's candidates, `true` and `false` the literals the
    givens decide, and an encoder writes only what is left of its clauses."""

    rules: Rules
    domains: tuple[tuple[int, ...], ...]
    candidates: list[set[int]] | None = None
    values: Sequence[int] = ()  # the givens, with `candidates`
    true: set[int] = field(default_factory=set)
    false: set[int] = field(default_factory=set)
    families: dict[str, list[Clause]] = field(default_factory=dict)

    def add(self, family: str, clauses: Iterable[Clause]) -> None:
        self.families.setdefault(family, []).extend(clauses)

    def can(self, cell: int, digit: int) -> bool:
        """Whether `digit` may still stand in `cell` (always, in the full formula)."""
        return self.candidates is None or digit in self.candidates[cell]

    def simplified(self, clauses: Iterable[Clause]) -> Iterable[Clause]:
        """The clauses as they stand after the givens (unchanged in the full formula)."""
        if self.candidates is None:
            return clauses
        return _propagated(clauses, self.true, self.false)

    @cached_property
    def mates(self) -> tuple[frozenset[int], ...]:
        return unit_mates(self.rules)

    def laid_out(self) -> Families:
        """Every family in `FAMILIES`' order (empty where nothing was written), then any
        family only a pair relation of another kind writes."""
        names = [name for name in FAMILIES if name != "givens"]
        names += [name for name in self.families if name not in names]
        return [(name, self.families.get(name, [])) for name in names]


@lru_cache(maxsize=4)  # a 25x25's 752,500 clauses are worth keeping, but not many of them
def _rules(rules: Rules) -> tuple[tuple[str, tuple[Clause, ...]], ...]:
    """The clauses every puzzle of these rules shares (built once: 11988 tuples for 9x9)."""
    groups = grouped(ENCODERS, rules.constraints, "cnf")
    built = _Clauses(rules, cell_domains(rules, groups))
    cell_least, cell_most = _exactly_one(
        [variable(rules, c, d) for d in rules.digits] for c in rules.cells
    )
    built.add("cell-at-least", cell_least)
    built.add("cell-at-most", cell_most)
    _unit_clauses(built, shape_units(rules))
    for encoder, group in groups:
        encoder(built, group)
    return tuple((name, tuple(clauses)) for name, clauses in built.laid_out())


def _unit_clauses(built: _Clauses, units: Sequence[Sequence[int]]) -> None:
    """Each digit at most once in each unit and, in a house (N cells), at least once; after
    the givens only the digits a unit still lacks, over the cells that can take them."""
    rules = built.rules
    values = built.values if built.candidates is not None else None
    groups: list[list[int]] = []
    least: list[bool] = []
    for unit in units:
        for d in rules.digits:
            if values is not None and any(values[c] == d for c in unit):
                continue
            groups.append([variable(rules, c, d) for c in unit if built.can(c, d)])
            least.append(len(unit) == rules.size)
    unit_least, unit_most = _exactly_one(groups, least=least)
    built.add("unit-at-least", unit_least)
    built.add("unit-at-most", unit_most)


def _extra_units(built: _Clauses, group: Group) -> None:
    _unit_clauses(built, extra_units(built.rules, group))


def _different(built: _Clauses, group: Group) -> None:
    """Clauses "not both d" for pairs that must differ and share no unit."""
    rules = built.rules
    built.add(
        "pair-distinct",
        (
            (-variable(rules, a, d), -variable(rules, b, d))
            for a, b in different_pairs(rules, _pairs(group), built.mates)
            for d in rules.digits
            if built.can(a, d) and built.can(b, d)
        ),
    )


def _non_consecutive(built: _Clauses, group: Group) -> None:
    """Clauses "not d and d + 1", both ways, for neighbours."""
    rules = built.rules
    built.add(
        "nonconsecutive",
        (
            (-variable(rules, x, d), -variable(rules, y, d + 1))
            for _, (a, b) in relation_pairs(rules, _pairs(group))
            for d in range(1, rules.size)
            for x, y in ((a, b), (b, a))
            if built.can(x, d) and built.can(y, d + 1)
        ),
    )


def _relation(built: _Clauses, group: Group) -> None:
    """Any pair relation: "not both" for each digit pair it rules out, in a family named by
    its kind (`pair-thermo`)."""
    rules = built.rules
    for constraint, (a, b) in relation_pairs(rules, _pairs(group)):
        built.add(
            f"pair-{constraint.kind}",
            (
                (-variable(rules, a, first), -variable(rules, b, second))
                for first, second in forbidden_digit_pairs(rules, constraint)
                if built.can(a, first) and built.can(b, second)
            ),
        )


def _cell_digits(built: _Clauses, group: Group) -> None:
    """A unit clause "not d" per digit a cell's domain leaves out (after the givens the
    candidates already leave them out)."""
    rules = built.rules
    if built.candidates is not None:
        built.add("parity", [])
        return
    built.add(
        "parity",
        (
            (-variable(rules, c, d),)
            for c in rules.cells
            for d in rules.digits
            if d not in built.domains[c]
        ),
    )


def _cages(built: _Clauses, group: Group) -> None:
    distinct, sums = _cage_clauses(built, group)
    built.add("cage-at-most", built.simplified(distinct))
    built.add("cage-sum", built.simplified(sums))


def _linear(built: _Clauses, group: Group) -> None:
    """Each linear equation by its partial sums (`FamilyVariables`), in the family `linear`."""
    numbers = FamilyVariables.of(built.rules)
    index = _positions(built.rules, _linear)
    clauses: list[Clause] = []
    for constraint in group:
        for equation, layers in numbers.sums[index[id(constraint)]]:
            clauses += _sum_clauses(built.rules, equation, layers)
    built.add("linear", built.simplified(clauses))


def _tables(built: _Clauses, group: Group) -> None:
    """Each table by its row selectors (`FamilyVariables`), in the family `table`."""
    numbers = FamilyVariables.of(built.rules)
    index = _positions(built.rules, _tables)
    clauses: list[Clause] = []
    for constraint in group:
        for table, selectors in numbers.rows[index[id(constraint)]]:
            clauses += _table_clauses(built.rules, table, selectors)
    built.add("table", built.simplified(clauses))


def _between(built: _Clauses, group: Group) -> None:
    """Between lines without auxiliaries, in the family `between`: for each middle cell m
    holding d, neither end holds d, and the ends are not both below d nor both above it
    (three-literal clauses over the placements), with the implied clauses "some end is below
    d", "some end is above d" (so that a middle digit alone narrows the ends) and "the ends
    differ by 2 or more" (room for a digit between them). Unit propagation on these is weaker
    than on the tables' row selectors (a value of one end that no pair of the other two cells
    supports stays until the search tries it), but a line adds no variable, so a generator
    that loads hundreds of candidate lines keeps a formula of the placements alone, which
    CaDiCaL answers faster (docs/measurements/variants.md)."""
    built.add("between", built.simplified(_between_clauses(built, group)))


def _between_clauses(built: _Clauses, group: Group) -> Iterator[Clause]:
    rules = built.rules
    digits = rules.digits
    for line in group:
        assert isinstance(line, BetweenLine)
        first, last, middles = line.cells[0], line.cells[-1], line.cells[1:-1]
        if not middles:
            continue  # two cells: nothing between them to state
        for a in digits:
            for b in digits:
                if abs(a - b) <= 1:
                    yield (-variable(rules, first, a), -variable(rules, last, b))
        for middle in middles:
            for d in digits:
                here = -variable(rules, middle, d)
                below = [e for e in digits if e < d]
                above = [e for e in digits if e > d]
                yield (here, -variable(rules, first, d))
                yield (here, -variable(rules, last, d))
                for side in (below, above):
                    yield (
                        here,
                        *(variable(rules, first, e) for e in side),
                        *(variable(rules, last, e) for e in side),
                    )
                    yield from (
                        (here, -variable(rules, first, a), -variable(rules, last, b))
                        for a in side
                        for b in side
                        if a != b  # the ends' clauses already keep them apart
                    )


def _automata(built: _Clauses, group: Group) -> None:
    """Each automaton by its arcs and states (`FamilyVariables`), in the family `regular`;
    a clue whose table is the smaller form (`encoding.as_table`) by its table's selectors."""
    tabled, read = by_form(built.rules, group)
    if tabled:
        _tables(built, tabled)
    numbers = FamilyVariables.of(built.rules)
    index = _positions(built.rules, _automata)
    clauses: list[Clause] = []
    for constraint in read:
        for path in numbers.paths[index[id(constraint)]]:
            clauses += _path_clauses(built.rules, path)
    built.add("regular", built.simplified(clauses))


def _positions(rules: Rules, encoder: Encoder) -> dict[int, int]:
    """Each of the rules' constraints that `encoder` writes, by identity, with its place
    among them (how `FamilyVariables` numbers them; found from these rules, not the cached
    ones, whose equal constraints may be other objects). A kind of two families (an outside
    clue is a table and an automaton) is numbered by the one whose encoder the table picks."""
    members = _encoded_by(rules, encoder)
    return {id(c): j for j, c in enumerate(members)}


def _encoded_by(rules: Rules, encoder: Encoder) -> list[Constraint]:
    return [c for c in rules.constraints if _written_by(rules, c) is encoder]


def _written_by(rules: Rules, constraint: Constraint) -> Encoder | None:
    found = ENCODERS.lookup(constraint)
    if found is _automata and as_table(rules, constraint):
        return _tables
    return found


Group = tuple[Constraint, ...]
Encoder = Callable[[_Clauses, Group], None]


def _pairs(group: Group) -> list[PairConstraint]:
    return [c for c in group if isinstance(c, PairConstraint)]


def _sums(rules: Rules) -> list[SumConstraint]:
    """The rules' sum constraints (cages), numbered as the auxiliary variables number them."""
    return [c for c in rules.constraints if isinstance(c, SumConstraint)]


class _NarrowingEncoder:
    """The cell-digit encoder: narrows the domains first (`narrow`), then writes its clauses."""

    narrow = staticmethod(narrow_to_allowed)

    def __call__(self, built: _Clauses, group: Group) -> None:
        _cell_digits(built, group)


ENCODERS: EncoderTable[Encoder] = EncoderTable(
    {
        UnitConstraint: _extra_units,
        PairConstraint: _relation,
        DistinctPairs: _different,
        NonConsecutive: _non_consecutive,
        CellDigits: _NarrowingEncoder(),
        Cage: _cages,
        LinearConstraint: _linear,
        TableConstraint: _tables,
        BetweenLine: _between,
        RegularConstraint: _automata,
    }
)
CnfReduction.encoders = ENCODERS


@dataclass(frozen=True)
class CageSums:
    """The auxiliary variables of the cage sums, numbered after the N³ placements.

    For each cage with a sum: `has[j][d - 1]` is "cage j holds digit d", and `sets[j]` pairs
    each digit set the cage can hold (right size and sum, domains kept) with its selector.
    """

    has: dict[int, tuple[int, ...]]
    sets: dict[int, tuple[tuple[frozenset[int], int], ...]]
    variables: int  # the highest variable number in use

    @staticmethod
    @lru_cache(maxsize=16)
    def of(rules: Rules) -> CageSums:
        next_variable = rules.size**3 + 1
        has: dict[int, tuple[int, ...]] = {}
        sets: dict[int, tuple[tuple[frozenset[int], int], ...]] = {}
        for j, cage in enumerate(_sums(rules)):
            if cage.target is None:
                continue
            has[j] = tuple(range(next_variable, next_variable + rules.size))
            next_variable += rules.size
            allowed = digit_sets(rules, cage)
            sets[j] = tuple((digits, next_variable + i) for i, digits in enumerate(allowed))
            next_variable += len(allowed)
        return CageSums(has, sets, next_variable - 1)


@dataclass(frozen=True)
class Path:
    """The variables of one unrolled automaton: `arcs[i][k]` is "the grid takes arc k of
    layer i", `states[i][j]` "it is in state j before cell i" (0 for the start before the
    first cell and for the last layer's states, which need none)."""

    unrolled: Layered
    arcs: tuple[tuple[int, ...], ...]
    states: tuple[tuple[int, ...], ...]


# For each equation, the variables of its partial sums: layers[i - 1] maps each value v the
# first i terms can add up to (and from which the total is still reachable) to the variable
# "the first i terms add up to v", for i = 1 .. m - 1 (the empty sum is 0, the whole one the
# total: neither needs a variable).
Layers = tuple[dict[int, int], ...]


@dataclass(frozen=True)
class FamilyVariables:
    """Every auxiliary variable of the formula, numbered after the N³ placements: the cage
    sums' (`CageSums`), then each table's row selectors, then each equation's partial sums,
    then each automaton's arcs and states (`paths[j]`: one `Path` per automaton of the
    rules' j-th regular constraint).

    `rows[j]` pairs each table of the rules' j-th table constraint with a selector per row
    (0 for a row a cell's domain rules out, which gets none); `sums[j]` pairs each equation
    of the j-th linear constraint with its `Layers`.
    """

    cages: CageSums
    rows: tuple[tuple[tuple[Table, tuple[int, ...]], ...], ...]
    sums: tuple[tuple[tuple[Equation, Layers], ...], ...]
    paths: tuple[tuple[Path, ...], ...]
    variables: int  # the highest variable number in use (0: none beyond the placements)

    @property
    def selectors(self) -> int:
        return sum(sum(s > 0 for s in chosen) for table in self.rows for _, chosen in table)

    @property
    def partial_sums(self) -> int:
        return sum(len(layer) for eqs in self.sums for _, layers in eqs for layer in layers)

    @property
    def path_variables(self) -> int:
        return sum(
            sum(len(layer) for layer in path.arcs)
            + sum(state > 0 for states in path.states for state in states)
            for paths in self.paths
            for path in paths
        )

    @staticmethod
    @lru_cache(maxsize=16)
    def of(rules: Rules) -> FamilyVariables:
        cages = CageSums.of(rules)
        next_variable = max(cages.variables, rules.size**3) + 1
        domains = constraint_domains(rules)
        table_constraints = _encoded_by(rules, _tables)
        linear_constraints = _encoded_by(rules, _linear)
        rows = []
        for constraint in table_constraints:
            numbered = []
            for table in tables_of(rules, [constraint]):
                selectors = []
                for row in table.rows:
                    fits = all(
                        d == 0 or d in domains[c] for c, d in zip(table.cells, row, strict=True)
                    )
                    selectors.append(next_variable if fits else 0)
                    next_variable += fits
                numbered.append((table, tuple(selectors)))
            rows.append(tuple(numbered))
        sums = []
        for linear in linear_constraints:
            layered = []
            for equation in equations_of(rules, [linear]):
                layers = []
                for values in _partial_sums(equation, domains):
                    layers.append(dict(zip(sorted(values), itertools.count(next_variable))))
                    next_variable += len(values)
                layered.append((equation, tuple(layers)))
            sums.append(tuple(layered))
        paths = []
        for regular in _encoded_by(rules, _automata):
            numbered_paths = []
            for automaton in automata_of(rules, [regular]):
                unrolled = unroll(automaton, domains)
                arcs = []
                for layer in unrolled.arcs:
                    arcs.append(tuple(range(next_variable, next_variable + len(layer))))
                    next_variable += len(layer)
                states = []
                for i, layer_states in enumerate(unrolled.states):
                    if 0 < i < len(unrolled.cells):
                        states.append(
                            tuple(range(next_variable, next_variable + len(layer_states)))
                        )
                        next_variable += len(layer_states)
                    else:
                        states.append((0,) * len(layer_states))
                numbered_paths.append(Path(unrolled, tuple(arcs), tuple(states)))
            paths.append(tuple(numbered_paths))
        return FamilyVariables(
            cages,
            tuple(rows),
            tuple(sums),
            tuple(paths),
            next_variable - 1,
        )


def _partial_sums(equation: Equation, domains: Sequence[Sequence[int]]) -> list[frozenset[int]]:
    """For i = 1 .. m - 1, the values the first i terms can add up to from which the rest can
    still reach the total (the live states of the sum's layered automaton)."""
    terms = equation.terms
    forward = [frozenset({0})]
    for cell, k in terms:
        forward.append(frozenset(u + k * d for u in forward[-1] for d in domains[cell]))
    backward = [frozenset({equation.total})]
    for cell, k in reversed(terms):
        backward.append(frozenset(v - k * d for v in backward[-1] for d in domains[cell]))
    backward.reverse()
    return [forward[i] & backward[i] for i in range(1, len(terms))]


def _sum_clauses(rules: Rules, equation: Equation, layers: Layers) -> list[Clause]:
    """The equation as its layered automaton of partial sums s(i, v) (after the BDD encodings
    of pseudo-Boolean constraints, Abío et al. 2012): s(i - 1, u) and "term i's cell holds d"
    imply s(i, u + k d), or are forbidden together when u + k d is no live state; s(i, v)
    implies one of the next cell's digits that keep it live. The empty sum is 0 and the whole
    sum must be the total, so the states a grid makes true are exactly its own partial sums:
    every auxiliary is fixed by the placements, and the equation holds in every model.
    """
    terms = equation.terms
    m = len(terms)
    if not terms:
        return [] if equation.total == 0 else [()]
    clauses: list[Clause] = []
    digits = rules.digits
    for i, (cell, k) in enumerate(terms, 1):
        before: dict[int, int | None] = {0: None} if i == 1 else dict(layers[i - 2])
        after = layers[i - 1] if i < m else None
        for u, state in before.items():
            if_state = () if state is None else (-state,)
            for d in digits:
                v = u + k * d
                placed = -variable(rules, cell, d)
                if after is None:  # the last term: only the total is live
                    if v != equation.total:
                        clauses.append((*if_state, placed))
                elif v in after:
                    clauses.append((*if_state, placed, after[v]))
                else:
                    clauses.append((*if_state, placed))
        if after is not None:  # a live state needs a next digit that keeps it live
            next_cell, next_k = terms[i]
            following = layers[i] if i + 1 < m else {equation.total: 0}
            for v, state in after.items():
                clauses.append(
                    (
                        -state,
                        *(
                            variable(rules, next_cell, d)
                            for d in digits
                            if v + next_k * d in following
                        ),
                    )
                )
    return clauses


def _path_clauses(rules: Rules, path: Path) -> list[Clause]:
    """An unrolled automaton as clauses over its arcs and states (see the module docstring):
    the states and arcs a grid makes true are those of its own path, so every auxiliary is
    fixed by the placements."""
    unrolled = path.unrolled
    if not unrolled.feasible:
        return [()]
    clauses: list[Clause] = []
    for i, (cell, arcs) in enumerate(zip(unrolled.cells, unrolled.arcs, strict=True)):
        before, after = path.states[i], path.states[i + 1]
        taken: dict[tuple[int, int], int] = {}
        for arc, (u, d, v) in zip(path.arcs[i], arcs, strict=True):
            taken[u, d] = arc
            clauses.append((-arc, variable(rules, cell, d)))
            if before[u]:
                clauses.append((-arc, before[u]))
            if after[v]:
                clauses.append((-arc, after[v]))
        for u, state in enumerate(before):
            in_state = (-state,) if state else ()
            for d in rules.digits:
                taking = taken.get((u, d))
                step = (taking,) if taking else ()
                clauses.append((*in_state, -variable(rules, cell, d), *step))
        for v, state in enumerate(after):
            if state:
                into = unrolled.arcs_into(i + 1, v)
                clauses.append((-state, *(path.arcs[i][k] for k in into)))
    return clauses


def _table_clauses(rules: Rules, table: Table, selectors: Sequence[int]) -> list[Clause]:
    """A row's selector implies each digit the row names; some selector is true (one clause).
    The rows are exclusive, so only the row the grid matches can be chosen: every selector is
    fixed by the placements. A cell every row names also implies the rows that name its digit
    there (the other way, for propagation)."""
    clauses: list[Clause] = [tuple(s for s in selectors if s)]
    for selector, row in zip(selectors, table.rows, strict=True):
        if selector:
            clauses += [
                (-selector, variable(rules, c, d))
                for c, d in zip(table.cells, row, strict=True)
                if d
            ]
    for i, cell in enumerate(table.cells):
        if all(row[i] for row in table.rows):
            for d in rules.digits:
                naming = [
                    s for s, row in zip(selectors, table.rows, strict=True) if s and row[i] == d
                ]
                clauses.append((-variable(rules, cell, d), *naming))
    return clauses


def _cage_clauses(built: _Clauses, group: Group) -> tuple[list[Clause], list[Clause]]:
    """Cages: distinct digits (pairwise, for cage mates that share no unit) and sums.

    A sum is encoded by its allowed digit sets (selectors): `has(j, d)` <-> some cell of the
    cage holds d; at least one selector of cage j; a selector forces `has` true for the
    digits of its set and false for the others. Since the cells hold distinct digits, the
    cage then holds exactly that set, so its sum is right; every auxiliary is fixed by the
    placements, so counting by blocking placements stays exact. A cage of k cells with m
    sets costs k·N + N + 1 + m·N clauses.
    """
    rules = built.rules
    distinct: list[Clause] = []
    sums: list[Clause] = []
    sizes = CageSums.of(rules)
    numbers = {id(cage): j for j, cage in enumerate(_sums(rules))}
    for cage in group:
        assert isinstance(cage, SumConstraint)
        j = numbers[id(cage)]
        cells = cage.summed
        for a, b in itertools.combinations(cells, 2):
            if b not in built.mates[a]:
                distinct += [(-variable(rules, a, d), -variable(rules, b, d)) for d in rules.digits]
        if j not in sizes.has:
            continue
        has = sizes.has[j]
        for d in rules.digits:
            sums += [(-variable(rules, c, d), has[d - 1]) for c in cells]
            sums.append((-has[d - 1], *(variable(rules, c, d) for c in cells)))
        sums.append(tuple(selector for _, selector in sizes.sets[j]))
        for digits, selector in sizes.sets[j]:
            sums += [(-selector, has[d - 1] if d in digits else -has[d - 1]) for d in rules.digits]
    return distinct, sums


def _simplified(puzzle: Grid) -> Families:
    """The clauses of `_families` after the givens are propagated, built directly.

    A given makes its own literal true, and false every other digit of its cell and the
    digits its constraints rule out in other cells (its digit in its unit mates, the digits
    next to it in a non-consecutive neighbour, ...); a cell's domain (parity) makes the
    digits it leaves out false. Each clause with a true literal goes and false literals are
    removed: what is left is the same families over the empty cells' candidates, and for
    each house only the digits it still lacks."""
    rules = puzzle.rules
    values = puzzle.values
    if has_conflicts(puzzle):  # the givens already break a rule
        return [(name, [()] if name == "givens" else []) for name in FAMILIES]
    groups = grouped(ENCODERS, rules.constraints, "cnf")
    domains = cell_domains(rules, groups)
    candidates = given_candidates(rules, values, domains)
    built = _Clauses(rules, domains, candidates, values)
    cell_least, cell_most = _exactly_one(
        [variable(rules, c, d) for d in sorted(candidates[c])] for c in puzzle.empty_cells
    )
    built.add("cell-at-least", cell_least)
    built.add("cell-at-most", cell_most)
    _unit_clauses(built, shape_units(rules))
    built.true = {variable(rules, c, v) for c, v in enumerate(values) if v}
    built.false = {
        variable(rules, c, d)
        for c in rules.cells
        for d in rules.digits
        if d not in candidates[c] and d != values[c]
    }
    for encoder, group in groups:
        encoder(built, group)
    return [*built.laid_out(), ("givens", [])]


def _propagated(clauses: Iterable[Clause], true: set[int], false: set[int]) -> list[Clause]:
    """The clauses with the known literals applied: one made true goes, false literals go."""
    kept = []
    for clause in clauses:
        if any((lit in true) if lit > 0 else (-lit in false) for lit in clause):
            continue
        kept.append(
            tuple(lit for lit in clause if not ((lit in false) if lit > 0 else (-lit in true)))
        )
    return kept


def _exactly_one(
    groups: Iterable[list[int]], least: Iterable[bool] | None = None
) -> tuple[list[Clause], list[Clause]]:
    """At most one of each group (a clause per pair) and, where `least` says so (by default
    for every group), at least one (one clause)."""
    at_least: list[Clause] = []
    at_most: list[Clause] = []
    wanted = iter(least) if least is not None else itertools.repeat(True)
    for group in groups:
        if next(wanted):
            at_least.append(tuple(group))
        at_most += [(-a, -b) for a, b in itertools.combinations(group, 2)]
    return at_least, at_most


def _comments(
    puzzle: Grid, givens: str, variables: int, encoding: str = "extended"
) -> tuple[str, ...]:
    rules = puzzle.rules
    n = rules.size
    name = rules.cell_name
    lines = [
        f"sudoku-bench: {rules} Sudoku, {encoding} CNF encoding, givens as {givens}",
        *puzzle_header(puzzle),
        f"variables: v = cell*{n} + d for v in 1..{n**3}, cell 0..{n * n - 1} row-major "
        f"(r1c1 = 0), digit d = 1..{n}: a true v puts digit (v-1) mod {n} + 1 in cell "
        f"(v-1) div {n}",
        f"e.g. 1 = r1c1 holds 1, {n} = r1c1 holds {n}, {n + 1} = r1c2 holds 1, "
        f"{n**3} = {name(n * n - 1)} holds {n}",
    ]
    sums = CageSums.of(rules)
    if sums.has:
        lines.append(
            f"auxiliary variables {n**3 + 1}..{sums.variables}: cage sums, per cage "
            "'has' (the cage holds digit 1..N) and one selector per allowed digit set"
        )
        cages = _sums(rules)
        for j, has in sums.has.items():
            cage = cages[j]
            sets = " ".join(
                f"{selector}={{{','.join(map(str, sorted(digits)))}}}"
                for digits, selector in sums.sets[j]
            )
            lines.append(
                f"cage {'+'.join(name(c) for c in cage.summed)}={cage.target}: "
                f"has {has[0]}..{has[-1]}, sets {sets or 'none'}"
            )
    family = FamilyVariables.of(rules)
    first = max(sums.variables, n**3) + 1
    if family.selectors:
        last = first + family.selectors - 1
        lines.append(
            f"auxiliary variables {first}..{last}: table row selectors, one per row a cell's "
            "domain allows (a true one chooses the one row of its table the grid matches)"
        )
        first = last + 1
    if family.partial_sums:
        last = first + family.partial_sums - 1
        lines.append(
            f"auxiliary variables {first}..{last}: partial sums of the linear "
            "equations (a true one says the equation's first i terms add up to its value)"
        )
        first = last + 1
    if family.path_variables:
        lines.append(
            f"auxiliary variables {first}..{family.variables}: the arcs and states of the "
            "automata read along lines (a true one is on the path the line's digits spell)"
        )
    return tuple(lines)


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid, givens: str = "units", encoding: str = "extended") -> dict[str, Any]:
    return CnfReduction(givens, encoding).describe(puzzle)


def export(puzzle: Grid, givens: str = "units", encoding: str = "extended") -> str:
    """The formula as DIMACS CNF text, the numbering explained in its comment lines."""
    return CnfReduction(givens, encoding).export(puzzle)


# ----- one constraint's clauses, for a solver that switches constraints on and off -----------


def constraint_clauses(rules: Rules, constraint: Constraint) -> tuple[Clause, ...]:
    """The clauses `constraint` adds to the full formula of `rules` (which it is not one of),
    written alone: what a generator guards with a selector literal, so that one loaded formula
    answers for any subset of candidate clues. Variables up to N³ are placements as everywhere;
    any above are the constraint's own auxiliaries (its partial sums, table rows or cage sets),
    which no other constraint's clauses mention. A kind the table has no encoder for raises
    `UnsupportedConstraintError`."""
    extended = rules.with_constraints(constraint)
    # the combined rules hold the constraint as their own object (kinds may normalise it)
    own = tuple(c for c in extended.constraints if c not in rules.constraints)
    groups = grouped(ENCODERS, extended.constraints, "cnf")
    built = _Clauses(extended, cell_domains(extended, groups))
    for encoder, group in grouped(ENCODERS, own, "cnf"):
        encoder(built, group)
    return tuple(clause for _, part in built.laid_out() for clause in part)
