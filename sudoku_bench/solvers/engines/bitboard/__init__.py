"""The `bitboard-jit` engine: per-digit bitboards compiled with numba (`jit`, `kernel`)."""
