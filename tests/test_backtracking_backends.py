"""Both backtracking back-ends: the faithful `backtracking` and the fast `propagating`.

Every count here is checked against something independent: the seeds' listed solutions,
the known 288, or the brute-force enumerator of `solving_support`.
"""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions, remove_cells, shuffled_grid

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Deadline, Solver, Status
from sudoku_bench.solvers.engines.backtracking import CHECK_EVERY, BacktrackingSolver
from sudoku_bench.solvers.engines.propagating.solver import PropagatingSolver
from sudoku_bench.solvers.registry import create

SOLVERS: dict[str, Solver[Any]] = {
    "backtracking": BacktrackingSolver(),
    "propagating": PropagatingSolver(),
    "propagating-singles": PropagatingSolver(locked=False),
}
ALL = pytest.mark.parametrize("name", list(SOLVERS))


@ALL
def test_registered_under_its_name(name: str) -> None:
    solver = create(name)
    assert type(solver) is type(SOLVERS[name])
    assert solver.name == name  # propagating-singles too, not its class's "propagating"


@ALL
@pytest.mark.parametrize("entry", load("seeds"), ids=lambda entry: entry.id)
def test_each_seed_board_solves_to_its_listed_solution(name: str, entry: Any) -> None:
    result = SOLVERS[name].solve(entry.puzzle)
    assert result.status in (Status.SOLVED, Status.LIMIT)
    assert result.solutions == [entry.solution]
    assert result.nodes >= 1


@ALL
def test_the_empty_4x4_grid_has_288_solutions(name: str) -> None:
    result = SOLVERS[name].solve(Grid.empty(Rules.of_size(4)), limit=1000)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 288, True)
    assert len(set(result.solutions)) == 288
    assert all(is_solution(Grid.empty(Rules.of_size(4)), grid) for grid in result.solutions)


@ALL
def test_the_empty_sudoku_x_4x4_matches_brute_force(name: str) -> None:
    puzzle = Grid.empty(Rules.of_size(4, diagonals=True))
    expected = brute_force_solutions(puzzle)
    assert len(expected) == 48  # the diagonals cut 288 down to 48
    result = SOLVERS[name].solve(puzzle, limit=1000)
    assert result.exact
    assert set(result.solutions) == set(expected)


SIX_BY_SIX = [  # random 6x6 grids with 20-22 cells removed; 1, 2, 5 and 11 solutions
    "...52.12..46....34.31.5...2.6.5..2.3",
    "5.2...4.1.23.46.3..5..64........4651",
    "6...54.24..3.5....46.5....54.6.....5",
    ".6.1.5512...625..1.......5..1..41...",
]


@cache
def brute_force(text: str) -> frozenset[Grid]:
    return frozenset(brute_force_solutions(Grid.from_string(text)))


@ALL
@pytest.mark.parametrize("text", SIX_BY_SIX)
def test_6x6_counts_match_brute_force(name: str, text: str) -> None:
    result = SOLVERS[name].solve(Grid.from_string(text), limit=1000)
    assert (result.status, result.exact) == (Status.SOLVED, True)
    assert set(result.solutions) == brute_force(text)
    assert result.count == len(brute_force(text))


@ALL
@pytest.mark.parametrize("limit", [1, 2, 5, 11, 12])
def test_counting_stops_at_the_limit_or_is_exact(name: str, limit: int) -> None:
    text = SIX_BY_SIX[-1]
    expected = brute_force(text)
    assert len(expected) == 11
    result = SOLVERS[name].solve(Grid.from_string(text), limit=limit)
    assert set(result.solutions) <= expected
    assert result.count == min(limit, 11)
    if limit < 11:
        assert (result.status, result.exact) == (Status.LIMIT, False)
    elif limit > 11:
        assert (result.status, result.exact) == (Status.SOLVED, True)


NO_SOLUTION = [
    # the givens break no rule, but r1c3 and r1c4 both need the 4 (the box already has 3)
    "12....3.........",
    # r1c9 must be 9, and column 9 already has one
    "12345678." + "." * 18 + "........9" + "." * 45,
]


@ALL
@pytest.mark.parametrize("text", NO_SOLUTION)
def test_a_puzzle_without_solution_is_no_solution_exactly(name: str, text: str) -> None:
    result = SOLVERS[name].solve(Grid.from_string(text), limit=2)
    assert (result.status, result.count, result.exact) == (Status.NO_SOLUTION, 0, True)
    assert result.verdict == "none"


@ALL
def test_givens_that_break_a_rule_have_no_solution(name: str) -> None:
    puzzle = Grid.from_string("11" + "." * 14)
    result = SOLVERS[name].solve(puzzle, limit=2)
    assert result.status == Status.NO_SOLUTION


@ALL
def test_a_two_solution_puzzle_stops_at_limit_2(name: str) -> None:
    entry = load("multi")[0]
    result = SOLVERS[name].solve(entry.puzzle, limit=2)
    assert (result.status, result.count, result.exact) == (Status.LIMIT, 2, False)
    assert result.verdict == "multiple"
    assert len(set(result.solutions)) == 2
    assert all(is_solution(entry.puzzle, grid) for grid in result.solutions)


def test_the_faithful_solver_honours_a_short_timeout_on_a_hard_puzzle() -> None:
    hard = load("seeds")[1].puzzle  # the seeds' own hard example: ~50,000 placements
    start = time.perf_counter()
    result = BacktrackingSolver().solve(hard, limit=2, timeout=0.05)
    elapsed = time.perf_counter() - start
    assert result.status == Status.TIMEOUT
    assert not result.exact
    assert elapsed < 2.0  # a hang is the failure; the margin absorbs a loaded CI machine


def test_the_propagating_solver_honours_a_short_timeout() -> None:
    # Counting the empty 16x16 cannot finish on any machine, so the deadline must end it; a hard
    # puzzle would not do: a faster CI machine solved 16x16:85 (725 nodes) inside 0.05 s.
    empty = Grid.empty(Rules.of_size(16))
    start = time.perf_counter()
    result = PropagatingSolver(locked=False, alldiff=False).solve(empty, limit=10**9, timeout=0.05)
    assert result.status == Status.TIMEOUT
    assert time.perf_counter() - start < 2.0  # a hang is the failure, as above


def test_the_faithful_solver_visits_cells_in_row_major_order_with_digits_in_order() -> None:
    # On the empty 4x4 the seeds' algorithm fills 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1 first:
    # the lexicographically smallest grid, which only a row-major, ascending search finds first.
    result = BacktrackingSolver().solve(Grid.empty(Rules.of_size(4)))
    assert result.solutions[0].to_line() == "1234341221434321"
    # and it gets there without a dead end: one placement per cell, no second digit tried
    assert (result.nodes, result.guesses) == (16, 0)


@ALL
def test_a_timeout_keeps_the_solutions_found(name: str) -> None:
    # the empty 9x9 has far too many solutions to count; the deadline ends the search
    result = SOLVERS[name].solve(Grid.empty(Rules.of_size(9)), limit=10**9, timeout=0.3)
    assert result.status == Status.TIMEOUT
    assert result.count >= 1
    assert all(is_solution(Grid.empty(Rules.of_size(9)), grid) for grid in result.solutions)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from([4, 6]),
    seed=st.integers(0, 2**32 - 1),
    holes=st.floats(0.0, 1.0),
    name=st.sampled_from(list(SOLVERS)),
)
def test_random_small_puzzles_solve_to_a_grid_that_keeps_the_givens(
    size: int, seed: int, holes: float, name: str
) -> None:
    rng = random.Random(seed)
    rules = Rules.of_size(size)
    full = shuffled_grid(rules, rng)
    puzzle = remove_cells(full, rng.sample(range(size * size), round(holes * size * size)))
    result = SOLVERS[name].solve(puzzle, timeout=20)
    assert result.count == 1
    assert is_solution(puzzle, result.solutions[0])


def test_a_scan_of_a_clue_table_reads_the_deadline_first() -> None:
    """A table's scan may outlast many placements, so the clock is read before each scan,
    not only every `CHECK_EVERY` placements: a search whose deadline has passed stops at
    its first scan (a deadline of one nanosecond has passed once the model is built)."""
    puzzle = load("sandwich-9x9")[0].puzzle
    solver = BacktrackingSolver()
    model = solver._build(puzzle, Deadline(None))
    outcome = solver._search(model, puzzle, 2, Deadline(1e-9))
    assert outcome.timed_out and not outcome.exhausted
    assert outcome.counters["nodes"] < CHECK_EVERY
