"""The 4x4 facts of the thesis: 288 grids, 2 essentially different, 4 givens at least."""

from __future__ import annotations

import json
from itertools import combinations

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.facts4x4 import (
    FOUR,
    all_grids,
    canonical,
    cell_maps,
    classes,
    facts,
    puzzles_by_givens,
)
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.registry import create
from tests.cli_contract import FACTS4X4, FACTS4X4_BY_GIVENS
from tests.logic_backends import second_counter


def test_there_are_288_full_4x4_grids() -> None:
    grids = all_grids()
    assert len(grids) == len(set(grids)) == 288
    assert all(is_solution(Grid.empty(FOUR), grid) for grid in grids)
    assert create("propagating").solve(Grid.empty(FOUR), limit=1000).count == 288


def test_they_fall_into_two_classes() -> None:
    sizes = sorted(classes(all_grids()).values())
    assert sizes == [96, 192]
    assert len(cell_maps(FOUR)) == 128  # 8 row orders x 8 column orders x transposition


def test_equivalent_grids_share_a_canonical_form() -> None:
    grid = all_grids()[0]
    maps = cell_maps(FOUR)
    relabelled = Grid(FOUR, tuple(5 - v for v in grid.values))
    swapped = Grid(
        FOUR, tuple(grid.values[FOUR.cell(r ^ 1, c)] for r in range(4) for c in range(4))
    )
    transposed = Grid(FOUR, tuple(grid.values[FOUR.cell(c, r)] for r in range(4) for c in range(4)))
    forms = {canonical(g, maps) for g in (grid, relabelled, swapped, transposed)}
    assert len(forms) == 1


def test_no_puzzle_with_three_givens_is_unique_and_some_with_four_are() -> None:
    result = facts()
    assert [row.unique for row in result.by_givens[:4]] == [0, 0, 0, 0]
    assert result.by_givens[4].unique > 0
    assert result.minimum_givens == 4
    assert (result.grids, len(result.class_sizes)) == (288, 2)


def test_back_ends_agree_on_sample_puzzles() -> None:
    grids = all_grids()
    counters = [create("propagating"), create(second_counter())]
    three = dict.fromkeys(range(16), 0) | {0: grids[0][0], 5: grids[0][5], 10: grids[0][10]}
    puzzle = Grid(FOUR, tuple(three[c] for c in range(16)))
    assert create("propagating").solve(puzzle, limit=2).count == 2
    # the first unique 4-given puzzle found, confirmed by two back-ends
    for cells in combinations(range(16), 4):
        agreeing = [g for g in grids if all(g[c] == grids[7][c] for c in cells)]
        if len(agreeing) == 1:
            given = Grid(FOUR, tuple(grids[7][c] if c in cells else 0 for c in range(16)))
            for solver in counters:
                assert solver.solve(given, limit=2).verdict == "unique", solver.name
            break
    else:
        raise AssertionError("no unique 4-given puzzle from grid 7")
    assert puzzles_by_givens(grids, 2).unique == 0


def test_the_command(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["facts4x4", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == FACTS4X4
    assert all(set(row) == FACTS4X4_BY_GIVENS for row in record["by_givens"])
    assert (record["grids"], record["classes"], record["minimum_givens"]) == (288, 2, 4)
    assert record["counted"] == 288


def test_a_back_end_that_cannot_count_says_why(capsys) -> None:  # type: ignore[no-untyped-def]
    """`logic` gives up on the empty grid: the count line stays, saying so."""
    assert main(["facts4x4", "--solver", "logic"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("complete 4x4 grids: 288 (enumerated); logic did not count them")
