"""Grid: the seeds' list of lists equals the line form; lines and pictures; immutability."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings

from sudoku_bench.puzzles import Grid, PuzzleFormatError, Rules
from sudoku_bench.puzzles.symbols import HEX, LETTERS
from tests.formats_strategies import GEOMETRIES, SEEDS, random_solution, remove_cells

# The board of source document 000, exactly as it is written there.
BOARD = [
    [5, 3, 0, 0, 7, 0, 0, 0, 0],
    [6, 0, 0, 1, 9, 5, 0, 0, 0],
    [0, 9, 8, 0, 0, 0, 0, 6, 0],
    [8, 0, 0, 0, 6, 0, 0, 0, 3],
    [4, 0, 0, 8, 0, 3, 0, 0, 1],
    [7, 0, 0, 0, 2, 0, 0, 0, 6],
    [0, 6, 0, 0, 0, 0, 2, 8, 0],
    [0, 0, 0, 4, 1, 9, 0, 0, 5],
    [0, 0, 0, 0, 8, 0, 0, 7, 9],
]
LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_seed_board_equals_line_form() -> None:
    grid = Grid.from_rows(BOARD)
    assert grid == Grid.from_string(LINE)
    assert grid == Grid.from_string(LINE.replace(".", "0"))
    assert grid.to_line() == LINE
    assert grid.to_rows() == BOARD
    assert grid.at(0, 1) == BOARD[0][1] == 3
    assert grid.givens == 30


PICTURE = """\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9"""


def test_picture_of_the_seed_board() -> None:
    assert Grid.from_rows(BOARD).picture() == PICTURE


def test_picture_of_a_6x6_shows_2x3_boxes() -> None:
    grid = Grid.from_string("1.....2.....3.....4.....5.....6.....")
    assert grid.picture().splitlines()[:3] == [
        "1 . . | . . .",
        "2 . . | . . .",
        "------+------",
    ]


def test_picture_of_a_16x16_in_hex() -> None:
    grid = Grid.empty(Rules.of_size(16)).with_values({0: 1, 15: 16})
    first = grid.picture(HEX).splitlines()[0]
    assert first == "0 . . . | . . . . | . . . . | . . . F"
    assert grid.to_line(HEX, blank="-")[:2] == "0-"


@pytest.mark.parametrize("rules", GEOMETRIES, ids=str)
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_line_rows_and_alphabets_agree(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    grid = remove_cells(random_solution(rules, rng), rng, rng.random())
    assert Grid.from_rows(grid.to_rows(), rules) == grid
    assert Grid.from_string(grid.to_line(), rules) == grid
    assert Grid.from_string(grid.to_line().lower(), rules) == grid  # letters either case
    if rules.size <= 16:
        assert Grid.from_string(grid.to_line(HEX), rules, alphabet=HEX) == grid
    assert Grid.from_string(grid.to_line(LETTERS), rules, alphabet=LETTERS) == grid
    spaced = " ".join(grid.to_line())
    assert Grid.from_string(spaced, rules) == grid


def test_grids_are_immutable_and_checked() -> None:
    grid = Grid.from_string(LINE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        grid.values = ()  # type: ignore[misc]
    assert grid.with_values({2: 4})[2] == 4 and grid[2] == 0
    with pytest.raises(PuzzleFormatError, match="r1c1 holds 10: values are 0"):
        Grid(grid.rules, (10, *grid.values[1:]))
    with pytest.raises(PuzzleFormatError, match="9 rows of 9 values"):
        Grid.from_rows(BOARD[:8], grid.rules)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", 9),
        ("530070000600195000098000060800060003400803001700020006060000280000419005000080079", 9),
        ("abc.....g1" * 25 + "abcdef", 16),
    ],
    ids=["canonical", "zero-blanks", "lower-case"],
)
def test_the_line_kept_is_the_line_written(text: str, size: int) -> None:
    """A grid keeps its default line once read or written: always the canonical one (`.`
    for empty, upper-case symbols), whatever the line it was read from; equality and hashing
    look at the values only."""
    grid = Grid.from_string(text, Rules.of_size(size))
    fresh = Grid(grid.rules, grid.values)  # no line kept yet
    assert grid.to_line() == fresh.to_line() == fresh.to_line()
    symbols = ".123456789ABCDEFG"
    assert grid.to_line() == "".join(symbols[value] for value in grid.values)
    assert grid == fresh and hash(grid) == hash(fresh)
    assert grid.picture() == fresh.picture()
