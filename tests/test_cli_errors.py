"""The CLI: stable `--json` keys, and every user error as one line on stderr with exit code 2."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.runner import Pool
from sudoku_bench.harness.running.tasks import Outcome, Task
from sudoku_bench.harness.running.testing import registered
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.puzzles.collections import bundled_text
from sudoku_bench.solvers.registry import Backend, get, register, unregister
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
        # `9x8` was read as 9x9, the second number ignored
        (["show", FOURS, "--geometry", "4x5"], "a Sudoku grid is square: '4x5' is not"),
        # --size 99999 built tables until memory ran out; past 25 nothing could be written
        (["generate", "--size", "99999"], "25 symbols: sizes up to 25, not 99999"),
        (["generate", "--geometry", "36x36"], "sizes up to 25, not 36"),
        # the box shape of 10**30 + 57 was searched for up to its square root: a hang
        (["show", FOURS, "--geometry", str(10**30 + 57)], "is too large: sudoku-bench goes up to"),
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
    assert (records[0]["solver"], records[0]["status"]) == ("no-geometry", "unsupported")
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


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # inf reached the worker pool as NaN (0 warm-ups times an infinite limit): a traceback
        (["check", FOURS, "--timeout", "inf"], "--timeout: must be at most 1e+07 seconds"),
        (["bench", FOURS, "--timeout", "1e400"], "--timeout: must be at most 1e+07 seconds"),
        # each job is a worker process: -j 999999 forked until the machine gave out
        (["check", FOURS, "-j", "999999"], "-j/--jobs: must be at most"),
        # SQLite holds 64 bits: a bigger seed or run id was an OverflowError
        (["bench", FOURS, "--seed", str(2**63)], "--seed: must be at most 9223372036854775807"),
        (["report", "--run", str(2**63)], "--run: must be at most 9223372036854775807"),
        (["bench", "--resume", str(2**63)], "--resume: must be at most"),
        (["generate", "--seed", "abc"], "--seed: expected a whole number, got 'abc'"),
        # every repeat is a task held in memory
        (["bench", FOURS, "--repeat", "10001"], "--repeat: must be at most 10000"),
        (["bench", FOURS, "--warmup", "10001"], "--warmup: must be at most 10000"),
    ],
)
def test_out_of_range_numbers_are_usage_errors(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_largest_timeout_still_runs_in_worker_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["check", FOURS, "-s", "backtracking", "--timeout", "1e7", "--quiet", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["status"] == "solved"


class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("argv", [["collections"], ["solve", FOURS, "--json"], ["show", FOURS]])
def test_full_disk_under_stdout_is_one_line_error(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdout", _FullDisk())
    assert main(argv) == 2  # it was an OSError traceback
    err = capsys.readouterr().err
    assert err == "sudoku-bench: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # a BOM through a pipe (PowerShell) made a 17th cell, read as a title: "no puzzles"
        (b"\xef\xbb\xbf" + FOURS.encode() + b"\r\n", ""),
        (b"\xff" + FOURS.encode(), "sudoku-bench: error: stdin:1:1: not a UTF-8 text file"),
    ],
)
def test_stdin_is_decoded_like_a_file(
    data: bytes, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["show", "-", "--json"]) == (2 if expected else 0)
    assert capsys.readouterr().err.startswith(expected)


@pytest.mark.parametrize("command", ["solve", "count", "check", "bench"])
@pytest.mark.parametrize("names", ["", " , "])
def test_no_solver_named_says_so(
    command: str, names: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-s ''` said "no back-end selected by '' is installed", as if one had been named."""
    argv = [command, FOURS, "-s", names]
    if command == "bench":
        argv += ["--db", str(tmp_path / "runs.sqlite")]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "sudoku-bench: error: no back-end named: give comma-separated names or 'all' "
        "(see `sudoku-bench solvers`)\n"
    )
    assert not (tmp_path / "runs.sqlite").exists()


def _foreign_database(path: Path, table: str = "notes (text)") -> Path:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"CREATE TABLE {table}")
        db.commit()
    return path


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # --resume created an empty store where there was nothing to resume
        (["bench", "--resume"], "{db}: no such results store (run `sudoku-bench bench` first)"),
        (["report"], "{db}: no such results store (run `sudoku-bench bench` first)"),
    ],
)
def test_reading_a_missing_store_leaves_no_file(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    assert main([*argv, "--db", str(db)]) == 2
    assert capsys.readouterr().err == f"sudoku-bench: error: {expected.format(db=db)}\n"
    assert not db.exists()


@pytest.mark.parametrize("command", [["report"], ["bench", FOURS, "-s", "backtracking", "--quiet"]])
def test_store_paths_that_cannot_be_a_store(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite said 'unable to open database file', and wrote its tables into any database."""
    foreign = _foreign_database(tmp_path / "other.db")
    before = foreign.read_bytes()
    # a store of another schema: an IndexError or OperationalError at its first missing column
    older = _foreign_database(tmp_path / "older.db", "runs (id INTEGER PRIMARY KEY, command)")
    spaced = _foreign_database(tmp_path / "spaced.db", '"my table" (text)')  # a quoted name
    cases = [
        (foreign, "is an SQLite database but not a results store (its tables: notes)"),
        (spaced, "is an SQLite database but not a results store (its tables: my table)"),
        (older, "is a results store of another version: its table runs has no cores, cpu,"),
        (tmp_path, f"is a folder: --db takes a file, e.g. {tmp_path / 'sudoku-bench.sqlite'}"),
        (Path(os.devnull), "is not a regular file: --db takes an SQLite file"),
    ]
    if command[0] == "bench":
        cases.append((tmp_path / "new" / "x.db", f"the folder {tmp_path / 'new'} does not exist"))
    for db, expected in cases:
        assert main([*command, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sudoku-bench: error: {db}") and expected in err
    assert foreign.read_bytes() == before


def test_one_bad_line_in_a_big_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """20,000 puzzles, one bad: named at file:line:column; skipped, the rest is converted."""
    lines = [line for line in bundled_text("17clue").splitlines() if not line.startswith("#")]
    lines = (lines * 20)[:20_000]
    lines[12_345] = "x" + lines[12_345][1:]
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.txt"
    assert main(["convert", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sudoku-bench: error: {path}:12346:1: unexpected 'x'")
    assert not out.exists()
    assert main(["convert", str(path), "-o", str(out), "--skip-invalid"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"skipped {path}:12346:1: unexpected 'x'")
    assert "skipped 1 invalid entry\n" in err
    assert len(out.read_text().splitlines()) == 19_999


def test_a_failed_write_leaves_the_old_output_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full disk cut the output file short, and the error left a half file that looked whole."""
    out = tmp_path / "out.txt"
    out.write_text("the previous output\n")
    real_write_text = Path.write_text

    def half_then_full(self: Path, text: str, *args: object, **kwargs: object) -> int:
        real_write_text(self, text[: len(text) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Path, "write_text", half_then_full)
    assert main(["convert", "top95", "-o", str(out)]) == 2
    assert capsys.readouterr().err.endswith(f"{out}: cannot write: No space left on device\n")
    assert out.read_text() == "the previous output\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_report_plot_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "runs.sqlite")
    assert main(["bench", FOURS, "-s", "backtracking,dlx", "--quiet", "--json", "--db", db]) == 0
    (tmp_path / "plots").write_text("a file where the folder should be")
    capsys.readouterr()
    # mkdir said "cactus.png: cannot write: File exists"
    assert main(["report", "--db", db, "--plots", str(tmp_path / "plots")]) == 2
    assert capsys.readouterr().err.endswith(
        f"{tmp_path / 'plots'} is a file, not a folder for the plots\n"
    )
    # --scatter without --plots did nothing, silently
    assert main(["report", "--db", db, "--scatter", "dlx,backtracking"]) == 2
    assert "give --plots DIR too" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["123", "....."])
def test_a_short_puzzle_string_is_told_its_size(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was "'.....' is neither a file nor a bundled collection"."""
    assert main(["show", text]) == 2
    assert capsys.readouterr().err.startswith(
        f"sudoku-bench: error: argument 1: {len(text)} cells is no puzzle size: expected 16 (4x4)"
    )


def test_a_folder_given_as_puzzles_is_named_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was "'<folder>' is neither a file nor a bundled collection"."""
    assert main(["solve", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"sudoku-bench: error: '{tmp_path}' is a folder: name the puzzle files in it "
        f"(e.g. {tmp_path / '*.txt'})\n"
    )
    assert main(["show", ""]) == 2  # Path("") is the current folder, but '' names nothing
    assert "'' is neither a file nor a bundled collection" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["show", FOURS, "--alphabet", "symbols:1 2 3 4"],
            "the alphabet 'symbols:1 2 3 4': U+0020 (SPACE) cannot be a symbol",
        ),
        (
            ["convert", FOURS, "--to-alphabet", "symbols:.123"],
            "the alphabet 'symbols:.123': an alphabet's symbols",
        ),
        (["show", FOURS, "--alphabet", "ab"], "unknown alphabet 'ab': use one of"),
        # a typo of a name was taken as a 6-symbol alphabet
        (["show", FOURS, "--alphabet", "nosuch"], "unknown alphabet 'nosuch': use one of"),
        (["show", FOURS, "--alphabet", "symbols:ab"], "'symbols:ab' spells out 2 symbols"),
    ],
)
def test_a_bad_alphabet_is_named(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"sudoku-bench: error: {expected}")


def test_the_worker_pool_takes_an_endless_time_limit() -> None:
    """A stored run with an infinite limit (before --timeout was bounded) crashed on resume:
    0 warm-ups times an infinite limit made a NaN deadline."""
    task = Task(0, "arguments", "arg1", "4x4", FOURS, "backtracking", 0)
    outcomes: list[Outcome] = []
    with Pool(1, Settings(float("inf"), 1, 0), {"backtracking": get("backtracking")}) as pool:
        pool.run([task], outcomes.append)
    assert [outcome.status for outcome in outcomes] == ["limit"]  # found one, stopped


def test_facts4x4_says_why_it_did_not_count(capsys: pytest.CaptureFixture[str]) -> None:
    missing = Backend("ghost", "sudoku_bench.solvers.ghost:Ghost", "needs a library", requires=("no_such_lib",))
    register(missing)
    try:
        assert main(["facts4x4", "--solver", "ghost", "--json"]) == 0
    finally:
        unregister("ghost")
    out, err = capsys.readouterr()
    assert json.loads(out)["counted"] is None
    assert err == "not counted: back-end 'ghost' needs no_such_lib, which is not installed\n"


@pytest.mark.parametrize(
    ("argv", "prog", "expected"),
    [
        (["bench", "--timeout", "0"], "sudoku-bench bench", "argument --timeout: must be"),
        (["solve"], "sudoku-bench solve", "the following arguments are required: PUZZLE"),
        (["nosuch"], "sudoku-bench", "argument COMMAND: invalid choice: 'nosuch'"),
    ],
)
def test_usage_errors_are_one_line(
    argv: list[str], prog: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse printed its whole usage block (eight lines for bench) above the error."""
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{prog}: error: {expected}")
    assert err.endswith(f" (see `{prog} --help`)\n") and err.count("\n") == 1


def test_an_ascii_terminal_gets_question_marks_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`solve` prints times in µs: a UnicodeEncodeError on a terminal that is not UTF-8."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr("sys.stdout", out)
    assert main(["solve", FOURS, "-s", "backtracking"]) == 0
    out.flush()
    assert out.buffer.getvalue().startswith(b"arg1  backtracking  ")  # type: ignore[attr-defined]


def test_stray_bytes_kept_with_skip_invalid_are_written_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Latin-1 metadata field read with --skip-invalid made writing the output a
    UnicodeEncodeError: the byte goes back out as it came in."""
    source = tmp_path / "latin1.csv"
    source.write_bytes(b"quizzes,author\n" + FOURS.encode() + b",Fr\xe9d\xe9ric\n")
    out = tmp_path / "out.csv"
    assert main(["convert", str(source), "--skip-invalid", "-o", str(out)]) == 0
    assert out.read_bytes().endswith(b",Fr\xe9d\xe9ric\n")
    assert main(["convert", str(source), "-o", str(out)]) == 2
    assert f"{source}:2:20: not a UTF-8 text file (byte 0xe9)" in capsys.readouterr().err


def test_skip_invalid_passes_over_a_bad_puzzle_argument(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bad puzzle string stopped the command even with --skip-invalid (files went on)."""
    assert main(["show", "11" + FOURS[2:], FOURS, "--skip-invalid", "--json"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["arg2"]
    assert err.startswith("skipped argument 1:2: the givens break the rules")
    assert main(["show", "11" + FOURS[2:], FOURS]) == 2


def test_a_store_that_fails_mid_run_is_an_error_with_the_way_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full disk under the store was an sqlite3.OperationalError traceback."""

    def disk_full(*args: object) -> str:
        raise sqlite3.OperationalError("database or disk is full")

    db = tmp_path / "runs.sqlite"
    monkeypatch.setattr(SQLiteStore, "_configuration", disk_full)
    assert main(["bench", FOURS, "-s", "backtracking", "--quiet", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"`sudoku-bench bench --db {db} --resume 1` finishes it" in err
    assert err.endswith(f"error: {db}: the results store failed: database or disk is full\n")


def test_a_read_only_output_file_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "keep.txt"
    out.write_text("mine\n")
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as a user, not root
    assert main(["convert", FOURS, "-o", str(out)]) == 2
    assert capsys.readouterr().err.endswith(f"{out}: cannot write: Permission denied\n")
    assert out.read_text() == "mine\n"


class _BrokenInput(io.BytesIO):
    def read(self, size: int | None = -1) -> bytes:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_stdin_that_cannot_be_read_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An I/O error on stdin would have been reported as 'cannot write the output'."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(_BrokenInput()))
    assert main(["show", "-"]) == 2
    assert (
        capsys.readouterr().err == "sudoku-bench: error: stdin: cannot read: Input/output error\n"
    )


def test_no_more_workers_than_tasks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """-j 8 on one task started eight worker processes, seven of them for nothing."""
    started: list[int] = []

    class Counted(Pool):
        def __init__(self, jobs: int, *args: Any, **options: Any) -> None:
            started.append(jobs)
            super().__init__(jobs, *args, **options)

    monkeypatch.setattr("sudoku_bench.harness.running.runner.Pool", Counted)  # `timing_pool` makes it
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert main(["check", FOURS, "-s", "backtracking", "-j", "8", "--quiet"]) == 0
    assert started == [1]
