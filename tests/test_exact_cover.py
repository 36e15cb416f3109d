"""The Sudoku exact-cover reduction: sizes, names, givens, export, and the round trip."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.exact_cover import (
    ExactCoverMatrix,
    SudokuExactCover,
    describe,
    export,
    full_matrix,
    placement_row,
)
from sudoku_bench.solvers.base import Deadline
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver
from tests.dlx_helpers import THESIS_PUZZLE, pattern_solution

REDUCTION = SudokuExactCover()
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("rules", "columns", "rows"),
    [
        (Rules.of_size(4), 64, 64),
        (Rules.of_size(6), 144, 216),
        (Rules.of_size(9), 324, 729),
        (Rules.of_size(9, diagonals=True), 342, 729),
        (Rules.of_size(16), 1024, 4096),
    ],
)
def test_the_full_matrix_has_4n2_columns_and_n3_rows(rules: Rules, columns: int, rows: int) -> None:
    matrix = full_matrix(rules)
    assert (len(matrix.columns), len(matrix.rows)) == (columns, rows)
    assert matrix.primary == columns and matrix.secondary == 0
    assert len(set(matrix.columns)) == columns
    # every column of a family is met by N rows, so ones = 4·N³ (+ N per extra-unit cell)
    extra = sum(len(unit) for unit in rules.extra_units)
    assert matrix.ones == 4 * rules.size**3 + extra * rules.size


def test_rows_and_columns_are_numbered_as_in_the_thesis() -> None:
    rules = Rules.of_size(4)
    matrix = full_matrix(rules)
    # the thesis's row 19 (1-based) is "3 in the first cell of the second row"
    row = placement_row(rules, rules.cell(1, 0), 3)
    assert row == 18
    assert [matrix.columns[c] for c in matrix.rows[row]] == ["r2c1", "r2#3", "c1#3", "b1#3"]
    # its columns: (r-1)·4 + c, then +16 for row-digit, +32 column-digit, +48 box-digit
    assert [c + 1 for c in matrix.rows[row]] == [5, 16 + 4 + 3, 32 + 3, 48 + 3]


def test_sudoku_x_adds_a_family_per_diagonal() -> None:
    rules = Rules.of_size(9, diagonals=True)
    matrix = full_matrix(rules)
    centre = placement_row(rules, rules.cell(4, 4), 7)
    names = [matrix.columns[c] for c in matrix.rows[centre]]
    assert names == ["r5c5", "r5#7", "c5#7", "b5#7", "x1#7", "x2#7"]
    corner = placement_row(rules, rules.cell(0, 8), 1)
    assert [matrix.columns[c] for c in matrix.rows[corner]][-1] == "x2#1"


def test_givens_select_their_rows_up_front() -> None:
    puzzle = Grid.from_string(THESIS_PUZZLE)
    matrix, data = REDUCTION.apply(puzzle)
    assert len(data.given_rows) == 4
    assert len(matrix.columns) == 64 - 4 * 4  # each given covers four columns
    assert "r2c1" not in matrix.columns and "r2#3" not in matrix.columns
    # no row left meets a given's column: the other digits of r2c1 and the 3s of its units
    placements = set(data.placements)
    assert not any((puzzle.rules.cell(1, 0), d) in placements for d in range(1, 5))
    assert (puzzle.rules.cell(0, 0), 3) not in placements
    assert describe(puzzle)["after"] == {"columns": 48, "rows": 24, "ones": 96}


def test_clashing_givens_leave_a_column_no_row_can_cover() -> None:
    puzzle = Grid.from_string("1100000000000000")  # two 1s in row 1 and box 1
    matrix, data = REDUCTION.apply(puzzle)
    assert data.clashes == ("r1#1", "b1#1")
    for name in data.clashes:
        column = matrix.columns.index(name)
        assert not any(column in row for row in matrix.rows)


def test_describe_counts_before_and_after_givens() -> None:
    summary = describe(Grid.from_string("." * 81))
    assert summary["before"] == summary["after"] == {"columns": 324, "rows": 729, "ones": 2916}
    assert summary["givens"] == 0


def test_export_is_knuths_format_and_reads_back() -> None:
    puzzle = Grid.from_string(THESIS_PUZZLE)
    text = export(puzzle)
    lines = text.splitlines()
    assert all(line.startswith("| ") for line in lines[:5])
    matrix, _ = REDUCTION.apply(puzzle)
    assert ExactCoverMatrix.from_text(text) == matrix
    body = [line for line in lines if not line.startswith("|")]
    assert len(body) == 1 + len(matrix.rows)
    assert body[1].split() == [matrix.columns[c] for c in matrix.rows[0]]


def test_secondary_columns_follow_a_bar_in_the_export() -> None:
    matrix = ExactCoverMatrix(("a", "b", "x"), primary=2, rows=((0, 2), (1,), (0,)))
    text = matrix.to_text(["three rows"])
    assert text.splitlines()[:2] == ["| three rows", "a b | x"]
    assert ExactCoverMatrix.from_text(text) == matrix
    only_secondary = ExactCoverMatrix(("x", "y"), primary=0, rows=((0,), (0, 1)))
    assert ExactCoverMatrix.from_text(only_secondary.to_text()) == only_secondary


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a b\na c\n", "t:2:3"),
        ("a b\nb b\n", "t:2:3"),
        ("| only a comment\n", "t"),
        ("a a\n", "t:1"),
    ],
)
def test_bad_export_text_names_the_line_and_column(text: str, where: str) -> None:
    with pytest.raises(PuzzleFormatError) as error:
        ExactCoverMatrix.from_text(text, source="t")
    assert str(error.value).startswith(where + ":")


def test_invert_refuses_two_digits_in_one_cell() -> None:
    _, data = REDUCTION.apply(Grid.from_string("0" * 16))
    rows = [data.placements.index((0, 1)), data.placements.index((0, 2))]
    with pytest.raises(ValueError, match="r1c1"):
        REDUCTION.invert(rows, data)


@st.composite
def solved_grids(draw: st.DrawFn) -> Grid:
    """A filled grid: a pattern solution with its digits, bands, stacks, rows and columns
    shuffled (every such shuffle keeps a grid valid)."""
    rules = Rules.of_size(draw(st.sampled_from([4, 6, 8, 9, 12])))
    n, box_rows, box_cols = rules.size, rules.box_rows, rules.box_cols
    digits = draw(st.permutations(range(1, n + 1)))
    bands = draw(st.permutations(range(n // box_rows)))
    stacks = draw(st.permutations(range(n // box_cols)))
    rows = [b * box_rows + r for b in bands for r in draw(st.permutations(range(box_rows)))]
    cols = [s * box_cols + c for s in stacks for c in draw(st.permutations(range(box_cols)))]
    base = pattern_solution(rules)
    return Grid(rules, tuple(digits[base.at(r, c) - 1] for r in rows for c in cols))


@settings(max_examples=60, deadline=None)
@given(solved_grids(), st.data())
def test_a_solution_maps_to_an_exact_cover_and_back(grid: Grid, data: st.DataObject) -> None:
    assert is_solution(Grid.empty(grid.rules), grid)
    kept = data.draw(st.sets(st.sampled_from(list(grid.rules.cells))), label="givens")
    puzzle = Grid(grid.rules, tuple(v if c in kept else 0 for c, v in enumerate(grid.values)))
    matrix, cover = REDUCTION.apply(puzzle)
    rows = REDUCTION.encode(grid, cover)
    assert matrix.is_exact_cover(rows)
    assert REDUCTION.invert(rows, cover) == grid


def test_reduce_command_prints_sizes_and_writes_the_matrix(tmp_path: Path) -> None:
    out = tmp_path / "thesis.dlx"
    command = [sys.executable, "-m", "sudoku_bench.harness", "reduce", THESIS_PUZZLE, "--json", "-o", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True)
    summary = json.loads(done.stdout)
    assert summary["target"] == "exact-cover"
    assert summary["before"] == {"columns": 64, "rows": 64, "ones": 256}
    assert summary["after"] == {"columns": 48, "rows": 24, "ones": 96}
    assert ExactCoverMatrix.from_text(out.read_text()).size()["rows"] == 24


@pytest.mark.parametrize("entry", load("top95")[:5] + load("4x4")[:5], ids=lambda e: e.id)
def test_selecting_the_givens_in_the_linked_matrix_leaves_the_reduced_matrix(
    entry: PuzzleEntry,
) -> None:
    """The `dlx` back-end's shortcut removes the same columns and rows as `apply`."""
    matrix, data = REDUCTION.apply(entry.puzzle)
    links = DlxSolver()._build(entry.puzzle, Deadline(None)).links
    assert links.active_columns() == len(matrix.columns)
    sizes = dict(zip(data.full.columns, links.column_sizes(), strict=True))
    expected = [sum(1 for row in matrix.rows if c in row) for c in range(len(matrix.columns))]
    assert [sizes[name] for name in matrix.columns] == expected
