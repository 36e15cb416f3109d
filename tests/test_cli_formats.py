"""The convert, show and collections commands, and their handling of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.collections import BUNDLED, load
from sudoku_bench.puzzles.formats import read_file
from tests.cli_contract import COLLECTIONS, SHOW

SEED = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_convert_to_a_file_by_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "seeds.json"
    code, out, err = run(capsys, "convert", "seeds", "-o", str(target))
    assert (code, out) == (0, "")
    assert err.strip() == f"wrote 5 puzzles to {target} (json)"
    read = read_file(target)
    assert [e.puzzle for e in read] == [e.puzzle for e in load("seeds")]
    assert all(e.solution is not None for e in read)
    assert read[0].metadata["id"] == "seeds:2"


@pytest.mark.parametrize("fmt", ["line", "grid", "sdk", "csv", "json", "jsonl"])
def test_convert_every_format_back_to_lines(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    middle = tmp_path / f"top95.{ {'line': 'txt'}.get(fmt, fmt) }"
    assert run(capsys, "convert", "top95", "-o", str(middle))[0] == 0
    code, out, _ = run(capsys, "convert", str(middle), "--to", "line")
    assert code == 0
    assert out.splitlines() == [e.puzzle.to_line() for e in load("top95")]


def test_convert_to_stdout_names_what_is_lost(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "seeds", "--to", "line")
    assert code == 0
    assert out.splitlines()[0] == SEED.replace("0", ".")
    assert "note: the line format does not keep 5 puzzles' solutions" in err


def test_convert_names_only_what_the_target_really_loses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "x.json"  # JSON keeps the diagonals and the solution
    assert run(capsys, "convert", "sudoku-x:1", "-o", str(target)) == (
        0,
        "",
        f"wrote 1 puzzle to {target} (json)\n",
    )
    assert load(str(target))[0].puzzle.rules.name == "9x9-x"
    code, _, err = run(capsys, "convert", "sudoku-x:1", "--to", "grid")
    assert code == 0 and err.splitlines() == [
        "note: the grid format does not keep 1 puzzle's solutions",
        "note: the grid format does not keep 1 puzzle's metadata (attempts, difficulty, empty, "
        "hardest, id, ...)",
        "note: the grid format does not keep 1 puzzle's diagonals (Sudoku-X: they read back as "
        "plain Sudoku)",
    ]
    tall_boxes = ["1" + "." * 35, "--geometry", "6x6:3x2"]
    assert run(capsys, "convert", *tall_boxes, "--to", "grid")[::2] == (0, "")  # it draws them
    assert run(capsys, "convert", *tall_boxes, "--to", "line")[2] == (
        "note: the line format does not keep 1 puzzle's box shapes other than the usual one "
        "(e.g. 6x6:3x2)\n"
    )


def test_convert_alphabet_and_blank(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "convert", "16x16", "--to-alphabet", "hex", "--blank", "_")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("0_C____3_947_____D")  # 1 -> 0, D (13) -> C, blanks '_'
    # and back: read in hex with the same blank, write in the default alphabet
    code, back, _ = run(
        capsys, "convert", "--alphabet", "hex", "--blank", "_", "--to-alphabet", "default", first
    )
    assert back.strip() == load("16x16")[0].puzzle.to_line().replace(".", "_")


def test_convert_from_forces_the_input_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [SEED[i : i + 9] for i in range(0, 81, 9)]
    text = tmp_path / "one.txt"
    text.write_text("\n".join(rows) + "\n")
    assert run(capsys, "convert", str(text))[1].strip() == SEED.replace("0", ".")  # sniffed
    code, out, _ = run(capsys, "convert", "--from", "grid", str(text), "--to", "csv")
    assert (code, out) == (0, f"quizzes\n{SEED}\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["convert", "seeds", "--to", "xml"], "unknown format 'xml': expected one of line, grid"),
        (["convert", "seeds", "--from", "nope"], "unknown format 'nope'"),
        (["convert", "16x16", "--to-alphabet", "hex", "--blank", "0"], "--blank '0' is a symbol"),
        (["convert", "seeds", "--blank", "-"], "--blank '-' is part of a file format's syntax"),
        (["convert", "seeds", "--blank", "ab"], "--blank takes one character"),
        (["show", "nope.txt"], "'nope.txt' is neither a file nor a bundled collection"),
        (["show", "--alphabet", "xy", SEED], "unknown alphabet 'xy'"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert message in err


def test_bad_file_names_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"{SEED}\n{SEED[:7]}x{SEED[8:]}\n{SEED[:80]}\n{SEED}\n")
    code, out, err = run(capsys, "convert", str(path))
    assert code == 2 and out == ""
    assert err.strip() == (
        f"sudoku-bench: error: {path}:2:8: unexpected 'x': a 9x9 cell is one of "
        "'123456789' or a blank '.0'"
    )
    code, out, err = run(capsys, "convert", str(path), "--skip-invalid")
    assert code == 0
    assert out.splitlines() == [SEED.replace("0", ".")] * 2
    assert err.splitlines()[-1] == "skipped 2 invalid entries"
    assert f"skipped {path}:3:" in err


def test_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "convert", SEED, "-o", str(tmp_path / "no" / "such.txt"))
    assert code == 2 and "cannot write" in err


def test_show_pictures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "seeds", "--solution")
    assert code == 0
    blocks = out.split("\n\n")
    assert len(blocks) == 5
    first = blocks[0].splitlines()
    assert first[0] == "seeds:2  9x9, 30 givens"
    assert first[1] == "5 3 . | . 7 . | . . ."
    assert first[12] == "solution:"
    assert first[13] == "5 3 4 | 6 7 8 | 9 1 2"
    assert blocks[4].splitlines()[1:3] == [". . | . .", "3 . | 2 ."]


def test_show_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", SEED, "--json")
    assert code == 0
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert set(record) == SHOW
    assert record["id"] == "arg1"
    assert record["geometry"] == "9x9" and record["givens"] == 30
    assert record["puzzle"] == SEED.replace("0", ".")
    assert record["picture"].splitlines()[3] == "------+-------+------"
    assert record["solution"] is None and record["metadata"] == {}


def test_show_player_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "state.json"
    state = {"values": "534" + SEED[3:], "candidates": {"r1c4": [2, 6]}}
    path.write_text(json.dumps({"puzzle": SEED, "state": state}))
    out = run(capsys, "show", str(path))[1]
    assert "player state: 1 cell filled, 1 cell with pencil marks" in out


def test_show_draws_every_supported_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the alphabet's symbols values are numbers, in pictures as in lines: a 36x36
    puzzle that `solve` takes is drawn too."""
    path = tmp_path / "big.txt"
    path.write_text(" ".join(["36", *["."] * (36 * 36 - 1)]) + "\n")
    code, out, err = run(capsys, "show", str(path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].endswith("36x36, 1 givens") and lines[1].split()[0] == "36"


def test_collections(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "collections", "--json")
    assert code == 0
    records = {r["name"]: r for r in map(json.loads, out.splitlines())}
    assert set(records) == set(BUNDLED)
    assert all(set(record) == COLLECTIONS for record in records.values())
    assert records["top95"]["count"] == 95
    assert records["seeds"]["sizes"] == ["4x4", "9x9"] and records["seeds"]["solutions"] == 5
    # one entry per kind of puzzle, though each jigsaw or killer puzzle has rules of its own
    assert records["jigsaw"]["sizes"] == ["9x9 jigsaw"]
    assert records["killer"]["sizes"] == ["9x9 killer"]
    assert all(r["source"] and r["summary"] for r in records.values())
    code, out, _ = run(capsys, "collections")
    assert code == 0 and "17clue" in out and "1000" in out


def test_collections_table_counts_the_rule_sets_of_a_mixed_collection(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "collections", "--json")
    assert code == 0
    mixed = next(r for r in map(json.loads, out.splitlines()) if r["name"] == "mixed")
    assert len(mixed["sizes"]) > 3
    code, out, _ = run(capsys, "collections")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("mixed "))
    assert f"and {len(mixed['sizes']) - 2} more rule sets" in line
    assert mixed["sizes"][-1] not in line
