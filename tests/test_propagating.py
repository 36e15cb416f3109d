"""The fast back-end on whole collections, on every common geometry, and on Sudoku-X."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions, remove_cells, shuffled_grid

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.engines.propagating.solver import PropagatingSolver, intersections

SOLVER = PropagatingSolver()


def assert_unique_and_checked(collection: str, count: int | None = None) -> None:
    entries = load(collection)[:count]
    for entry in entries:
        result = SOLVER.solve(entry.puzzle, limit=2, timeout=30)
        assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), entry.id
        assert is_solution(entry.puzzle, result.solutions[0]), entry.id


def test_every_top95_puzzle_is_unique_and_checked() -> None:
    assert_unique_and_checked("top95")


def test_every_17_clue_puzzle_is_unique_and_checked() -> None:
    assert_unique_and_checked("17clue")  # 1,000 puzzles, a few seconds


def test_hardest_and_the_first_forum_hardest_are_unique() -> None:
    assert_unique_and_checked("hardest")
    assert_unique_and_checked("forum-hardest", 50)


@pytest.mark.slow
def test_every_forum_hardest_puzzle_is_unique_and_checked() -> None:
    assert_unique_and_checked("forum-hardest")


def test_every_16x16_puzzle_is_unique_and_checked() -> None:
    assert_unique_and_checked("16x16")
    assert_unique_and_checked("gecode16")


def test_every_multi_puzzle_has_two_checked_solutions() -> None:
    for entry in load("multi"):
        result = SOLVER.solve(entry.puzzle, limit=2)
        assert result.count == 2 and result.verdict == "multiple", entry.id
        assert len(set(result.solutions)) == 2
        assert all(is_solution(entry.puzzle, grid) for grid in result.solutions)


def test_the_4x4_collection_matches_brute_force() -> None:
    for entry in load("4x4")[:30]:
        expected = brute_force_solutions(entry.puzzle)
        result = SOLVER.solve(entry.puzzle, limit=1000)
        assert result.exact and set(result.solutions) == set(expected), entry.id


@pytest.mark.parametrize("entry", load("seeds"), ids=lambda entry: entry.id)
def test_seed_boards_as_sudoku_x(entry: PuzzleEntry) -> None:
    # Sudoku-X only adds constraints, so its solutions are among the plain puzzle's one
    # solution: that one if it keeps both diagonals, else none.
    assert entry.solution is not None
    rules = Rules.of_size(entry.puzzle.size, diagonals=True)
    puzzle = Grid(rules, entry.puzzle.values)
    listed = Grid(rules, entry.solution.values)
    result = SOLVER.solve(puzzle, limit=2)
    assert result.exact
    assert result.solutions == ([listed] if is_solution(puzzle, listed) else [])


def test_9x9_sudoku_x_puzzles_solve_to_grids_that_keep_the_diagonals() -> None:
    rules = Rules.of_size(9, diagonals=True)
    full = SOLVER.solve(Grid.empty(rules)).solutions[0]
    assert is_solution(Grid.empty(rules), full)
    rng = random.Random(9)
    for _ in range(10):
        puzzle = remove_cells(full, rng.sample(range(81), 55))
        result = SOLVER.solve(puzzle, limit=2)
        assert result.count >= 1
        assert all(is_solution(puzzle, grid) for grid in result.solutions)


@pytest.mark.parametrize("alldiff", [None, True])  # the default, and AllDifferent filtering
@pytest.mark.parametrize("diagonals", [True, False])
@pytest.mark.parametrize("size", [4, 6])
def test_small_puzzles_match_brute_force(size: int, diagonals: bool, alldiff: bool | None) -> None:
    solver = PropagatingSolver(alldiff=alldiff)
    rules = Rules.of_size(size, diagonals=diagonals)
    full = solver.solve(Grid.empty(rules)).solutions[0]
    rng = random.Random(size)
    for _ in range(5):
        puzzle = remove_cells(full, rng.sample(range(size * size), size * size * 3 // 5))
        expected = brute_force_solutions(puzzle)
        result = solver.solve(puzzle, limit=10_000)
        assert result.exact and set(result.solutions) == set(expected)


def test_locked_candidates_look_at_box_line_and_diagonal_intersections() -> None:
    plain = intersections(Rules.of_size(9).units)
    assert len(plain) == 54  # each of 9 boxes meets 3 rows and 3 columns
    assert all(len(i.common) == 3 and len(i.u_rest) == 6 for i in plain)
    x = intersections(Rules.of_size(9, diagonals=True).units)
    assert len(x) == 54 + 2 * 3  # each diagonal crosses 3 boxes in 3 cells


def test_a_25x25_grid_is_solved() -> None:
    # Most bundled 25x25 puzzles (Frisch's, ~270 givens) are beyond this back-end (see
    # test_propagating_alldiff.py); a shuffled full grid with 300 cells removed is not.
    rng = random.Random(25)
    full = shuffled_grid(Rules.of_size(25), rng)
    puzzle = remove_cells(full, rng.sample(range(625), 300))
    result = SOLVER.solve(puzzle, timeout=60)
    assert result.count == 1 and is_solution(puzzle, result.solutions[0])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from([4, 6, 8, 9, 12, 16]),
    seed=st.integers(0, 2**32 - 1),
    holes=st.floats(0.0, 0.65),
)
def test_random_puzzles_of_every_geometry_solve_consistently(
    size: int, seed: int, holes: float
) -> None:
    rng = random.Random(seed)
    rules = Rules.of_size(size)
    full = shuffled_grid(rules, rng)
    puzzle = remove_cells(full, rng.sample(range(size * size), round(holes * size * size)))
    result = SOLVER.solve(puzzle, timeout=30)
    assert result.status in (Status.SOLVED, Status.LIMIT)
    assert is_solution(puzzle, result.solutions[0])


SHAVERS = (
    PropagatingSolver(locked=False, alldiff=False, restarts=False, shaving=True),
    PropagatingSolver(alldiff=True, restarts=False, shaving=True),
)


@pytest.mark.parametrize("shaver", SHAVERS, ids=["over-singles", "over-alldiff"])
def test_shaving_keeps_every_solution_and_counts_its_probes(shaver: PropagatingSolver) -> None:
    # multi-solution puzzles: a candidate shaving removed wrongly would lose a solution
    counted = probes = 0
    for entry in [*load("multi")[:12], *load("hardest")[:4]]:
        plain = SOLVER.solve(entry.puzzle, limit=200, timeout=30)
        if not plain.exact:
            continue  # too many solutions to compare whole
        counted += plain.count > 1
        shaved = shaver.solve(entry.puzzle, limit=200, timeout=30)
        assert shaved.exact, entry.id
        assert set(shaved.solutions) == set(plain.solutions), entry.id
        probes += shaved.counters["shaving_probes"]
    assert probes > 0
    assert counted >= 3  # puzzles with several solutions, each one kept


def test_shaving_solves_without_search_what_singles_must_search() -> None:
    puzzle = load("top95")[0].puzzle
    singles = PropagatingSolver(locked=False, alldiff=False, restarts=False).solve(puzzle)
    shaved = SHAVERS[0].solve(puzzle)
    assert singles.counters["guesses"] > 0
    assert shaved.status is Status.SOLVED and shaved.counters["guesses"] == 0
    assert shaved.counters["shaving_eliminations"] > 0
    assert "shaving_probes" not in singles.counters


@given(st.integers(0, 10_000))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_shaving_on_sparse_random_puzzles_counts_as_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for size in (4, 6):
        rules = Rules.of_size(size)
        grid = shuffled_grid(rules, rng)
        cells = rng.sample(range(size * size), size * size * rng.randint(4, 6) // 10)
        assert_shaving_counts_as_brute_force(remove_cells(grid, cells))


def assert_shaving_counts_as_brute_force(puzzle: Grid) -> None:
    expected = brute_force_solutions(puzzle)
    for shaver in SHAVERS:
        result = shaver.solve(puzzle, limit=1000)
        assert set(result.solutions) == set(expected)
