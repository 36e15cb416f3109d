"""The registry: names, aliases, availability without importing, clear errors."""

from __future__ import annotations

import pytest

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.registry import (
    Backend,
    SolverUnavailableError,
    UnknownSolverError,
    backends,
    get,
    register,
    select,
    unregister,
)


def test_builtin_backends_are_listed_with_their_versions() -> None:
    names = [backend.name for backend in backends()]
    assert "backtracking" in names and "propagating" in names
    assert get("backtracking").version()  # the project's own version


def test_aliases_resolve() -> None:
    assert get("fast").name == "propagating"
    assert get(" Textbook ").name == "backtracking"


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownSolverError, match=r"known solvers: .*backtracking"):
        get("no-such-solver")


def test_missing_library_is_reported_not_crashed() -> None:
    ghost = Backend(
        "ghost",
        "ghost_module:Ghost",
        "needs a library that is not installed",
        requires=("ghost_module_that_does_not_exist",),
        distribution="ghost-dist",
        extra="ghost",
    )
    register(ghost)
    try:
        assert not ghost.available()
        assert ghost.version() is None
        assert ghost not in select("all")
        with pytest.raises(SolverUnavailableError, match=r"pip install 'sudoku-bench\[ghost\]'"):
            ghost.create()
    finally:
        unregister("ghost")


def test_select_keeps_order_and_drops_repeats() -> None:
    chosen = select("propagating,backtracking,fast")
    assert [b.name for b in chosen] == ["propagating", "backtracking"]
    assert all(b.in_all and b.available() for b in select("all"))


def test_a_configuration_of_a_shared_class_names_its_results_after_itself() -> None:
    """propagating-singles is PropagatingSolver with options: its results (and so the `solver`
    of every --json record) must say propagating-singles, not propagating."""
    empty = Grid.from_string("." * 16)
    for name in ("propagating-singles", "logic-singles", "fast"):
        solver = get(name).create()
        assert solver.name == get(name).name
        assert solver.solve(empty).solver == get(name).name
    assert get("propagating").create().name == "propagating"  # the class's own name kept
