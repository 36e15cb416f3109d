"""Every back-end that accepts a puzzle's variant rules agrees with the brute force and the others.

Registry-driven: a back-end joins these properties by declaring the rule kinds it accepts.
4x4 puzzles under random rules are counted in full, by the brute force (which asks only the
rule checker) and by every accepting back-end; 6x6 puzzles under random rules built around a
known solution get the same verdict (limit 2) and, when unique, the same grid. `logic` may
give up, but what it returns must be right; a timeout is no answer, not a disagreement.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions
from variant_support import puzzle_with_known_solution, random_4x4_puzzle

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import KINDS
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Result, Status
from sudoku_bench.solvers.registry import create, select
from tests.solving_support import kinds_of

EVERY = [backend.name for backend in select("all")]
TIMEOUT = 20.0
# Back-ends too slow for the larger grids here, by name (none: `groebner` answers these 6x6
# puzzles, 30-70% empty, in about 0.03 s of CPU each, measured on 60 of them).
SIZE_LIMIT: dict[str, int] = {}


def answers(puzzle: Grid, limit: int) -> dict[str, Result]:
    """The result of each back-end that accepts the puzzle, every grid checked; timeouts out."""
    found = {}
    for name in EVERY:
        if puzzle.rules.size > SIZE_LIMIT.get(name, puzzle.rules.size):
            continue
        solver = create(name)
        result = solver.solve(puzzle, limit=limit, timeout=TIMEOUT)
        if not solver.accepts(puzzle.rules):
            assert result.status is Status.UNSUPPORTED, f"{name}: {result.status}"
            continue
        assert result.status not in (Status.ERROR, Status.UNSUPPORTED), f"{name}: {result.message}"
        assert all(is_solution(puzzle, grid) for grid in result.solutions), name
        assert len(set(result.solutions)) == len(result.solutions), f"{name} repeated a grid"
        if result.status is not Status.TIMEOUT:
            found[name] = result
    return found


@settings(max_examples=20, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_random_4x4_variants_get_the_brute_force_solutions(rng: random.Random) -> None:
    puzzle = random_4x4_puzzle(rng)
    truth = frozenset(brute_force_solutions(puzzle))
    results = answers(puzzle, limit=len(truth) + 1)
    for name, result in results.items():
        if result.exact:
            assert frozenset(result.solutions) == truth, (name, puzzle.rules.name)
        else:  # an incomplete method (logic) that gave up: what it found is still right
            assert result.status is Status.GAVE_UP, (name, result.status)
            assert set(result.solutions) <= truth, name


@settings(max_examples=10, deadline=None)
@given(rng=st.randoms(use_true_random=False), empty=st.floats(0.3, 0.6))
def test_random_6x6_variants_get_the_same_verdict_everywhere(
    rng: random.Random, empty: float
) -> None:
    puzzle = puzzle_with_known_solution(6, rng, empty)
    truth = brute_force_solutions(puzzle, limit=2)
    verdict = {0: "none", 1: "unique"}.get(len(truth), "multiple")
    for name, result in answers(puzzle, limit=2).items():
        if result.status is Status.GAVE_UP:
            assert set(result.solutions) <= set(truth) or verdict == "multiple", name
            continue
        assert result.verdict == verdict, (name, puzzle.rules.name, result.verdict, verdict)
        if verdict == "unique":
            assert result.solutions == truth, name


def test_the_random_puzzles_cover_every_rule_kind() -> None:
    # the properties above are only as strong as the rules they are drawn over
    rng = random.Random(2026)
    seen = set()
    for _ in range(200):
        puzzle = puzzle_with_known_solution(6, rng, 0.5)
        seen |= kinds_of(puzzle.rules)
        assert brute_force_solutions(puzzle, limit=1)  # built around a solution: it has one
        seen |= kinds_of(random_4x4_puzzle(rng).rules)  # pair rules no 6x6 grid of these keeps
    # the diagonals are a unit kind like the extra regions these draw; Sudoku-X has its own
    # collection and tests
    assert seen == {*KINDS, "jigsaw"} - {"diagonal"}
