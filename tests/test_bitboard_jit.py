"""`bitboard-jit` and `solve_batch`: the same verdicts and grids as `propagating` on the
bundled 9x9 collections and on random puzzles, counting to a limit, deadlines, rules it
cannot express answered `unsupported`, and the batch API agreeing with `Solver.solve`."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from formats_strategies import random_solution, remove_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints import PairConstraint
from sudoku_bench.puzzles.constraints.base import Conflict
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Status, Verdict
from sudoku_bench.solvers.engines.propagating.solver import PropagatingSolver
from sudoku_bench.solvers.registry import get
from tests.solving_support import UnwrittenKind

pytest.importorskip("numba", reason="the compiled engines need numba: pip install '.[jit]'")

from sudoku_bench.solvers.engines.bitboard.jit import (
    BatchInputError,
    BitboardJitSolver,
    solve_batch,
)

CLASSIC = Rules.of_size(9)
SETS = {"seeds": 5, "top95": 40, "hardest": 11, "multi": 30, "forum-hardest": 25, "17clue": 40}
# two 5s in the first row: no solution, found out from the givens alone
CLASH = "55" + "." * 79
# the first row of a valid grid with its last cell left empty, and that cell's column
# holding the only digit the row misses: no solution, found out by propagation
NO_ROOM = "12345678." + "........9" + "." * 63


def puzzles() -> list[Grid]:
    found = []
    for name, count in SETS.items():
        entries = itertools.islice(load(name), count)
        found += [entry.puzzle for entry in entries if entry.puzzle.rules == CLASSIC]
    return found


@pytest.fixture(scope="module")
def solver() -> BitboardJitSolver:
    return BitboardJitSolver()


def agree(solver: BitboardJitSolver, puzzle: Grid) -> None:
    """Counting to 2: the same verdict (and grid, when unique) as `propagating`, every grid
    checked; to 1:
    a solution exactly when there is one."""
    reference = PropagatingSolver()
    expected = reference.solve(puzzle, limit=2)
    got = solver.solve(puzzle, limit=2)
    assert got.verdict == expected.verdict
    assert got.status == expected.status
    if expected.verdict is Verdict.UNIQUE:  # of several, each engine may find others
        assert got.solutions == expected.solutions
    assert len(set(got.solutions)) == got.count
    assert all(is_solution(puzzle, grid) for grid in got.solutions)
    first = solver.solve(puzzle, limit=1)
    assert first.count == min(expected.count, 1)
    assert first.status in (Status.SOLVED, Status.NO_SOLUTION, Status.LIMIT)
    if first.exact:  # exhausted at the limit: then the count is the true one
        assert expected.count == first.count
    assert all(is_solution(puzzle, grid) for grid in first.solutions)


def test_agrees_with_propagating_on_the_bundled_collections(solver: BitboardJitSolver) -> None:
    for puzzle in puzzles():
        agree(solver, puzzle)


def test_multi_puzzles_have_two_solutions_and_counters(solver: BitboardJitSolver) -> None:
    puzzle = next(iter(load("multi"))).puzzle
    result = solver.solve(puzzle, limit=2)
    assert result.verdict is Verdict.MULTIPLE and result.status is Status.LIMIT
    assert result.nodes >= 2 and result.guesses is not None and result.guesses >= 1
    assert set(result.counters) >= {"nodes", "guesses", "naked_singles", "hidden_singles"}


@pytest.mark.parametrize("line", [CLASH, NO_ROOM], ids=["clash", "no-room"])
def test_unsolvable_puzzles_have_no_solution(solver: BitboardJitSolver, line: str) -> None:
    result = solver.solve(Grid.from_string(line, CLASSIC), limit=2)
    assert result.status is Status.NO_SOLUTION and result.verdict is Verdict.NONE


def test_counts_to_the_limit_with_every_grid_distinct(solver: BitboardJitSolver) -> None:
    empty = Grid.empty(CLASSIC)
    result = solver.solve(empty, limit=200)  # more than the 64-row solution buffer
    assert result.status is Status.LIMIT and result.count == 200
    assert len(set(result.solutions)) == 200
    assert all(is_solution(empty, grid) for grid in result.solutions)


def test_a_full_valid_grid_is_its_own_unique_solution(solver: BitboardJitSolver) -> None:
    grid = random_solution(CLASSIC, random.Random(7))
    result = solver.solve(grid, limit=2)
    assert result.verdict is Verdict.UNIQUE and result.solutions == [grid]
    assert result.nodes == 1 and result.guesses == 0


def test_a_deadline_stops_the_search(solver: BitboardJitSolver) -> None:
    # counting every grid of a nearly empty board takes far longer than the deadline
    result = solver.solve(Grid.empty(CLASSIC), limit=10**9, timeout=0.05)
    assert result.status is Status.TIMEOUT and not result.exhausted
    assert all(is_solution(Grid.empty(CLASSIC), grid) for grid in result.solutions)


@pytest.mark.parametrize("rules", [Rules.of_size(4), Rules.of_size(6), Rules.of_size(16)], ids=str)
def test_other_shapes_are_refused_as_unsupported(solver: BitboardJitSolver, rules: Rules) -> None:
    assert not solver.accepts(rules)
    result = solver.solve(Grid.empty(rules))
    assert result.status is Status.UNSUPPORTED and "9x9 Sudoku with 3x3 boxes" in result.message


def test_kinds_outside_its_families_are_refused_and_named(solver: BitboardJitSolver) -> None:
    for name in ("jigsaw", "killer", "odd-even"):
        puzzle = next(iter(load(name))).puzzle
        assert not solver.accepts(puzzle.rules), name
        result = solver.solve(puzzle)
        assert result.status is Status.UNSUPPORTED
        named = [c.title for c in puzzle.rules.constraints]
        assert not named or f"cannot express {named[0]}" in result.message


VARIANTS = ("sudoku-x", "windoku", "anti-knight", "anti-king", "non-consecutive")


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_collections_agree_with_dlx(solver: BitboardJitSolver, name: str) -> None:
    """Extra units and pair relations, through the links table: the same solutions as
    `dlx` (which encodes them as exact-cover columns), to 2 and to 1."""
    reference = get("dlx").create()
    for entry in itertools.islice(load(name), 12):
        puzzle = entry.puzzle
        assert solver.accepts(puzzle.rules)
        expected = reference.solve(puzzle, limit=2)
        got = solver.solve(puzzle, limit=2)
        assert (got.status, got.count) == (expected.status, expected.count), entry
        assert set(got.solutions) == set(expected.solutions), entry
        first = solver.solve(puzzle, limit=1)
        assert first.count == min(expected.count, 1)
        assert all(is_solution(puzzle, grid) for grid in first.solutions)
        # the general path (a node budget) builds the same table
        budgeted = solver.solve(puzzle, limit=2, node_limit=10**6)
        assert (budgeted.count, set(budgeted.solutions)) == (got.count, set(got.solutions))


class _Smaller(PairConstraint, UnwrittenKind):
    """A directed pair kind of the family that no back-end knows by name: in each pair of
    cells the first holds the smaller digit (thermometers of two cells)."""

    title = "smaller first"

    def __init__(self, pairs: tuple[tuple[int, int], ...]) -> None:
        self._pairs = pairs

    def pairs(self, shape: Any) -> tuple[tuple[int, int], ...]:
        return self._pairs

    def allows(self, first: int, second: int) -> bool:
        return first < second

    def broken(self, rules: Any, a: int, b: int, values: Sequence[int]) -> Conflict:
        return Conflict(self.title, values[a], (a, b), "not smaller")


def test_a_directed_pair_relation_is_read_first_cell_first(solver: BitboardJitSolver) -> None:
    """Pairs whose relation is not symmetric, in both orders over the grid (a row read left to
    right, a column read bottom up): the same solutions as `dlx`, each obeying the order."""
    rng = random.Random(3)
    pairs = ((0, 1), (1, 2), (40, 31), (31, 22), (80, 70), (9, 10))
    for _ in range(6):
        grid = random_solution(CLASSIC, rng)
        classic = remove_cells(grid, rng, 0.75)
        rules = Rules.of_size(9).with_constraints(_Smaller(pairs))
        puzzle = Grid(rules, classic.values)
        assert solver.accepts(rules)
        expected = get("dlx").create().solve(puzzle, limit=3)
        got = solver.solve(puzzle, limit=3)
        assert (got.status, got.count) == (expected.status, expected.count)
        if expected.count < 3:
            assert set(got.solutions) == set(expected.solutions)
        for solution in got.solutions:
            assert all(solution.values[a] < solution.values[b] for a, b in pairs)


@settings(max_examples=30, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    empty=st.floats(0.5, 0.9),
    rule=st.sampled_from(
        [{"diagonals": True}, {"anti_knight": True}, {"anti_king": True}, {"non_consecutive": True}]
    ),
)
def test_random_variant_puzzles_agree_with_dlx(
    rng: random.Random, empty: float, rule: dict[str, bool]
) -> None:
    """Random givens kept from a classic grid: under the added rule they may clash, have no
    solution or several; the count to 3 agrees with `dlx`, and the grids when fewer."""
    rules = Rules.from_json({"size": 9, **rule})
    classic = remove_cells(random_solution(CLASSIC, rng), rng, empty)
    puzzle = Grid(rules, classic.values)
    expected = get("dlx").create().solve(puzzle, limit=3)
    got = BitboardJitSolver().solve(puzzle, limit=3)
    assert (got.status, got.count) == (expected.status, expected.count)
    if expected.count < 3:  # all of them: the same grids (at the limit, each may find others)
        assert set(got.solutions) == set(expected.solutions)
    assert len(set(got.solutions)) == got.count
    assert all(is_solution(puzzle, grid) for grid in got.solutions)


def test_registered_under_its_name() -> None:
    backend = get("bitboard-jit")
    assert backend.available()
    assert backend.create().name == "bitboard-jit"


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), empty=st.floats(0.3, 0.85), change=st.booleans())
def test_random_puzzles_agree_with_propagating(
    rng: random.Random, empty: float, change: bool
) -> None:
    puzzle = remove_cells(random_solution(CLASSIC, rng), rng, empty)
    givens = [cell for cell in CLASSIC.cells if puzzle[cell]]
    if change and givens:  # a given altered: often no solution at all
        puzzle = puzzle.with_values({rng.choice(givens): rng.randint(1, 9)})
    agree(BitboardJitSolver(), puzzle)


# ----- solve_batch ------------------------------------------------------------------------


def test_batch_agrees_with_solve_one_by_one(solver: BitboardJitSolver) -> None:
    grids = [*puzzles(), Grid.from_string(CLASH, CLASSIC), Grid.from_string(NO_ROOM, CLASSIC)]
    lines = [grid.to_line() for grid in grids]
    for limit in (1, 2):
        batch = solve_batch(lines, limit=limit, threads=1)
        assert len(batch) == len(grids)
        for number, grid in enumerate(grids):
            one = solver.solve(grid, limit=limit)
            assert batch.statuses()[number] == one.status
            assert batch.verdicts()[number] == one.verdict
            assert batch.counts[number] == one.count
            assert batch.nodes[number] == one.nodes and batch.guesses[number] == one.guesses
            if one.solutions:
                assert tuple(batch.solutions[number].tolist()) == one.solutions[0].values
            else:
                assert not batch.solutions[number].any()
                assert batch.lines()[number] == "." * 81


def test_batch_takes_an_array_and_threads_give_the_same_answers() -> None:
    lines = [entry.puzzle.to_line() for entry in itertools.islice(load("17clue"), 300)]
    alone = solve_batch(lines, limit=2, threads=1)
    array = np.array([[0 if c == "." else int(c) for c in line] for line in lines], np.uint8)
    shared = solve_batch(array, limit=2, threads=3)
    assert np.array_equal(alone.solutions, shared.solutions)
    assert np.array_equal(alone.verdict, shared.verdict)
    assert np.array_equal(alone.nodes, shared.nodes)
    assert all(status is Status.SOLVED for status in alone.statuses())
    for line, solution in zip(lines, alone.lines(), strict=True):
        puzzle = Grid.from_string(line, CLASSIC)
        assert is_solution(puzzle, Grid.from_string(solution, CLASSIC))


def test_batch_of_nothing_is_empty() -> None:
    assert len(solve_batch([])) == 0


@pytest.mark.parametrize(
    ("puzzles", "message"),
    [
        (["1" * 80], "line 2|line 1: expected 81 cells"),
        (["." * 80 + "x"], "line 1, column 81: 'x' is not a digit"),
        ("." * 81, "a list of 81-character lines"),
        (np.zeros((2, 80), dtype=np.uint8), r"shape \(n, 81\)"),
        (np.full((1, 81), 10, dtype=np.uint8), "digits must be 0"),
    ],
    ids=["short", "letter", "string", "shape", "digit"],
)
def test_batch_input_errors_say_where(puzzles: object, message: str) -> None:
    with pytest.raises(BatchInputError, match=message):
        solve_batch(puzzles)  # type: ignore[arg-type]


def test_batch_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="limit must be at least 1"):
        solve_batch(["." * 81], limit=0)
