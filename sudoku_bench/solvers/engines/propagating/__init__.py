"""The `propagating` engine (`solver`) and its numba twin (`jit`, with its `kernel`)."""
