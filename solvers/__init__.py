"""The engines behind one interface: `Solver`, `Result`, and the registry of back-ends."""

from solvers.base import (
    Deadline,
    Result,
    SearchOutcome,
    SearchTimeout,
    Solver,
    Status,
    UnsupportedPuzzleError,
)
from solvers.registry import (
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
