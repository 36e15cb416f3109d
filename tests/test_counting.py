"""`sudoku_bench.solvers.counting.count_by_exclusion`, the one loop behind counting in cpsat, sat and milp.

A scripted engine stands in for a solver: it answers from a list of solutions, skipping the
ones excluded so far, so each property of the loop is checked apart from any library. The
back-ends that use the loop are then checked on the same count.
"""

from __future__ import annotations

import time

import pytest
from solving_support import brute_force_solutions

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Deadline, SearchOutcome, SearchTimeout
from sudoku_bench.solvers.counting import count_by_exclusion
from sudoku_bench.solvers.registry import create

PUZZLE = Grid.from_string("12..34..........")  # 12 solutions
SOLUTIONS = brute_force_solutions(PUZZLE)


class ScriptedEngine:
    """Answers the first solution of `solutions` not yet excluded; None when none is left.

    `stop_after` solves, it raises SearchTimeout as an engine at its time limit does;
    `forget` makes `exclude` do nothing (an engine whose exclusion is broken)."""

    def __init__(
        self, solutions: list[Grid], stop_after: int | None = None, forget: bool = False
    ) -> None:
        self.solutions, self.stop_after, self.forget = solutions, stop_after, forget
        self.excluded: list[Grid] = []
        self.solves = 0

    def solve(self) -> Grid | None:
        self.solves += 1
        if self.stop_after is not None and self.solves > self.stop_after:
            raise SearchTimeout("the scripted engine stopped at its time limit")
        return next((s for s in self.solutions if s not in self.excluded), None)

    def exclude(self, solution: Grid) -> None:
        if not self.forget:
            self.excluded.append(solution)


def run(engine: ScriptedEngine, limit: int, puzzle: Grid = PUZZLE) -> SearchOutcome:
    return count_by_exclusion(puzzle, limit, Deadline(None), engine.solve, engine.exclude)


def test_the_count_is_exact_once_the_next_solve_is_infeasible() -> None:
    assert len(SOLUTIONS) == 12
    engine = ScriptedEngine(SOLUTIONS)
    outcome = run(engine, limit=100)
    assert outcome.solutions == SOLUTIONS and outcome.exhausted and not outcome.timed_out
    assert engine.solves == 13  # the 13th proves there is no other
    assert engine.excluded == SOLUTIONS


def test_no_solution_is_an_exact_zero() -> None:
    outcome = run(ScriptedEngine([]), limit=2)
    assert (outcome.solutions, outcome.exhausted) == ([], True)


def test_the_limit_stops_the_count_without_claiming_it_exact() -> None:
    engine = ScriptedEngine(SOLUTIONS)
    outcome = run(engine, limit=3)
    assert outcome.solutions == SOLUTIONS[:3] and not outcome.exhausted
    assert engine.solves == 3 and len(engine.excluded) == 2  # the last is not excluded


def test_a_full_grid_is_its_only_solution_without_a_second_solve() -> None:
    full = SOLUTIONS[0]
    engine = ScriptedEngine([full])
    outcome = run(engine, limit=1, puzzle=full)
    assert (outcome.solutions, outcome.exhausted, engine.solves) == ([full], True, 1)
    assert engine.excluded == []  # nothing to exclude: no empty cell could differ


def test_an_engine_that_stops_keeps_the_solutions_found_so_far() -> None:
    outcome = run(ScriptedEngine(SOLUTIONS, stop_after=3), limit=100)
    assert outcome.solutions == SOLUTIONS[:3]
    assert outcome.timed_out and not outcome.exhausted
    assert outcome.message == "the scripted engine stopped at its time limit"


def test_the_deadline_is_checked_before_every_solve() -> None:
    engine = ScriptedEngine(SOLUTIONS)

    def slow() -> Grid | None:
        time.sleep(0.02)
        return engine.solve()

    outcome = count_by_exclusion(PUZZLE, 100, Deadline(0.05), slow, engine.exclude)
    assert outcome.timed_out and 1 <= len(outcome.solutions) < len(SOLUTIONS)
    assert outcome.message == "the deadline passed before the next solve"


def test_an_exclusion_that_does_not_hold_is_an_error_not_a_wrong_count() -> None:
    with pytest.raises(RuntimeError, match="found an excluded solution again"):
        run(ScriptedEngine(SOLUTIONS, forget=True), limit=100)


@pytest.mark.parametrize(
    ("name", "options"),
    [("cpsat", {"counting": "resolve"}), ("cpsat-onehot", {"num_workers": 2}), ("sat", {}),
     ("sat-glucose", {}), ("milp", {}), ("milp-highs", {})],
)  # fmt: skip
def test_the_back_ends_that_count_by_exclusion_agree_with_the_brute_force(
    name: str, options: dict[str, object]
) -> None:
    result = create(name, **options).solve(PUZZLE, limit=100)
    assert result.exact and set(result.solutions) == set(SOLUTIONS), name
    assert result.counters["solves"] == len(SOLUTIONS) + 1, name
    full = create(name, **options).solve(SOLUTIONS[0], limit=2)
    assert (full.solutions, full.exact) == ([SOLUTIONS[0]], True), name
