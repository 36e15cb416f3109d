"""The skip rule (`bench` without --repeat-timeouts): once a puzzle and back-end has timed out,
its later repeats are recorded as `skipped`, whether the back-end stopped at its own deadline
or the pool killed it, and as many as `--plan` predicts."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.results import Outcome, Task
from sudoku_bench.harness.running.repeats import run_with_skips
from sudoku_bench.harness.running.testing import registered
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.solvers.base import Status

FOURS = ("...3..4114..3...", "1..4..1..3..4..3")
# Naive backtracking (first empty cell, digits in order) meets this 9x9 with a search of
# hundreds of millions of placements: it stops at any short deadline of its own.
AGAINST_BACKTRACKING = (
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
)


def bench(db: Path, *args: str) -> int:
    return main(["bench", "--db", str(db), "--quiet", *args])


def counts(db: Path) -> Counter[tuple[str, str]]:
    rows = SQLiteStore(db, read_only=True).results(1)
    return Counter((row["solver"], row["status"]) for row in rows)


def test_the_rule_holds_when_outcomes_carry_copies_of_their_tasks() -> None:
    """A worker or a cluster node sends back an equal task, never the same object."""
    tasks = [Task(key, "c", "c:1", "4x4", FOURS[0], "b", key) for key in range(3)]
    outcomes: list[Outcome] = []

    def run(batch: list[Task], done: object) -> None:
        for task in batch:
            done(Outcome(replace(task), Status.TIMEOUT))  # type: ignore[operator]

    run_with_skips(run, tasks, outcomes.append, timed_out=set(), probed=set())  # type: ignore[arg-type]
    assert [o.status for o in outcomes] == [Status.TIMEOUT, Status.SKIPPED, Status.SKIPPED]
    assert [o.task.key for o in outcomes] == [0, 1, 2]


def test_a_back_end_that_stops_at_its_own_deadline_is_skipped_as_plan_predicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite"
    args = [*FOURS, "-s", "reference,patient,sleeper", "--repeat", "3", "--timeout", "0.2"]
    with registered("reference", "patient", "sleeper"):
        assert bench(db, *args, "--plan", "--json") == 0
        plan = json.loads(capsys.readouterr().out)
        predicted = {e["solver"]: e["skipped"] for e in plan["estimates"]}
        assert bench(db, *args, "--seed", "3") == 0
    found = counts(db)
    # patient stops itself (its timeout is its own answer), sleeper is killed by the pool
    assert found == {
        ("reference", "limit"): 6,
        ("patient", "timeout"): 2,
        ("patient", "skipped"): 4,
        ("sleeper", "timeout"): 2,
        ("sleeper", "skipped"): 4,
    }
    assert predicted == {"reference": 0, "patient": 4, "sleeper": 4}  # from a pilot
    capsys.readouterr()
    with registered("reference", "patient", "sleeper"):
        assert bench(db, *args, "--plan", "--json") == 0  # now from the stored run
    plan = json.loads(capsys.readouterr().out)
    assert {e["solver"]: (e["source"], e["skipped"]) for e in plan["estimates"]} == {
        "reference": ("store", 0),
        "patient": ("store", 4),
        "sleeper": ("store", 4),
    }
    rows = SQLiteStore(db, read_only=True).results(1)
    patient = [r for r in rows if r["solver"] == "patient" and r["status"] == "timeout"]
    assert all("killed" not in r["error"] for r in patient)  # not the pool's doing


def test_backtracking_stopping_at_its_deadline_is_not_repeated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "b.sqlite"
    args = [AGAINST_BACKTRACKING, FOURS[0], "-s", "backtracking", "--repeat", "3"]
    assert bench(db, *args, "--timeout", "0.3") == 0
    assert counts(db) == {
        ("backtracking", "timeout"): 1,
        ("backtracking", "skipped"): 2,
        ("backtracking", "limit"): 3,
    }
    capsys.readouterr()
    assert bench(db, *args, "--timeout", "0.3", "--plan", "--json") == 0
    (estimate,) = json.loads(capsys.readouterr().out)["estimates"]
    assert estimate["skipped"] == 2 and estimate["timeout_share"] == 0.5
    (timed_out,) = [
        r for r in SQLiteStore(db, read_only=True).results(1) if r["status"] == "timeout"
    ]
    assert "killed" not in timed_out["error"] and timed_out["nodes"] > 0  # its own counters
