"""The compiled engines (`propagating-jit`, `dlx-jit`) and the native references
(`exact-cover-c`, `xcover`): the same answers as the pure-Python engines, and for the
compiled ones the same counters, on real collections and every geometry; deadlines; rules
they cannot express answered `unsupported`. Random puzzles (classic and variant) are in the
registry-driven agreement tests, which these back-ends join by being registered."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Solver, Status
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver
from sudoku_bench.solvers.engines.propagating.solver import PropagatingSolver, alldiff_filter
from sudoku_bench.solvers.registry import get

pytest.importorskip("numba", reason="the compiled engines need numba: pip install '.[jit]'")

from sudoku_bench.solvers.engines.dlx.jit import DlxJitSolver
from sudoku_bench.solvers.engines.propagating import kernel
from sudoku_bench.solvers.engines.propagating.jit import PropagatingJitSolver

PUZZLES = {
    "top95": 30,
    "hardest": 11,
    "multi": 15,
    "gecode9": 18,
    "16x16": 4,
}


def puzzles() -> list[Grid]:
    found = []
    for name, count in PUZZLES.items():
        found += [entry.puzzle for entry in itertools.islice(load(name), count)]
    return found


def same(reference: Solver, compiled: Solver, puzzle: Grid, limit: int) -> None:
    expected = reference.solve(puzzle, limit=limit)
    got = compiled.solve(puzzle, limit=limit)
    assert got.status == expected.status
    assert got.solutions == expected.solutions
    assert got.exhausted == expected.exhausted
    assert got.counters == expected.counters
    assert got.message == expected.message


@pytest.mark.parametrize("limit", [1, 2])
def test_propagating_jit_has_propagatings_answers_and_counters(limit: int) -> None:
    # with the defaults: AllDifferent filtering and restarts on the 16x16 puzzles
    compiled = PropagatingJitSolver()
    for puzzle in puzzles():
        same(PropagatingSolver(), compiled, puzzle, limit)


@pytest.mark.parametrize(
    ("alldiff", "restarts"), [(True, True), (True, False), (False, True)], ids=str
)
def test_every_option_of_propagating_is_compiled(alldiff: bool, restarts: bool) -> None:
    compiled = PropagatingJitSolver(alldiff=alldiff, restarts=restarts)
    for puzzle in puzzles()[::3]:
        same(PropagatingSolver(alldiff=alldiff, restarts=restarts), compiled, puzzle, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, (1 << 9) - 1), min_size=2, max_size=9))
def test_the_compiled_alldifferent_filter_is_the_pure_python_one(masks: list[int]) -> None:
    expected = alldiff_filter(masks)
    count = len(masks)
    scratch = np.zeros((9, kernel.SLOTS), dtype=np.int64)
    out = np.zeros(count, dtype=np.int64)
    code = kernel.alldiff_filter(np.array(masks, dtype=np.int64), count, out, scratch)
    if expected is None:
        assert code == kernel.FAILED
    else:
        assert code == (kernel.UNCHANGED if expected == masks else kernel.NARROWED)
        assert out.tolist() == expected


@pytest.mark.parametrize("limit", [1, 2])
def test_dlx_jit_has_dlxs_answers_and_counters(limit: int) -> None:
    compiled, reference = DlxJitSolver(), DlxSolver()
    for puzzle in puzzles()[:40]:
        same(reference, compiled, puzzle, limit)


GEOMETRIES = [
    Rules.of_size(4),
    Rules.of_size(6),
    Rules.of_size(8),
    Rules.of_size(9, diagonals=True),
    Rules.of_size(12),
]


@pytest.mark.parametrize("rules", GEOMETRIES, ids=str)
def test_every_geometry_counts_like_the_pure_python_engines(rules: Rules) -> None:
    empty = Grid.empty(rules)
    same(PropagatingSolver(), PropagatingJitSolver(), empty, 3)
    same(DlxSolver(), DlxJitSolver(), empty, 3)


@pytest.mark.parametrize("name", ["propagating-jit", "dlx-jit", "exact-cover-c", "xcover"])
def test_the_empty_4x4_has_288_solutions(name: str) -> None:
    if not get(name).available():
        pytest.skip(get(name).not_installed())
    result = get(name).create().solve(Grid.empty(Rules.of_size(4)), limit=1000)
    assert result.status is Status.SOLVED
    assert len(set(result.solutions)) == 288  # also more than a solution buffer holds


@pytest.mark.parametrize("solver_class", [PropagatingJitSolver, DlxJitSolver])
def test_the_deadline_stops_a_search_that_would_run_for_ages(solver_class: type) -> None:
    # counting the solutions of the empty 9x9 grid: the kernel pauses, the clock says stop
    result = solver_class().solve(Grid.empty(Rules.of_size(9)), limit=10**9, timeout=0.3)
    assert result.status is Status.TIMEOUT
    assert result.count > 64  # solutions found before the deadline are kept


def test_a_timeout_with_restarts_keeps_the_solutions_of_abandoned_runs() -> None:
    # 16x16: AllDifferent filtering with restarts; every run finds solutions, then restarts
    result = PropagatingJitSolver().solve(Grid.empty(Rules.of_size(16)), limit=10**9, timeout=0.5)
    assert result.status is Status.TIMEOUT
    assert result.count > 0
    assert len(set(result.solutions)) == result.count
    assert all(is_solution(Grid.empty(Rules.of_size(16)), grid) for grid in result.solutions)


@pytest.mark.parametrize("name", ["propagating-jit", "dlx-jit", "exact-cover-c", "xcover"])
def test_rules_they_cannot_express_are_unsupported(name: str) -> None:
    if not get(name).available():
        pytest.skip(get(name).not_installed())
    # pair relations (anti-knight) run compiled in propagating-jit and dlx-jit; cages nowhere
    rules = Rules.from_json({"size": 9, "cages": [{"cells": ["r1c1", "r1c2"], "sum": 3}]})
    result = get(name).create().solve(Grid.empty(rules))
    assert result.status is Status.UNSUPPORTED
    if name not in ("propagating-jit", "dlx-jit"):
        anti_knight = Rules.of_size(9).with_rules(anti_knight=True)
        assert get(name).create().solve(Grid.empty(anti_knight)).status is Status.UNSUPPORTED


def test_a_small_extra_unit_is_at_most_once() -> None:
    # an extra region of 3 cells holds distinct digits, not every digit
    rules = Rules.of_size(4).with_rules(extra_regions=((0, 5, 10),))
    truth = set(brute_force_solutions(Grid.empty(rules)))
    assert 0 < len(truth) < 288
    for solver in (PropagatingJitSolver(), DlxJitSolver()):
        result = solver.solve(Grid.empty(rules), limit=1000)
        assert result.status is Status.SOLVED
        assert set(result.solutions) == truth, solver.name


@pytest.mark.parametrize("name", ["exact-cover-c", "xcover"])
def test_the_native_references_agree_with_dlx(name: str) -> None:
    if not get(name).available():
        pytest.skip(get(name).not_installed())
    native, reference = get(name).create(), DlxSolver()
    for puzzle in puzzles()[:30]:
        expected = reference.solve(puzzle, limit=2)
        got = native.solve(puzzle, limit=2)
        assert (got.status, got.solutions) == (expected.status, expected.solutions)


def test_the_registry_names_the_extras() -> None:
    for name, extra in [("propagating-jit", "jit"), ("dlx-jit", "jit"), ("xcover", "native")]:
        assert f"sudoku-bench[{extra}]" in get(name).not_installed()


def test_exact_cover_c_keeps_a_solution_that_takes_every_row() -> None:
    # the package's own wrapper returned () for it (no -1 padding to strip)
    if not get("exact-cover-c").available():
        pytest.skip(get("exact-cover-c").not_installed())
    rules = Rules.of_size(4, diagonals=True)
    puzzle = Grid(rules, (0, 0, 0, 0, 0, 2, 1, 3, 1, 3, 4, 2, 2, 4, 3, 1))
    result = get("exact-cover-c").create().solve(puzzle, limit=2)
    assert result.solutions == brute_force_solutions(puzzle, limit=2)
