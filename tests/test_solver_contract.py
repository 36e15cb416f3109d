"""The Solver contract: statuses derived the same way for every back-end, times split."""

from __future__ import annotations

import time

import pytest

from sudoku_bench.puzzles import Grid, Rules
from sudoku_bench.solvers.base import Deadline, SearchOutcome, SearchTimeout, Solver, Status

FOUR = Rules.of_size(4)
SOLVED_4X4 = Grid.from_string("4213312424311342")


class Scripted(Solver[Grid]):
    """A back-end whose search reports a fixed outcome, to test how `solve` reads it."""

    name = "scripted"

    def __init__(self, outcome: SearchOutcome, build_delay: float = 0.0) -> None:
        self.outcome = outcome
        self.build_delay = build_delay

    def _build(self, puzzle: Grid, deadline: Deadline) -> Grid:
        time.sleep(self.build_delay)
        deadline.check()
        return puzzle

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        return self.outcome


@pytest.mark.parametrize(
    ("outcome", "limit", "status", "exact", "verdict"),
    [
        (SearchOutcome([SOLVED_4X4], exhausted=True), 2, Status.SOLVED, True, "unique"),
        (SearchOutcome([], exhausted=True), 2, Status.NO_SOLUTION, True, "none"),
        (SearchOutcome([SOLVED_4X4] * 2, exhausted=False), 2, Status.LIMIT, False, "multiple"),
        (SearchOutcome([SOLVED_4X4], exhausted=False), 1, Status.LIMIT, False, "unknown"),
        (
            SearchOutcome([SOLVED_4X4], exhausted=False, timed_out=True),
            2,
            Status.TIMEOUT,
            False,
            "unknown",
        ),
        (SearchOutcome([], exhausted=False, gave_up=True), 1, Status.GAVE_UP, False, "unknown"),
        (SearchOutcome([], exhausted=False), 1, Status.GAVE_UP, False, "unknown"),
    ],
)
def test_status_is_derived_from_the_outcome(
    outcome: SearchOutcome, limit: int, status: Status, exact: bool, verdict: str
) -> None:
    result = Scripted(outcome).solve(Grid.empty(FOUR), limit=limit)
    assert result.status is status
    assert result.exact is exact
    assert result.verdict == verdict
    assert result.solver == "scripted"


def test_solutions_are_cut_to_the_limit() -> None:
    result = Scripted(SearchOutcome([SOLVED_4X4] * 5, exhausted=False)).solve(
        Grid.empty(FOUR), limit=3
    )
    assert result.count == 3


def test_a_timeout_during_build_is_a_timeout_result() -> None:
    solver = Scripted(SearchOutcome([], exhausted=True), build_delay=0.05)
    result = solver.solve(Grid.empty(FOUR), timeout=0.01)
    assert result.status is Status.TIMEOUT
    assert not result.exhausted
    assert result.build_s >= 0.04


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="limit"):
        Scripted(SearchOutcome([], exhausted=True)).solve(Grid.empty(FOUR), limit=0)


def test_deadline() -> None:
    assert Deadline(None).remaining() is None
    assert not Deadline(None).expired()
    deadline = Deadline(0.01)
    time.sleep(0.02)
    assert deadline.expired()
    with pytest.raises(SearchTimeout):
        deadline.check()
    with pytest.raises(ValueError):
        Deadline(0)


def test_counters_always_hold_nodes_and_guesses_only_when_counted() -> None:
    """A back-end that does not count guesses has none: "not measured", never 0 (issue 17)."""
    outcome = SearchOutcome([SOLVED_4X4], exhausted=True, counters={"bases": 3})
    result = Scripted(outcome).solve(Grid.empty(FOUR))
    assert result.counters == {"nodes": 0, "bases": 3}
    assert result.guesses is None
    timed_out = Scripted(outcome, build_delay=0.02).solve(Grid.empty(FOUR), timeout=0.001)
    assert "nodes" in timed_out.counters and timed_out.guesses is None
