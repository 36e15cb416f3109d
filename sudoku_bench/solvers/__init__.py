"""The engines behind one interface: `Solver`, `Result`, and the registry of back-ends."""

from typing import Any

from sudoku_bench.solvers.base import (
    Deadline,
    Result,
    SearchOutcome,
    SearchTimeout,
    Solver,
    Status,
    UnsupportedPuzzleError,
)
from sudoku_bench.solvers.registry import (
    Backend,
    SolverUnavailableError,
    UnknownSolverError,
    backends,
    create,
    get,
    register,
    select,
)

__all__ = [
    "Backend",
    "Deadline",
    "Result",
    "SearchOutcome",
    "SearchTimeout",
    "Solver",
    "SolverUnavailableError",
    "Status",
    "UnknownSolverError",
    "UnsupportedPuzzleError",
    "backends",
    "create",
    "get",
    "register",
    "select",
]


def __getattr__(name: str) -> Any:
    # `__version__` read from the installed metadata only when asked: it costs an import of
    # importlib.metadata, which the command line does not otherwise pay for
    if name == "__version__":
        from sudoku_bench.puzzles.version import installed_version

        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
