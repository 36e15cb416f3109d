"""Which counting back-ends the generator and 4x4 tests can use on this checkout."""

from __future__ import annotations

import importlib.util

from sudoku_bench.solvers.registry import backends


def installed(name: str) -> bool:
    """Registered, its libraries installed and its module present."""
    for backend in backends():
        if backend.name == name:
            module = backend.target.partition(":")[0]
            return backend.available() and importlib.util.find_spec(module) is not None
    return False


def second_counter() -> str:
    """A back-end other than `propagating` to confirm uniqueness: exact cover or backtracking,
    else the logic solver (a puzzle it finishes by sound deductions has one solution)."""
    return next((name for name in ("dlx", "backtracking") if installed(name)), "logic")
