"""A `bench` run killed with SIGKILL part-way resumes and finishes every task exactly once."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pytest import MonkeyPatch

from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running import machine, session
from sudoku_bench.harness.storing.store import Resumption, RunInfo, SQLiteStore
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.formats import PuzzleEntry, write_file
from sudoku_bench.puzzles.grid import Grid
from tests.cli_contract import REPORT_RESUME

PUZZLES = "...3..4114..3...\n1..4..1..3..4..3\n3....21..34....1\n"
REPEAT = 12
SCRIPT = """
import sys
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.solvers.registry import register
from sudoku_bench.harness.cli import main
register(backend("reference", "busy", spin=100_000))  # some milliseconds per task
sys.exit(main(["bench", "--db", sys.argv[1], sys.argv[2], "-s", "busy", "--quiet",
               "--repeat", sys.argv[3], "-j", "2", "--timeout", "20", "--seed", "7"]))
"""


def finished_rows(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "State:\tZ" in state  # a zombie has exited


def variant_puzzles(path: Path) -> None:
    """Three 4x4 puzzles under variant rules (jigsaw, an extra region, anti-knight), as JSONL."""
    solution = Grid.from_string("3412214312344321")  # an anti-knight 4x4 grid
    four = solution.rules
    # region (row + digit) mod 4: each region holds one of each digit
    jigsaw = four.with_rules(layout=tuple((c // 4 + solution[c]) % 4 for c in four.cells))
    extra = four.with_rules(extra_regions=((0, 6, 9, 15),))  # digits 3, 4, 2, 1
    knight = four.with_rules(anti_knight=True)
    entries = []
    for number, rules in enumerate((jigsaw, extra, knight), 1):
        assert is_solution(Grid(rules, solution.values), Grid(rules, solution.values))
        values = tuple(v if cell % 3 == 0 else 0 for cell, v in enumerate(solution.values))
        entries.append(PuzzleEntry(f"v:{number}", Grid(rules, values)))
    write_file(entries, path)


@pytest.mark.parametrize("kind", ["classic", "variants"])
def test_sigkill_then_resume_runs_every_task_exactly_once(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "runs.sqlite"
    if kind == "classic":
        puzzles = tmp_path / "p.txt"
        puzzles.write_text(PUZZLES)
    else:  # the tasks' rules must come back exactly from the store
        puzzles = tmp_path / "p.jsonl"
        variant_puzzles(puzzles)
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(db), str(puzzles), str(REPEAT)],
        env=env,
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while finished_rows(db) < 8 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()

    store = SQLiteStore(db)
    run = store.run()
    planned = store.tasks(run.id)
    before = {row["task"]: row for row in store.results(run.id)}
    assert len(planned) == 3 * REPEAT
    assert 8 <= len(before) < len(planned), "the kill should land part-way"
    assert not run.finished
    # the workers die with the run (no orphan keeps a core busy)
    workers = {row["worker"] for row in before.values()}
    deadline = time.monotonic() + 10
    while not all(gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(pid) for pid in workers)

    assert main(["bench", "--db", str(db), "--resume", "--quiet", "--json"]) == 0
    after = store.results(run.id)
    keys = [row["task"] for row in after]
    assert sorted(keys) == sorted(task.key for task in planned)  # none lost, none doubled
    assert len(keys) == len(set(keys))
    for row in after:  # what had finished before the kill is untouched
        if row["task"] in before:
            assert row == before[row["task"]]
    assert {row["status"] for row in after} == {"limit"}
    for row in after:  # each answer is a solution of its task's puzzle, rules and all
        task = next(t for t in planned if t.key == row["task"])
        assert is_solution(task.grid(), Grid.from_string(row["solution"], task.grid().rules))
    assert store.run(run.id).finished
    # a finished run resumes to nothing, and is left as it was (issue 17, defect 3)
    finished = store.run(run.id).finished
    assert main(["bench", "--db", str(db), "--resume", str(run.id), "--quiet", "--json"]) == 0
    assert len(store.results(run.id)) == len(planned)
    assert store.run(run.id).finished == finished
    # the resumption is recorded, on the machine and checkout the run started on
    resumes = store.run(run.id).resumes
    assert [r.command.split("--resume")[1] for r in resumes] == [" --quiet --json"]
    assert [run.differences(r) for r in resumes] == [[]]


def test_a_resumption_elsewhere_is_named_in_the_report(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "runs.sqlite")
    machine = {"host": "a", "cpu": "Xeon", "cores": 2, "os": "Linux", "python": "CPython 3.11.7"}
    first = RunInfo(
        command="sudoku-bench bench",
        seed=1,
        settings={"timeout": 1.0, "solvers": ["cpsat", "dlx"]},
        machine=machine,
        versions={"cpsat": "ortools 9.15.6755", "dlx": "sudoku-bench 0.1.0"},
        git_commit="abc",
    )
    run_id = store.create_run(first, [], {})
    same = Resumption(
        "2026-11-22T06:00:00+00:00",
        "sudoku-bench bench --resume",
        machine,
        dict(first.versions),
        "abc",
    )
    moved = Resumption(
        "2026-11-22T07:00:00+00:00",
        "sudoku-bench bench --resume",
        {**machine, "host": "b", "cpu": "EPYC"},
        {**first.versions, "cpsat": "ortools 9.16.0"},
        "def",
    )
    store.add_resumption(run_id, same)
    store.add_resumption(run_id, moved)
    report = Report(store, run_id)
    assert dict(report.header())["resumed"] == (
        "2026-11-22T06:00:00+00:00 (same machine and versions); 2026-11-22T07:00:00+00:00 "
        "(with another host, cpu, sudoku-bench commit, ortools version)"
    )
    document = json.loads(report.as_json())
    assert all(set(resume) == REPORT_RESUME for resume in document["run"]["resumes"])
    assert [r["differences"] for r in document["run"]["resumes"]] == [
        [],
        ["host", "cpu", "sudoku-bench commit", "ortools version"],
    ]
    assert document["run"]["resumes"][1]["machine"]["cpu"] == "EPYC"


def test_resuming_on_another_machine_warns(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    store = SQLiteStore(tmp_path / "runs.sqlite")
    here = machine.describe()
    run_id = store.create_run(
        RunInfo(
            "sudoku-bench bench",
            1,
            {"timeout": 1.0, "limit": 1, "warmup": 0},
            here,
            git_commit=machine.git_commit(),
        ),
        [],
        {},
    )
    monkeypatch.setattr(machine, "describe", lambda: {**here, "cpu": "another CPU"})
    warnings: list[str] = []
    session.resume(store, run_id, None, command="sudoku-bench bench --resume", warn=warnings.append)
    assert warnings == [
        f"run {run_id} started with another cpu: its timings will mix both (the report says so)"
    ]
    assert store.run(run_id).resumes[0].machine["cpu"] == "another CPU"


def test_an_older_store_gains_the_added_columns(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    from sudoku_bench.harness.storing import store as store_module

    db = tmp_path / "old.sqlite"
    SQLiteStore(db).close()  # written by schema version 1
    added = (("results", "extra_metric", "REAL DEFAULT NULL"),)
    monkeypatch.setattr(store_module, "ADDED_COLUMNS", added)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 2)
    upgraded = SQLiteStore(db)
    columns = {row[1] for row in upgraded.db.execute("PRAGMA table_info(results)")}
    assert "extra_metric" in columns
    assert upgraded.db.execute("PRAGMA user_version").fetchone()[0] == 2
    upgraded.close()
    SQLiteStore(db).close()  # opening it again adds nothing twice
