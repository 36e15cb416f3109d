"""Dancing Links: a general exact-cover engine, and the `dlx` Sudoku back-end built on it."""

from solvers.dlx.engine import DancingLinks

__all__ = ["DancingLinks"]
