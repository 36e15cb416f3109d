"""The independent rule checker: accepts solutions, names what is wrong with the rest."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from sudoku_bench.puzzles import (
    Grid,
    Rules,
    conflicts,
    is_solution,
    is_valid_puzzle,
    solution_problems,
)
from sudoku_bench.puzzles.checker import _fills_every_house, has_conflicts
from sudoku_bench.puzzles.collections import load
from tests.formats_strategies import GEOMETRIES, SEEDS, X_BASES, random_solution, remove_cells

PUZZLE = Grid.from_string(
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
)
SOLUTION = Grid.from_string(
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)


def test_a_correct_solution_is_accepted() -> None:
    assert is_solution(PUZZLE, SOLUTION)
    assert solution_problems(PUZZLE, SOLUTION) == []


def test_a_changed_given_is_rejected() -> None:
    # swap two values of row 1 so the rows stay full; r1c1 was given as 5
    changed = SOLUTION.with_values({0: SOLUTION[1], 1: SOLUTION[0]})
    problems = solution_problems(PUZZLE, changed)
    assert "r1c1 is 3, given 5" in problems
    assert not is_solution(PUZZLE, changed)


def test_an_empty_cell_is_rejected() -> None:
    problems = solution_problems(PUZZLE, SOLUTION.with_values({2: 0}))
    assert problems == ["1 cell is empty (r1c3)"]
    many = solution_problems(PUZZLE, PUZZLE)
    assert many[0] == "51 cells are empty (r1c3, r1c4, r1c6, r1c7, r1c8, ...)"


@pytest.mark.parametrize(
    ("cells", "unit"),
    [
        ((2, 3), "row 1"),  # r1c3 and r1c4 (not given)
        ((2, 11), "column 3"),  # r1c3 and r2c3
        ((2, 19), "box 1"),  # r1c3 and r3c2: same box, other row and column
    ],
)
def test_a_duplicate_is_rejected_with_its_unit_named(cells: tuple[int, int], unit: str) -> None:
    a, b = cells
    broken = SOLUTION.with_values({b: SOLUTION[a]})
    assert any(conflict.rule == unit for conflict in conflicts(broken))
    assert any(f"in {unit} (" in problem for problem in solution_problems(PUZZLE, broken))
    assert not is_solution(PUZZLE, broken)


def test_a_duplicate_on_a_diagonal_is_rejected() -> None:
    x = Rules.of_size(9, diagonals=True)
    grid = Grid(x, Grid.from_string(X_BASES[9]).values)
    empty = Grid.empty(x)
    assert is_solution(empty, grid)
    # the plain 9x9 pattern grid is a Sudoku but breaks both diagonals
    plain = random_solution(Rules.of_size(9), random.Random(1))
    on_x = Grid(x, plain.values)
    names = {conflict.rule for conflict in conflicts(on_x)}
    assert names & {"diagonal", "anti-diagonal"}
    assert names <= {"diagonal", "anti-diagonal"}
    assert not is_solution(empty, on_x)


def test_a_grid_of_another_geometry_is_rejected() -> None:
    problems = solution_problems(PUZZLE, Grid.empty(Rules.of_size(4)))
    assert problems == ["the grid is 4x4, the puzzle 9x9"]


@pytest.mark.parametrize("rules", GEOMETRIES, ids=str)
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_fast_check_agrees_with_conflicts(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    solution = random_solution(rules, rng)
    puzzle = remove_cells(solution, rng, rng.random())
    assert is_solution(puzzle, solution)
    assert is_valid_puzzle(puzzle) and not has_conflicts(solution)
    cell, other = rng.sample(range(len(solution)), 2)
    broken = solution.with_values({cell: solution[other]})
    assert has_conflicts(broken) == bool(conflicts(broken))


@pytest.mark.parametrize("rules", GEOMETRIES[:6] + GEOMETRIES[8:], ids=str)
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_the_house_sum_finds_exactly_the_repeats(rules: Rules, seed: int) -> None:
    """Random values in random cells, repeats or not: the one-sum check says what the
    unit-by-unit check says."""
    rng = random.Random(seed)
    filled = rng.randrange(len(rules.cells) + 1)
    cells = rng.sample(range(len(rules.cells)), filled)
    grid = Grid.empty(rules).with_values({cell: rng.randint(1, rules.size) for cell in cells})
    assert has_conflicts(grid) == bool(conflicts(grid))


@pytest.mark.parametrize(
    "rules",
    [rules for rules in GEOMETRIES if rules.layout is None and not rules.diagonals],
    ids=str,
)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_the_box_houses_check_agrees_with_the_units(rules: Rules, seed: int) -> None:
    """Complete grids, solutions with cells traded or changed: the rows, columns and boxes
    checked by shifted additions (`BoxHouses`) say what the unit-by-unit check says."""
    rng = random.Random(seed)
    values = list(random_solution(rules, rng).values)
    for _ in range(rng.randrange(3)):
        cell, other = rng.sample(range(len(values)), 2)
        if rng.random() < 0.5:
            values[cell], values[other] = values[other], values[cell]
        else:
            values[cell] = rng.randint(1, rules.size)
    grid = Grid(rules, tuple(values))
    assert _fills_every_house(grid) == (not conflicts(grid))
    assert is_solution(Grid.empty(rules), grid) == (not conflicts(grid))


def test_the_house_sum_rejects_grids_whose_units_add_up_but_repeat() -> None:
    """The fast path's sum is of distinct bits, not of digits: every row, column and box of
    an all-5 grid adds up to 45, and each house of this one holds 1..9 once except that two
    cells trade digits across a column (rows intact, columns and boxes broken)."""
    fives = Grid(SOLUTION.rules, (5,) * 81)
    assert solution_problems(Grid.empty(fives.rules), fives)
    traded = SOLUTION.with_values({0: SOLUTION[9], 9: SOLUTION[0]})  # r1c1 <-> r2c1
    assert not is_solution(Grid.empty(SOLUTION.rules), traded)


@pytest.mark.parametrize("rules", GEOMETRIES, ids=str)
def test_every_single_change_of_a_solution_is_rejected(rules: Rules) -> None:
    """Each cell set to each other value (0 included) breaks the solution: the fast path
    accepts only what the full check accepts."""
    solution = random_solution(rules, random.Random(rules.size))
    empty = Grid.empty(rules)
    assert is_solution(empty, solution)
    cells = range(len(solution)) if rules.size <= 9 else range(0, len(solution), 7)
    for cell in cells:
        for value in range(rules.size + 1):
            if value != solution[cell]:
                changed = solution.with_values({cell: value})
                assert not is_solution(empty, changed), (cell, value)


def test_a_smaller_extra_region_is_checked_beside_the_houses() -> None:
    """An extra region of fewer than N cells is no house: the full check covers it."""
    rules = SOLUTION.rules.with_rules(extra_regions=((0, 10, 20),))  # r1c1, r2c2, r3c3
    grid = Grid(rules, SOLUTION.values)
    assert is_solution(Grid.empty(rules), grid)  # 5, 7, 8
    broken = Grid(rules.with_rules(extra_regions=((0, 10, 28),)), SOLUTION.values)  # 5, 7, 5
    assert not is_solution(Grid.empty(broken.rules), broken)


def test_seed_solutions_pass_the_checker() -> None:
    seeds = load("seeds")
    assert len(seeds) == 5
    for entry in seeds:
        assert entry.solution is not None
        assert is_solution(entry.puzzle, entry.solution), entry.id
