"""The `groebner` back-end: Sudoku solved and counted with Groebner bases (sympy)."""

from sudoku_bench.solvers.engines.groebner.solver import GroebnerSolver

__all__ = ["GroebnerSolver"]
