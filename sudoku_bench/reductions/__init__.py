"""Puzzle -> model -> grid. Each reduction is a small class with `apply` and `invert`.

After CVXPY's reductions: `apply(puzzle)` returns the model and the data `invert` needs;
`invert(answer, data)` returns the grid. See `sudoku_bench.reductions.base.Reduction`.

`REDUCTIONS` is the registry `sudoku-bench reduce --to TARGET` reads: one entry per target
name, which creates the reduction (its module imported only then: some need OR-Tools or
sympy); the reduction's own `describe` and `export` methods give the summary and the file.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from sudoku_bench.reductions.base import Reduction


@dataclass(frozen=True)
class ReductionEntry:
    """A reduction `reduce --to` can show: `target` names it, `factory` (`module:Class`)
    creates it, `help` says what model it builds and what its export is."""

    target: str
    factory: str
    help: str

    def create(self, **options: Any) -> Reduction[Any, Any]:
        """The reduction, with `options` passed to its class (its defaults otherwise)."""
        module, _, name = self.factory.partition(":")
        reduction: Reduction[Any, Any] = getattr(importlib.import_module(module), name)(**options)
        return reduction


# The first entry is the default target.
REDUCTIONS: dict[str, ReductionEntry] = {
    entry.target: entry
    for entry in (
        ReductionEntry(
            "exact-cover",
            "sudoku_bench.reductions.exact_cover:SudokuExactCover",
            "placements x constraints 0/1 matrix (secondary columns for 'at most once' rules, "
            "cage fillings as rows); -o writes it in Knuth's DLX format",
        ),
        ReductionEntry(
            "polynomials",
            "sudoku_bench.reductions.polynomial:PolynomialReduction",
            "the thesis's polynomial ideal, givens substituted (Singular script)",
        ),
        ReductionEntry(
            "cp-model",
            "sudoku_bench.reductions.cp_model:CpModelReduction",
            "OR-Tools CP-SAT model, an integer per cell and AllDifferent per unit "
            "(export: CpModelProto text format)",
        ),
        ReductionEntry(
            "cnf",
            "sudoku_bench.reductions.cnf:CnfReduction",
            "SAT formula, a variable per cell and digit, extended encoding (--encoding minimal "
            "or efficient), givens as unit clauses (--givens simplify) (export: DIMACS CNF)",
        ),
        ReductionEntry(
            "milp",
            "sudoku_bench.reductions.milp:MilpReduction",
            "0/1 integer program over the placements, for classic rules the exact-cover matrix as "
            "A x = 1 (--model textbook: all N^3 binaries, givens as x = 1) (export: free MPS, "
            "the puzzle in its * header lines)",
        ),
        ReductionEntry(
            "csp",
            "sudoku_bench.reductions.csp:CspReduction",
            "python-constraint model, a variable per cell and AllDifferent per unit "
            "(export: XCSP3)",
        ),
    )
}

__all__ = ["REDUCTIONS", "Reduction", "ReductionEntry"]


def __getattr__(name: str) -> Any:
    # `__version__` read from the installed metadata only when asked: it costs an import of
    # importlib.metadata, which the command line does not otherwise pay for
    if name == "__version__":
        from sudoku_bench.puzzles.version import installed_version

        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
