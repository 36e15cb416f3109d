"""The CLI: stable `--json` keys, and every user error as one line on stderr with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.testing import registered
from tests.cli_contract import SOLVERS


def test_solvers_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solvers", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(set(record) == SOLVERS for record in records)
    assert [r["name"] for r in records][:2] == ["backtracking", "propagating"]


FOURS = "...3..4114..3..."  # a 4x4 puzzle


def exit_code(argv: list[str]) -> int | str | None:
    """`main`'s exit code, whether argparse exits (usage errors) or `main` returns it."""
    try:
        return main(argv)
    except SystemExit as exit_info:
        return exit_info.code


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["solve", FOURS, "--geometry", "3x3"], "size 3 is too small"),
        (["solve", FOURS, "--geometry", "7"], "a 7x7 grid has no box shape"),
        (["solve", FOURS, "--geometry", "0"], "size 0 is too small"),
        (["generate", "--size", "-4"], "size -4 is too small"),
        (["generate", "--count", "0"], "must be at least 1, got 0"),
        (["solve", FOURS, "--geometry", "4x4:1x4"], "boxes of 1x4 do not tile"),
        (["show", FOURS, "--geometry", ""], "cannot read geometry ''"),
        (["generate", "--geometry", "2x2"], "size 2 is too small"),
    ],
)
def test_bad_geometry_is_a_usage_error(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["solve", "count", "check", "show", "rate", "reduce"])
@pytest.mark.parametrize("text", ["", "# only a comment\n", "Grid 01\n"])
def test_input_without_puzzles_is_one_line_error(
    command: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(text)
    assert (
        main([command, str(path), "--quiet"] if command == "check" else [command, str(path)]) == 2
    )
    err = capsys.readouterr().err
    assert err == f"sudoku-bench: error: no puzzles in {path}\n"


def test_every_entry_skipped_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1" * 81 + "\n")
    assert main(["reduce", str(path), "--skip-invalid"]) == 2
    assert capsys.readouterr().err.endswith(f"error: every entry was invalid in {path}\n")


def test_version_is_printed_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("sudoku-bench ")


@pytest.mark.parametrize("spelling", ["-s", "--solver", "--solvers"])
@pytest.mark.parametrize("command", ["solve", "count", "check", "bench"])
def test_solver_option_spellings(
    command: str, spelling: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = {
        "check": ["--quiet"],
        "bench": ["--quiet", "--db", str(tmp_path / "runs.sqlite")],
    }.get(command, [])
    assert main([command, FOURS, spelling, "backtracking", "--json", *extra]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["solver"] == "backtracking"


@pytest.mark.parametrize("command", ["check", "bench"])
def test_solver_spelling_is_its_own_option_not_an_abbreviation(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README promises --solver wherever -s is taken; --help must say so too."""
    assert exit_code([command, "--help"]) == 0
    assert "--solver NAMES" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["reduce", FOURS, "--to", "csp", "-o"],
        ["convert", FOURS, "-o"],
        ["generate", "--size", "4", "--seed", "1", "-o"],
    ],
)
def test_unwritable_output_is_one_line_error(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, str(tmp_path)]) == 2  # a directory, not a file
    err = capsys.readouterr().err
    assert err.endswith(f"sudoku-bench: error: {tmp_path}: cannot write: Is a directory\n")


def test_output_in_a_missing_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new" / "model.xml"
    assert main(["reduce", FOURS, "--to", "csp", "-o", str(path)]) == 2
    assert capsys.readouterr().err.endswith(f"{path}: cannot write: No such file or directory\n")


@pytest.mark.parametrize("command", ["rate", "explain", "solve", "count", "check"])
@pytest.mark.parametrize("timeout", ["0", "-1", "nan"])
def test_timeout_must_be_positive(
    command: str, timeout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert exit_code([command, FOURS, "--timeout", timeout]) == 2
    err = capsys.readouterr().err
    assert f"argument --timeout: must be more than 0, got {timeout}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["solve", "count"])
def test_unsupported_geometry_is_reported_not_fatal(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with registered("no-geometry"):
        assert main([command, FOURS, "-s", "no-geometry,backtracking", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (records[0]["solver"], records[0]["status"]) == ("no-geometry", "error")
    assert records[0]["message"] == "the no-geometry back-end cannot solve 4x4 puzzles"
    assert records[1]["solver"] == "backtracking" and records[1]["verified"]


def test_reduce_of_a_whole_collection_asks_for_one_puzzle(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["reduce", "top95"]) == 2
    assert capsys.readouterr().err == (
        "sudoku-bench: error: reduce builds the model of one puzzle, and top95 holds 95: "
        "name one by its id, e.g. top95:1\n"
    )
    assert main(["reduce", "top95:7", "--json"]) == 0
    assert '"id": "top95:7"' in capsys.readouterr().out
