"""Puzzle -> 0/1 integer linear program -> grid.

The program keeps an encoder table (`ENCODERS`): each constraint kind or family with its rows;
a kind it has no entry for is refused (`accepts`).

The program (`linear_program`, independent of any solver) has one binary variable per
placement "cell c holds digit d" (named `x_r1c1_5`) that the givens and the parity cells still
allow, and no objective: any feasible point is a solution. Its rows:

| row name            | rule                               | row                                      |
|---------------------|------------------------------------|------------------------------------------|
| `r1c1`              | an empty cell holds one digit      | sum over d of x[c,d] = 1                 |
| `r1_5` `c3_4` `b2_1`| a row, column or region (`b`, also | sum over its cells of x[c,d] = 1         |
|                     | for jigsaw) holds d once           |                                          |
| `x1_7`              | extra unit k holds d (diagonals    | = 1 for a unit of N cells (a house),     |
|                     | first, then the extra regions)     | <= 1 for a smaller one                   |
| `d_r1c1_r2c3_5`     | anti-knight / anti-king pair       | x[a,5] + x[b,5] <= 1                     |
| `n_r1c1_5_r1c2_6`   | non-consecutive neighbours         | x[a,5] + x[b,6] <= 1 (and the mirror)    |
| `k3_5`              | cage 3 holds 5 at most once        | sum over its cells of x[c,5] <= 1        |
| `k3`                | cage 3 adds up to its total        | sum over its cells and d of d x[c,d] = t |
| `l2_1`              | linear constraint 2's equation 1   | sum over its terms of k d x[c,d] = total |
|                     | (arrows, little killers)           | (k may be negative; digits may repeat)   |
| `t1`                | table 1 takes one of its rows      | sum over its rows j of y_t1_j = 1        |
| `t1_r1c1_5`         | the rows naming 5 in r1c1          | sum of their y <= x[r1c1,5] (= where no  |
|                     |                                    | row leaves r1c1 free)                    |
| `a1_3`              | automaton 1 takes one arc from its | sum over the layer's arcs j of           |
|                     | layer 3 (sandwich, X-sum, sky-     | z_a1_3_j = 1                             |
|                     | scraper clues)                     |                                          |
| `a1_r1c1_5`         | its arcs reading 5 in r1c1         | their sum of z = x[r1c1,5]               |
| `a1_3_s2`           | state 2 before layer 3 keeps flow  | the arcs into it sum to the arcs out     |

A table's rows get binaries `y_t1_7` (after the placements' variables), only for the rows the
candidates allow; the rows are exclusive, so the one at 1 is the row the grid matches, and
the no-good cuts over placements still count grids. An automaton (`RegularConstraint`) is
unrolled into its layers over the candidates (`encoding.layered`) and gets a binary `z_a1_3_7`
per arc: a path of flow one from its start to an accepting state, which the grid's digits fix;
an outside clue whose table is the smaller form (`encoding.as_table`: small grids) is written
as a table instead, its rows named `ct1`, `ct1_r1c1_5` and its binaries `y_ct1_7`.

A parity cell's forbidden placements are fixed at 0 by leaving their variables out, as are the
placements a given rules out (its digit in its peers, the digits next to it in its
non-consecutive neighbours); a row with nothing left to say is left out. So for classic rules
the program is the exact-cover matrix after givens, row for row: its rows are the listing's
columns (`reduce --to exact-cover`) with `#` written `_` (`r1#5` is `r1_5`; `r1c1` is the same
in both), in the same order, and its variables are the listing's rows. A cage row lists only the
empty cells, its total less the givens inside it. A cage whose cells all share units with one
another gets no `k3_5` rows: the units already say it.

A row no assignment can meet (two givens clash on it, a given breaks its parity, a house has no
place left for a digit) is kept with nothing in it, `0 = 1` or `0 <= -1`: the program is
infeasible exactly when the puzzle has no solution. `clashes` names the rows the givens alone
break (for classic rules, the exact-cover columns two givens cover). `export` writes the model in free MPS, the format every MILP solver reads, with
its puzzle in the header (see `export`).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ortools.linear_solver import pywraplp

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
    SumConstraint,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT
from sudoku_bench.reductions.base import Reduction
from sudoku_bench.reductions.encoding import (
    Domains,
    automata,
    by_form,
    cell_domains,
    different_pairs,
    equations,
    extra_units,
    forbidden_digit_pairs,
    given_candidates,
    grouped,
    layered,
    narrow_to_allowed,
    relation_pairs,
    shape_units,
    tables,
    unit_mates,
)

# The MILP solvers of the ortools wheel, by the names `pywraplp.Solver.CreateSolver` takes.
BACKENDS = ("SCIP", "CBC", "HIGHS")
MODELS = ("reduced", "textbook")
INFINITY = float("inf")


@dataclass(frozen=True)
class Row:
    """One linear constraint: `lower <= sum(coefficient * x[placement]) <= upper`, givens
    already moved to the bounds. `terms` are (placement index, coefficient)."""

    name: str
    terms: tuple[tuple[int, int], ...]
    lower: float
    upper: float
    clash: bool = False  # the givens alone break this rule (the row is then empty)


@dataclass(frozen=True)
class LinearProgram:
    """The 0/1 program of a puzzle: `placements[i]` is variable i's (cell, digit); the
    auxiliary binaries (tables' row choices) follow them, variable len(placements) + j being
    `auxiliaries[j]` (its name)."""

    puzzle: Grid
    placements: tuple[tuple[int, int], ...]
    rows: tuple[Row, ...]
    auxiliaries: tuple[str, ...] = ()

    @property
    def variables(self) -> int:
        return len(self.placements) + len(self.auxiliaries)

    @property
    def clashes(self) -> tuple[str, ...]:
        """The rows the givens alone break (`reduce --json`'s `clashes`)."""
        return tuple(row.name for row in self.rows if row.clash)


def candidates(puzzle: Grid) -> list[tuple[int, ...]]:
    """The digits each empty cell may still take after its domain (parity) and the givens
    (none for a given cell): the placements that get a variable."""
    rules, values = puzzle.rules, puzzle.values
    domains = cell_domains(rules, grouped(ENCODERS, rules.constraints, "milp"))
    left = given_candidates(rules, values, domains)
    return [tuple(d for d in domains[cell] if d in left[cell]) for cell in rules.cells]


def linear_program(puzzle: Grid, model: str = "reduced") -> LinearProgram:
    """The program of `puzzle` (see the module docstring); no solver involved. `model` is
    `reduced` (the givens select their placements first) or `textbook`."""
    if model not in MODELS:
        raise ValueError(f"unknown MILP model {model!r}; choose one of {', '.join(MODELS)}")
    if model == "textbook":
        return _textbook_program(puzzle)
    rules, values = puzzle.rules, puzzle.values
    groups = grouped(ENCODERS, rules.constraints, "milp")
    domains = cell_domains(rules, groups)
    cand = candidates(puzzle)
    placements = tuple((cell, d) for cell in rules.cells for d in cand[cell])
    index = {placement: i for i, placement in enumerate(placements)}
    builder = _Rows(rules, index, values)
    name = rules.cell_name
    for cell in rules.cells:
        if not values[cell]:
            builder.add(name(cell), [(cell, d, 1) for d in rules.digits], 1, 1)
        elif values[cell] not in domains[cell]:  # a given its domain forbids: 0 = 1
            builder.rows.append(Row(name(cell), (), 1, 1, clash=True))
    _rule_rows(builder, groups)
    return LinearProgram(puzzle, placements, tuple(builder.rows), tuple(builder.auxiliaries))


def _textbook_program(puzzle: Grid) -> LinearProgram:
    """The textbook model: a binary for every one of the N³ placements, every rule row over
    all cells, each given fixed by its own row `g_r1c1_5`: x = 1 and each digit a parity cell
    forbids by `p_r1c1_2`: x = 0. Nothing is simplified away; that is left to the solver's
    presolve, which is what the comparison with the reduced model measures."""
    rules, values = puzzle.rules, puzzle.values
    groups = grouped(ENCODERS, rules.constraints, "milp")
    domains = cell_domains(rules, groups)
    placements = tuple((cell, d) for cell in rules.cells for d in rules.digits)
    index = {placement: i for i, placement in enumerate(placements)}
    builder = _Rows(rules, index, (0,) * rules.cell_count)  # no given moves into a bound
    name = rules.cell_name
    for cell in rules.cells:
        builder.add(name(cell), [(cell, d, 1) for d in rules.digits], 1, 1)
    _rule_rows(builder, groups)
    for cell in rules.cells:
        for d in rules.digits:
            if d not in domains[cell]:
                builder.rows.append(Row(f"p_{name(cell)}_{d}", ((index[cell, d], 1),), 0, 0))
    for cell, value in enumerate(values):
        if value:
            builder.rows.append(Row(f"g_{name(cell)}_{value}", ((index[cell, value], 1),), 1, 1))
    return LinearProgram(puzzle, placements, tuple(builder.rows), tuple(builder.auxiliaries))


Group = tuple[Constraint, ...]


def _rule_rows(builder: _Rows, groups: Sequence[tuple[MilpEncoder, Group]]) -> None:
    """The rows of the units and of each constraint's encoder (both models share them)."""
    rules = builder.rules
    _unit_rows(builder, [f"{p}{i}" for p in "rcb" for i in rules.digits], shape_units(rules))
    for encoder, group in groups:
        encoder.rows(builder, group)


def _unit_rows(builder: _Rows, names: Sequence[str], units: Sequence[Sequence[int]]) -> None:
    """Each digit once in a unit of N cells (a house), at most once in a smaller one."""
    rules = builder.rules
    for unit_name, unit in zip(names, units, strict=True):
        lower = 1 if len(unit) == rules.size else -INFINITY  # need not hold every digit
        for d in rules.digits:
            builder.add(f"{unit_name}_{d}", [(c, d, 1) for c in unit], lower, 1)


def _extra_unit_rows(builder: _Rows, group: Group) -> None:
    units = extra_units(builder.rules, group)
    _unit_rows(builder, [f"x{k}" for k in range(1, len(units) + 1)], units)


def _different_rows(builder: _Rows, group: Group) -> None:
    rules, name = builder.rules, builder.rules.cell_name
    for a, b in different_pairs(rules, _pairs(group), builder.mates):
        for d in rules.digits:
            builder.add(f"d_{name(a)}_{name(b)}_{d}", [(a, d, 1), (b, d, 1)], -INFINITY, 1)


def _non_consecutive_rows(builder: _Rows, group: Group) -> None:
    rules, name = builder.rules, builder.rules.cell_name
    for _, (a, b) in relation_pairs(rules, _pairs(group)):
        for d in range(1, rules.size):
            for da, db in ((d, d + 1), (d + 1, d)):
                terms = [(a, da, 1), (b, db, 1)]
                builder.add(f"n_{name(a)}_{da}_{name(b)}_{db}", terms, -INFINITY, 1)


def _relation_rows(builder: _Rows, group: Group) -> None:
    """Any pair relation: x[a,x] + x[b,y] <= 1 for each digit pair (x, y) it rules out."""
    rules, name = builder.rules, builder.rules.cell_name
    # a pair two constraints share (branches of one thermometer) forbids a digit pair once:
    # rows are named by it, and CBC aborts the process on a repeated row name
    written: set[tuple[int, int, int, int]] = set()
    for constraint, (a, b) in relation_pairs(rules, _pairs(group)):
        for da, db in forbidden_digit_pairs(rules, constraint):
            if (a, da, b, db) in written:
                continue
            written.add((a, da, b, db))
            terms = [(a, da, 1), (b, db, 1)]
            builder.add(f"f_{name(a)}_{da}_{name(b)}_{db}", terms, -INFINITY, 1)


def _cage_rows(builder: _Rows, group: Group) -> None:
    rules = builder.rules
    cages = [c for c in group if isinstance(c, SumConstraint)]
    for k, cage in enumerate(cages, 1):
        cells = cage.summed
        if not all(b in builder.mates[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
            for d in rules.digits:
                builder.add(f"k{k}_{d}", [(c, d, 1) for c in cells], -INFINITY, 1)
        if cage.target is not None:
            terms = [(c, d, d) for c in cells for d in rules.digits]
            builder.add(f"k{k}", terms, cage.target, cage.target)


def _linear_rows(builder: _Rows, group: Group) -> None:
    """Each linear equation over the digit-weighted binaries: sum(k d x[c,d]) = total."""
    digits = builder.rules.digits
    for k, constraint in enumerate(group, 1):
        for e, equation in enumerate(equations(builder.rules, [constraint]), 1):
            terms = [(c, d, coefficient * d) for c, coefficient in equation.terms for d in digits]
            builder.add(f"l{k}_{e}", terms, equation.total, equation.total)


def _table_rows(builder: _Rows, group: Group, prefix: str = "t") -> None:
    """A binary per row of a table that the candidates allow (`y_t3_7`: table 3 takes its row
    7), exactly one of them at 1 (`t3`); the rows are exclusive, so it is the row the grid
    matches. Per cell and digit (`t3_r1c1_5`), the rows naming the digit there add up to at
    most x[c,d], or to exactly x[c,d] when no row leaves the cell free."""
    rules, name = builder.rules, builder.rules.cell_name
    for k, table in enumerate(tables(rules, group), 1):
        chosen = [
            (builder.binary(f"y_{prefix}{k}_{j}"), row)
            for j, row in enumerate(table.rows, 1)
            if all(builder.allows(c, d) for c, d in zip(table.cells, row, strict=True) if d)
        ]
        builder.add(f"{prefix}{k}", [], 1, 1, [(binary, 1) for binary, _ in chosen])
        for i, cell in enumerate(table.cells):
            fixed = all(row[i] for _, row in chosen)
            for d in rules.digits:
                naming = [(binary, 1) for binary, row in chosen if row[i] == d]
                builder.add(
                    f"{prefix}{k}_{name(cell)}_{d}", [(cell, d, -1)], 0 if fixed else -INFINITY, 0, naming
                )


def _automaton_rows(builder: _Rows, group: Group) -> None:
    """Each automaton over the candidates: a binary per arc (`z_a2_3_7`: arc 7 of automaton
    2's layer 3), one arc per layer (`a2_3`), the arcs reading d at a cell adding up to
    x[c,d] (`a2_r1c1_5`), and at each state the arcs in adding up to the arcs out
    (`a2_3_s1`). A clue whose table is the smaller form (`encoding.as_table`) is its table,
    numbered apart (`ct1`, `y_ct1_7`, ...)."""
    rules, name = builder.rules, builder.rules.cell_name
    tabled, group = by_form(rules, group)
    _table_rows(builder, tabled, "ct")
    domains = [
        tuple(d for d in rules.digits if builder.allows(cell, d)) for cell in rules.cells
    ]
    for k, automaton in enumerate(automata(rules, group), 1):
        unrolled = layered(automaton, domains)
        chosen = [
            [builder.binary(f"z_a{k}_{i}_{j}") for j in range(len(arcs))]
            for i, arcs in enumerate(unrolled.arcs, 1)
        ]
        for i, (cell, arcs) in enumerate(zip(unrolled.cells, unrolled.arcs, strict=True)):
            builder.add(f"a{k}_{i + 1}", [], 1, 1, [(z, 1) for z in chosen[i]])
            for d in rules.digits:
                reading = [(z, 1) for z, (_, e, _) in zip(chosen[i], arcs, strict=True) if e == d]
                builder.add(f"a{k}_{name(cell)}_{d}", [(cell, d, -1)], 0, 0, reading)
            if i:
                for j in range(len(unrolled.states[i])):
                    into = [(chosen[i - 1][a], 1) for a in unrolled.arcs_into(i, j)]
                    out = [(z, -1) for z, (u, _, _) in zip(chosen[i], arcs, strict=True) if u == j]
                    builder.add(f"a{k}_{i + 1}_s{j + 1}", [], 0, 0, into + out)


def _no_rows(builder: _Rows, group: Group) -> None:
    """Cell-digit constraints are the variables left out (`narrow`): no rows of their own."""


def _pairs(group: Group) -> list[PairConstraint]:
    return [c for c in group if isinstance(c, PairConstraint)]


class _Rows:
    """Collects rows over placements, moving what the givens contribute to the bounds and
    leaving out rows that say nothing."""

    def __init__(
        self, rules: Rules, index: dict[tuple[int, int], int], values: Sequence[int]
    ) -> None:
        self.rules, self.index, self.values = rules, index, values
        self.rows: list[Row] = []
        self.auxiliaries: list[str] = []

    def binary(self, name: str) -> int:
        """A new auxiliary binary variable, numbered after the placements: its index."""
        self.auxiliaries.append(name)
        return len(self.index) + len(self.auxiliaries) - 1

    def allows(self, cell: int, digit: int) -> bool:
        """Whether `digit` may stand in `cell`: a placement with a variable, or its given."""
        return (cell, digit) in self.index or self.values[cell] == digit

    @cached_property
    def mates(self) -> tuple[frozenset[int], ...]:
        return unit_mates(self.rules)

    def add(
        self,
        name: str,
        terms: Sequence[tuple[int, int, int]],
        lower: float,
        upper: float,
        auxiliary: Sequence[tuple[int, int]] = (),
    ) -> None:
        """`terms` are (cell, digit, coefficient); a given's own placement counts as the
        constant 1, a ruled-out placement as 0. `auxiliary` are (variable, coefficient) of
        auxiliary binaries."""
        kept: list[tuple[int, int]] = []
        constant = 0
        for cell, digit, coefficient in terms:
            if (cell, digit) in self.index:
                kept.append((self.index[cell, digit], coefficient))
            elif self.values[cell] == digit:
                constant += coefficient
        kept += auxiliary
        lower, upper = lower - constant, upper - constant
        # the least and most the binaries can add (0 and the sum for the rules' rows, whose
        # coefficients are positive; a linear equation's may be negative)
        least = sum(min(coefficient, 0) for _, coefficient in kept)
        most = sum(max(coefficient, 0) for _, coefficient in kept)
        if lower <= least and most <= upper:
            return  # every assignment meets it: nothing to say
        # The givens break the rule on their own when they overshoot it (two in a unit, two
        # consecutive neighbours, more than a cage's total), or fill it and miss its bounds.
        clash = upper < least or (not kept and all(self.values[cell] for cell, _, _ in terms))
        self.rows.append(Row(name, tuple(kept), lower, upper, clash))


@dataclass(frozen=True)
class MilpEncoder:
    """A kind's (or family's) rows of the program; `narrow` (cell-digit constraints) leaves
    placements without a variable."""

    rows: Callable[[_Rows, Group], None]
    narrow: Callable[[Rules, Sequence[Constraint], Domains], None] | None = None


ENCODERS: EncoderTable[MilpEncoder] = EncoderTable(
    {
        UnitConstraint: MilpEncoder(_extra_unit_rows),
        PairConstraint: MilpEncoder(_relation_rows),
        DistinctPairs: MilpEncoder(_different_rows),
        NonConsecutive: MilpEncoder(_non_consecutive_rows),
        CellDigits: MilpEncoder(_no_rows, narrow_to_allowed),
        Cage: MilpEncoder(_cage_rows),
        LinearConstraint: MilpEncoder(_linear_rows),
        TableConstraint: MilpEncoder(_table_rows),
        RegularConstraint: MilpEncoder(_automaton_rows),
    }
)


@dataclass(frozen=True)
class MilpData:
    """What `invert` needs: the program and its solver variables, one per placement."""

    program: LinearProgram
    variables: tuple[Any, ...] = field(repr=False)  # pywraplp.Variable, in placement order
    auxiliaries: tuple[Any, ...] = field(default=(), repr=False)  # the tables' row binaries


class MilpReduction(Reduction[pywraplp.Solver, Sequence[float]]):
    """Sudoku under any rules as a 0/1 feasibility program (see the module docstring)."""

    name = "milp"
    encoders = ENCODERS

    def __init__(self, backend: str = "SCIP", model: str = "reduced") -> None:
        if backend.upper() not in BACKENDS:
            raise ValueError(f"unknown MILP solver {backend!r}; choose one of {BACKENDS}")
        if model not in MODELS:
            raise ValueError(f"unknown MILP model {model!r}; choose one of {', '.join(MODELS)}")
        self.backend = backend.upper()
        self.model = model

    def apply(self, puzzle: Grid) -> tuple[pywraplp.Solver, MilpData]:
        program = linear_program(puzzle, self.model)
        solver = pywraplp.Solver.CreateSolver(self.backend)
        if solver is None:  # the wheel was built without it
            raise RuntimeError(f"this ortools build has no {self.backend} solver")
        solver.SuppressOutput()
        if self.backend == "HIGHS":  # HiGHS still prints its banner on stdout without this
            solver.SetSolverSpecificParametersAsString("output_flag=false")
        variables = _write(solver, program)
        placements = len(program.placements)
        return solver, MilpData(program, variables[:placements], variables[placements:])

    def invert(self, answer: Sequence[float], data: MilpData) -> Grid:
        """`answer[i]` is the value of variable i; the placements at 1 fill the empty cells."""
        givens = data.program.puzzle.values
        values = list(givens)
        rules = data.program.puzzle.rules
        for (cell, digit), value in zip(data.program.placements, answer, strict=True):
            if value > 0.5:
                if givens[cell] == digit:  # the textbook model's given, fixed at 1
                    continue
                if values[cell]:
                    raise ValueError(
                        f"the answer places both {values[cell]} and {digit} in "
                        f"{rules.cell_name(cell)}"
                    )
                values[cell] = digit
        return Grid(rules, tuple(values))

    def encode(self, grid: Grid, data: MilpData) -> list[int]:
        """The variables (placement indices) that stand for the cells `grid` fills beyond the
        puzzle's givens."""
        index = {placement: i for i, placement in enumerate(data.program.placements)}
        puzzle = data.program.puzzle
        return [
            index[cell, digit]
            for cell, digit in enumerate(grid.values)
            if digit and not puzzle.values[cell]
        ]

    def exclude(self, solver: pywraplp.Solver, data: MilpData, solution: Grid) -> None:
        """Add the no-good cut "not all of these placements again" for `solution`.

        Every solution of a puzzle selects the same number k of placements (one per empty
        cell), so "the k placements of this one sum to at most k - 1" cuts off exactly it.
        """
        chosen = self.encode(solution, data)
        cut = solver.Constraint(-solver.infinity(), len(chosen) - 1.0)
        for row in chosen:
            cut.SetCoefficient(data.variables[row], 1.0)

    def size(self, model: pywraplp.Solver) -> dict[str, int]:
        return {"variables": model.NumVariables(), "constraints": model.NumConstraints()}

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle, self.backend, self.model)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle, self.model)


def _write(solver: pywraplp.Solver, program: LinearProgram) -> tuple[Any, ...]:
    """Put the program into a pywraplp solver; its variables, in placement order, then the
    auxiliary ones."""
    rules = program.puzzle.rules
    variables = tuple(
        solver.BoolVar(variable_name(rules, cell, digit)) for cell, digit in program.placements
    ) + tuple(solver.BoolVar(name) for name in program.auxiliaries)
    infinity = solver.infinity()
    for row in program.rows:
        lower = -infinity if row.lower == -INFINITY else row.lower
        constraint = solver.Constraint(lower, row.upper, row.name)
        for placement, coefficient in row.terms:
            constraint.SetCoefficient(variables[placement], coefficient)
    return variables


def variable_name(rules: Rules, cell: int, digit: int) -> str:
    """`x_r1c1_5`: cell r1c1 (row and column from 1) holds digit 5 (a number, never a symbol)."""
    return f"x_{rules.cell_name(cell)}_{digit}"


# ----- the `reduce --to milp` target ----------------------------------------------------------


def describe(puzzle: Grid, backend: str = "SCIP", model: str = "reduced") -> dict[str, Any]:
    """The solver, the chosen model's size, the rows the givens alone break (found by the
    reduced program: the textbook one keeps every row whole), and both models' sizes."""
    reduction = MilpReduction(backend, model)
    solver, _ = reduction.apply(puzzle)
    reduced = linear_program(puzzle)
    textbook = linear_program(puzzle, "textbook") if model == "reduced" else None
    return {
        "solver": reduction.backend,
        "model": model,
        **reduction.size(solver),
        "clashes": list(reduced.clashes),
        "reduced_variables": reduced.variables,
        "reduced_constraints": len(reduced.rows),
        "textbook_variables": solver.NumVariables() if textbook is None else textbook.variables,
        "textbook_constraints": solver.NumConstraints() if textbook is None else len(textbook.rows),
    }


def model_name(puzzle: Grid) -> str:
    """The MPS model name, one word: `sudoku_9x9_`, the rules' fingerprint and the number of
    givens (GLPK and CBC print it; the empty NAME of earlier exports made GLPK warn)."""
    size = puzzle.rules.size
    return f"sudoku_{size}x{size}_{puzzle.rules.fingerprint}_{puzzle.givens}givens"


# Comment lines are kept short: some MPS readers read a line into a fixed buffer.
HEADER_WIDTH = 96

VARIABLE_RULE = (
    "variable x_r<R>c<C>_<D> = 1 means: the cell in row R, column C (both counted from 1) "
    "holds the digit D (a number from 1 to N, not a symbol). In a solution each empty cell "
    "has exactly one of its variables at 1; a given cell has no variables (its digit is in "
    "the puzzle rows above)."
)
ROW_RULE = (
    "rows: r<R>c<C> = 1: the empty cell is filled once. r<R>_<D>, c<C>_<D>, b<K>_<D>: row R, "
    "column C, region K (box or jigsaw piece) holds D once; x<K>_<D>: extra unit K (the "
    "diagonals first, then the extra regions) holds D (= 1 if it has N cells, else <= 1). "
    "Each is the exact-cover listing's column of the same name with # for _ (r1_5 is r1#5; "
    "r1c1 is r1c1). d_<A>_<B>_<D> <= 1: cells A and B (anti-knight/anti-king) do not both "
    "hold D. n_<A>_<D>_<B>_<E> <= 1: neighbours A and B (non-consecutive) do not hold D and E. "
    "k<M>_<D> <= 1: cage M holds D at most once; k<M>: the sum of D * x over cage M's empty "
    "cells is its total less its givens. l<K>_<E>: equation E of linear constraint K, the sum "
    "of k * D * x over its terms. t<K> = 1: table K takes one row, y_t<K>_<J> = 1 being its "
    "row J; t<K>_<cell>_<D>: the rows naming D in the cell add up to at most x (to x where "
    "no row leaves the cell free). Rows the givens settle are left out."
)

TEXTBOOK_RULE = (
    "textbook model: every cell, given or not, has its N variables and its r<R>c<C> row; no "
    "row is simplified by the givens; g_<cell>_<D> = 1 fixes a given, p_<cell>_<D> = 0 a "
    "digit the cell's parity forbids."
)


def header(puzzle: Grid) -> list[str]:
    """The comment lines that carry the puzzle: enough to rebuild the full grid from any
    solver's answer with nothing but the file (`tests/test_milp_backend.py` does).

    `rules json:` lines are pieces of one JSON text (the rules' JSON form, `Rules.to_json`),
    to be joined in order; `puzzle row R:` gives row R in the symbols of `symbols:`.
    """
    rules = puzzle.rules
    n = rules.size
    line = puzzle.to_line()
    rules_json = json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))
    piece = HEADER_WIDTH - len("rules json: ")
    return [
        "sudoku-bench: a Sudoku as a 0/1 feasibility program (free MPS; * starts a comment)",
        f"rules: {rules.name}",
        *(f"rules json: {rules_json[i : i + piece]}" for i in range(0, len(rules_json), piece)),
        f"size: {n}",
        *textwrap.wrap(
            "symbols: "
            + " ".join(f"{symbol}={v}" for v, symbol in enumerate(DEFAULT.symbols[:n], 1))
            + " .=empty",
            HEADER_WIDTH,
        ),
        *(f"puzzle row {r + 1}: {line[r * n : (r + 1) * n]}" for r in range(n)),
        *textwrap.wrap(VARIABLE_RULE, HEADER_WIDTH),
        *textwrap.wrap(ROW_RULE, HEADER_WIDTH),
    ]


def export(puzzle: Grid, model: str = "reduced") -> str:
    """The program in free MPS format, which SCIP, CBC, HiGHS, Gurobi, CPLEX and GLPK all read.

    The model is named (`model_name`), and `*` comment lines before it carry the rules, the
    puzzle, the symbol-to-number map, the variable-naming rule and the row names (`header`).
    The textbook model's header says how it differs.
    """
    solver = pywraplp.Solver(model_name(puzzle), pywraplp.Solver.SCIP_MIXED_INTEGER_PROGRAMMING)
    _write(solver, linear_program(puzzle, model))
    text: str = solver.ExportModelAsMpsFormat(False, False)  # free format, names kept
    lines = header(puzzle)
    if model == "textbook":
        lines += textwrap.wrap(TEXTBOOK_RULE, HEADER_WIDTH)
    return "".join(f"* {comment}\n" for comment in lines) + text
