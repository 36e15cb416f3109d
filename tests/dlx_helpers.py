"""Shared helpers of the exact-cover and `dlx` tests."""

from __future__ import annotations

from puzzles.geometry import Geometry
from puzzles.grid import Grid

THESIS_PUZZLE = "0000302004010000"  # the source thesis's worked 4x4 example (section 2.3.1)
THESIS_SOLUTION = "4213312424311342"


def pattern_solution(geometry: Geometry) -> Grid:
    """A valid filled grid for any box shape: each band shifts the digits by one box width."""
    n, rows, cols = geometry.size, geometry.box_rows, geometry.box_cols
    return Grid(
        geometry,
        tuple(((r % rows) * cols + r // rows + c) % n + 1 for r in range(n) for c in range(n)),
    )
