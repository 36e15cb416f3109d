"""The proof-producing SAT solver: CaDiCaL through PySAT, asked for a DRAT proof.

PySAT's `Solver(name="cadical195", with_proof=True)` records CaDiCaL's DRAT proof and hands
it back as text lines (`get_proof()`), so no program beyond the `sat` back-end's library is
needed. A fresh solver is built for every formula, so the proof covers exactly the clauses
given (an incremental solver's proof would also lean on clauses added between solves).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.puzzles.errors import SudokuBenchError

PROVER = "cadical195"  # CaDiCaL 1.9.5, the newest CaDiCaL this PySAT ships


class ProverUnavailable(SudokuBenchError):
    """PySAT, which runs the proof-producing solver, is not installed."""


def pysat_solver() -> Any:
    """PySAT's `Solver` class, imported when first needed: PySAT is an optional extra, and
    commands that certify nothing must not need it."""
    try:
        from pysat.solvers import Solver
    except ImportError:
        raise ProverUnavailable(
            "--certify needs python-sat (CaDiCaL writes the proofs): "
            "pip install 'sudoku-bench[sat]'"
        ) from None
    return Solver


@dataclass(frozen=True)
class SolverAnswer:
    """What the solver said: a model (satisfiable) or a DRAT proof (unsatisfiable)."""

    model: tuple[int, ...] | None  # the true and false literals, when satisfiable
    proof: tuple[str, ...]  # the DRAT lines, when unsatisfiable
    solve_s: float  # CPU seconds of loading and solving

    @property
    def satisfiable(self) -> bool:
        return self.model is not None

    @property
    def proof_bytes(self) -> int:
        """The proof's size as a DRAT text file: each line and its newline."""
        return sum(len(line) + 1 for line in self.proof)


def solve_with_proof(clauses: Sequence[Sequence[int]], solver: str = PROVER) -> SolverAnswer:
    """Solve `clauses` with a fresh proof-logging solver: the model, or the DRAT proof."""
    engine_class = pysat_solver()
    started = time.thread_time()
    with engine_class(name=solver, with_proof=True, bootstrap_with=clauses) as engine:
        satisfiable = engine.solve()
        if satisfiable:
            return SolverAnswer(tuple(engine.get_model() or ()), (), time.thread_time() - started)
        proof = tuple(engine.get_proof() or ())
    return SolverAnswer(None, proof, time.thread_time() - started)


def find_model(clauses: Sequence[Sequence[int]], solver: str = PROVER) -> tuple[int, ...] | None:
    """A model of `clauses`, or None when the solver finds none (no proof asked: the caller
    only trusts a model after checking it)."""
    with pysat_solver()(name=solver, bootstrap_with=clauses) as engine:
        return tuple(engine.get_model() or ()) if engine.solve() else None


def prover_version(solver: str = PROVER) -> str:
    """The solver's name and version as PySAT names it, e.g. `cadical195 (python-sat 1.9)`."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{solver} (python-sat {version('python-sat')})"
    except PackageNotFoundError:
        return solver
