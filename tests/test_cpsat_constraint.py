"""The "Must show" list of the CP-SAT and python-constraint back-ends, for every configuration.

Every grid a back-end returns is checked by the independent rule checker; counts are checked
against the known numbers (288 for the empty 4x4) or against each other across libraries.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers import Result, Solver, Status, create

# (registry name, constructor overrides): every way these back-ends count.
CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("cpsat", {}),  # one worker: counts by enumeration
    ("cpsat-onehot", {}),
    ("cpsat", {"num_workers": 2}),  # parallel: counts by re-solving with the answer excluded
    ("python-constraint", {}),
    ("python-constraint-singles", {}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in CONFIGURATIONS]

# The configurations whose counting is cheap enough to enumerate 288 solutions in a unit test.
ENUMERATING = [c for c in CONFIGURATIONS if c[1].get("num_workers", 1) == 1]
ENUMERATING_IDS = [i for i, c in zip(IDS, CONFIGURATIONS, strict=True) if c in ENUMERATING]


@pytest.fixture(params=CONFIGURATIONS, ids=IDS)
def solver(request: pytest.FixtureRequest) -> Solver[Any]:
    name, options = request.param
    return create(name, **options)


def checked(puzzle: Grid, result: Result) -> Result:
    """The result, after checking every returned grid with the independent checker."""
    assert all(is_solution(puzzle, grid) for grid in result.solutions), result
    assert len(set(result.solutions)) == result.count, "a solution was returned twice"
    return result


def two_solution_puzzle(solution: Grid) -> tuple[Grid, set[int]]:
    """`solution` with an unavoidable rectangle emptied: exactly two completions.

    Four cells in two rows and two columns, inside exactly two boxes, holding a b / b a:
    with every other cell given, swapping a and b is the only other way to fill them.
    """
    rules = solution.rules
    for r1, r2 in itertools.combinations(range(rules.size), 2):
        for c1, c2 in itertools.combinations(range(rules.size), 2):
            corners = [rules.cell(r, c) for r in (r1, r2) for c in (c1, c2)]
            a, b, c, d = (solution[cell] for cell in corners)
            boxes = {rules.region_of(cell) for cell in corners}
            if a == d and b == c and len(boxes) == 2:
                return solution.with_values(dict.fromkeys(corners, 0)), set(corners)
    raise AssertionError("no unavoidable rectangle in this grid")


def test_the_seed_boards_give_their_listed_solutions(solver: Solver[Any]) -> None:
    for entry in load("seeds"):
        result = checked(entry.puzzle, solver.solve(entry.puzzle, limit=2, timeout=60))
        assert result.status is Status.SOLVED, entry.id
        assert result.solutions == [entry.solution], entry.id
        assert result.exact and result.verdict == "unique"


@pytest.mark.parametrize(("name", "options"), ENUMERATING, ids=ENUMERATING_IDS)
def test_the_empty_4x4_grid_has_exactly_288_solutions(name: str, options: dict[str, Any]) -> None:
    empty = Grid.empty(Rules.of_size(4))
    result = checked(empty, create(name, **options).solve(empty, limit=1000, timeout=60))
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 288, True)


def test_a_two_solution_puzzle_counts_two_exactly(solver: Solver[Any]) -> None:
    entry = load("seeds")[0]
    assert entry.solution is not None
    puzzle, emptied = two_solution_puzzle(entry.solution)
    result = checked(puzzle, solver.solve(puzzle, limit=3, timeout=60))
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 2, True)
    assert result.verdict == "multiple"
    assert entry.solution in result.solutions
    other = next(grid for grid in result.solutions if grid != entry.solution)
    assert {cell for cell in puzzle.rules.cells if other[cell] != entry.solution[cell]} == emptied
    # limit 2 stops at the second solution without proving there is no third
    assert solver.solve(puzzle, limit=2, timeout=60).status is Status.LIMIT


def test_an_invalid_puzzle_has_no_solution_and_the_search_is_exhausted(
    solver: Solver[Any],
) -> None:
    seed = load("seeds")[0].puzzle
    twice_in_a_row = seed.with_values({1: seed[0]})  # r1c1 = r1c2 = 5
    n = seed.rules.size
    # no given repeats, but r1c1 sees 1..8 in its row and 9 in its column: no candidate
    no_candidate = Grid.empty(seed.rules).with_values(
        {**{c: c for c in range(1, n)}, seed.rules.cell(n - 1, 0): n}
    )
    for puzzle in (twice_in_a_row, no_candidate):
        result = solver.solve(puzzle, limit=2, timeout=60)
        assert (result.status, result.count, result.exhausted) == (Status.NO_SOLUTION, 0, True)
        assert result.exact and result.verdict == "none"


def test_a_full_valid_grid_is_its_own_unique_solution(solver: Solver[Any]) -> None:
    entry = load("seeds")[0]
    assert entry.solution is not None
    result = solver.solve(entry.solution, limit=2, timeout=60)
    assert (result.status, result.solutions) == (Status.SOLVED, [entry.solution])


def test_sudoku_x_solutions_keep_the_diagonals(solver: Solver[Any]) -> None:
    x4 = Rules.of_size(4, diagonals=True)
    empty = Grid.empty(x4)
    # x4 solutions are the 288 plain ones whose diagonals hold 1..4: counted independently
    plain = create("python-constraint").solve(Grid.empty(Rules.of_size(4)), limit=300)
    expected = sum(is_solution(empty, Grid(x4, grid.values)) for grid in plain.solutions)
    assert 0 < expected < 288
    result = checked(empty, solver.solve(empty, limit=300, timeout=60))
    assert (result.count, result.exact) == (expected, True)

    x9 = Rules.of_size(9, diagonals=True)
    full = checked(Grid.empty(x9), solver.solve(Grid.empty(x9), limit=1, timeout=60))
    assert full.count == 1
    puzzle = full.solutions[0].with_values({cell: 0 for cell in x9.cells if cell % 3 != 1})
    result = checked(puzzle, solver.solve(puzzle, limit=2, timeout=60))
    assert result.count >= 1 and result.status in (Status.SOLVED, Status.LIMIT)


@pytest.mark.parametrize(
    "name",
    [
        "cpsat",
        "cpsat-onehot",
        "python-constraint",
        "python-constraint-singles",
        "python-constraint-optimized",
        "python-constraint-recursive",
        "python-constraint-minconflicts",
    ],
)
def test_results_carry_the_configuration_name(name: str) -> None:
    puzzle = load("4x4")[0].puzzle
    result = create(name).solve(puzzle, timeout=30)
    assert result.solver == name
    assert result.status is Status.LIMIT and is_solution(puzzle, result.solutions[0])


@functools.cache
def all_4x4_grids() -> tuple[Grid, ...]:
    return tuple(create("cpsat").solve(Grid.empty(Rules.of_size(4)), limit=300).solutions)


@settings(max_examples=15, deadline=None)
@given(
    index=st.integers(0, 287),
    keep=st.lists(st.booleans(), min_size=16, max_size=16),
    change=st.one_of(st.none(), st.tuples(st.integers(0, 15), st.integers(1, 4))),
)
def test_random_4x4_puzzles_get_the_same_solutions_everywhere(
    index: int, keep: list[bool], change: tuple[int, int] | None
) -> None:
    """Givens from a random grid (one perhaps changed, so some have no solution at all)."""
    grid = all_4x4_grids()[index]
    puzzle = grid.with_values({cell: 0 for cell in grid.rules.cells if not keep[cell]})
    if change is not None:
        puzzle = puzzle.with_values({change[0]: change[1]})
    answers = {}
    for name in ("propagating", "cpsat", "cpsat-onehot", "python-constraint-singles"):
        result = checked(puzzle, create(name).solve(puzzle, limit=300, timeout=60))
        assert result.exact, name
        answers[name] = set(result.solutions)
    assert len({frozenset(solutions) for solutions in answers.values()}) == 1, answers
