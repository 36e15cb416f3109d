"""Every kind against every back-end (issue 30's first "must show"): on hypothesis-generated 4x4
and 6x6 puzzles with random clues of a kind, every available back-end that accepts the puzzle
finds exactly the solution set of a brute-force enumerator written here, and every grid passes
the checker.

Written over `KINDS`: every registered kind with candidates (`Constraint.candidates`) is
covered, so a kind is tested here as soon as it is merged. A puzzle is a random full grid (drawn
under the kind's rule when the rule holds for the whole grid, such as anti-knight), a random
subset of the clues that grid keeps, and some givens removed. The enumerator fills cells in
order and asks only the units of the rules and the kinds' own `violations`; it shares no code
with the back-ends. The default run takes few examples per kind and size; the `slow` run more.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_bench.harness.generating.clues import generatable_kinds, imposed
from sudoku_bench.harness.generating.generator import _random_search
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import KINDS, Constraint, UnitConstraint
from sudoku_bench.puzzles.errors import RulesError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create, select

EVERY = [backend.name for backend in select("all")]
TIMEOUT = 30.0
COMPARED = 24  # solution sets up to this size are compared whole; larger ones by a sample
ENUMERATED = 3_000  # the enumerator stops here (a puzzle with more is compared by sample)
CASES = [(kind, size) for kind in generatable_kinds() for size in (4, 6)]


def brute_force(puzzle: Grid, cap: int = ENUMERATED) -> list[Grid]:
    """Every solution (up to `cap`): cells filled in row order with each digit, a partial grid
    kept while no unit repeats a digit and no constraint's `violations` names a conflict
    (empty cells break nothing, so a conflict in a partial grid stays in every completion)."""
    rules = puzzle.rules
    values = list(puzzle.values)
    units_of: list[list[tuple[int, ...]]] = [[] for _ in rules.cells]
    for unit in rules.units:
        for cell in unit:
            units_of[cell].append(unit)
    about: list[list[Any]] = [[] for _ in rules.cells]
    for constraint in rules.constraints:
        if not isinstance(constraint, UnitConstraint):  # its units are among `rules.units`
            for cell in constraint.scope(rules.shape):
                about[cell].append(constraint)

    def holds(cell: int) -> bool:
        digit = values[cell]
        for unit in units_of[cell]:
            if sum(1 for other in unit if values[other] == digit) > 1:
                return False
        return all(next(iter(c.violations(rules, values)), None) is None for c in about[cell])

    if not all(holds(cell) for cell in rules.cells if values[cell]):
        return []
    empty = [cell for cell in rules.cells if not values[cell]]
    found: list[Grid] = []

    def fill(index: int) -> None:
        if len(found) >= cap:
            return
        if index == len(empty):
            found.append(Grid(rules, tuple(values)))
            return
        cell = empty[index]
        for digit in rules.digits:
            values[cell] = digit
            if holds(cell):
                fill(index + 1)
        values[cell] = 0

    fill(0)
    return found


@cache
def has_grid(kind: str, size: int) -> bool:
    """Whether a full grid keeps a rule of this kind at this size (no 4x4 is non-consecutive)."""
    rules = Rules.of_size(size).with_constraints(*imposed(KINDS[kind]))
    rng = random.Random(0)
    return any(_random_search(rules, rng, 20_000) is not None for _ in range(5))


def variant_puzzle(kind: str, size: int, rng: random.Random, keep: float, empty: float) -> Grid:
    """A random full grid, a random part of the clues of `kind` it keeps (at least one), and
    a part `empty` of its cells emptied."""
    cls = KINDS[kind]
    plain = Rules.of_size(size)
    grid_rules = plain.with_constraints(*imposed(cls))
    clues: list[Constraint] = []
    for _ in range(20):  # a grid may keep no clue of the kind (no 4x4 extra region): redraw
        solution = _random_search(grid_rules, rng, 20_000)
        if solution is not None:
            clues = cls.candidates(solution.values, plain.shape, rng)
            if clues:
                break
    assert solution is not None and clues, f"{kind}: 20 grids offered no clue"
    chosen = [clue for clue in clues if rng.random() < keep] or clues[:1]
    try:
        rules = plain.with_constraints(*chosen)
    except RulesError:  # clues that stand only together (both diagonals)
        rules = plain.with_constraints(*clues)
    full = Grid(rules, solution.values)
    assert is_solution(Grid.empty(rules), full), f"{kind}: the grid breaks its own clues"
    cells = list(rules.cells)
    rng.shuffle(cells)
    return full.with_values(dict.fromkeys(cells[: round(empty * len(cells))], 0))


def agrees_with_brute_force(puzzle: Grid) -> None:
    expected = brute_force(puzzle)
    assert all(is_solution(puzzle, grid) for grid in expected)
    complete = len(expected) < ENUMERATED
    whole = complete and len(expected) <= COMPARED
    limit = len(expected) + 1 if whole else COMPARED
    tried = 0
    for name in EVERY:
        solver = create(name)
        if not solver.accepts(puzzle.rules):
            continue
        result = solver.solve(puzzle, limit=limit, timeout=TIMEOUT)
        assert result.status is not Status.ERROR, f"{name}: {result.message}"
        assert result.status is not Status.UNSUPPORTED, f"{name} accepts but: {result.message}"
        if result.status is Status.TIMEOUT:
            continue  # no answer is not a wrong answer
        tried += 1
        assert all(is_solution(puzzle, grid) for grid in result.solutions), name
        assert len(set(result.solutions)) == len(result.solutions), f"{name} repeated a grid"
        found = set(result.solutions)
        if complete:
            assert found <= set(expected), f"{name} found a grid the enumerator did not"
        if name.startswith("logic"):  # it may give up; what it fills must be right
            continue
        if whole:
            assert result.exact and found == set(expected), (
                f"{name}: {len(found)} solutions (exact: {result.exact}), "
                f"the enumerator {len(expected)}"
            )
        else:
            assert len(found) == limit, f"{name}: {len(found)} of at least {limit} solutions"
    assert tried, "no back-end accepted the puzzle"


def _check(kind: str, size: int) -> Callable[..., None]:
    def check(seed: int, keep: float, empty: float) -> None:
        agrees_with_brute_force(variant_puzzle(kind, size, random.Random(seed), keep, empty))

    return check


SIZES_EMPTY = {4: (0.4, 0.95), 6: (0.45, 0.8)}  # 6x6 puzzles keep enough givens to enumerate


def _run(kind: str, size: int, examples: int) -> None:
    if not has_grid(kind, size):
        pytest.skip(f"no {size}x{size} grid keeps {kind}")
    low, high = SIZES_EMPTY[size]
    test = settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )(
        given(
            seed=st.integers(0, 2**32),  # the grid's and the clues' draws
            keep=st.floats(0.1, 1.0),
            empty=st.floats(low, high),
        )(_check(kind, size))
    )
    test()


def test_every_kind_with_candidates_is_covered() -> None:
    # the matrix is only as strong as the list it runs over
    assert {"killer_cage", "parity", "extra_region", "diagonal", "anti_knight"} <= {
        kind for kind, _ in CASES
    }
    assert {"backtracking", "propagating", "dlx", "cpsat", "sat"} <= set(EVERY)


@pytest.mark.parametrize(("kind", "size"), CASES)
def test_every_backend_finds_the_brute_force_solutions(kind: str, size: int) -> None:
    _run(kind, size, examples=3)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "size"), CASES)
def test_every_backend_finds_the_brute_force_solutions_deeper(kind: str, size: int) -> None:
    _run(kind, size, examples=25)
