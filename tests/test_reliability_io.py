"""Issue 17, inputs and outputs: failed writes are errors, closed streams are named, every
bad input is a located one-line error, and what `convert` writes reads back."""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.formats import ReadOptions, read_text, sniff_format
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from tests.cli_process import COMMAND, ENV, run_cli

SEED = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def _file_size_limit(size: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


# ----- defect 5: a failed write of standard output is exit 2, never a cut file at exit 0 ------


@pytest.mark.parametrize(
    "args", [["convert", "17clue", "--to", "json"], ["solve", "17clue:1", "17clue:2", "--line"]]
)
def test_stdout_cut_by_a_file_size_limit_is_an_error(tmp_path: Path, args: list[str]) -> None:
    """Under `ulimit -f` Python's buffered writer dropped the error: exit 0, a cut file."""
    target = tmp_path / "out"
    with target.open("w") as out:
        done = run_cli(args, stdout=out, preexec=lambda: _file_size_limit(100))
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "sudoku-bench: error: writing standard output failed: File too large"
    )


def test_stdout_on_a_full_disk_is_an_error() -> None:
    with open("/dev/full", "w") as full:
        done = run_cli(["convert", "seeds", "--to", "json"], stdout=full)
    assert done.returncode == 2
    assert done.stderr == (
        "sudoku-bench: error: writing standard output failed: No space left on device\n"
    )


def test_a_closed_pipe_is_not_an_error() -> None:
    """`sudoku-bench ... | head`: the reader has what it wanted."""
    script = f"{shlex.join(COMMAND)} convert 17clue --to json | head -c 10 > /dev/null; "
    script += 'echo "${PIPESTATUS[0]}"'
    done = subprocess.run(
        ["bash", "-c", script], env=ENV, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "0" and "Traceback" not in done.stderr


# ----- defect 12: closed standard streams -----------------------------------------------------


def test_closed_stdout_is_a_one_line_error() -> None:
    done = run_cli(["count", SEED], preexec=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == (
        "sudoku-bench: error: writing standard output failed: standard output is closed\n"
    )


def test_closed_stdin_is_a_one_line_error() -> None:
    done = run_cli(["count", "-"], preexec=lambda: os.close(0))
    assert done.returncode == 2
    assert done.stderr == (
        "sudoku-bench: error: standard input is closed: nothing to read for '-'\n"
    )


def test_a_command_that_writes_nothing_to_a_closed_stdout_succeeds(tmp_path: Path) -> None:
    target = tmp_path / "x.txt"
    done = run_cli(["convert", "seeds", "-o", str(target)], preexec=lambda: os.close(1))
    assert done.returncode == 0, done.stderr
    assert len(target.read_text().splitlines()) == 5


# ----- defect 6: CSV that Python's csv module refuses -----------------------------------------


def test_csv_error_is_located_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "min.csv"
    bad.write_text(f'quizzes\n"5300"{SEED[4:]}\n{SEED}\n')
    assert main(["count", str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"sudoku-bench: error: {bad}:2: not a CSV row: ',' expected after '\"'\n"
    )
    assert main(["count", str(bad), "--skip-invalid"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{bad}:3  propagating  1  exact  unique")
    assert f"skipped {bad}:2: not a CSV row" in err


def test_the_reproduction_of_defect_6(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "min.csv"
    bad.write_bytes(b'a"\rb\n')
    assert main(["count", str(bad)]) == 2
    assert "error: " in capsys.readouterr().err


# ----- defect 8: blanks that are format syntax -------------------------------------------------


@pytest.mark.parametrize("blank", ["#", "/", " ", "|", "-", "+", "=", '"', "'", ","])
def test_convert_refuses_a_blank_that_is_format_syntax(
    blank: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", "seeds", "--to", "line", "--blank", blank]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "is part of a file format's syntax" in err


@pytest.mark.parametrize("fmt", ["line", "grid", "sdk", "csv", "json", "jsonl"])
def test_a_custom_blank_reads_back_with_blank(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    assert main(["convert", "top95", "--to", fmt, "--blank", "_", "-o", str(target)]) == 0
    capsys.readouterr()
    assert main(["convert", str(target), "--from", fmt, "--blank", "_", "--to", "line"]) == 0
    back = capsys.readouterr().out.replace("_", ".").splitlines()
    assert back == [entry.puzzle.to_line() for entry in load("top95")]


# ----- defect 9: the metadata a format drops is named -----------------------------------------


@pytest.mark.parametrize(("fmt", "lost"), [("sdk", "tags, title"), ("csv", "tags")])
def test_convert_names_dropped_metadata(
    fmt: str, lost: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "m.json"
    source.write_text(json.dumps({"puzzle": SEED, "tags": ["a", "b"], "author": "A", "title": "T"}))
    assert main(["convert", str(source), "--to", fmt]) == 0
    assert capsys.readouterr().err == (
        f"note: the {fmt} format does not keep 1 puzzle's metadata ({lost})\n"
    )


# ----- defect 18: the smaller ones --------------------------------------------------------------


def test_a_typo_of_an_alphabet_name_is_not_an_alphabet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "seeds", "--alphabet", "nosuch"]) == 2
    assert "unknown alphabet 'nosuch'" in capsys.readouterr().err
    assert main(["count", "ABCD............", "--alphabet", "symbols:ABCD"]) == 0


@pytest.mark.parametrize(
    ("char", "name"),
    [("\u200b", "U+200B (ZERO WIDTH SPACE)"), ("\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)")],
)
def test_invisible_characters_are_named(
    char: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["count", SEED[:4] + char + SEED[4:]]) == 2
    assert capsys.readouterr().err == (
        f"sudoku-bench: error: argument 1:5: unexpected {name}: an invisible character "
        "(copied from a web page or a document?)\n"
    )


def test_cr_only_line_ends_end_lines() -> None:
    entries = read_text(f"{SEED}\r{SEED}\r", "old-mac")
    assert [entry.id for entry in entries] == ["old-mac:1", "old-mac:2"]


def test_a_json_number_past_a_float_is_refused_not_written_as_infinity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "big.json"
    source.write_text(f'{{"puzzle": "{SEED}", "x": 1e400}}')
    assert main(["convert", str(source), "--to", "json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "1e400 is too large" in err
    with pytest.raises(PuzzleFormatError, match="NaN is no JSON value"):
        read_text(f'{{"puzzle": "{SEED}", "x": NaN}}', "s", "json")


def test_stdin_given_twice_gives_its_puzzles_twice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(SEED + "\n"))
    assert main(["count", "-", "-", "--json"]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == [
        "stdin:1",
        "stdin:1",
    ]


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        (json.dumps({"puzzle": SEED}), "json"),
        (json.dumps([{"puzzle": SEED}]), "json"),
        (json.dumps({"puzzle": SEED}) + "\n" + json.dumps({"puzzle": SEED}) + "\n", "jsonl"),
        (f"quizzes,solutions\n{SEED},\n", "csv"),
        (f"{SEED}\n", ".txt"),
    ],
)
def test_solve_and_count_read_json_and_csv_from_stdin(text: str, fmt: str) -> None:
    assert sniff_format(text) == fmt
    done = run_cli(["count", "-", "--json"], input_text=text)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["verdict"] == "unique"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["convert", "seeds", "-o", "x.json", "--to", "line"],
            "-o x.json says json but --to says line",
        ),
        (["generate", "--size", "4", "--geometry", "9x9"], "--size 4 and --geometry 9x9 disagree"),
        (["rate", "--levels", "top95"], "--levels prints the table of techniques"),
        (["report", "--db", ""], "--db needs a path"),
        (["bench", "seeds", "--db", ""], "--db needs a path"),
    ],
)
def test_contradictions_are_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    os.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


# ----- defect 7, output side: every supported size prints ---------------------------------------


def test_a_36x36_grid_is_written_as_numbers_and_read_back() -> None:
    rules = Rules.of_size(36)
    values = tuple((r * 6 + r // 6 + c) % 36 + 1 for r in range(36) for c in range(36))
    grid = Grid(rules, values)
    line = grid.to_line()
    assert line.split()[:12] == [str(v) for v in values[:12]]
    assert Grid.from_string(line) == grid
    assert Grid.from_string(line, rules) == grid
    assert "36" in grid.picture()
    empty = Grid.empty(rules).to_line()
    assert Grid.from_string(empty) == Grid.empty(rules)
    entries = read_text(line + "\n", "big", "line", ReadOptions())
    assert entries[0].puzzle == grid


def test_a_number_json_cannot_hold_is_written_as_null() -> None:
    """A counter's NaN or infinity would make the line no JSON: it is written as null."""
    from sudoku_bench.harness.cli.output import json_line

    record = {"nodes": 3, "counters": {"bound": float("nan"), "gap": [1.5, float("-inf")]}}
    assert json.loads(json_line(record)) == {
        "nodes": 3,
        "counters": {"bound": None, "gap": [1.5, None]},
    }
    assert json_line({"nodes": 3}) == '{"nodes": 3}'


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_json_lines_are_what_json_dumps_writes(value: object) -> None:
    """The encoder made once (`output._strict_encoder`) writes what `json.dumps` writes."""
    from sudoku_bench.harness.cli.output import json_line

    assert json_line(value) == json.dumps(value)
