"""`compare`: paired comparisons of back-ends within a run and across runs."""

import json
import random
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.testing import registered
from sudoku_bench.harness.storing.store import SQLiteStore
from tests.cli_contract import COMPARE

FOURS = "\n".join(
    [
        "...3..4114..3...",
        "1..4..1..3..4..3",
        "3....21..34....1",
        "4...3..2..1...4.",
        ".1...4..2..1...2",
        "..1.4....1..2.3.",
    ]
)


def bench(db: Path, *args: str) -> None:
    assert main(["bench", "--db", str(db), "--quiet", "-j", "1", *args]) == 0


def compare_json(db: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    capsys.readouterr()  # what bench printed
    code = main(["compare", "--db", str(db), "--json", *args])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    return [json.loads(line) for line in lines]


def test_a_backend_against_itself_across_runs_rarely_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The statistics are calibrated: two runs whose times come from one distribution (drawn
    here, so that the machine's load cannot drift between runs) give an interval containing
    1 and no rejection, but for the stated rate of false alarms."""
    puzzles = tmp_path / "fours.txt"
    puzzles.write_text(FOURS + "\n")
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, str(puzzles), "-s", "reference", "--repeat", "5", "--seed", "1")
        bench(db, str(puzzles), "-s", "reference", "--repeat", "5", "--seed", "2")
    store = SQLiteStore(db)
    alarms = covered = 0
    trials = 20
    for trial in range(trials):
        rng = random.Random(trial)
        for run in (1, 2):
            for row in store.results(run):
                store.db.execute(
                    "UPDATE results SET total_s = ? WHERE run = ? AND task = ?",
                    (rng.lognormvariate(-6, 0.5), run, row["task"]),
                )
        (record,) = compare_json(db, "1:reference", "2:reference", capsys=capsys)
        assert set(record) >= COMPARE and record["puzzles"] == 6
        alarms += record["p_value"] < 0.05
        covered += record["ci_low"] <= 1 <= record["ci_high"]
    assert alarms <= 3  # at alpha 0.05: 1 expected; more than 3 has probability 1.6%
    assert covered >= trials - 4


@pytest.mark.slow
def test_a_backend_against_itself_in_real_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same, timed for real: 20 pairs of runs of one back-end (on a quiet machine; a load
    that changes between two runs is a real difference, and compare reports it)."""
    db = tmp_path / "runs.sqlite"
    alarms = 0
    for trial in range(20):
        for _ in range(2):
            bench(db, "easy50", "-s", "propagating", "--seed", str(trial), "--repeat", "3")
        a, b = 2 * trial + 1, 2 * trial + 2
        (record,) = compare_json(db, f"{a}:propagating", f"{b}:propagating", capsys=capsys)
        alarms += record["p_value"] < 0.05
    assert alarms <= 3


def test_a_real_difference_is_found_and_can_fail_a_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    bench(db, "easy50", "-s", "propagating,backtracking", "--timeout", "0.5")
    (record,) = compare_json(db, "propagating", "backtracking", capsys=capsys)
    assert record["ratio"] > 10 and record["ci_low"] > 5 and record["p_value"] < 0.001
    assert record["b_faster"] <= 2  # a trivial puzzle may go either way
    code = main(
        ["compare", "--db", str(db), "propagating", "backtracking", "--fail-if-slower", "5"]
    )
    assert code == 1
    assert "backtracking is" in capsys.readouterr().err


def test_three_backends_get_friedman_holm_and_a_diagram(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    bench(db, "easy50", "-s", "propagating,dlx,backtracking", "--timeout", "0.5")
    records = compare_json(db, "propagating", "dlx", "backtracking", capsys=capsys)
    assert [(r["a"], r["b"]) for r in records] == [
        ("propagating", "dlx"),
        ("propagating", "backtracking"),
        ("dlx", "backtracking"),
    ]
    assert all(r["p_holm"] >= r["p_value"] for r in records)
    assert records[0]["friedman_p"] < 0.001 and records[0]["rank_a"] < records[0]["rank_b"]
    plot = tmp_path / "cd.png"
    assert (
        main(
            ["compare", "--db", str(db), "propagating", "dlx", "backtracking", "--plot", str(plot)]
        )
        == 0
    )
    assert plot.stat().st_size > 1000
    assert "Friedman test on 49 puzzles" in capsys.readouterr().out  # easy50 repeats one


def test_unknown_backends_and_runs_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, FOURS.splitlines()[0], "-s", "reference")
    assert main(["compare", "--db", str(db), "reference", "dlx"]) == 2
    assert "run 1 has no results of 'dlx' (it has: reference)" in capsys.readouterr().err
    assert main(["compare", "--db", str(db), "reference"]) == 2
    assert "two back-ends or more" in capsys.readouterr().err


@pytest.mark.slow
def test_propagating_against_backtracking_on_top95(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    bench(db, "top95", "-s", "propagating,backtracking", "--timeout", "1")
    (record,) = compare_json(db, "propagating", "backtracking", capsys=capsys)
    assert record["ci_low"] > 10 and record["p_value"] < 0.001
