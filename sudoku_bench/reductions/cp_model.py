"""Puzzle -> OR-Tools CP-SAT model -> grid, in two encodings.

The model keeps an encoder table (`ENCODERS`): each constraint kind or family with its part
of the model in each encoding; a kind it has no entry for is refused (`accepts`).

- `integer`: one integer variable per cell. Its domain is the digits the cell's parity allows
  (a given's domain is its value). Rules:
  - every unit (rows, columns, regions, diagonals, extra regions of any size):
    `add_all_different`;
  - anti-knight / anti-king pairs that share no unit: `x != y`;
  - any other pair relation: `add_forbidden_assignments` of the digit pairs it rules out;
  - non-consecutive neighbours: `add_forbidden_assignments` of the pairs (d, d+1) and
    (d+1, d), so that |x - y| >= 2;
  - killer cages: `add_all_different` over the cage plus the linear sum `sum(x) == total`,
    or, with `cages="table"`, `add_allowed_assignments` of the cage's fillings (every
    ordering of distinct digits, in the cells' domains, that adds up to the total) in place
    of the linear sum. A cage with more than `TABLE_LIMIT` fillings keeps the linear sum.
- `onehot`: one 0/1 literal per (cell, digit) and `add_exactly_one` per cell and per (house,
  digit): the exact-cover structure written as Boolean constraints. A unit of fewer than N
  cells gets `add_at_most_one` per digit (it need not hold every digit). A pair that must
  differ gets `at most one of x[a,d], x[b,d]` per digit; non-consecutive neighbours get `at
  most one of x[a,d], x[b,d+1]` (and the mirror), any other pair relation `at most one` per
  digit pair it rules out; a parity-forbidden literal is the constant false; a cage gets `at most one` per digit and the linear sum `sum(d * x[c,d]) == total`.
  A given fixes its cell's literals to constants.

The setters' families, in both encodings: a linear equation (`LinearConstraint`: arrows,
little killers; digits may repeat) is one linear constraint, `sum(k * x) == total` over the
integers or `sum(k * d * x[c,d]) == total` over the literals. A table (`TableConstraint`) is
`add_allowed_assignments` of its rows when no row has a wildcard (integer encoding); otherwise,
and always in the one-hot encoding, one Boolean per row with `add_exactly_one` over them (the
rows are exclusive, so the true one is the row the grid matches: counting stays a count of
grids), each row enforcing its named digits. An automaton read along cells
(`RegularConstraint`: sandwich, X-sum and skyscraper clues, on any side) is unrolled into its
layers (`encoding.layered`, over the cells' domains and the givens): a Boolean per arc,
exactly one per layer, at each state the arcs in adding up to the arcs out (a path of flow
one, which the grid fixes); an arc enforces its digit on the cell's integer, or, one-hot,
the arcs of digit d at a cell add up to x[c,d]. A clue whose table is small
(`encoding.as_table`: every clue on 6x6) is written as its table instead, as above.

The answer `invert` takes is a function from a variable to its value (the solution
callback's `value`, or `CpSolver.value`), so both encodings map back the same way.
`export` writes the model as the CpModelProto text format, which `ortools` reads back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from math import factorial
from typing import Any

from ortools.sat.python import cp_model

from sudoku_bench.puzzles.constraints import (
    BetweenLine,
    Cage,
    CellDigits,
    Constraint,
    DistinctPairs,
    EncoderTable,
    LinearConstraint,
    NonConsecutive,
    PairConstraint,
    RegularConstraint,
    SumConstraint,
    Table,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.constraints.between_line import between_rows
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.base import Reduction
from sudoku_bench.reductions.encoding import (
    Domains,
    Layered,
    automata,
    by_form,
    cell_domains,
    different_pairs,
    equations,
    extra_units,
    fixed_columns,
    forbidden_digit_pairs,
    grouped,
    has_wildcard,
    layered,
    narrow_to_allowed,
    relation_pairs,
    shape_units,
    tables,
    unit_mates,
)

ENCODINGS = ("integer", "onehot")
CAGE_ENCODINGS = ("sum", "table")
# A table of more fillings than this costs more to build than it saves (a 9-cell cage has
# 9! = 362,880): such a cage keeps the linear sum.
TABLE_LIMIT = 5000
# a between line is its tables while they have at most this many rows (40 on 6x6, where they
# solve faster than the linear orders; 168 on 9x9, where the orders are several times faster)
BETWEEN_TABLE_ROWS = 64

# A function giving a model expression's value in a solution.
Answer = Callable[[Any], int]


@dataclass(frozen=True)
class CpData:
    """What `invert` needs: the puzzle and its variables.

    `cells[c]` is cell c's integer variable (integer encoding); `literals[c][d - 1]` is
    "cell c holds d" (one-hot encoding; constants for givens and parity-forbidden digits).
    """

    puzzle: Grid
    encoding: str
    cells: tuple[cp_model.IntVar, ...] = ()
    literals: tuple[tuple[Any, ...], ...] = ()


class CpModelReduction(Reduction[cp_model.CpModel, Answer]):
    """Sudoku under any rules as a CP-SAT model in the `integer` (AllDifferent) or `onehot`
    encoding; `cages` is `sum` (a linear equation) or `table` (allowed fillings, integer only)."""

    name = "cp-model"

    def __init__(self, encoding: str = "integer", cages: str = "sum") -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown CP-SAT encoding {encoding!r}; choose one of {ENCODINGS}")
        if cages not in CAGE_ENCODINGS:
            raise ValueError(f"unknown cage encoding {cages!r}; choose one of {CAGE_ENCODINGS}")
        if cages == "table" and encoding != "integer":
            raise ValueError("cages='table' needs the integer encoding (a table is over integers)")
        self.encoding = encoding
        self.cages = cages

    def apply(self, puzzle: Grid) -> tuple[cp_model.CpModel, CpData]:
        model = cp_model.CpModel()
        if self.encoding == "integer":
            return model, _integer_model(model, puzzle, self.cages)
        return model, _onehot_model(model, puzzle)

    def invert(self, answer: Answer, data: CpData) -> Grid:
        if data.encoding == "integer":
            values = tuple(answer(cell) for cell in data.cells)
        else:
            values = tuple(_digit_of(answer, row) for row in data.literals)
        return Grid(data.puzzle.rules, values)

    def size(self, model: cp_model.CpModel) -> dict[str, int]:
        proto = model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}

    def exclude(self, model: cp_model.CpModel, data: CpData, solution: Grid) -> None:
        """Add "at least one empty cell differs from `solution`" to the model.

        Re-solving after this proves uniqueness (INFEASIBLE) or finds another solution, and
        unlike `enumerate_all_solutions` it stays sound with several workers.
        """
        free = data.puzzle.empty_cells
        if data.encoding == "onehot":
            model.add_bool_or([data.literals[c][solution[c] - 1].negated() for c in free])
            return
        differs = []
        for c in free:
            literal = model.new_bool_var(f"differs_{c}")
            model.add(data.cells[c] != solution[c]).only_enforce_if(literal)
            differs.append(literal)
        model.add_bool_or(differs)

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle, self.encoding)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle, self.encoding)


def domains(puzzle: Grid) -> list[tuple[int, ...]]:
    """Each cell's digits: those its cell-digit constraints allow (all digits for most cells),
    or its given if allowed."""
    return _domains(puzzle, grouped(ENCODERS, puzzle.rules.constraints, "cp-model"))


def _domains(
    puzzle: Grid, groups: Sequence[tuple[CpEncoder, tuple[Constraint, ...]]]
) -> list[tuple[int, ...]]:
    allowed = cell_domains(puzzle.rules, groups)
    return [
        allowed[cell] if not value else (value,) if value in allowed[cell] else ()
        for cell, value in enumerate(puzzle.values)
    ]


@dataclass
class _CpModel:
    """The model under construction, as the encoders see it."""

    model: cp_model.CpModel
    rules: Rules
    domains: list[tuple[int, ...]]
    cages: str  # `sum` or `table`
    cells: tuple[cp_model.IntVar, ...] = ()  # integer encoding
    literals: tuple[tuple[Any, ...], ...] = ()  # one-hot encoding

    @cached_property
    def mates(self) -> tuple[frozenset[int], ...]:
        return unit_mates(self.rules)


Group = tuple[Constraint, ...]


def _integer_model(model: cp_model.CpModel, puzzle: Grid, cage_encoding: str) -> CpData:
    rules = puzzle.rules
    groups = grouped(ENCODERS, rules.constraints, "cp-model")
    cell_domains = _domains(puzzle, groups)
    cells = tuple(
        _int_var(model, digits, rules.cell_name(cell)) for cell, digits in enumerate(cell_domains)
    )
    for unit in shape_units(rules):
        model.add_all_different(cells[c] for c in unit)
    built = _CpModel(model, rules, cell_domains, cage_encoding, cells=cells)
    for encoder, group in groups:
        encoder.integer(built, group)
    return CpData(puzzle, "integer", cells=cells)


def _int_units(built: _CpModel, group: Group) -> None:
    for unit in extra_units(built.rules, group):
        built.model.add_all_different(built.cells[c] for c in unit)


def _int_different(built: _CpModel, group: Group) -> None:
    cells = built.cells
    for a, b in different_pairs(built.rules, _pairs(group), built.mates):
        built.model.add(cells[a] != cells[b])


def _int_relation(built: _CpModel, group: Group) -> None:
    """Any pair relation: its forbidden digit pairs as forbidden assignments."""
    for constraint, (a, b) in relation_pairs(built.rules, _pairs(group)):
        forbidden = forbidden_digit_pairs(built.rules, constraint)
        if forbidden:
            built.model.add_forbidden_assignments([built.cells[a], built.cells[b]], forbidden)


def _int_non_consecutive(built: _CpModel, group: Group) -> None:
    size = built.rules.size
    consecutive = [(d, d + 1) for d in range(1, size)]
    consecutive += [(d + 1, d) for d in range(1, size)]
    for _, (a, b) in relation_pairs(built.rules, _pairs(group)):
        built.model.add_forbidden_assignments([built.cells[a], built.cells[b]], consecutive)


def _int_cages(built: _CpModel, group: Group) -> None:
    model = built.model
    for cage in _sums(group):
        variables = [built.cells[c] for c in cage.summed]
        if len(variables) > 1:
            model.add_all_different(variables)
        if cage.target is None:
            continue
        fillings = None
        if built.cages == "table":
            fillings = cage_fillings(cage, [built.domains[c] for c in cage.summed], TABLE_LIMIT)
        if fillings is None:
            model.add(sum(variables) == cage.target)
        else:
            model.add_allowed_assignments(variables, fillings)


def _int_var(model: cp_model.CpModel, digits: Sequence[int], name: str) -> cp_model.IntVar:
    if not digits:  # a given its parity forbids: CP-SAT calls an empty domain an invalid model
        model.add_bool_or([])  # the empty clause: infeasible, which is the truth
        return model.new_int_var(1, 1, name)
    if len(digits) == digits[-1] - digits[0] + 1:  # an interval: the usual 1..N or a given
        return model.new_int_var(digits[0], digits[-1], name)
    return model.new_int_var_from_domain(cp_model.Domain.from_values(digits), name)


def _onehot_model(model: cp_model.CpModel, puzzle: Grid) -> CpData:
    rules = puzzle.rules
    groups = grouped(ENCODERS, rules.constraints, "cp-model")
    cell_domains = _domains(puzzle, groups)
    constants: dict[int, cp_model.IntVar] = {}

    def constant(value: int) -> cp_model.IntVar:
        # Fixed literals share two constants, made only when needed (an empty classic grid
        # has none); unnamed variables keep building cheap.
        if value not in constants:
            constants[value] = model.new_constant(value)
        return constants[value]

    literals = tuple(
        tuple(
            (constant(1) if given else model.new_bool_var("")) if digit in domain else constant(0)
            for digit in rules.digits
        )
        for given, domain in zip(puzzle.values, cell_domains, strict=True)
    )
    for row in literals:
        model.add_exactly_one(row)
    built = _CpModel(model, rules, cell_domains, "sum", literals=literals)
    _onehot_unit_rows(built, shape_units(rules))
    for encoder, group in groups:
        encoder.onehot(built, group)
    return CpData(puzzle, "onehot", literals=literals)


def _onehot_unit_rows(built: _CpModel, units: Sequence[Sequence[int]]) -> None:
    """Exactly one of each digit in a unit of N cells (a house), at most one in a smaller one."""
    model, literals, size = built.model, built.literals, built.rules.size
    for unit in units:
        add = model.add_exactly_one if len(unit) == size else model.add_at_most_one
        for d in range(size):
            add(literals[c][d] for c in unit)


def _onehot_units(built: _CpModel, group: Group) -> None:
    _onehot_unit_rows(built, extra_units(built.rules, group))


def _onehot_different(built: _CpModel, group: Group) -> None:
    literals = built.literals
    for a, b in different_pairs(built.rules, _pairs(group), built.mates):
        for d in range(built.rules.size):
            built.model.add_at_most_one(literals[a][d], literals[b][d])


def _onehot_relation(built: _CpModel, group: Group) -> None:
    """Any pair relation: at most one of the two literals of each forbidden digit pair."""
    literals = built.literals
    for constraint, (a, b) in relation_pairs(built.rules, _pairs(group)):
        for first, second in forbidden_digit_pairs(built.rules, constraint):
            built.model.add_at_most_one(literals[a][first - 1], literals[b][second - 1])


def _onehot_non_consecutive(built: _CpModel, group: Group) -> None:
    literals = built.literals
    for _, (a, b) in relation_pairs(built.rules, _pairs(group)):
        for d in range(built.rules.size - 1):
            built.model.add_at_most_one(literals[a][d], literals[b][d + 1])
            built.model.add_at_most_one(literals[a][d + 1], literals[b][d])


def _onehot_cages(built: _CpModel, group: Group) -> None:
    model, literals, digits = built.model, built.literals, built.rules.digits
    for cage in _sums(group):
        if len(cage.summed) > 1:
            for d in range(built.rules.size):
                model.add_at_most_one(literals[c][d] for c in cage.summed)
        if cage.target is not None:
            model.add(
                sum(digit * literals[c][digit - 1] for c in cage.summed for digit in digits)
                == cage.target
            )


def _int_linear(built: _CpModel, group: Group) -> None:
    """Each linear equation as one CP-SAT linear constraint over the cells' integers."""
    for equation in equations(built.rules, group):
        cells, coefficients = zip(*equation.terms, strict=True) if equation.terms else ((), ())
        expression = cp_model.LinearExpr.weighted_sum(
            [built.cells[c] for c in cells], list(coefficients)
        )
        built.model.add(expression == equation.total)


def _int_tables(built: _CpModel, group: Group) -> None:
    """A table without wildcards: allowed assignments over its cells' integers. With
    wildcards: a Boolean per row, exactly one of them true (rows are exclusive, so exactly the
    row the grid matches), each enforcing its named cells' digits."""
    model = built.model
    for table in tables(built.rules, group):
        variables = [built.cells[c] for c in table.cells]
        if not has_wildcard(table):
            model.add_allowed_assignments(variables, list(table.rows))
            continue
        chosen = _row_literals(built, table)
        for literal, row in zip(chosen, table.rows, strict=True):
            for variable, digit in zip(variables, row, strict=True):
                if digit:
                    model.add(variable == digit).only_enforce_if(literal)


def _int_between(built: _CpModel, group: Group) -> None:
    """A between line with a middle: one Boolean "rising" per line, which enforces first <
    middle < last on every middle cell, and its negation first > middle > last. The ends
    then differ, so the Boolean is the grid's "first < last" and counting stays a count of
    grids. On a side whose (end, middle, end) table is short (`BETWEEN_TABLE_ROWS`) the
    tables are faster, and are written instead."""
    if len(between_rows(built.rules.size)) <= BETWEEN_TABLE_ROWS:
        _int_tables(built, group)
        return
    model, cells = built.model, built.cells
    for line in group:
        assert isinstance(line, BetweenLine)
        first, last = cells[line.cells[0]], cells[line.cells[-1]]
        middles = [cells[c] for c in line.cells[1:-1]]
        if not middles:
            continue  # two cells: nothing between them to state
        rising = model.new_bool_var("")
        for middle in middles:
            model.add(first < middle).only_enforce_if(rising)
            model.add(middle < last).only_enforce_if(rising)
            model.add(first > middle).only_enforce_if(~rising)
            model.add(middle > last).only_enforce_if(~rising)


def _row_literals(built: _CpModel, table: Table) -> list[cp_model.IntVar]:
    """One Boolean per row of the table, exactly one of them true."""
    chosen = [built.model.new_bool_var("") for _ in table.rows]
    built.model.add_exactly_one(chosen)
    return chosen


def _onehot_linear(built: _CpModel, group: Group) -> None:
    """Each linear equation over the digit-weighted literals: sum(k * d * x[c,d]) == total."""
    digits = built.rules.digits
    for equation in equations(built.rules, group):
        built.model.add(
            sum(k * d * built.literals[c][d - 1] for c, k in equation.terms for d in digits)
            == equation.total
        )


def _onehot_tables(built: _CpModel, group: Group) -> None:
    """A Boolean per row, exactly one true. A cell that every row names is tied both ways to
    the rows (x[c,d] == the sum of the rows naming d there); a cell some row leaves free gets
    "row implies x[c,d]" for the rows that name it."""
    model, digits = built.model, built.rules.digits
    for table in tables(built.rules, group):
        chosen = _row_literals(built, table)
        for i, (cell, fixed) in enumerate(zip(table.cells, fixed_columns(table), strict=True)):
            literals = built.literals[cell]
            if fixed:
                for d in digits:
                    naming = [b for b, row in zip(chosen, table.rows, strict=True) if row[i] == d]
                    model.add(literals[d - 1] == sum(naming))
                continue
            for literal, row in zip(chosen, table.rows, strict=True):
                if row[i]:
                    model.add_implication(literal, literals[row[i] - 1])


def _layers(built: _CpModel, group: Group) -> Iterator[Layered]:
    """The group's automata unrolled over the cells' domains (a given's is its digit)."""
    for automaton in automata(built.rules, group):
        yield layered(automaton, built.domains)


def _int_automata(built: _CpModel, group: Group) -> None:
    """A Boolean per arc (`_arcs`), each enforcing its digit on the cell's integer; a digit
    no arc of the cell's layer reads is ruled out, and one whose arcs are all false too.
    (Not `add_automaton`: with `enumerate_all_solutions` CP-SAT 9.15 reports one grid twice
    through it, which breaks counting.) A clue whose table is the smaller form is its table
    (`encoding.as_table`)."""
    model = built.model
    tabled, read = by_form(built.rules, group)
    _int_tables(built, tabled)
    for unrolled, chosen in _arcs(built, read):
        for i, (cell, arcs) in enumerate(zip(unrolled.cells, unrolled.arcs, strict=True)):
            variable = built.cells[cell]
            for d in built.domains[cell]:
                labelled = [b for b, (_, e, _) in zip(chosen[i], arcs, strict=True) if e == d]
                for arc in labelled:
                    model.add(variable == d).only_enforce_if(arc)
                model.add(variable != d).only_enforce_if([arc.Not() for arc in labelled])


def _arcs(built: _CpModel, group: Group) -> Iterator[tuple[Layered, list[list[Any]]]]:
    """Each automaton unrolled, with a Boolean per arc: exactly one per layer, and at each
    state the arcs in adding up to the arcs out (a path of flow one from the start to an
    accepting state, which the grid's digits fix: the automaton is deterministic)."""
    model = built.model
    for unrolled in _layers(built, group):
        chosen = [[model.new_bool_var("") for _ in arcs] for arcs in unrolled.arcs]
        for i, arcs in enumerate(unrolled.arcs):
            model.add_exactly_one(chosen[i])  # no arc at all: infeasible
            if i:
                for j in range(len(unrolled.states[i])):
                    into = [chosen[i - 1][k] for k in unrolled.arcs_into(i, j)]
                    out = [b for b, (u, _, _) in zip(chosen[i], arcs, strict=True) if u == j]
                    if into or out:
                        model.add(sum(into) == sum(out))
        yield unrolled, chosen


def _onehot_automata(built: _CpModel, group: Group) -> None:
    """The arcs (`_arcs`) reading d at a cell add up to its literal x[c,d] (the flow form of
    `regular`, as the MILP model writes it); a clue whose table is the smaller form is its
    table."""
    tabled, read = by_form(built.rules, group)
    _onehot_tables(built, tabled)
    for unrolled, chosen in _arcs(built, read):
        for i, (cell, arcs) in enumerate(zip(unrolled.cells, unrolled.arcs, strict=True)):
            for d in built.rules.digits:
                labelled = [b for b, (_, e, _) in zip(chosen[i], arcs, strict=True) if e == d]
                built.model.add(built.literals[cell][d - 1] == sum(labelled))


def _domains_only(built: _CpModel, group: Group) -> None:
    """Cell-digit constraints are the domains (`narrow`): nothing more to add."""


def _pairs(group: Group) -> list[PairConstraint]:
    return [c for c in group if isinstance(c, PairConstraint)]


def _sums(group: Group) -> list[SumConstraint]:
    return [c for c in group if isinstance(c, SumConstraint)]


Encode = Callable[[_CpModel, Group], None]


@dataclass(frozen=True)
class CpEncoder:
    """A kind's (or family's) part of the CP-SAT model, in each encoding; `narrow` (cell-digit
    constraints) shapes the cells' domains before any variable exists."""

    integer: Encode
    onehot: Encode
    narrow: Callable[[Rules, Sequence[Constraint], Domains], None] | None = None


ENCODERS: EncoderTable[CpEncoder] = EncoderTable(
    {
        UnitConstraint: CpEncoder(_int_units, _onehot_units),
        PairConstraint: CpEncoder(_int_relation, _onehot_relation),
        DistinctPairs: CpEncoder(_int_different, _onehot_different),
        NonConsecutive: CpEncoder(_int_non_consecutive, _onehot_non_consecutive),
        CellDigits: CpEncoder(_domains_only, _domains_only, narrow_to_allowed),
        Cage: CpEncoder(_int_cages, _onehot_cages),
        LinearConstraint: CpEncoder(_int_linear, _onehot_linear),
        TableConstraint: CpEncoder(_int_tables, _onehot_tables),
        BetweenLine: CpEncoder(_int_between, _onehot_tables),
        RegularConstraint: CpEncoder(_int_automata, _onehot_automata),
    }
)


def _digit_of(answer: Answer, row: Sequence[Any]) -> int:
    """The digit whose literal is true (0 if none is: only a broken answer does that)."""
    return next((d for d, literal in enumerate(row, 1) if answer(literal)), 0)


def cage_fillings(
    cage: SumConstraint, cell_domains: Sequence[Sequence[int]], limit: int | None = None
) -> list[tuple[int, ...]] | None:
    """Every filling of the cage's cells (in order) with distinct digits from their domains
    that adds up to its total; None when there are more than `limit`.

    The count is bounded first by the digit sets that reach the total (times k! orderings
    each), so a huge cage is refused before any ordering is listed.
    """
    total = cage.target
    if total is None:
        raise ValueError("a cage without a sum has no fillings to list")
    digits = sorted({d for domain in cell_domains for d in domain})
    k = len(cage.summed)
    if limit is not None and _digit_sets(digits, k, total) * factorial(k) > limit:
        return None
    return list(_fill(cell_domains, total, ()))


def _digit_sets(digits: Sequence[int], k: int, total: int) -> int:
    """How many sets of k distinct digits add up to `total` (a small dynamic program)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for digit in digits:
        for (count, reached), number in list(ways.items()):
            if count < k and reached + digit <= total:
                key = (count + 1, reached + digit)
                ways[key] = ways.get(key, 0) + number
    return ways.get((k, total), 0)


def _fill(
    cell_domains: Sequence[Sequence[int]], left: int, chosen: tuple[int, ...]
) -> Iterator[tuple[int, ...]]:
    if len(chosen) == len(cell_domains):
        if left == 0:
            yield chosen
        return
    rest = len(cell_domains) - len(chosen) - 1
    for digit in cell_domains[len(chosen)]:
        # the other cells add at least 1 + 2 + ... + rest: prune what cannot reach the total
        if digit not in chosen and digit + rest * (rest + 1) // 2 <= left:
            yield from _fill(cell_domains, left - digit, (*chosen, digit))


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid, encoding: str = "integer") -> dict[str, Any]:
    reduction = CpModelReduction(encoding)
    model, _ = reduction.apply(puzzle)
    return {"encoding": encoding, **reduction.size(model)}


def export(puzzle: Grid, encoding: str = "integer") -> str:
    """The model in CpModelProto text format (`text_format.Parse` reads it back)."""
    model, _ = CpModelReduction(encoding).apply(puzzle)
    return str(model.proto)


CpModelReduction.encoders = ENCODERS
