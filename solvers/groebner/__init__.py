"""The `groebner` back-end: Sudoku solved and counted with Groebner bases (sympy)."""

from solvers.groebner.solver import GroebnerSolver

__all__ = ["GroebnerSolver"]
