"""`facts --size 4|6`: grid counts, essentially different grids, the fewest clues, proven."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating import grid_kernels as kernels
from sudoku_bench.harness.generating.exhaustive4x4 import exhaustive
from sudoku_bench.harness.generating.facts import (
    UNAVOIDABLE_CELLS,
    Geometry,
    burnside,
    classes_by_canonical_form,
    compute,
    count_grids,
    search_class,
    unavoidable_sets,
)
from sudoku_bench.harness.generating.facts4x4 import facts as facts4x4
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.registry import create
from tests.cli_contract import FACTS, FACTS_BURNSIDE, FACTS_CPU, FACTS_EXAMPLE, FACTS_PROOF

# two 6x6 grids (2x3 boxes) with first row 1..6, from two of the 49 classes
SIX_HARD = "123456456123214365365241532614641532"  # its 7-clue search needs branching
SIX_EIGHT = "123456456123214365635241362514541632"  # has a unique 8-clue puzzle


def _grid(line: str) -> np.ndarray:
    return np.array([int(ch) for ch in line], dtype=np.int64)


def test_the_4x4_facts_in_full() -> None:
    found = compute(4)
    assert (found.counted.grids, found.counted.first_row_fixed) == (288, 12)
    assert found.classes.sizes == facts4x4().class_sizes == (96, 192)
    assert found.burnside.classes == 2
    assert found.burnside.cell_maps == 128  # transposition included: 2x2 boxes are square
    assert found.minimum.minimum == exhaustive().first_unique == 4
    assert [p.clues for p in found.minimum.none_below] == [3, 3]
    example = found.minimum.example_puzzle(Geometry.of_size(4).rules)
    assert sum(v > 0 for v in example.values) == 4
    assert create("propagating").solve(example, limit=2).count == 1
    assert create("dlx").solve(example, limit=2).count == 1


def test_the_command_4x4(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["facts", "--size", "4", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == FACTS
    assert set(record["burnside"]) == FACTS_BURNSIDE
    assert set(record["example"]) == FACTS_EXAMPLE
    assert set(record["cpu_s"]) == FACTS_CPU
    assert all(set(p) == FACTS_PROOF for p in record["none_below"])
    assert (record["grids"], record["classes"], record["minimum_clues"]) == (288, 2, 4)
    assert record["example"]["solutions"] == 1
    assert main(["facts", "--size", "4"]) == 0
    assert "2 by canonical forms, 2 by Burnside" in capsys.readouterr().out


def test_other_sizes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["facts", "--size", "5"])
    assert stopped.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_fill_kernel_counts_rejects_and_differs() -> None:
    four = Geometry.of_size(4)
    given = np.zeros(16, np.int64)
    given[0] = given[1] = 1  # two 1s in a row: no completion
    assert four.completions(given)[0] == 0
    count, grids = four.completions(four.first_row(), store=True)
    assert count == len({g.tobytes() for g in grids}) == 12
    other = np.zeros((1, 16), np.int8)
    reference = grids[0].astype(np.int64)
    # the whole grid given: nothing else completes it; its first row only: others do
    assert kernels.fill(4, four.box, reference, kernels.DIFFER, other, reference, 16) == 0
    assert kernels.fill(4, four.box, four.first_row(), kernels.DIFFER, other, reference, 16) == 1
    assert not np.array_equal(other[0], reference)


def test_6x6_grids_with_a_fixed_first_row_times_the_relabellings() -> None:
    six = Geometry.of_size(6)
    assert (
        len(six.maps) == 2 * 6**2 * 6 * 2**3
    )  # stacks and columns x bands and rows; no transposition
    count, grids = six.completions(six.first_row(), store=True)
    assert count * math.factorial(6) == 28_200_960
    # split by the 36 second rows the boxes allow: the parts add up
    by_second_row = 0
    for grid in {g[6:12].tobytes(): g for g in grids}.values():
        given = six.first_row()
        given[6:12] = grid[6:12]
        by_second_row += six.completions(given)[0]
    assert by_second_row == count
    rules = six.rules
    assert all(
        is_solution(Grid.empty(rules), Grid(rules, tuple(map(int, g)))) for g in grids[::997]
    )


def test_6x6_canonical_forms_and_burnside_agree_on_a_subgroup() -> None:
    """Row permutations (bands, rows within them) and relabellings only: both counts agree."""
    six = Geometry.of_size(6)
    _, grids = six.completions(six.first_row(), store=True)
    columns = np.arange(36) % 6
    rows_only = six.maps[(six.maps % 6 == columns).all(axis=1)]
    assert len(rows_only) == 48
    forms = np.zeros_like(grids)
    kernels.canonical_forms(grids, rows_only, 6, forms)
    by_forms = len(np.unique(forms, axis=0))
    assert burnside(six, grids, rows_only).classes == by_forms
    assert by_forms > 49  # fewer symmetries, more classes


def test_6x6_no_7_clue_puzzle_on_one_class_and_an_8_clue_one_on_another() -> None:
    six = Geometry.of_size(6)
    _, grids = six.completions(six.first_row(), store=True)
    hard = _grid(SIX_HARD)
    proof = search_class(six, hard, unavoidable_sets(six, hard, grids, UNAVOIDABLE_CELLS[6]), 7)
    assert proof.unique is None and proof.nodes > 1
    eight = _grid(SIX_EIGHT)
    found = search_class(six, eight, unavoidable_sets(six, eight, grids, UNAVOIDABLE_CELLS[6]), 8)
    assert found.unique is not None and len(found.unique) == 8
    cells = set(found.unique)
    puzzle = Grid(six.rules, tuple(int(v) if c in cells else 0 for c, v in enumerate(eight)))
    assert create("propagating").solve(puzzle, limit=2).count == 1


def test_unavoidable_sets_are_minimal_and_really_unavoidable() -> None:
    four = Geometry.of_size(4)
    counted, grids = count_grids(four)
    grid = grids[0].astype(np.int64)
    sets = [int(s) for s in unavoidable_sets(four, grid, grids, 16)]
    assert not any(a != b and a & b == a for a in sets for b in sets)
    _, everything = four.completions(np.zeros(16, np.int64), store=True)
    assert len(everything) == counted.grids
    for mask in sets:  # some other grid agrees with `grid` everywhere outside the set
        outside = [c for c in range(16) if not mask >> c & 1]
        assert any(
            (other[outside] == grid[outside]).all() and (other != grid).any()
            for other in everything
        )


@pytest.mark.slow
def test_the_6x6_facts_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["facts", "--size", "6", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["grids"], record["first_row_fixed"]) == (28_200_960, 39_168)
    assert record["classes"] == record["burnside"]["classes"] == 49
    assert sum(record["class_sizes"]) == 28_200_960
    assert record["minimum_clues"] == 8
    assert len(record["none_below"]) == 49
    assert all(p["clues"] == 7 for p in record["none_below"])
    assert record["example"]["solutions"] == 1


def test_classes_by_canonical_form_cover_every_4x4_grid() -> None:
    four = Geometry.of_size(4)
    counted, grids = count_grids(four)
    classes = classes_by_canonical_form(four, grids)
    assert sum(classes.sizes) == counted.grids
