"""Dancing Links: a general exact-cover engine, the `dlx` back-end on it (`solver`), and its numba twin (`jit`, with its `kernel`)."""

from sudoku_bench.solvers.engines.dlx.engine import DancingLinks

__all__ = ["DancingLinks"]
