"""Shared helpers of the exact-cover and `dlx` tests."""

from __future__ import annotations

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules

THESIS_PUZZLE = "0000302004010000"  # the source thesis's worked 4x4 example (section 2.3.1)
THESIS_SOLUTION = "4213312424311342"


def pattern_solution(rules: Rules) -> Grid:
    """A valid filled grid for any box shape: each band shifts the digits by one box width."""
    n, rows, cols = rules.size, rules.box_rows, rules.box_cols
    return Grid(
        rules,
        tuple(((r % rows) * cols + r // rows + c) % n + 1 for r in range(n) for c in range(n)),
    )
