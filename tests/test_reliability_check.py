"""Issue 17, `check`: results stream as each puzzle completes, Ctrl-C keeps the summary so
far (defect 11), and "OK" needs something verified (defect 16)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.cli.commands.check import NOTHING_VERIFIED
from sudoku_bench.harness.running.testing import registered
from tests.cli_process import start_cli
from tests.test_reliability_interrupt import _first_line

EASY = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
# built against brute force (its first row empty, its solution's first row 987654321): the
# textbook backtracking searches it for minutes
ANTI_BACKTRACKING = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"


def test_check_streams_each_puzzle_and_ctrl_c_prints_the_summary_so_far() -> None:
    """After minutes of `check`, Ctrl-C printed only "interrupted"."""
    process = start_cli(
        ["check", EASY, HARD, "-s", "backtracking", "--timeout", "120", "--json", "--quiet"]
    )
    try:
        first = _first_line(process, 120)  # the easy puzzle, long before the hard one ends
        assert json.loads(first)["id"] == "arg1"
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        rest, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert rest == ""
    assert "interrupted after 1 of 2 puzzles; so far:" in err
    assert "backtracking" in err.split("so far:")[1]  # the table
    assert err.endswith("sudoku-bench: interrupted\n")


def test_interrupted_before_any_puzzle_finished_is_not_ok() -> None:
    """Ctrl-C before the first puzzle finished printed "OK: no wrong grid and no disagreement"."""
    process = start_cli(["check", ANTI_BACKTRACKING, "-s", "backtracking", "--timeout", "600",
                         "--quiet"])  # fmt: skip
    try:
        time.sleep(5)  # started, far from the end of a search that takes minutes
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "OK" not in out and "NOTHING CHECKED: no puzzle of 1 was finished" in out, err


def test_nothing_verified_is_not_ok(capsys: pytest.CaptureFixture[str]) -> None:
    """Every task timed out, and the summary said "OK: no wrong grid and no disagreement"."""
    with registered("sleeper"):
        code = main(["check", "seeds", "-s", "sleeper", "--timeout", "0.05", "--quiet"])
    out = capsys.readouterr().out
    assert code == NOTHING_VERIFIED == 3
    assert "OK" not in out
    assert "NOTHING VERIFIED: no back-end answered any of the 5 puzzles" in out


def test_the_summary_says_how_many_puzzles_were_verified(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with registered("reference", "sleeper"):
        code = main(["check", EASY, "-s", "reference,sleeper", "--timeout", "0.5", "--quiet"])
    assert code == 0
    assert (
        "OK: no wrong grid and no disagreement; verified 1 of 1 puzzle" in capsys.readouterr().out
    )


# ----- defect 17: long work gives feedback, and Ctrl-C keeps what was made ---------------------


def test_a_run_too_big_to_plan_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench 17clue -s all --repeat 10000` planned 100 million tasks in silence for minutes."""
    start = time.monotonic()
    assert main(["bench", "17clue", "-s", "dlx,propagating", "--repeat", "10000", "--db", "x"]) == 2
    assert time.monotonic() - start < 10
    assert capsys.readouterr().err == (
        "sudoku-bench: error: that run would be 20,000,000 tasks (1,000 puzzles x 2 back-ends x "
        "10,000 repeats); a run holds at most 1,000,000: choose fewer puzzles, back-ends or "
        "repeats, or split it into several runs\n"
    )


def test_a_big_plan_is_announced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sudoku_bench.harness.cli.commands.bench.PLAN_NOTE_FROM", 10)  # not 50,000 tasks
    db = tmp_path / "runs.sqlite"
    code = main(
        [
            "bench",
            "...3..4114..3...",
            "-s",
            "dlx",
            "--repeat",
            "10",
            "--db",
            str(db),
            "--quiet",
            "--json",
        ]
    )
    assert code == 0
    assert capsys.readouterr().err.startswith(
        "planning 10 tasks (1 puzzles x 1 back-ends x 10 repeats) and storing the plan...\n"
    )


@pytest.mark.parametrize(
    ("signal_number", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)]
)
def test_generate_interrupted_keeps_what_it_made(
    tmp_path: Path, signal_number: int, code: int
) -> None:
    """SIGTERM (a `kill`, a batch system's limit) threw all the work away; it keeps it as
    Ctrl-C does, and exits as a shell reports a process that SIGTERM ended."""
    target = tmp_path / "made.txt"
    process = start_cli(["generate", "--count", "5000", "--seed", "1", "-o", str(target)])
    try:
        time.sleep(6)
        process.send_signal(signal_number)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == code
    lines = target.read_text().splitlines()
    made = len(lines) - 1
    assert made >= 1, err
    assert lines[0].endswith(f"(interrupted: the first {made})")
    assert f"interrupted: wrote the {made} of 5000 puzzles made so far to {target}" in err


def test_reduce_has_a_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    """The polynomial ideal of a 16x16 took minutes, with no word and no way to bound it."""
    start = time.monotonic()
    # 25x25: no other test builds it, so sympy's memo tables (shared per size) are cold
    assert main(["reduce", "." * 625, "--to", "polynomials", "--timeout", "0.5"]) == 2
    assert time.monotonic() - start < 15  # room for a loaded machine: the defect took minutes
    assert capsys.readouterr().err == (
        "sudoku-bench: error: building the polynomials model of arg1 (25x25) took longer than "
        "the time limit (0.5 s)\n"
    )
