"""Issue 17, defect 7: every supported size solves and prints; past the documented maximum,
a clear refusal at once."""

from __future__ import annotations

import sys
import time

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import MAX_SIZE, Rules
from sudoku_bench.solvers.base import SearchTimeout
from sudoku_bench.solvers.deep import DEEP_FROM, call_deep
from sudoku_bench.solvers.registry import create

EMPTY_36 = "." * 36 * 36


def test_solve_prints_a_36x36_grid_as_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """It solved, then raised IndexError while printing (the alphabet ends at 25)."""
    assert main(["solve", EMPTY_36, "-s", "dlx", "--line"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    grid = Grid.from_string(line)
    assert grid.rules.size == 36 and is_solution(Grid.empty(Rules.of_size(36)), grid)
    assert main(["solve", EMPTY_36, "-s", "dlx"]) == 0
    picture = capsys.readouterr().out.splitlines()[1:4]
    assert "36" in " ".join(picture) and "|" in picture[0]


def test_the_textbook_backtracker_goes_deeper_than_the_recursion_limit() -> None:
    """An empty 32x32 is 1,024 nested calls: RecursionError before."""
    empty = Grid.empty(Rules.of_size(32))
    result = create("backtracking").solve(empty, timeout=60)
    assert result.status.value in ("solved", "limit"), result.message
    assert is_solution(empty, result.solutions[0])
    assert sys.getrecursionlimit() < 5000  # put back afterwards


@pytest.mark.slow
def test_propagating_fills_an_empty_36x36() -> None:
    """RecursionError before; about 30 s on a loaded 2-core machine."""
    empty = Grid.empty(Rules.of_size(36))
    result = create("propagating").solve(empty, timeout=300)
    assert result.solutions and is_solution(empty, result.solutions[0])


def _depth(levels: int) -> int:
    return 0 if levels == 0 else 1 + _depth(levels - 1)


def test_call_deep_allows_deep_recursion_and_hands_back_errors() -> None:
    assert call_deep(lambda: _depth(20_000), 25_000) == 20_000
    assert call_deep(lambda: 7, DEEP_FROM - 1) == 7  # shallow: called directly

    def times_out() -> None:
        raise SearchTimeout

    with pytest.raises(SearchTimeout):
        call_deep(times_out, 10_000)


def test_sizes_past_the_maximum_are_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty 1024x1024 ran out of memory."""
    start = time.monotonic()
    assert main(["solve", "." * (1024 * 1024), "-s", "dlx"]) == 2
    assert time.monotonic() - start < 10
    assert capsys.readouterr().err == (
        f"sudoku-bench: error: argument 1: size 1024 is too large: sudoku-bench goes up to "
        f"{MAX_SIZE}x{MAX_SIZE} (4,096 cells; see 'Sizes' in docs/howto/puzzles.md)\n"
    )
