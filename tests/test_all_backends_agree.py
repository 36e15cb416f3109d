"""Every back-end of `-s all` gives the same answer on random puzzles (DESIGN.md's property test).

Random puzzles come from random valid grids with cells removed, so they may have one solution
or many; with a given changed, often none. Every grid returned must pass the rule checker, and
every back-end that finishes must return the same solutions (4x4, counted in full) or the
same verdict and, when unique, the same grid (larger sizes, limit 2). `logic` may give up, but
what it fills must be the solution; a timeout is no answer, not a disagreement, and neither is
`unsupported` from a back-end that does not accept the rules.
"""

from __future__ import annotations

import random

import pytest
from formats_strategies import random_solution, remove_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Result, Status
from sudoku_bench.solvers.registry import create, select

EVERY = [backend.name for backend in select("all")]
TIMEOUT = 20.0


def answers(puzzle: Grid, limit: int) -> dict[str, Result]:
    """Each back-end's result on `puzzle`, with every grid checked; timeouts left out."""
    found = {}
    for name in EVERY:
        solver = create(name)
        result = solver.solve(puzzle, limit=limit, timeout=TIMEOUT)
        assert result.status is not Status.ERROR, f"{name}: {result.message}"
        if result.status is Status.UNSUPPORTED:  # bitboard-jit takes classic 9x9 only
            assert not solver.accepts(puzzle.rules), f"{name}: {result.message}"
            continue
        assert all(is_solution(puzzle, grid) for grid in result.solutions), name
        assert len(set(result.solutions)) == len(result.solutions), f"{name} repeated a grid"
        if result.status is not Status.TIMEOUT:
            found[name] = result
    return found


def puzzle_from(rules: Rules, rng: random.Random, empty: float, change: bool) -> Grid:
    puzzle = remove_cells(random_solution(rules, rng), rng, empty)
    givens = [c for c in rules.cells if puzzle[c]]
    if change and givens:  # a given altered (kept legal or not): often no solution at all
        cell = rng.choice(givens)
        puzzle = puzzle.with_values({cell: rng.randint(1, rules.size)})
    return puzzle


def test_every_chosen_backend_is_installed_here() -> None:
    # the properties below are only as strong as the list they run over
    assert {"backtracking", "propagating", "dlx", "cpsat", "milp", "sat", "groebner"} <= set(EVERY)


@settings(max_examples=12, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    empty=st.floats(0.3, 0.75),  # 4+ givens: counts stay small (milp re-solves per solution)
    change=st.booleans(),
    diagonals=st.booleans(),
)
def test_random_4x4_puzzles_get_the_same_solutions_everywhere(
    rng: random.Random, empty: float, change: bool, diagonals: bool
) -> None:
    puzzle = puzzle_from(Rules.of_size(4, diagonals=diagonals), rng, empty, change)
    results = answers(puzzle, limit=300)  # more than the 288 of the empty grid: a full count
    exact = {name: frozenset(r.solutions) for name, r in results.items() if r.exact}
    assert len(set(exact.values())) == 1, {name: len(s) for name, s in exact.items()}
    assert set(exact) >= set(results) - {"logic"}  # everything else counts to the end


@pytest.mark.parametrize("size", [6, 9])
@settings(max_examples=10, deadline=None)
@given(rng=st.randoms(use_true_random=False), empty=st.floats(0.3, 0.6), change=st.booleans())
def test_random_puzzles_get_the_same_verdict_everywhere(
    size: int, rng: random.Random, empty: float, change: bool
) -> None:
    puzzle = puzzle_from(Rules.of_size(size), rng, empty, change)
    results = answers(puzzle, limit=2)
    verdicts = {name: r.verdict for name, r in results.items() if r.status is not Status.GAVE_UP}
    assert len(set(verdicts.values())) == 1, verdicts
    if set(verdicts.values()) == {"unique"}:
        grids = {tuple(r.solutions) for r in results.values() if r.status is not Status.GAVE_UP}
        assert len(grids) == 1, grids
