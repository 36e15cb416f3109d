"""Each technique on a position where it, and no simpler technique, applies: exact moves."""

from __future__ import annotations

import pytest

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import Candidates, Move, Step
from sudoku_bench.solvers.engines.logic.techniques import BY_KEY, TECHNIQUES, choose, for_rules
from tests.logic_positions import (
    NINE,
    column_cells,
    digit_only_at,
    position,
    row_cells,
)


def cells(*names: str) -> list[int]:
    lookup = {NINE.cell_name(cell): cell for cell in NINE.cells}
    return [lookup[name] for name in names]


def moves(digit: int, names: list[str]) -> set[Move]:
    return {(cell, digit) for cell in cells(*names)}


def only_first(key: str, state: Candidates) -> Step:
    """The step of technique `key`, after checking that every simpler technique finds nothing."""
    for technique in for_rules(choose(None), state.rules):
        if technique.key == key:
            step = technique.find(state)
            assert step is not None, f"{key} finds nothing"
            assert step.technique == key
            return step
        assert technique.find(state) is None, f"{technique.key} applies before {key}"
    raise AssertionError(f"no technique {key}")


def test_naked_single() -> None:
    step = only_first("naked_single", position({"r4c5": "8"}))
    assert step.placements == ((NINE.cell(3, 4), 8),)
    assert step.describe(NINE) == "r4c5 = 8: naked single"


def test_hidden_single_in_a_box() -> None:
    box5 = [NINE.cell_name(c) for c in NINE.regions[4]]
    step = only_first("hidden_single", position(digit_only_at("8", ["r4c5"], box5)))
    assert step.placements == ((NINE.cell(3, 4), 8),)
    assert step.describe(NINE) == "r4c5 = 8: hidden single in box 5"


def test_pointing_pair() -> None:
    box1 = [NINE.cell_name(c) for c in NINE.regions[0]]
    marks = digit_only_at("3", ["r1c1", "r1c2"], box1)
    marks |= digit_only_at("3", ["r1c7", "r1c8"], row_cells(1, range(4, 10)))
    step = only_first("pointing", position(marks))
    assert set(step.eliminations) == moves(3, ["r1c7", "r1c8"])
    assert step.describe(NINE) == "pointing pair of 3s in box 1 (row 1) removes 3 from r1c7, r1c8"


def test_pointing_triple_along_a_column() -> None:
    box9 = [NINE.cell_name(c) for c in NINE.regions[8]]
    step = only_first("pointing", position(digit_only_at("6", ["r7c9", "r8c9", "r9c9"], box9)))
    assert set(step.eliminations) == moves(6, column_cells(9, range(1, 7)))
    assert step.reason == "pointing triple of 6s in box 9 (column 9)"


def test_box_line_reduction() -> None:
    marks = digit_only_at("3", ["r1c1", "r1c2"], row_cells(1, range(1, 10)))
    step = only_first("box_line_reduction", position(marks))
    box1_rest = row_cells(2, range(1, 4)) + row_cells(3, range(1, 4))
    assert set(step.eliminations) == moves(3, box1_rest)
    assert step.reason == "box/line reduction of 3s in row 1 (box 1)"


def test_naked_pair() -> None:
    step = only_first("naked_pair", position({"r1c1": "12", "r1c5": "12"}))
    others = row_cells(1, [2, 3, 4, 6, 7, 8, 9])
    assert set(step.eliminations) == moves(1, others) | moves(2, others)
    assert step.reason == "naked pair 1/2 in r1c1, r1c5 (row 1)"


def test_naked_pair_in_a_row_and_a_box_clears_both() -> None:
    step = only_first("naked_pair", position({"r1c1": "12", "r1c2": "12"}))
    others = row_cells(1, range(3, 10)) + row_cells(2, range(1, 4)) + row_cells(3, range(1, 4))
    assert set(step.eliminations) == moves(1, others) | moves(2, others)


def test_hidden_pair() -> None:
    marks = {cell: "3456789" for cell in row_cells(1, range(1, 10))}
    marks |= {"r1c1": "1234", "r1c5": "1256"}
    step = only_first("hidden_pair", position(marks))
    assert set(step.eliminations) == moves(3, ["r1c1"]) | moves(4, ["r1c1"]) | moves(
        5, ["r1c5"]
    ) | moves(6, ["r1c5"])
    assert step.reason == "hidden pair 1/2 in r1c1, r1c5 (row 1)"


def test_naked_triple() -> None:
    step = only_first("naked_triple", position({"r1c1": "12", "r1c4": "23", "r1c7": "13"}))
    others = row_cells(1, [2, 3, 5, 6, 8, 9])
    assert set(step.eliminations) == moves(1, others) | moves(2, others) | moves(3, others)
    assert step.reason == "naked triple 1/2/3 in r1c1, r1c4, r1c7 (row 1)"


def test_hidden_triple() -> None:
    marks = {cell: "456789" for cell in row_cells(1, range(1, 10))}
    marks |= {"r1c1": "1245", "r1c4": "2367", "r1c7": "1389"}
    step = only_first("hidden_triple", position(marks))
    expected = {
        *moves(4, ["r1c1"]),
        *moves(5, ["r1c1"]),
        *moves(6, ["r1c4"]),
        *moves(7, ["r1c4"]),
        *moves(8, ["r1c7"]),
        *moves(9, ["r1c7"]),
    }
    assert set(step.eliminations) == expected
    assert step.reason == "hidden triple 1/2/3 in r1c1, r1c4, r1c7 (row 1)"


def test_naked_quad() -> None:
    marks = {"r1c1": "12", "r1c2": "23", "r1c4": "34", "r1c7": "14"}
    step = only_first("naked_quad", position(marks))
    others = row_cells(1, [3, 5, 6, 8, 9])
    assert set(step.eliminations) == {(c, d) for c in cells(*others) for d in (1, 2, 3, 4)}
    assert step.reason == "naked quad 1/2/3/4 in r1c1, r1c2, r1c4, r1c7 (row 1)"


def test_x_wing() -> None:
    marks = digit_only_at("5", ["r1c2", "r1c8"], row_cells(1, range(1, 10)))
    marks |= digit_only_at("5", ["r5c2", "r5c8"], row_cells(5, range(1, 10)))
    step = only_first("x_wing", position(marks))
    rows = [2, 3, 4, 6, 7, 8, 9]
    assert set(step.eliminations) == moves(5, column_cells(2, rows) + column_cells(8, rows))
    assert step.reason == "X-wing of 5s in rows 1, 5 (columns 2, 8)"


def test_xy_wing() -> None:
    step = only_first("xy_wing", position({"r1c1": "12", "r1c5": "13", "r2c2": "23"}))
    assert set(step.eliminations) == moves(3, ["r1c2", "r1c3", "r2c4", "r2c5", "r2c6"])
    assert step.reason == "XY-wing with pivot r1c1 (1/2) and pincers r1c5 (1/3), r2c2 (2/3)"


def test_hidden_quad() -> None:
    marks = {cell: "56789" for cell in row_cells(1, range(1, 10))}
    # 1 in r1c1, r1c4; 2 in r1c4, r1c2; 3 in r1c2, r1c5; 4 in r1c5, r1c1: a cycle, so no
    # two or three of the digits share as few cells, and no pair sits in one box
    marks |= {"r1c1": "1456", "r1c4": "1257", "r1c2": "2358", "r1c5": "3459"}
    step = only_first("hidden_quad", position(marks))
    expected = {
        (cell, d)
        for name, ds in [("r1c1", (5, 6)), ("r1c4", (5, 7)), ("r1c2", (5, 8)), ("r1c5", (5, 9))]
        for cell in cells(name)
        for d in ds
    }
    assert set(step.eliminations) == expected


def test_swordfish() -> None:
    marks: dict[str, str] = {}
    for row, keep in ((1, ["r1c2", "r1c5"]), (5, ["r5c5", "r5c8"]), (9, ["r9c2", "r9c8"])):
        marks |= digit_only_at("5", keep, row_cells(row, range(1, 10)))
    step = only_first("swordfish", position(marks))
    rows = [2, 3, 4, 6, 7, 8]
    expected = moves(5, column_cells(2, rows) + column_cells(5, rows) + column_cells(8, rows))
    assert set(step.eliminations) == expected
    assert step.reason == "swordfish of 5s in rows 1, 5, 9 (columns 2, 5, 8)"


def test_simple_colouring_trap() -> None:
    # 5s: row 1 only at r1c1/r1c5, column 5 only at r1c5/r5c5, box 5 only at r5c5/r6c6.
    # The chain r1c1 (A) - r1c5 (B) - r5c5 (A) - r6c6 (B): r6c1 sees A and B.
    marks = digit_only_at("5", ["r1c1", "r1c5"], row_cells(1, range(1, 10)))
    marks |= digit_only_at("5", ["r1c5", "r5c5"], column_cells(5, range(1, 10)))
    box5 = [NINE.cell_name(c) for c in NINE.regions[4]]
    marks |= digit_only_at("5", ["r5c5", "r6c6"], box5)
    step = only_first("simple_colouring", position(marks))
    assert set(step.eliminations) == moves(5, ["r6c1"])
    assert step.reason.startswith("simple colouring of 5s (colour trap: chain r1c1, r5c5 | ")


def test_simple_colouring_wrap() -> None:
    # 7s: r1c1 -row 1- r1c5 -column 5- r5c5 -row 5- r5c2 -column 2- r2c2. Colours alternate,
    # so r1c1, r5c5 and r2c2 share one; r1c1 and r2c2 meet in box 1, so that colour is false.
    marks = digit_only_at("7", ["r1c1", "r1c5"], row_cells(1, range(1, 10)))
    marks |= digit_only_at("7", ["r1c5", "r5c5"], column_cells(5, range(1, 10)))
    marks |= digit_only_at("7", ["r5c5", "r5c2"], row_cells(5, range(1, 10)))
    marks |= digit_only_at("7", ["r5c2", "r2c2"], column_cells(2, range(1, 10)))
    step = only_first("simple_colouring", position(marks))
    assert step.reason.startswith("simple colouring of 7s (colour wrap: r1c1, r2c2 share")
    assert set(step.eliminations) == moves(7, ["r1c1", "r2c2", "r5c5"])


def test_jellyfish() -> None:
    marks: dict[str, str] = {}
    # columns 1-4-2-7-1 form a cycle; rows 7 and 9 share a band, so between them they meet
    # every stack (else a box of that band would hold 5 in one row only: a pointing move)
    rows = ((1, [1, 4]), (4, [2, 7]), (7, [4, 2]), (9, [7, 1]))
    for row, columns in rows:
        marks |= digit_only_at("5", [f"r{row}c{c}" for c in columns], row_cells(row, range(1, 10)))
    step = only_first("jellyfish", position(marks))
    others = [2, 3, 5, 6, 8]
    expected = moves(5, [name for c in (1, 2, 4, 7) for name in column_cells(c, others)])
    assert set(step.eliminations) == expected
    assert step.reason == "jellyfish of 5s in rows 1, 4, 7, 9 (columns 1, 2, 4, 7)"


def test_every_basic_technique_has_a_test_here() -> None:
    """The basic techniques here; the advanced and variant ones in test_logic_advanced."""
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    for technique in TECHNIQUES:
        if technique.weight < 4.6 and technique.applies(NINE) and technique.default:
            if technique.key in ("w_wing", "xyz_wing", "remote_pairs"):
                continue
            assert any(name.startswith(technique.key) for name in tested), technique.key


@pytest.mark.parametrize("size", [4, 6, 16])
def test_techniques_use_the_geometry_not_nine(size: int) -> None:
    rules = Rules.of_size(size)
    digits = "".join("123456789ABCDEFG"[d - 1] for d in rules.digits)
    marks = [digits] * rules.cell_count
    # a naked pair of 1/2 in the first row of any size
    marks[0] = marks[size - 1] = "12"
    state = Candidates.from_marks(rules, marks)
    step = BY_KEY["naked_pair"].find(state)
    assert step is not None
    assert set(step.eliminations) == {(c, d) for c in range(1, size - 1) for d in (1, 2)}
