"""The engines this project writes on the three families of the setters' variants (pair
relations of any kind, directed or not; linear equations over digits that may repeat; tables
of admissible fillings): every configuration of `propagating` and `backtracking` finds
exactly the brute force's solutions, and every step `logic` takes keeps every solution.

The kinds are the test-only ones of `tests.solving_support` (`Engine*`), drawn at random
round a random full grid of 4x4 or 6x6, honest (the grid keeps them) or not (an equation's
total or a table's rows may be off, so the rules may have no solution).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.constraints import Equation, Table
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Solver, Status
from sudoku_bench.solvers.engines.backtracking import BacktrackingSolver
from sudoku_bench.solvers.engines.logic import run_logic
from sudoku_bench.solvers.engines.logic.families import (
    pair_filter,
    sum_bounds,
    sum_combinations,
    table,
)
from sudoku_bench.solvers.engines.logic.solver import LogicSolver
from sudoku_bench.solvers.engines.logic.state import Candidates
from sudoku_bench.solvers.engines.propagating.solver import (
    PropagatingSolver,
    linear_bounds,
    table_support,
)
from sudoku_bench.solvers.registry import create
from tests.solving_support import (
    EngineEquations,
    EngineFillings,
    EngineLess,
    EngineWithin,
    brute_force_solutions,
    engine_family_rules,
    shuffled_grid,
)

# every configuration of the search engines: the registry's and the 16x16 path forced
CONFIGURATIONS: dict[str, Any] = {
    "propagating": lambda: create("propagating"),
    "propagating-singles": lambda: create("propagating-singles"),
    "propagating alldiff": lambda: PropagatingSolver(alldiff=True),
    "propagating alldiff, no restarts": lambda: PropagatingSolver(alldiff=True, restarts=False),
    "backtracking": lambda: create("backtracking"),
}


def random_case(seed: int, size: int, honest: bool) -> tuple[Grid, set[tuple[int, ...]]]:
    """A puzzle of the test kinds and its solutions by brute force."""
    rng = random.Random(seed)
    solution = shuffled_grid(Rules.of_size(size), rng)
    rules = engine_family_rules(solution, rng, honest=honest)
    keep = rng.uniform(0, 0.5) if size == 4 else rng.uniform(0.45, 0.6)
    values = tuple(v if rng.random() < keep else 0 for v in solution.values)
    puzzle = Grid(rules, values)
    return puzzle, {grid.values for grid in brute_force_solutions(puzzle, limit=100)}


def check_engine(solver: Solver[Any], puzzle: Grid, truth: set[tuple[int, ...]]) -> None:
    result = solver.solve(puzzle, limit=len(truth) + 1)
    assert {grid.values for grid in result.solutions} == truth, result.message
    expected = Status.NO_SOLUTION if not truth else Status.SOLVED
    assert result.status is expected, (result.status, result.message)
    assert result.exhausted


@pytest.mark.parametrize("name", CONFIGURATIONS)
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_search_engines_find_the_brute_force_solutions_on_4x4(
    name: str, seed: int, honest: bool
) -> None:
    puzzle, truth = random_case(seed, 4, honest)
    check_engine(CONFIGURATIONS[name](), puzzle, truth)


@pytest.mark.parametrize("name", CONFIGURATIONS)
@pytest.mark.parametrize("seed", range(4))
def test_search_engines_find_the_brute_force_solutions_on_6x6(name: str, seed: int) -> None:
    puzzle, truth = random_case(seed, 6, honest=seed != 3)
    check_engine(CONFIGURATIONS[name](), puzzle, truth)


def test_the_random_cases_have_none_one_and_many_solutions() -> None:
    """The cases above meet every verdict (so the checks above can fail each way)."""
    counts = {min(len(random_case(seed, 4, seed % 2 == 0)[1]), 2) for seed in range(40)}
    assert counts == {0, 1, 2}


def test_the_empty_4x4_counts_288_under_a_relation_that_always_holds() -> None:
    """A relation every pair of digits keeps (within 3 on 4x4) changes nothing."""
    rules = Rules.of_size(4).with_constraints(EngineWithin(((0, 5), (10, 15)), 3))
    puzzle = Grid.empty(rules)
    for make in CONFIGURATIONS.values():
        result = make().solve(puzzle, limit=300)
        assert len(result.solutions) == 288 and result.exhausted


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_every_logic_step_keeps_every_solution(seed: int, honest: bool) -> None:
    """Replayed for soundness: no placement misses a solution, no elimination hits one, a
    solved grid is the only solution and a contradiction means there is none."""
    puzzle, truth = random_case(seed, 4 if seed % 3 else 6, honest)
    run = run_logic(puzzle)
    for step in run.steps:
        for cell, digit in step.placements:
            assert all(grid[cell] == digit for grid in truth), step
        for cell, digit in step.eliminations:
            assert all(grid[cell] != digit for grid in truth), step
    if run.end == "solved":
        assert truth == {run.grid().values}
    if run.end == "contradiction":
        assert not truth, run.message
    result = LogicSolver().solve(puzzle, limit=2)
    if result.status is Status.SOLVED:
        assert {result.solutions[0].values} == truth


# ----- the propagators and the techniques on positions made by hand ---------------------------


def test_linear_bounds_prune_what_the_rest_cannot_reach() -> None:
    every = 0b1111  # digits 1-4
    # a + b - c == 0 with c in {1, 2}: a and b are 1 each, c is 2
    assert linear_bounds(0, (1, 1, -1), [every, every, 0b0011]) == [0b0001, 0b0001, 0b0010]
    assert linear_bounds(9, (1, 1), [every, every]) is None  # 4 + 4 < 9
    # 2a + b = 5: a at most 2, b at most 3 (bounds, not parity: b = 2 stays)
    assert linear_bounds(5, (2, 1), [every, every]) == [0b0011, 0b0111]


def test_table_support_keeps_what_a_possible_row_uses() -> None:
    every, one, two, three = 0b1111, 0b0001, 0b0010, 0b0100
    rows = ((one, two), (two, three), (three, every))  # the last: 3 then any digit
    assert table_support(rows, (every, 0b1011)) == (0b0101, 0b1011)
    assert table_support(rows, (two, one)) is None
    assert table_support(rows, (0b0011, every)) == (0b0011, 0b0110)


def _state(rules: Rules, marks: dict[str, str]) -> Candidates:
    return Candidates.from_marks(rules, marks)


def test_pair_filter_takes_a_thermometer_bound() -> None:
    rules = Rules.of_size(4).with_constraints(EngineLess(((0, 1),)))  # r1c1 < r1c2
    step = pair_filter(_state(rules, {"r1c1": "234", "r1c2": "1234"}))
    assert step is not None and step.technique == "pair_filter"
    assert set(step.eliminations) == {(1, 1), (1, 2)}
    assert step.describe(rules) == (
        "engine test: less than r1c1-r1c2, with r1c1 holding 2/3/4, removes 1 from r1c2; "
        "2 from r1c2"
    )


def test_sum_bounds_and_combinations_on_an_arrow() -> None:
    # an arrow: r1c1 = r1c2 + r2c1 (r1c2 and r2c1 in one box, so distinct)
    arrow = EngineEquations((Equation(((1, 1), (4, 1), (0, -1)), 0),))
    rules = Rules.of_size(4).with_constraints(arrow)
    state = _state(rules, {"r1c1": "1234", "r1c2": "1234", "r2c1": "1234"})
    step = sum_bounds(state)
    assert step is not None  # the bulb is at least 2, the line cells at most 3
    assert set(step.eliminations) == {(0, 1), (1, 4), (4, 4)}
    state.apply(step)
    assert sum_bounds(state) is None
    # r1c1 = 2 would need 1 + 1 in two cells of one box: combinations remove it
    step = sum_combinations(state)
    assert step is not None and (0, 2) in step.eliminations
    assert all(cell == 0 or digit == 3 for cell, digit in step.eliminations), step


def test_table_removes_what_no_row_uses_and_a_dead_table_empties_its_cells() -> None:
    fillings = EngineFillings((Table((0, 5), ((1, 2), (2, 0))),))  # 1 then 2, or 2 then any
    rules = Rules.of_size(4).with_constraints(fillings)
    step = table(_state(rules, {"r1c1": "1234", "r2c2": "134"}))
    assert step is not None and set(step.eliminations) == {(0, 1), (0, 3), (0, 4)}
    step = table(_state(rules, {"r1c1": "34", "r2c2": "1234"}))
    assert step is not None  # no row left: every candidate of both cells goes
    assert set(step.eliminations) == {(0, 3), (0, 4), *((5, d) for d in range(1, 5))}


def test_the_engines_accept_every_family_and_logic_rates_classic_puzzles_as_before() -> None:
    kinds = [
        EngineLess(((0, 1),)),
        EngineEquations((Equation(((0, 1),), 1),)),
        EngineFillings((Table((0,), ((1,),)),)),
    ]
    for engine in (PropagatingSolver, BacktrackingSolver, LogicSolver):
        assert engine.encoders.accepts(kinds), engine.name
    from sudoku_bench.solvers.engines.logic.techniques import for_rules

    classic = {t.key for t in for_rules(LogicSolver().techniques, Rules.of_size(9))}
    assert not classic & {"pair_filter", "sum_bounds", "sum_combinations", "table"}


def test_propagating_solves_by_propagation_alone_where_the_families_force_every_digit() -> None:
    """Real propagators, not generate-and-test: the thermometer, the arrow and the table of
    this empty 4x4 force its one solution without a guess, each removing candidates."""
    rules = Rules.of_size(4).with_constraints(
        EngineLess(((0, 1), (1, 2))),  # r1c1 < r1c2 < r1c3
        EngineEquations((Equation(((4, 1), (8, 1), (12, -1)), 0),)),  # r2c1 + r3c1 = r4c1
        EngineFillings((Table((15, 14), ((1, 3), (3, 1))),)),  # r4c4/r4c3 = 1/3 or 3/1
    )
    for name in ("propagating", "propagating-singles"):
        result = create(name).solve(Grid.empty(rules), limit=2)
        assert result.status is Status.SOLVED and result.exhausted
        assert str(result.solutions[0]) == "2341143231244213"
        assert (result.counters["nodes"], result.counters["guesses"]) == (1, 0)
        for counter in ("relation_eliminations", "equation_eliminations", "table_eliminations"):
            assert result.counters[counter] > 0, counter
    result = LogicSolver().solve(Grid.empty(rules))
    assert result.status is Status.SOLVED
    assert {"pair_filter", "sum_bounds", "table"} <= {k for k, v in result.counters.items() if v}
