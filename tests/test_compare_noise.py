"""`compare`'s noise floor: warnings when runs differ beyond the code, the A/A baseline that
keeps `--fail-if-slower` from flapping on a shared machine, and the critical-difference
diagram drawn from the table's own test."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from sudoku_bench.harness.analysing.compare import Comparison, holm_groups
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.testing import registered
from tests.cli_contract import COMPARE, COMPARE_AA

FOURS = [
    "...3..4114..3...",
    "1..4..1..3..4..3",
    "3....21..34....1",
    "4...3..2..1...4.",
    ".1...4..2..1...2",
    "..1.4....1..2.3.",
    "....3.2..4.1....",
    "1.........3..4..",
]


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "fours.txt"
    path.write_text("\n".join(FOURS) + "\n")
    return path


def bench(db: Path, *args: str) -> None:
    assert main(["bench", "--db", str(db), "--quiet", *args]) == 0


def set_times(db: Path, factor: float, solver_factor: float = 1.0, solver: str = "") -> None:
    """Give run 1 times drawn at random (well above the clock's floor) and run 2 the same
    times multiplied by `factor`, as a machine that got slower makes every back-end; and,
    for `solver`, by `solver_factor` more, as a back-end that got slower does."""
    rng = random.Random(7)
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT run, task, solver, puzzle, repeat FROM results ORDER BY run, task"
        ).fetchall()
        first = {}
        for run, task, name, puzzle, repeat in rows:
            if run == 1:
                first[name, puzzle, repeat] = value = rng.lognormvariate(-4, 0.5)
            else:
                value = first[name, puzzle, repeat] * factor
                value *= solver_factor if name == solver else 1.0
            connection.execute(
                "UPDATE results SET total_s = ? WHERE run = ? AND task = ?", (value, run, task)
            )


def set_load(db: Path, run: int, load: float) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE runs SET load = ?, conditions = ? WHERE id = ?",
            (load, json.dumps({"load_max": load, "samples": 1}), run),
        )


def compare(db: Path, *args: str) -> int:
    return main(["compare", "--db", str(db), *args])


def test_runs_that_differ_beyond_the_code_are_named(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, str(puzzles), "-s", "reference,dlx", "-j", "1", "--seed", "1")
        bench(db, str(puzzles), "-s", "reference", "-j", "2", "--seed", "1")
    set_load(db, 1, 0.5)
    set_load(db, 2, 14.0)
    capsys.readouterr()
    assert compare(db, "1:reference", "2:reference", "--json") == 0
    out, err = capsys.readouterr()
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert set(record) == COMPARE
    words = " ".join(record["warnings"])
    assert "different loads (0.5 and 14:" in words
    assert "different -j (1 and 2)" in words
    assert "different back-end mixes" in words
    assert err.count("warning:") == len(record["warnings"]) == 3
    assert "--aa NAME" in err  # the way out is named


def test_one_run_gives_no_warning(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, str(puzzles), "-s", "reference,dlx", "--seed", "1")
    capsys.readouterr()
    assert compare(db, "reference", "dlx", "--json") == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["warnings"] == []


def test_the_aa_baseline_keeps_a_slower_machine_from_failing_a_build(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same code run twice, the second time on a machine twice as slow (every back-end's
    times doubled, as a load does): the raw comparison flags a slow-down; divided by the
    reference's drift it does not. A real slow-down of the compared back-end alone still
    fails the build through the baseline."""
    db = tmp_path / "runs.sqlite"
    with registered():
        for seed in ("1", "2"):
            bench(db, str(puzzles), "-s", "dlx", "--aa", "reference", "--repeat", "3",
                  "--seed", seed)  # fmt: skip
    set_times(db, 2.0)
    capsys.readouterr()
    assert compare(db, "1:dlx", "2:dlx", "--fail-if-slower", "5") == 1
    capsys.readouterr()
    assert compare(db, "1:dlx", "2:dlx", "--aa", "--fail-if-slower", "5", "--json") == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert set(record) == COMPARE_AA
    assert record["aa_reference"] == "reference" and record["aa_across_runs"] is True
    assert record["aa_ratio"] == pytest.approx(2.0)
    assert record["ratio"] == pytest.approx(1.0)
    set_times(db, 2.0, 3.0, "dlx")  # now dlx itself is 3x slower than the machine explains
    assert compare(db, "1:dlx", "2:dlx", "--aa", "--fail-if-slower", "5") == 1
    assert "beyond the A/A baseline" in capsys.readouterr().err


def test_the_aa_baseline_within_a_run_splits_the_repeats(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, str(puzzles), "-s", "reference,dlx", "--repeat", "2", "--seed", "3")
    capsys.readouterr()
    assert compare(db, "reference", "dlx", "--aa", "--json") == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["aa_reference"] == "reference" and record["aa_across_runs"] is False
    assert record["aa_ci_low"] <= record["aa_ratio"] <= record["aa_ci_high"]
    with registered():
        bench(db, str(puzzles), "-s", "reference,dlx", "--seed", "4")
    assert compare(db, "reference", "dlx", "--aa") == 2
    assert "needs --repeat 2 or more" in capsys.readouterr().err


def test_a_side_compared_with_itself_is_refused(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, str(puzzles), "-s", "reference", "--seed", "1")
    assert compare(db, "reference", "reference") == 2
    assert "compared with itself" in capsys.readouterr().err


def test_a_plot_of_two_backends_says_why_nothing_is_drawn(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        bench(db, str(puzzles), "-s", "reference,dlx", "--seed", "1")
    plot = tmp_path / "cd.png"
    assert compare(db, "reference", "dlx", "--plot", str(plot)) == 0
    assert "three or more" in capsys.readouterr().err and not plot.exists()


def _comparison(a: str, b: str, p_holm: float) -> Comparison:
    return Comparison(a, b, 10, 1.0, 0.9, 1.1, p_holm, 0.0, "test", 5, 5, 0, 0, p_holm)


def test_the_diagram_joins_exactly_what_the_table_calls_no_difference() -> None:
    """dlx and sat differ significantly by the table's Holm-adjusted Wilcoxon test, so no bar
    joins them, even where their average ranks are close."""
    labels = ["dlx", "sat", "cpsat", "milp"]
    pairs = [
        _comparison("dlx", "sat", 1.8e-5),
        _comparison("dlx", "cpsat", 0.001),
        _comparison("dlx", "milp", 0.0001),
        _comparison("sat", "cpsat", 0.4),
        _comparison("sat", "milp", 0.01),
        _comparison("cpsat", "milp", 0.2),
    ]
    assert holm_groups(labels, pairs, 0.05) == [("sat", "cpsat"), ("cpsat", "milp")]
    assert holm_groups(labels, pairs, 1e-6) == [("dlx", "sat", "cpsat", "milp")]
