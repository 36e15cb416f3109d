"""Stores of earlier schema versions read, report and resume, and the result record goes to
the store and back unchanged.

`tests/data/store-v4.sqlite` was written by the release before schema version 5 (`bench`
of dlx and propagating, `--repeat 2`): run 1 finished (six easy50 puzzles and two jigsaws),
run 2 killed with SIGKILL after 10 of its 80 tasks, its lock left behind.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.results import Outcome, Task, outcome_json, result_json
from sudoku_bench.harness.storing.store import SCHEMA_VERSION, SQLiteStore
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Status, Verdict
from sudoku_bench.solvers.registry import get
from tests.cli_contract import BENCH, RESULT

FIXTURE = Path(__file__).parent / "data" / "store-v4.sqlite"
FOUR = "...3..4114..3..."


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    path = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURE, path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def columns(path: Path, table: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def test_an_old_store_reads_and_reports_without_being_changed(
    old_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = digest(old_store)
    store = SQLiteStore(old_store, read_only=True)
    assert [run.id for run in store.runs()] == [1, 2]
    rows = store.results(1)
    assert len(rows) == 32 and all("geometry" not in row for row in rows)
    assert {row["rules"] for row in rows} >= {"9x9"} and len({row["rules"] for row in rows}) == 3
    assert {task.rules for task in store.tasks(1)} == {row["rules"] for row in rows}
    outcomes = store.outcomes(1)
    assert {o.status for o in outcomes} <= {Status.SOLVED, Status.LIMIT}
    assert all(o.guesses is not None for o in outcomes)  # both back-ends count guesses
    store.close()
    assert main(["report", "--db", str(old_store), "--run", "1", "--format", "csv"]) == 0
    csv = capsys.readouterr().out
    header = next(line for line in csv.splitlines() if not line.startswith("#"))  # metadata first
    assert header.split(",")[5] == "geometry"  # the export's published name
    assert main(["report", "--db", str(old_store), "--run", "2", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["tasks"]) == 10
    assert digest(old_store) == before  # reading changed nothing
    assert "geometry" in columns(old_store, "tasks")


def test_an_old_store_is_migrated_when_opened_for_writing(old_store: Path) -> None:
    with sqlite3.connect(old_store) as db:  # as version 4 stored a back-end that counts none
        db.execute("UPDATE results SET counters = '{\"nodes\": 3}' WHERE run = 1 AND task = 0")
    read_only = SQLiteStore(old_store, read_only=True).results(1)
    assert read_only[0]["guesses"] is None and read_only[1]["guesses"] == 0

    store = SQLiteStore(old_store)
    with sqlite3.connect(old_store) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
    assert "rules" in columns(old_store, "tasks") and "geometry" not in columns(old_store, "tasks")
    assert "rules" in columns(old_store, "results")
    assert "conditions" in columns(old_store, "hosts")  # version 6
    assert "certified" in columns(old_store, "certificates")  # version 7
    migrated = store.results(1)
    assert migrated == read_only  # the same rows, read either way
    assert len(store.results(2)) == 10 and len(store.tasks(2)) == 80


def test_a_killed_run_of_an_old_store_resumes_to_the_end(
    old_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--db", str(old_store), "--resume", "--quiet", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 70 and all(set(record) == BENCH for record in records)
    store = SQLiteStore(old_store, read_only=True)
    run = store.run(2)
    assert run.finished and len(run.resumes) == 1
    rows = store.results(2)
    assert len(rows) == 80 and {row["status"] for row in rows} <= {"solved", "limit"}
    assert main(["report", "--db", str(old_store), "--run", "2"]) == 0
    assert "dlx" in capsys.readouterr().out


def test_the_record_goes_to_the_store_and_back_unchanged(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "r.sqlite")
    from sudoku_bench.harness.running import session
    from sudoku_bench.harness.running.testing import backend
    from sudoku_bench.harness.running.worker import Settings

    entries = [PuzzleEntry("a:1", Grid.from_string(FOUR))]
    work = session.start(
        store, entries, [backend("reference")], Settings(1.0), repeat=3, jobs=1, seed=1,
        inputs=[], command="t",
    )  # fmt: skip
    first, second, third = work.tasks
    made = [
        Outcome(first, Status.SOLVED, 1, True, Verdict.UNIQUE, ["1"], 0.5, 0.25, 7, 2,
                {"nodes": 7, "guesses": 2}, "", 11, 0.8, 0.7, 12.5, 99, "here"),
        Outcome(second, Status.SOLVED, 1, True, Verdict.UNIQUE, ["1"], 0.5, 0.25, 7, None,
                {"nodes": 7}, "", 11),  # a back-end that counts no guesses
        Outcome(third, Status.TIMEOUT, error="killed"),
    ]  # fmt: skip
    for outcome in made:
        store.add(work.run_id, outcome)
    back = {outcome.task.key: outcome for outcome in store.outcomes(work.run_id)}
    assert [back[outcome.task.key] for outcome in made] == made
    assert back[second.key].guesses is None and back[third.key].guesses is None
    assert back[first.key].guesses == 2


def test_one_json_builder_gives_the_common_keys_everywhere() -> None:
    entry = PuzzleEntry("a:1", Grid.from_string(FOUR))
    result = get("propagating").create().solve(entry.puzzle, limit=2)
    from_result = result_json(entry, result)
    task = Task(0, "a", "a:1", entry.puzzle.rules.spec, FOUR, "propagating", 0)
    outcome = Outcome(task, result.status, result.count, result.exact, result.verdict,
                      [g.to_line() for g in result.solutions], result.build_s,
                      result.search_s, result.nodes, result.guesses, dict(result.counters))  # fmt: skip
    from_outcome = outcome_json(outcome)
    assert set(from_result) == RESULT and set(from_outcome) >= RESULT
    same = RESULT - {"build_s", "solve_s", "message"}
    assert {k: from_result[k] for k in same} == {k: from_outcome[k] for k in same}
