"""The `dlx` back-end: the exact-cover reduction and the Dancing Links engine behind `Solver`."""

from __future__ import annotations

import random

import pytest

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers import Status, create, get
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver
from tests.dlx_helpers import THESIS_PUZZLE, THESIS_SOLUTION, pattern_solution

SOLVER = DlxSolver()


def assert_unique_and_agrees(collection: str, count: int | None = None) -> None:
    """Every puzzle: exactly one solution (search exhausted), valid by the rule checker,
    and the same grid the propagating back-end finds."""
    other = create("propagating")
    for entry in load(collection)[:count]:
        result = SOLVER.solve(entry.puzzle, limit=2)
        assert result.status == Status.SOLVED and result.count == 1, entry.id
        assert is_solution(entry.puzzle, result.solutions[0]), entry.id
        assert other.solve(entry.puzzle, limit=1).solutions == result.solutions, entry.id


def test_the_registry_knows_dlx() -> None:
    backend = get("dlx")
    assert backend.available()
    assert isinstance(backend.create(), DlxSolver)
    assert get("dancing-links") is backend


def test_the_thesis_example_gives_the_thesis_solution() -> None:
    result = SOLVER.solve(Grid.from_string(THESIS_PUZZLE), limit=2)
    assert result.status == Status.SOLVED
    assert [grid.to_line() for grid in result.solutions] == [THESIS_SOLUTION]


def test_the_empty_4x4_grid_has_288_solutions() -> None:
    result = SOLVER.solve(Grid.empty(Rules.of_size(4)), limit=1000)
    assert result.status == Status.SOLVED and result.exact
    assert result.count == 288
    assert len({grid.values for grid in result.solutions}) == 288
    assert all(is_solution(Grid.empty(Rules.of_size(4)), grid) for grid in result.solutions)


def test_a_puzzle_without_solution_is_exhausted_with_none() -> None:
    # each given is legal, but r1c4 can hold nothing: 1, 2, 3 in its row and 4 in its column
    puzzle = Grid.from_string("1230" + "0000" + "0000" + "0004")
    result = SOLVER.solve(puzzle, limit=2)
    assert result.status == Status.NO_SOLUTION
    assert result.exact and result.count == 0


def test_clashing_givens_have_no_solution() -> None:
    puzzle = Grid.from_string("1100" + "0" * 12)
    result = SOLVER.solve(puzzle, limit=2)
    assert result.status == Status.NO_SOLUTION
    assert "r1#1" in result.message


def test_a_puzzle_with_many_solutions_stops_at_the_limit() -> None:
    entry = load("multi")[0]
    result = SOLVER.solve(entry.puzzle, limit=2)
    assert result.status == Status.LIMIT and result.verdict == "multiple"
    assert len({grid.values for grid in result.solutions}) == 2
    assert all(is_solution(entry.puzzle, grid) for grid in result.solutions)


def test_counters_are_reported() -> None:
    result = SOLVER.solve(load("top95")[0].puzzle, limit=2)
    assert result.nodes > 1 and result.guesses >= 1
    assert result.counters["updates"] > result.nodes
    assert result.counters["columns"] < 324


def test_a_timeout_keeps_what_was_found() -> None:
    result = SOLVER.solve(Grid.empty(Rules.of_size(9)), limit=10**9, timeout=0.2)
    assert result.status == Status.TIMEOUT and not result.exact
    assert result.count > 0
    assert all(is_solution(Grid.empty(Rules.of_size(9)), grid) for grid in result.solutions)


def test_the_seed_boards_give_their_bundled_solutions() -> None:
    for entry in load("seeds"):
        result = SOLVER.solve(entry.puzzle, limit=2)
        assert result.status == Status.SOLVED
        assert result.solutions == [entry.solution], entry.id


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16, 25])
def test_every_geometry_solves(size: int) -> None:
    """A filled grid with some cells emptied: the solver fills them in by the rules."""
    rules = Rules.of_size(size)
    full = pattern_solution(rules)
    rng = random.Random(size)
    emptied = set(rng.sample(list(rules.cells), rules.cell_count // 3))
    puzzle = Grid(rules, tuple(0 if c in emptied else v for c, v in enumerate(full.values)))
    result = SOLVER.solve(puzzle, limit=1)
    assert result.count == 1 and is_solution(puzzle, result.solutions[0])


def test_sudoku_x_keeps_both_diagonals() -> None:
    rules = Rules.of_size(9, diagonals=True)
    result = SOLVER.solve(Grid.empty(rules), limit=3)
    assert result.count == 3
    for grid in result.solutions:
        assert is_solution(Grid.empty(rules), grid)
        for diagonal in rules.extra_units:
            assert sorted(grid.values[cell] for cell in diagonal) == list(rules.digits)


def test_sudoku_x_counts_the_4x4_grids_that_keep_the_diagonals() -> None:
    plain, x = Rules.of_size(4), Rules.of_size(4, diagonals=True)
    every = SOLVER.solve(Grid.empty(plain), limit=1000).solutions
    expected = {g.values for g in every if is_solution(Grid.empty(x), Grid(x, g.values))}
    result = SOLVER.solve(Grid.empty(x), limit=1000)
    assert result.exact and 0 < result.count < 288
    assert {grid.values for grid in result.solutions} == expected


def test_top95_is_unique_and_agrees_with_propagating() -> None:
    assert_unique_and_agrees("top95")


def test_the_17_clue_sample_is_unique_and_agrees_with_propagating() -> None:
    assert_unique_and_agrees("17clue")  # all 1,000: about 10 s


def test_the_4x4_and_gecode16_sets_solve() -> None:
    assert_unique_and_agrees("4x4")
    assert_unique_and_agrees("gecode16")


@pytest.mark.slow
def test_the_16x16_set_solves() -> None:
    assert_unique_and_agrees("16x16")  # about 45 s: one puzzle takes a million nodes
