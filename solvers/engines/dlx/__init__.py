"""Dancing Links: a general exact-cover engine, the `dlx` back-end on it (`solver`), and its numba twin (`jit`, with its `kernel`)."""

from solvers.engines.dlx.engine import DancingLinks

__all__ = ["DancingLinks"]
