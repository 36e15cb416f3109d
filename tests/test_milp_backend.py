"""The MILP reduction and back-ends: SCIP, CBC and HiGHS on the exact-cover 0/1 program."""

from __future__ import annotations

import random
import time

import pytest
from formats_strategies import random_solution
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.cli import main
from puzzles.checker import is_solution
from puzzles.collections import load
from puzzles.grid import Grid
from puzzles.rules import Rules
from reductions import milp
from reductions.exact_cover import REDUCTION as EXACT_COVER
from reductions.milp import MilpReduction
from solvers.base import Status
from solvers.milp import MilpSolver
from solvers.registry import create, get, select

pytest.importorskip("ortools")

THESIS = Grid.from_string("0000302004010000")  # the thesis's 4x4, solution 4213312424311342
TWO = Grid.from_string("12..34..........")  # checked below against the propagating count
NAMES = ("milp", "milp-cbc", "milp-highs")


@pytest.mark.parametrize("name", NAMES)
def test_the_thesis_puzzle_and_the_seed_boards(name: str) -> None:
    solver = create(name)
    result = solver.solve(THESIS, limit=2)
    assert (result.status, result.solutions) == (
        Status.SOLVED,
        [Grid.from_string("4213312424311342")],
    )
    for entry in load("seeds"):
        result = solver.solve(entry.puzzle, limit=2)
        assert (result.status, result.solutions) == (Status.SOLVED, [entry.solution]), entry.id


@pytest.mark.parametrize("name", NAMES)
def test_counting_with_no_good_cuts_matches_the_propagating_count(name: str) -> None:
    reference = create("propagating").solve(TWO, limit=100)
    assert reference.exact and 2 <= reference.count < 100
    result = create(name).solve(TWO, limit=100)
    assert result.exact and sorted(result.solutions, key=Grid.to_line) == sorted(
        reference.solutions, key=Grid.to_line
    )
    assert result.counters["solves"] == reference.count + 1  # the last solve proves "no more"


def test_the_empty_sudoku_x_4x4_has_48_solutions() -> None:
    result = MilpSolver().solve(Grid.empty(Rules.of_size(4, diagonals=True)), limit=100)
    assert (result.count, result.exact) == (48, True)
    assert all(
        is_solution(Grid.empty(Rules.of_size(4, diagonals=True)), g) for g in result.solutions
    )


@pytest.mark.slow
def test_the_empty_4x4_has_288_solutions() -> None:  # 289 solves, about 8 s
    result = MilpSolver().solve(Grid.empty(Rules.of_size(4)), limit=1000)
    assert (result.count, result.exact) == (288, True)


@pytest.mark.parametrize("name", NAMES)
def test_a_puzzle_without_solution_is_an_infeasible_program(name: str) -> None:
    clash = Grid.from_string("11..............")  # two 1s in row 1: a column no row covers
    no_way = Grid.from_string("12.....3.....4..")  # valid givens, still no solution
    assert create("propagating").solve(no_way, limit=2).status is Status.NO_SOLUTION
    for puzzle in (clash, no_way):
        result = create(name).solve(puzzle, limit=2)
        assert (result.status, result.exhausted, result.count) == (Status.NO_SOLUTION, True, 0)
        assert result.details["statuses"] == ["INFEASIBLE"]


def test_top95_agrees_with_the_propagating_solver() -> None:
    scip, reference = MilpSolver(), create("propagating")
    for entry in load("top95"):
        ours = scip.solve(entry.puzzle, limit=2)
        theirs = reference.solve(entry.puzzle, limit=2)
        assert (ours.status, ours.solutions) == (theirs.status, theirs.solutions), entry.id


def test_a_16x16_solves() -> None:
    entry = load("gecode16")[0]
    result = MilpSolver().solve(entry.puzzle, limit=2, timeout=60)
    assert result.status is Status.SOLVED
    assert is_solution(entry.puzzle, result.solutions[0])


@pytest.mark.parametrize("name", NAMES)
def test_a_count_that_cannot_finish_stops_at_the_timeout(name: str) -> None:
    empty = Grid.empty(Rules.of_size(9))
    start = time.perf_counter()
    result = create(name).solve(empty, limit=10**9, timeout=0.3)
    assert result.status is Status.TIMEOUT and not result.exact
    assert all(is_solution(empty, grid) for grid in result.solutions)  # kept, however many
    assert time.perf_counter() - start < 5  # stops, with room for a loaded machine


def test_the_exported_mps_reads_back_and_solves_to_the_same_grid() -> None:
    from ortools.linear_solver.python import model_builder

    model = model_builder.Model()
    assert model.import_from_mps_string(milp.export(THESIS))
    solver = model_builder.Solver("scip")
    assert solver.solve(model) == model_builder.SolveStatus.OPTIMAL
    chosen = {v.name for v in model.get_variables() if solver.value(v) > 0.5}
    expected = Grid.from_string("4213312424311342")
    free = [c for c in THESIS.rules.cells if not THESIS[c]]
    assert chosen == {f"x_{THESIS.rules.cell_name(c)}_{expected[c]}" for c in free}


def test_the_program_is_the_exact_cover_matrix() -> None:
    puzzle = load("top95")[0].puzzle
    matrix, _ = EXACT_COVER.apply(puzzle)
    model, _ = MilpReduction().apply(puzzle)
    assert MilpReduction().size(model) == {
        "variables": len(matrix.rows),
        "constraints": len(matrix.columns),
    }
    assert milp.describe(puzzle) == {
        "solver": "SCIP",
        "variables": len(matrix.rows),
        "constraints": len(matrix.columns),
        "clashes": [],
    }


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([4, 6, 9]), st.randoms(use_true_random=False))
def test_invert_round_trips_any_valid_grid(size: int, rng: random.Random) -> None:
    solution = random_solution(Rules.of_size(size), rng)
    puzzle = Grid(solution.rules, tuple(v if rng.random() < 0.4 else 0 for v in solution.values))
    reduction = MilpReduction()
    _, data = reduction.apply(puzzle)
    rows = set(EXACT_COVER.encode(solution, data.cover))
    answer = [1.0 if row in rows else 0.0 for row in range(len(data.variables))]
    assert reduction.invert(answer, data) == solution


def test_unknown_solver_and_bad_threads_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown MILP solver 'GLPK'"):
        MilpReduction("GLPK")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        MilpSolver(threads=0)


def test_registered_with_the_ortools_version_and_only_scip_in_all() -> None:
    assert get("milp").distribution == "ortools" and get("milp").version()
    assert get("scip").name == "milp"
    assert [b.name for b in select("all") if b.name.startswith("milp")] == ["milp"]


def test_reduce_to_milp_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reduce", "0000302004010000", "--to", "milp", "--json"]) == 0
    assert '"variables": 24, "constraints": 48' in capsys.readouterr().out
