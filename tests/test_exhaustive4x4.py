"""The exhaustive 4x4 counts (every grid, every subset of givens) against brute force and the
known 4x4 facts; and the random puzzles with k givens."""

from __future__ import annotations

import random
from math import comb

import pytest

from sudoku_bench.harness.generating.exhaustive4x4 import (
    SETS,
    agreement_mask,
    exhaustive,
    solution_counts,
)
from sudoku_bench.harness.generating.facts4x4 import FOUR, all_grids, facts
from sudoku_bench.harness.generating.generator import GeneratorError
from sudoku_bench.harness.generating.givens import givens_puzzles, keep_givens
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.registry import create


def brute_count(grid_index: int, cells: int) -> int:
    """Solutions of (grid, cell set) by trying every grid h."""
    grids = all_grids(FOUR)
    grid = grids[grid_index]
    chosen = [c for c in range(16) if cells >> c & 1]
    return sum(all(h.values[c] == grid.values[c] for c in chosen) for h in grids)


def test_agreement_mask_of_a_grid_with_itself_is_every_cell() -> None:
    grid = all_grids(FOUR)[5]
    assert agreement_mask(grid, grid) == SETS - 1


def test_zeta_counts_match_brute_force_on_random_subsets() -> None:
    grids = all_grids(FOUR)
    rng = random.Random(16)
    for grid_index in (0, 7, 287, rng.randrange(288)):
        counts = solution_counts(grids[grid_index], grids)
        assert counts[0] == 288  # no givens: every grid
        assert counts[SETS - 1] == 1  # every cell given: the grid itself
        for cells in [rng.randrange(SETS) for _ in range(40)] + [0b1111, 0b1000010000100001]:
            assert counts[cells] == brute_count(grid_index, cells), (grid_index, bin(cells))


def test_zeta_counts_match_a_solver_counting_the_puzzle() -> None:
    grids = all_grids(FOUR)
    solver = create("propagating")
    rng = random.Random(3)
    for _ in range(6):
        grid_index, cells = rng.randrange(288), rng.randrange(SETS)
        grid = grids[grid_index]
        puzzle = grid.with_values({c: 0 for c in range(16) if not cells >> c & 1})
        result = solver.solve(puzzle, limit=300)
        assert result.exact
        assert result.count == solution_counts(grid, grids)[cells]


def test_exhaustive_table_agrees_with_the_4x4_facts() -> None:
    table = exhaustive()
    assert table.grids == 288
    assert table.first_unique == 4 == facts().minimum_givens
    for row in table.rows:
        assert row.pairs == 288 * comb(16, row.givens)
        assert row.unique + row.multiple == row.pairs
    # no unique puzzle with 3 or fewer givens; the distinct puzzles match facts4x4's count
    for known in facts(4).by_givens:
        row = table.rows[known.givens]
        assert (row.distinct, row.unique) == (known.puzzles, known.unique)
    assert all(table.rows[k].unique == 0 for k in range(4))
    assert table.rows[0].by_count == {288: 288}
    assert table.rows[16].by_count == {1: 288}
    # 13 or more givens always fix the grid (no 4x4 "unavoidable set" is that small to miss)
    assert all(table.rows[k].multiple == 0 for k in range(13, 17))
    assert table.rows[12].multiple > 0


def test_keep_givens_keeps_exactly_k_cells_of_the_grid() -> None:
    grid = all_grids(FOUR)[10]
    puzzle = keep_givens(grid, 6, random.Random(1))
    assert puzzle.givens == 6
    assert all(v in (0, g) for v, g in zip(puzzle.values, grid.values, strict=True))
    with pytest.raises(GeneratorError):
        keep_givens(grid, 17, random.Random(1))


def test_givens_puzzles_are_reproducible_and_solved_by_their_grid() -> None:
    nine = Rules.of_size(9)
    first = givens_puzzles(nine, [20, 30], 3, seed=5)
    assert first == givens_puzzles(nine, [20, 30], 3, seed=5)
    assert [p.givens for p in first] == [20, 20, 20, 30, 30, 30]
    assert all(p.puzzle.givens == p.givens and is_solution(p.puzzle, p.grid) for p in first)
    # one k's puzzles do not depend on which other ks are drawn
    assert givens_puzzles(nine, [30], 3, seed=5) == first[3:]
    assert givens_puzzles(nine, [30], 3, seed=6) != first[3:]
