"""The `sat` back-end: answers checked and compared with other back-ends, counting, timeouts."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import random
import time

import pytest
from solving_support import brute_force_solutions, remove_cells

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers import SolverUnavailableError, Status, create, get, select
from sudoku_bench.solvers.adapters.sat import SOLVERS, SatSolver, canonical_name

SAT = SatSolver()
EMPTY_4X4 = Grid.empty(Rules.of_size(4))


def assert_unique_and_agrees_with_dlx(entries: list[PuzzleEntry]) -> None:
    dlx = create("dlx")
    for entry in entries:
        result = SAT.solve(entry.puzzle, limit=2, timeout=30)
        assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), entry.id
        assert is_solution(entry.puzzle, result.solutions[0]), entry.id
        assert result.solutions == dlx.solve(entry.puzzle, limit=2).solutions, entry.id


@pytest.mark.parametrize("entry", load("seeds"), ids=lambda entry: entry.id)
@pytest.mark.parametrize("name", ["sat", "sat-glucose", "sat-minisat"])
def test_the_seed_boards_give_their_bundled_solutions(name: str, entry: PuzzleEntry) -> None:
    result = create(name).solve(entry.puzzle, limit=2)
    assert (result.status, result.exact) == (Status.SOLVED, True)
    assert result.solutions == [entry.solution]
    assert result.solver == name


@pytest.mark.parametrize("givens", ["simplify", "units"])
@pytest.mark.parametrize("solver", ["cadical153", "glucose4"])
def test_the_empty_4x4_has_288_solutions(solver: str, givens: str) -> None:
    result = SatSolver(solver, givens).solve(EMPTY_4X4, limit=1000)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 288, True)
    assert len(set(result.solutions)) == 288
    assert all(is_solution(EMPTY_4X4, grid) for grid in result.solutions)
    assert result.details["solves"] == 289  # the last one is UNSAT: the count is exact


def test_counts_on_4x4_puzzles_match_brute_force() -> None:
    rng = random.Random(4)
    for entry in load("4x4")[:20]:
        puzzle = remove_cells(entry.puzzle, rng.sample(range(16), 4))
        expected = brute_force_solutions(puzzle)
        result = SAT.solve(puzzle, limit=1000)
        assert result.exact and set(result.solutions) == set(expected), entry.id


def test_a_two_solution_4x4_counts_exactly_two() -> None:
    # the pattern grid with a 1/2 rectangle (r1c1, r1c2, r3c1, r3c2... in one band) emptied
    solution = Grid.from_string("1234341221434321")
    puzzle = remove_cells(solution, [0, 1, 8, 9])  # 1 2 / 2 1 across r1 and r3: swappable
    result = SAT.solve(puzzle, limit=10)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 2, True)
    assert set(result.solutions) == set(brute_force_solutions(puzzle))


def test_the_multi_puzzles_stop_at_two_checked_solutions() -> None:
    for entry in load("multi")[:20]:
        result = SAT.solve(entry.puzzle, limit=2)
        assert (result.status, result.verdict) == (Status.LIMIT, "multiple"), entry.id
        assert len(set(result.solutions)) == 2
        assert all(is_solution(entry.puzzle, grid) for grid in result.solutions)


@pytest.mark.parametrize("givens", ["simplify", "units"])
@pytest.mark.parametrize(
    "line",
    [
        "1230" + "0000" + "0000" + "0004",  # r1c4 can hold nothing
        "1100" + "0" * 12,  # clashing givens
    ],
)
def test_a_puzzle_without_solution_is_exhausted(line: str, givens: str) -> None:
    result = SatSolver(givens=givens).solve(Grid.from_string(line), limit=2)
    assert (result.status, result.count, result.exact) == (Status.NO_SOLUTION, 0, True)


def test_a_full_grid_is_its_own_only_solution() -> None:
    solution = load("seeds")[0].solution
    assert solution is not None
    result = SAT.solve(solution, limit=5)
    assert (result.status, result.solutions, result.exact) == (Status.SOLVED, [solution], True)


def test_sudoku_x_counts_agree_with_propagating() -> None:
    propagating = create("propagating")
    x4 = Grid.empty(Rules.of_size(4, diagonals=True))
    result = SAT.solve(x4, limit=1000)
    assert result.exact and result.count == 48
    assert set(result.solutions) == set(propagating.solve(x4, limit=1000).solutions)
    for entry in load("seeds"):
        puzzle = Grid(Rules.of_size(entry.puzzle.size, diagonals=True), entry.puzzle.values)
        assert SAT.solve(puzzle, limit=2).solutions == propagating.solve(puzzle, limit=2).solutions


def test_top95_agrees_with_dlx() -> None:
    assert_unique_and_agrees_with_dlx(load("top95"))


def test_the_17_clue_sample_agrees_with_dlx() -> None:
    assert_unique_and_agrees_with_dlx(load("17clue")[:100])


def test_the_16x16_set_solves() -> None:
    for entry in load("16x16"):
        result = SAT.solve(entry.puzzle, limit=2, timeout=30)
        assert (result.status, result.count) == (Status.SOLVED, 1), entry.id
        assert is_solution(entry.puzzle, result.solutions[0]), entry.id


@pytest.mark.parametrize("name", ["sat", "sat-glucose"])  # conflict budgets; interrupt()
def test_a_count_that_cannot_finish_stops_at_the_timeout(name: str) -> None:
    empty = Grid.empty(Rules.of_size(16))
    start = time.perf_counter()
    result = create(name).solve(empty, limit=10**9, timeout=0.3)
    elapsed = time.perf_counter() - start
    assert result.status is Status.TIMEOUT and not result.exact
    assert all(is_solution(empty, grid) for grid in result.solutions)  # kept, however many
    assert elapsed < 2.5  # stops, with room for a loaded machine


def test_a_hard_search_is_stopped_in_the_middle_of_a_solve() -> None:
    """The deadline falls inside one long solve, not between two: both mechanisms stop it."""
    # 43,000 conflicts (CaDiCaL), 3.5 s here: 7x the limit. 0.25 s was tried, but under load the
    # build and load took it all and no conflict was counted.
    hard = load("25x25")[0].puzzle
    for solver in ("cadical153", "glucose4"):
        result = SatSolver(solver).solve(hard, timeout=0.5)
        assert result.status is Status.TIMEOUT, solver
        assert result.total_s < 3, solver
        assert result.counters["conflicts"] > 0


def test_the_solver_counters_are_reported() -> None:
    result = SAT.solve(load("top95")[0].puzzle, limit=2)
    counters = result.counters
    assert {"decisions", "conflicts", "propagations", "restarts", "solves"} <= set(counters)
    assert result.nodes == result.guesses == counters["decisions"] > 0
    assert counters["solves"] == 2 and counters["propagations"] > 0
    assert result.details["solver"] == "cadical153" and result.details["givens"] == "simplify"


def test_solver_names_and_aliases() -> None:
    assert canonical_name("g4") == "glucose4" and canonical_name("CaDiCaL153") == "cadical153"
    assert SatSolver("m22").solver == "minisat22"
    assert "cadical153" in SOLVERS and "glucose4" in SOLVERS
    for refused in ("kissat", "lingeling", "no-such-solver"):
        with pytest.raises(ValueError, match="unsupported SAT solver"):
            SatSolver(refused)
    with pytest.raises(ValueError, match="givens"):
        SatSolver(givens="assumptions")


def test_every_offered_solver_solves_a_seed() -> None:
    entry = load("seeds")[4]
    for solver in SOLVERS:
        assert SatSolver(solver).solve(entry.puzzle, limit=2, timeout=10).solutions == [
            entry.solution
        ], solver


def test_registered_with_the_python_sat_version() -> None:
    for name in ("sat", "sat-glucose", "sat-minisat"):
        backend = get(name)
        assert backend.available() and backend.extra == "sat"
        assert backend.version() == importlib.metadata.version("python-sat")
    assert [b.name for b in select("all") if b.name.startswith("sat")] == ["sat"]
    assert get("cadical").name == "sat"
    assert create("sat-glucose").solver == "glucose4"  # type: ignore[attr-defined]


def test_reported_unavailable_when_pysat_is_missing() -> None:
    missing = dataclasses.replace(get("sat"), requires=("pysat_is_not_installed",))
    assert not missing.available()
    with pytest.raises(SolverUnavailableError, match=r"sudoku-bench\[sat\]"):
        missing.create()


def test_solve_with_sat_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    entry = load("seeds")[1]
    assert main(["solve", entry.puzzle.to_line(), "-s", "sat", "--limit", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["solver"] == "sat" and record["status"] == "solved"


@pytest.mark.slow
def test_the_25x25_puzzles_solve() -> None:
    """Frisch's hard minimal 25x25 puzzles, which dlx and propagating do not solve in minutes:
    CaDiCaL solved all 18 in 127 s, the slowest in 27 s (limit 1: uniqueness not proven)."""
    for entry in load("25x25"):
        result = SAT.solve(entry.puzzle, limit=1, timeout=120)
        assert result.count == 1, entry.id
        assert is_solution(entry.puzzle, result.solutions[0]), entry.id


def test_the_dimacs_export_is_read_and_solved_by_pysat() -> None:
    """The exported file, read by PySAT's own DIMACS parser, gives the seed's solution."""
    from pysat.formula import CNF
    from pysat.solvers import Solver as PySatSolver

    from sudoku_bench.reductions import cnf
    from sudoku_bench.reductions.cnf import CnfReduction

    entry = load("seeds")[3]
    formula = CNF(from_string=cnf.export(entry.puzzle))
    assert formula.nv == entry.puzzle.size**3
    with PySatSolver(name="minisat22", bootstrap_with=formula.clauses) as engine:
        assert engine.solve()
        _, data = CnfReduction().apply(entry.puzzle)
        assert CnfReduction().invert(engine.get_model(), data) == entry.solution
