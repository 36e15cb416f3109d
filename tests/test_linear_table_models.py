"""The models' encoders of the setters' families, `LinearConstraint` (equations, digits may
repeat) and `TableConstraint` (admissible fillings, 0 = any digit, rows exclusive): every
configuration of cpsat, sat, milp and python-constraint finds exactly the brute force's
solutions, on 4x4 and 6x6 puzzles with test-only kinds of each family."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.constraints import Constraint, Equation, Table
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.adapters.cpsat import CpSatSolver
from sudoku_bench.solvers.adapters.milp import MilpSolver
from sudoku_bench.solvers.adapters.python_constraint import PythonConstraintSolver
from sudoku_bench.solvers.adapters.sat import SatSolver
from sudoku_bench.solvers.base import Solver, Status
from tests.solving_support import (
    Ascending,
    LinearRule,
    TableRule,
    after_one_table,
    arrow,
    brute_force_solutions,
    diagonal_sum,
    row_sum_table,
    shuffled_grid,
)

CONFIGURATIONS: dict[str, Callable[[], Solver[Any]]] = {
    "cpsat": lambda: CpSatSolver(),
    "cpsat-enumerate": lambda: CpSatSolver(counting="enumerate"),
    "cpsat-onehot": lambda: CpSatSolver(encoding="onehot"),
    "cpsat-table": lambda: CpSatSolver(cages="table"),
    **{
        f"sat-{encoding}-{givens}": (
            lambda encoding=encoding, givens=givens: SatSolver(givens=givens, encoding=encoding)
        )
        for encoding in ("minimal", "efficient", "extended")
        for givens in ("units", "simplify")
    },
    "sat-glucose": lambda: SatSolver(solver="glucose4"),
    **{
        f"milp-{backend.lower()}-{model}": (
            lambda backend=backend, model=model: MilpSolver(backend=backend, model=model)
        )
        for backend in ("SCIP", "HIGHS", "CBC")
        for model in ("reduced", "textbook")
    },
    **{
        f"python-constraint-{algorithm}{'-fc' if forwardcheck else ''}": (
            lambda algorithm=algorithm, forwardcheck=forwardcheck: PythonConstraintSolver(
                algorithm, forwardcheck=forwardcheck
            )
        )
        for algorithm in ("backtracking", "optimized", "recursive")
        for forwardcheck in (True, False)
    },
    "python-constraint-singles": lambda: PythonConstraintSolver(hidden_singles=True),
}


@dataclass(frozen=True)
class Case:
    puzzle: Grid
    truth: frozenset[tuple[int, ...]]


def _rules(size: int, constraints: tuple[Constraint, ...]) -> Rules:
    return Rules.parse(f"{size}x{size}").with_constraints(*constraints)


def _constraints(solution: Grid, rng: random.Random) -> Iterator[Constraint]:
    """A mix of linear and table constraints that `solution` keeps, and now and then one it
    may break (then the puzzle may have no solution, which the models must find too)."""
    n = solution.rules.size
    values = solution.values
    broken = rng.random() < 0.15
    length = rng.randint(2, n)
    yield diagonal_sum(n, length, sum(values[i * n + i] for i in range(length)) + broken)
    # an arrow: a bulb and two cells of other rows whose digits add up to the bulb
    for _ in range(20):
        bulb = rng.randrange(n * n)
        line = [c for c in rng.sample(range(n * n), n) if c // n != bulb // n][:2]
        if sum(values[c] for c in line) == values[bulb]:
            yield arrow((bulb,), line)
            break
    sums = [r for r in range(n) if values[r * n] + values[r * n + 1] == values[r * n + 2]]
    if sums or broken:
        yield row_sum_table(n, rng.choice(sums or range(n)), wildcards=rng.random() < 0.5)
    row = rng.randrange(n)
    place = values[row * n : row * n + n].index(1)
    if place < n - 1:
        yield after_one_table(n, row, values[row * n + place + 1])


def make_case(size: int, rng: random.Random, blanks: int) -> Case:
    """Rules of a few linear and table constraints around a random grid, givens from it."""
    while True:
        solution = shuffled_grid(Rules.parse(f"{size}x{size}"), rng)
        constraints = tuple(c for c in _constraints(solution, rng) if rng.random() < 0.8)
        if not constraints:
            continue
        rules = _rules(size, constraints)
        empty = rng.sample(range(size * size), blanks)
        values = tuple(0 if cell in empty else v for cell, v in enumerate(solution.values))
        puzzle = Grid(rules, values)
        truth = frozenset(g.values for g in brute_force_solutions(puzzle, limit=20))
        if len(truth) < 20:
            return Case(puzzle, truth)


def _cases() -> list[Case]:
    rng = random.Random(30)
    return [make_case(4, rng, rng.randint(11, 16)) for _ in range(10)] + [
        make_case(6, rng, rng.randint(14, 20)) for _ in range(3)
    ]


CASES = _cases()


def check(solver: Solver[Any], case: Case) -> None:
    result = solver.solve(case.puzzle, limit=len(case.truth) + 1)
    where = f"{case.puzzle.to_line()} {case.puzzle.rules.constraints}"
    assert result.status is not Status.UNSUPPORTED, (where, result.message)
    assert result.exact, (where, result.status, result.message)
    assert {g.values for g in result.solutions} == case.truth, where


# CBC takes seconds per model even on 4x4: its runs over every case are the slow tests
SWEEP = [
    pytest.param(name, marks=pytest.mark.slow) if name.startswith("milp-cbc") else name
    for name in sorted(CONFIGURATIONS)
]


@pytest.mark.parametrize("name", SWEEP)
def test_every_configuration_finds_the_brute_force_solutions(name: str) -> None:
    for case in CASES:
        check(CONFIGURATIONS[name](), case)


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_a_pill_arrow_and_repeated_digits(name: str) -> None:
    """A two-cell bulb read as a number (10a + b) and a line whose digits repeat."""
    rules = _rules(4, (arrow((0, 1), (6, 11, 13, 12)),))
    puzzle = Grid(rules, (0,) * 16)
    truth = {g.values for g in brute_force_solutions(puzzle)}
    assert truth  # 1 2 | . . : the bulb 12 needs a line of four digits adding up to 12
    solver = CONFIGURATIONS[name]()
    result = solver.solve(puzzle, limit=len(truth) + 1)
    assert {g.values for g in result.solutions} == truth


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_an_equation_no_grid_meets_and_an_empty_table(name: str) -> None:
    impossible = LinearRule((Equation(((0, 1), (1, 1)), 9),))  # two 4x4 digits, 9 at most 7
    empty = TableRule((after_one_table(4, 0, 3).given[0].__class__((0, 1), ()),))
    for constraint in (impossible, empty):
        result = CONFIGURATIONS[name]().solve(Grid(_rules(4, (constraint,)), (0,) * 16), limit=2)
        assert result.status is Status.NO_SOLUTION, (constraint, result.status)


@pytest.mark.parametrize("givens", ["units", "simplify"])
def test_every_model_of_the_cnf_is_a_grid(givens: str) -> None:
    """Every auxiliary (row selector, partial sum) is fixed by the placements: all models of
    the whole formula, blocked on every variable, are as many as the grids."""
    from pysat.solvers import Solver as PySatSolver

    from sudoku_bench.reductions.cnf import CnfReduction

    for case in CASES[:6]:
        cnf, _ = CnfReduction(givens).apply(case.puzzle)
        if cnf.has_empty_clause:
            assert not case.truth
            continue
        models = 0
        with PySatSolver(name="cadical153", bootstrap_with=[list(c) for c in cnf.clauses]) as sat:
            while sat.solve() and models <= len(case.truth):
                model = sat.get_model() or []
                models += 1
                used = {abs(lit) for clause in cnf.clauses for lit in clause}
                sat.add_clause([-lit for lit in model if abs(lit) in used])
        assert models == len(case.truth), case.puzzle.to_line()


PYTHON_CONSTRAINT = [name for name in CONFIGURATIONS if name.startswith("python-constraint")]


@pytest.mark.parametrize("name", PYTHON_CONSTRAINT)
def test_python_constraint_takes_a_kind_of_no_family_by_its_check(name: str) -> None:
    """The generic fallback (`Violations`, keyed on `Constraint`) asks the kind's own check."""
    rng = random.Random(name)
    for _ in range(4):
        cells = tuple(rng.sample(range(16), 3))
        rules = _rules(4, (Ascending(cells), diagonal_sum(4, 2, rng.randint(3, 7))))
        puzzle = Grid(rules, (0,) * 16)
        truth = {g.values for g in brute_force_solutions(puzzle)}
        result = CONFIGURATIONS[name]().solve(puzzle, limit=len(truth) + 1)
        assert result.exact and {g.values for g in result.solutions} == truth, cells


def test_the_support_table_marks_the_families() -> None:
    """Every model encodes both families (the support table reads these tables); only
    python-constraint has the generic fallback."""
    from sudoku_bench.reductions import cnf, cp_model, csp, milp

    for table in (cp_model.ENCODERS, cnf.ENCODERS, milp.ENCODERS, csp.ENCODERS):
        assert table.encodes(LinearRule) and table.encodes(TableRule)
    assert csp.ENCODERS.encodes(Ascending)
    assert not any(t.encodes(Ascending) for t in (cp_model.ENCODERS, cnf.ENCODERS, milp.ENCODERS))


def test_the_xcsp_export_writes_sums_short_tables_and_checked_fillings() -> None:
    from sudoku_bench.reductions.csp import export

    rules = _rules(4, (arrow((0,), (5, 10)), row_sum_table(4, 1), Ascending((3, 7, 11))))
    text = export(Grid(rules, (0,) * 16))
    assert "<sum> <list> x[1][1] x[2][2] x[0][0] </list> <coeffs> 1 1 -1 </coeffs>" in text
    assert "(1,2,3,*)" in text  # the row's first two cells add up to the third, the last free
    ascending = next(line for line in text.splitlines() if "ascending cells" in line)
    assert "(1,2,3)" in ascending and "(2,4,3)" not in ascending
    assert ascending.count("(") == 4  # 123 124 134 234


@st.composite
def family_puzzles(draw: st.DrawFn) -> Case:
    """A 4x4 puzzle with a random equation (coefficients -2..2, digits may repeat) and a random
    table whose rows name distinct digits on its key cells (so they are exclusive) and a digit
    or nothing on its other cells; givens from a random grid, so most have a solution."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    solution = shuffled_grid(Rules.parse("4x4"), rng)
    cells = rng.sample(range(16), 6)
    terms = tuple((c, rng.choice((-2, -1, 1, 2))) for c in cells[: rng.randint(1, 4)])
    total = sum(k * solution.values[c] for c, k in terms) + draw(st.sampled_from((0, 0, 1)))
    keys, others = cells[:2], cells[2 : 2 + rng.randint(0, 2)]
    fillings = [(a, b) for a in range(1, 5) for b in range(1, 5)]
    rows = [
        (*key, *(rng.choice((0, rng.randint(1, 4))) for _ in others))
        for key in rng.sample(fillings, rng.randint(1, 10))
    ]
    constraints = (
        LinearRule((Equation(terms, total),)),
        TableRule((Table((*keys, *others), tuple(rows)),)),
    )
    blanks = draw(st.integers(9, 16))
    empty = rng.sample(range(16), blanks)
    values = tuple(0 if c in empty else v for c, v in enumerate(solution.values))
    puzzle = Grid(_rules(4, constraints), values)
    return Case(puzzle, frozenset(g.values for g in brute_force_solutions(puzzle)))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(family_puzzles())
def test_random_equations_and_tables_match_the_brute_force(case: Case) -> None:
    for name in (
        "cpsat",
        "cpsat-onehot",
        "sat-minimal-simplify",
        "sat-extended-units",
        "milp-scip-reduced",
        "python-constraint-backtracking-fc",
    ):
        check(CONFIGURATIONS[name](), case)


def test_the_dimacs_header_numbers_the_auxiliaries_after_the_cage_sums() -> None:
    from sudoku_bench.reductions.cnf import export

    rules = Rules.from_json({"size": 4, "cages": [{"cells": ["r4c3", "r4c4"], "sum": 3}]})
    rules = rules.with_constraints(arrow((0,), (5, 10)), row_sum_table(4, 1))
    header = [line for line in export(Grid(rules, (0,) * 16)).splitlines() if line[0] in "cp"]
    assert "c auxiliary variables 65..69: cage sums" in "\n".join(header)
    assert any(
        line.startswith("c auxiliary variables 70..73: table row selectors") for line in header
    )
    assert any(line.startswith("c auxiliary variables 74..79: partial sums") for line in header)
    assert header[-1].startswith("p cnf 79 ")


def test_the_support_table_marks_a_registered_kind_of_each_family(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`solvers --kinds` reads the encoder tables: kinds of the families, once registered,
    are marked for the four models (and a kind of no family for python-constraint alone)."""
    from sudoku_bench.harness.cli.commands.solvers_list import support_records
    from sudoku_bench.puzzles.constraints import KINDS

    for name, kind in (("test_linear", LinearRule), ("test_table", TableRule)):
        monkeypatch.setattr(kind, "kind", name, raising=False)
        monkeypatch.setitem(KINDS, name, kind)
    monkeypatch.setattr(Ascending, "kind", "test_ascending", raising=False)
    monkeypatch.setitem(KINDS, "test_ascending", Ascending)
    records = {record["name"]: record["kinds"] for record in support_records()}
    for backend in ("cpsat", "cpsat-onehot", "sat", "sat-minimal", "milp", "python-constraint"):
        if records[backend]["test_linear"] is None:
            continue  # not installed
        assert records[backend]["test_linear"] and records[backend]["test_table"], backend
    assert records["python-constraint"]["test_ascending"] in (True, None)
    assert records["cpsat"]["test_ascending"] in (False, None)
