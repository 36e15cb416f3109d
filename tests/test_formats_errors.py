"""Bad input: every kind of error names file, line and column and what was expected."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from sudoku_bench.puzzles import InvalidPuzzleError, PuzzleFormatError
from sudoku_bench.puzzles.formats import ReadOptions, ReadReport, read_file, read_text, sniff_format

SEED = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def error_of(text: str, fmt: str = ".txt", options: ReadOptions = ReadOptions()) -> str:
    with pytest.raises(PuzzleFormatError) as caught:
        read_text(text, "f", fmt, options)
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # bad symbol: the column of the character
        (f"# header\n{SEED[:10]}x{SEED[11:]}\n", "f:2:11: unexpected 'x': a 9x9 cell is one of"),
        # the column counts from the start of the line, indentation included
        (f"  {SEED[:4]}?{SEED[5:]}\n", "f:1:7: unexpected '?'"),
        # a value beyond the size: 'A' is 10, no cell of a 9x9
        (f"{SEED[:80]}A\n", "f:1:81: unexpected 'A'"),
        # unknown size
        (f"{SEED[:80]}\n", "f:1: 80 cells is no puzzle size: expected 16 (4x4)"),
        # duplicate given: the second 5 of row 1, at column 2
        ("55" + SEED[2:] + "\n", "f:1:2: the givens break the rules: 5 appears 2 times in row 1"),
    ],
)
def test_line_format_errors(text: str, expected: str) -> None:
    assert error_of(text).startswith(expected)


def test_wrong_length_with_a_known_geometry_points_past_the_end() -> None:
    from sudoku_bench.puzzles import Rules

    message = error_of(SEED[:80] + "\n", options=ReadOptions(rules=Rules.of_size(9)))
    assert message.startswith("f:1:81: expected 81 cells for a 9x9 puzzle, got 80")


@pytest.mark.parametrize(
    ("unit", "cells"),
    [
        ("column 1", {0: 5, 9: 5}),
        ("box 1", {0: 5, 10: 5}),
        ("diagonal", {0: 5, 80: 5}),
        ("anti-diagonal", {8: 5, 72: 5}),
    ],
)
def test_duplicate_givens_name_the_unit(unit: str, cells: dict[int, int]) -> None:
    line = "".join(str(cells.get(cell, 0)) for cell in range(81))
    message = error_of(line, options=ReadOptions(diagonals=True))
    assert f"5 appears 2 times in {unit} " in message
    with pytest.raises(InvalidPuzzleError):
        read_text(line, "f", options=ReadOptions(diagonals=True))
    # --allow-conflicts reads it anyway
    assert read_text(line, "f", options=ReadOptions(check_givens=False, diagonals=True))


GRID = [
    "53..7....",
    "6..195...",
    ".98....6.",
    "8...6...3",
    "4..8.3..1",
    "7...2...6",
    ".6....28.",
    "...419..5",
    "....8..79",
]


def grid_text(*changes: tuple[int, str]) -> str:
    rows = list(GRID)
    for index, row in changes:
        rows[index] = row
    return "Grid 01\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (grid_text((3, "8...6..x3")), "f:5:8: unexpected 'x': a cell of a 9x9 grid"),
        (
            grid_text((3, "8...6...")),
            "f:5: expected 9 cells in each row (as in the puzzle's first row), got 8",
        ),
        (
            grid_text((6, ".6....288")),
            "f:8:9: the givens break the rules: 8 appears 2 times in row 7",
        ),
        ("\n".join(GRID[:7]) + "\n", "f:1: the file ends after 7 of the puzzle's 9 rows"),
        ("1234567\n", "f:1: a row of 7 cells: expected 4, 6, 8, 9, 12, 16 or 25"),
        (
            SEED + "\n",
            "f:1: a row of 81 cells: expected 4, 6, 8, 9, 12, 16 or 25 cells per row (a whole",
        ),
    ],
)
def test_grid_errors(text: str, expected: str) -> None:
    assert error_of(text, "grid").startswith(expected)


def test_sdk_errors_like_grids() -> None:
    text = "#AMe\n" + "\n".join(GRID).replace("4..8.3..1", "4..8.3..?") + "\n"
    assert error_of(text, ".sdk").startswith("f:6:9: unexpected '?'")


def test_csv_errors() -> None:
    assert error_of("a,b\n1,2\n", ".csv").startswith("f:1: the CSV header has no column 'quizzes'")
    bad = SEED[:5] + "x" + SEED[6:]
    assert error_of(f"quizzes,solutions\n{bad},\n", ".csv").startswith("f:2:6: unexpected 'x'")
    wrong = "1" * 81
    message = error_of(f"quizzes,solutions\n{SEED},{wrong}\n", ".csv")
    assert message.startswith("f:2: the solution does not solve the puzzle: r1c1 is 1, given 5")


def test_json_errors() -> None:
    assert error_of('{"puzzle": "12",\n  oops}', "json").startswith("f:2:3: not JSON")
    assert error_of('[{"id": 1}]', "json").startswith('f:1: expected a JSON object with a "puzzle"')
    text = '[\n  {"id": "a",\n   "puzzle": "' + SEED[:3] + "z" + SEED[4:] + '"}\n]'
    # the column of the bad character inside the string, in the file
    assert error_of(text, "json").startswith("f:3:18: \"puzzle\": unexpected 'z'")
    duplicate = json.dumps({"puzzle": "55" + SEED[2:]})
    assert error_of(duplicate, "json").startswith("f:1:14: the givens break the rules")
    state = json.dumps({"puzzle": SEED, "state": {"values": "6" + SEED[1:]}})
    assert "the values change givens at r1c1" in error_of(state, "json")
    marks = json.dumps({"puzzle": SEED, "state": {"candidates": {"r10c1": [1]}}})
    assert "'r10c1' is no cell: expected r1c1 to r9c9" in error_of(marks, "json")
    assert error_of('{"puzzle": 3}\n', "jsonl").startswith('f:1: "puzzle": expected a string')


def test_skip_invalid_counts_and_goes_on() -> None:
    lines = [SEED, SEED[:80], SEED.replace("3", "x", 1), "55" + SEED[2:], SEED]
    report = ReadReport()
    read = read_text("\n".join(lines), "f", options=ReadOptions(skip_invalid=True), report=report)
    assert [e.id for e in read] == ["f:1", "f:5"]
    assert [(e.line, type(e).__name__) for e in report.skipped] == [
        (2, "PuzzleFormatError"),
        (3, "PuzzleFormatError"),
        (4, "InvalidPuzzleError"),
    ]


def test_skip_invalid_in_grids_keeps_the_next_puzzle_in_step() -> None:
    bad = grid_text((3, "8...6..x3"))
    good = grid_text()
    report = ReadReport()
    read = read_text(bad + good + bad, "f", "grid", ReadOptions(skip_invalid=True), report)
    assert [e.id for e in read] == ["f:12"]
    assert len(report.skipped) == 2


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(PuzzleFormatError, match="cannot read"):
        read_file(tmp_path / "nope.txt")
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    with pytest.raises(PuzzleFormatError, match=r"b\.txt:1:1: not a UTF-8 text file"):
        read_file(binary)


@pytest.mark.parametrize(
    ("text", "fmt", "expected"),
    [
        # rows of numbers that make no board: a bare RulesError without file or line
        ('{"puzzle": [[1, 2, 3, 4], [1, 2]]}', "json", 'f:1: "puzzle": 2 rows make no board'),
        ('\n{"puzzle": []}', "json", 'f:2: "puzzle": 0 rows make no board: size 0 is too small'),
        ('{"puzzle": [[0]]}\n', "jsonl", 'f:1: "puzzle": 1 rows make no board'),
        # Python's parser recurses: a RecursionError traceback
        ("[" * 100_000, "json", "f: JSON nested too deeply to be a puzzle"),
        ("[" * 100_000 + "\n", "jsonl", "f:1: JSON nested too deeply to be a puzzle"),
    ],
)
def test_json_that_breaks_the_parser_or_the_geometry(text: str, fmt: str, expected: str) -> None:
    assert error_of(text, fmt).startswith(expected)


def test_skip_invalid_passes_over_rows_that_make_no_board() -> None:
    text = '{"puzzle": [[1, 2], [2, 1]]}\n' + json.dumps({"puzzle": SEED}) + "\n"
    report = ReadReport()
    read = read_text(text, "f", "jsonl", ReadOptions(skip_invalid=True), report)
    assert [e.id for e in read] == ["f:2"] and report.skipped[0].line == 1


def test_a_byte_that_is_not_utf8_is_located(tmp_path: Path) -> None:
    """It was 'not a text file' for the whole file, wherever the byte was: now file:line:column,
    and --skip-invalid loses only the line it is in (a Latin-1 comment loses nothing)."""
    path = tmp_path / "latin1.txt"
    path.write_bytes(f"# Fr\xe9d\xe9ric\n{SEED}\n".encode("latin-1") + b"5\xe9" + SEED[2:].encode())
    with pytest.raises(PuzzleFormatError) as caught:
        read_file(path)
    assert str(caught.value).startswith(f"{path}:1:5: not a UTF-8 text file (byte 0xe9)")
    report = ReadReport()
    read = read_file(path, ReadOptions(skip_invalid=True), report)
    assert [e.id for e in read] == [f"{path}:2"]
    assert [(e.line, e.column) for e in report.skipped] == [(3, 2)]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-16-be", "utf-32-be"])
def test_utf16_utf32_and_a_bom_are_read(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "windows.txt"  # PowerShell's `>` writes UTF-16 with a BOM
    data = codecs.BOM_UTF16_BE if encoding == "utf-16-be" else b""
    data = codecs.BOM_UTF32_BE if encoding == "utf-32-be" else data
    path.write_bytes(data + (SEED + "\r\n").encode(encoding))
    assert [e.puzzle.to_line() for e in read_file(path)] == [SEED.replace("0", ".")]
    # a BOM that reached read_text (through a pipe) was a 17th cell, read as a grid's title
    assert len(read_text("\ufeff...3..4114..3...\r\n", "stdin")) == 1


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-le"])
def test_utf16_or_utf32_without_a_bom_is_named(tmp_path: Path, encoding: str) -> None:
    """UTF-32 was read as UTF-16 (its BOM begins with UTF-16's) and called an invisible
    character; without a BOM, a NUL byte says what the file probably is."""
    path = tmp_path / "no-bom.txt"
    path.write_bytes((SEED + "\n").encode(encoding))
    with pytest.raises(PuzzleFormatError) as caught:
        read_file(path)
    assert "a NUL byte: UTF-16 or UTF-32 without a byte-order mark" in str(caught.value)


def test_a_one_column_csv_on_stdin_is_csv() -> None:
    assert sniff_format(f"quizzes\n{SEED}\n") == "csv"
    assert sniff_format(f"Puzzle\r\n{SEED}\r\n") == "csv"
    assert sniff_format(f"{SEED}\n") == ".txt"


@pytest.mark.parametrize("row", [0, 1])
def test_a_typo_in_a_grids_first_row_is_not_a_title(row: int) -> None:
    """`x3..7....` was taken for a title: the puzzle shifted by a row and the error named the
    wrong line and rule, or --skip-invalid lost both puzzles."""
    typo = grid_text((0, "x3..7...."))[len("Grid 01\n") :]
    good = "\n".join(GRID) + "\n"
    text = (typo + "\n" + good) if row == 0 else (good + "\n" + typo)
    line = 1 if row == 0 else 11
    assert error_of(text, "grid").startswith(f"f:{line}:1: unexpected 'x': a cell of a 9x9")
    report = ReadReport()
    read = read_text(text, "f", "grid", ReadOptions(skip_invalid=True), report)
    assert [e.id for e in read] == ["f:11" if row == 0 else "f:1"]
    assert [e.line for e in report.skipped] == [line]


def test_csv_fields_past_the_header_are_an_error() -> None:
    """A row with more fields than the header lost them silently."""
    text = f"quizzes,solutions\n{SEED},,\n{SEED},,note\n"
    column = len(SEED) + 3
    assert error_of(text, ".csv") == (
        f"f:3:{column}: expected 2 CSV fields (quizzes, solutions), got 3"
    )
    report = ReadReport()
    read = read_text(text, "f", ".csv", ReadOptions(skip_invalid=True), report)
    assert [e.id for e in read] == ["f:2"] and report.skipped[0].line == 3


def test_a_line_of_thousands_of_digits_is_a_size_error() -> None:
    """Python refuses int() of 4,301 digits or more: the grid sniffer's ValueError escaped."""
    assert error_of("1" * 5000 + "\n").startswith("f:1: 5000 cells is no puzzle size")


def test_extra_cells_are_pointed_at_with_a_known_geometry() -> None:
    from sudoku_bench.puzzles import Rules

    options = ReadOptions(rules=Rules.of_size(9))
    assert error_of(f" {SEED} 12\n", options=options).startswith(
        "f:1:84: expected 81 cells for a 9x9 puzzle, got 83"
    )


ONE_CELL_RULES = [
    {"size": 9, "odd": ["r1c1"]},
    {"size": 9, "even": ["r1c1"]},
    {"size": 9, "cages": [{"cells": ["r1c1"], "sum": 3}]},
]


@pytest.mark.parametrize("rules", ONE_CELL_RULES)
@pytest.mark.parametrize("fmt", [".json", ".jsonl"])
def test_a_given_that_breaks_a_one_cell_rule_is_bad_input_not_a_crash(
    rules: dict[str, object], fmt: str
) -> None:
    """A given that breaks a rule of one cell (parity, a 1-cell cage) is named at its cell,
    and `--skip-invalid` passes over it, in every reader that takes rules."""
    given = "2" if "odd" in rules or "cages" in rules else "1"
    entry = json.dumps({"puzzle": given + "." * 80, "rules": rules})
    good = json.dumps({"puzzle": "." * 81})
    text = f"{entry}\n{good}\n" if fmt == ".jsonl" else f"[{entry}, {good}]"
    with pytest.raises(InvalidPuzzleError) as caught:
        read_text(text, "v", fmt)
    assert ":1:" in str(caught.value) and "r1c1" in str(caught.value)
    report = ReadReport()
    (kept,) = read_text(text, "v", fmt, ReadOptions(skip_invalid=True), report)
    assert kept.puzzle.values == (0,) * 81 and len(report.skipped) == 1
