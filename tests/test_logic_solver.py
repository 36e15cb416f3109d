"""The logic back-end end to end: singles on the newspaper puzzle, easy50, giving up, geometries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Deadline, SearchTimeout, Status
from sudoku_bench.solvers.engines.logic import LogicSolver, clock, forcing, franken, run_logic
from sudoku_bench.solvers.engines.logic.state import Candidates
from sudoku_bench.solvers.engines.logic.techniques import next_step
from sudoku_bench.solvers.registry import create

NEWSPAPER = "004036927100005000000200004005000060640000085070000200500001000000700002437920500"
NEWSPAPER_SOLUTION = (
    "854136927129475638763289154295817463641392785378564291582641379916753842437928516"
)


def test_newspaper_puzzle_of_seed_004_falls_to_singles_alone() -> None:
    result = create("logic-singles").solve(Grid.from_string(NEWSPAPER))
    assert result.status is Status.SOLVED
    assert result.solutions[0].to_line() == NEWSPAPER_SOLUTION
    log = result.details["log"]
    assert len(log) == Grid.from_string(NEWSPAPER).rules.cell_count - 28 == result.counters["steps"]
    assert log[0] == "1. r1c1 = 8: naked single"
    assert all("single" in line for line in log)
    assert result.counters["naked_single"] + result.counters["hidden_single"] == len(log)
    full = create("logic").solve(Grid.from_string(NEWSPAPER))
    assert full.details["log"] == log and full.details["level"] == "easy"


def test_every_easy50_puzzle_is_solved_without_giving_up() -> None:
    solver = LogicSolver()
    for entry in load("easy50"):
        result = solver.solve(entry.puzzle)
        assert result.status is Status.SOLVED, entry.id
        assert result.exact and result.verdict == "unique"
        assert is_solution(entry.puzzle, result.solutions[0])
        assert result.guesses == 0


def test_it_gives_up_with_the_partial_grid_and_candidates() -> None:
    hard = load("multi")[0].puzzle  # two solutions: no sound step can finish it
    result = LogicSolver().solve(hard)
    assert result.status is Status.GAVE_UP and not result.solutions
    assert result.partial is not None and result.partial.givens >= hard.givens
    marks = result.details["candidates"]
    assert len(marks) == result.partial.rules.cell_count - result.partial.givens
    assert all(len(digits) >= 2 for digits in marks.values())
    assert "no technique applies" in result.message


def test_a_puzzle_with_two_solutions_makes_it_give_up_not_guess() -> None:
    entry = load("multi")[0]
    assert LogicSolver().solve(entry.puzzle).status is Status.GAVE_UP


def test_a_contradiction_proves_there_is_no_solution() -> None:
    # r1c9 can only be 9 (row) yet column 9 already has a 9
    puzzle = Grid.from_string("12345678." + "." * 8 + "9" + "." * 63)
    result = LogicSolver().solve(puzzle)
    assert result.status is Status.NO_SOLUTION and result.exact
    assert "no solution" in result.message


def test_repeated_givens_have_no_solution() -> None:
    puzzle = Grid.from_string("11" + "." * 79)
    assert LogicSolver().solve(puzzle).status is Status.NO_SOLUTION


def test_sudoku_x_uses_the_diagonals() -> None:
    x = Rules.of_size(9, diagonals=True)
    solution = Grid.from_string(
        "123456789456789123789123456214365897368972514597814632941638275832547961675291348", x
    )
    centre = x.cell(4, 4)
    # empty every cell with r + c even except the main diagonal, and the centre
    emptied = [c for c in x.cells if (x.row_of(c) + x.col_of(c)) % 2 == 0]
    emptied = [c for c in emptied if x.row_of(c) != x.col_of(c)] + [centre]
    puzzle = solution.with_values(dict.fromkeys(emptied, 0))
    result = LogicSolver().solve(puzzle)
    assert result.status is Status.SOLVED and result.solutions[0] == solution
    # the centre is fixed by the diagonal, not by its row, column and box
    assert Candidates.from_grid(puzzle).candidates(centre) == [solution[centre]]
    plain = Grid(Rules.of_size(9), puzzle.values)
    assert len(Candidates.from_grid(plain).candidates(centre)) > 1


@pytest.mark.parametrize("name", ["4x4", "16x16"])
def test_other_sizes(name: str) -> None:
    solver = LogicSolver()
    for entry in load(name)[:5]:
        result = solver.solve(entry.puzzle)
        assert result.status in (Status.SOLVED, Status.GAVE_UP)
        if result.status is Status.SOLVED:
            assert is_solution(entry.puzzle, result.solutions[0])


def test_six_by_six() -> None:
    six = Rules.of_size(6)
    solution = Grid.from_string("123456456123231564564231312645645312", six)
    puzzle = solution.with_values({0: 0, 7: 0, 14: 0, 21: 0, 28: 0, 35: 0, 3: 0, 20: 0})
    result = LogicSolver().solve(puzzle)
    assert result.status is Status.SOLVED and result.solutions[0] == solution


SOLUTIONS = [
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
    NEWSPAPER_SOLUTION,
    "4213312424311342",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SOLUTIONS), st.randoms(use_true_random=False), st.floats(0.15, 0.6))
def test_every_step_is_sound(line: str, rng: object, keep: float) -> None:
    """A deduction never contradicts a solution of the puzzle, unique or not."""
    import random

    assert isinstance(rng, random.Random)
    solution = Grid.from_string(line)
    puzzle = Grid(solution.rules, tuple(v if rng.random() < keep else 0 for v in solution))
    run = run_logic(puzzle)
    assert run.end in ("solved", "stuck")
    for step in run.steps:
        assert all(solution[cell] == digit for cell, digit in step.placements), step
        assert all(solution[cell] != digit for cell, digit in step.eliminations), step


def test_every_step_on_ten_of_top95_keeps_the_solution() -> None:
    """The default suite's share of the soundness replay below (about 20 s there)."""
    counter = create("propagating")
    for entry in load("top95")[:10]:
        solution = counter.solve(entry.puzzle).solutions[0]
        run = run_logic(entry.puzzle)
        assert run.end == "solved"
        for step in run.steps:
            assert all(solution[cell] == digit for cell, digit in step.placements), step
            assert all(solution[cell] != digit for cell, digit in step.eliminations), step


@pytest.mark.slow
def test_every_step_on_top95_keeps_the_solution() -> None:
    """Advanced techniques fire on top95; none may remove a digit of the true solution."""
    counter = create("propagating")
    used: set[str] = set()
    solved = 0
    for entry in load("top95"):
        solution = counter.solve(entry.puzzle).solutions[0]
        run = run_logic(entry.puzzle)
        solved += run.end == "solved"
        for step in run.steps:
            used.add(step.technique)
            assert all(solution[cell] == digit for cell, digit in step.placements), step
            assert all(solution[cell] != digit for cell, digit in step.eliminations), step
    assert solved == 95  # the share reported in the README: all of top95
    assert {"x_wing", "xy_wing", "aic", "als_xz", "forcing_chain"} <= used


def test_a_timeout_keeps_the_steps_so_far() -> None:
    result = LogicSolver().solve(load("16x16")[0].puzzle, timeout=1e-6)
    assert result.status is Status.TIMEOUT and result.partial is not None


def test_a_step_stops_between_techniques_once_the_deadline_has_passed() -> None:
    """One step may try every technique (seconds on a wide 6x6 variant): the deadline is
    looked at before each, so the solver stops near its limit instead of being killed."""
    puzzle = load("difference")[0].puzzle
    state = Candidates.from_grid(puzzle)
    with pytest.raises(SearchTimeout):
        next_step(state, deadline=Deadline(1e-9))
    assert next_step(state, deadline=Deadline(60.0)) == next_step(state)


def test_the_long_techniques_look_at_the_deadline_inside() -> None:
    state = Candidates.from_grid(load("arrow")[0].puzzle)
    for technique in (forcing.nested_forcing_nets, forcing.forcing_nets, franken.franken_x_wing):
        with clock.until(Deadline(1e-9)), pytest.raises(SearchTimeout):
            technique(state)
