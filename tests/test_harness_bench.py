"""`bench` survives back-ends that hang, raise or kill their own process; the store, the
report formats and the plots."""

import csv
import io
import json
import os
from pathlib import Path

import pytest

from sudoku_bench.harness.analysing.report import libraries_line
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.testing import ReferenceSolver, registered
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Deadline, SearchOutcome
from sudoku_bench.solvers.registry import Backend, register, unregister
from tests.cli_contract import (
    BENCH,
    CONFIGURATION,
    MACHINE,
    REPORT_CSV,
    REPORT_DEFINITIONS,
    REPORT_JSON,
    REPORT_RUN,
    REPORT_SUMMARY,
    REPORT_TASK,
    SETTINGS,
    STORE_TABLES,
)

FOUR = "...3..4114..3..."  # a 4x4 puzzle with one solution
FOUR_SOLVED = "4123234114323214"
MORE = "1..4..1..3..4..3\n3....21..34....1\n"  # two more, as a file


def bench(db: Path, *args: str) -> int:
    return main(["bench", "--db", str(db), "--quiet", *args])


@pytest.fixture(scope="module")
def faulty_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One run of the reference back-end and the misbehaving ones on three puzzles."""
    tmp_path = tmp_path_factory.mktemp("bench")
    db = tmp_path / "runs.sqlite"
    more = tmp_path / "more.txt"
    more.write_text(MORE)
    solvers = "reference,sleeper,raiser,exiter,wrong-grid"
    with registered():
        args = ["-s", solvers, "--timeout", "0.2", "-j", "2", "--seed", "1"]
        assert bench(db, FOUR, str(more), *args) == 0
    return db


def test_every_task_is_recorded_whatever_the_backend_does(faulty_run: Path) -> None:
    store = SQLiteStore(faulty_run)
    run = store.run()
    rows = store.results(run.id)
    assert len(rows) == len(store.tasks(run.id)) == 5 * 3
    by_solver: dict[str, set[str]] = {}
    for row in rows:
        by_solver.setdefault(row["solver"], set()).add(row["status"])
    assert by_solver == {
        "reference": {"limit"},  # limit 1: stopped at the first solution
        "sleeper": {"timeout"},
        "raiser": {"error"},
        "exiter": {"error"},
        "wrong-grid": {"solved"},
    }


def test_failures_carry_their_reasons(faulty_run: Path) -> None:
    store = SQLiteStore(faulty_run)
    rows = store.results(store.run().id)
    errors = {row["solver"]: row["error"] for row in rows if row["puzzle_id"] == "arg1"}
    assert "killed after" in errors["sleeper"] and "time limit 0.2 s" in errors["sleeper"]
    assert errors["raiser"].startswith("RuntimeError: this back-end always fails")
    assert "worker process died (exit code 3)" in errors["exiter"]
    sleeper = next(r for r in rows if r["solver"] == "sleeper")
    assert 0.2 <= sleeper["total_s"] < 3  # killed soon after its limit, not left hanging
    reference = next(r for r in rows if r["solver"] == "reference" and r["puzzle_id"] == "arg1")
    assert reference["solution"] == FOUR_SOLVED and reference["exact"] is False  # limit 1


def test_the_run_records_machine_versions_and_settings(faulty_run: Path) -> None:
    run = SQLiteStore(faulty_run).run()
    assert run.machine["cores"] == os.cpu_count()
    assert run.machine["cpu"] and run.machine["python"].startswith("CPython")
    assert run.seed == 1 and run.finished
    assert run.settings["timeout"] == 0.2 and run.settings["jobs"] == 2
    assert run.settings["solvers"] == ["reference", "sleeper", "raiser", "exiter", "wrong-grid"]
    assert set(run.versions) == set(run.settings["solvers"])  # what ran, not all installed


def test_the_report_header_names_each_library_once_with_its_users() -> None:
    versions = {
        "backtracking": "sudoku-bench 0.1.0",
        "cpsat": "ortools 9.15.6755",
        "dlx": "sudoku-bench 0.1.0",
        "sat": "python-sat 1.9",
    }
    assert libraries_line(versions) == (
        "sudoku-bench 0.1.0 (backtracking, dlx); ortools 9.15.6755 (cpsat); python-sat 1.9 (sat)"
    )
    # an older run recorded every registered back-end; its solver list keeps the ones it ran
    assert libraries_line(versions, ["dlx", "cpsat"]) == (
        "ortools 9.15.6755 (cpsat); sudoku-bench 0.1.0 (dlx)"
    )


def test_store_is_in_wal_mode(faulty_run: Path) -> None:
    store = SQLiteStore(faulty_run)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_store_tables_have_the_documented_columns(faulty_run: Path) -> None:
    db = SQLiteStore(faulty_run).db
    for table, columns in STORE_TABLES.items():
        found = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
        assert found == columns, table
    (settings, configuration) = db.execute(
        "SELECT settings, configuration FROM runs JOIN tasks ON tasks.run = runs.id"
    ).fetchone()
    assert set(json.loads(settings)) == SETTINGS
    assert set(json.loads(configuration)) == CONFIGURATION


def test_report_table_counts_and_flags_the_wrong_grids(
    faulty_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(faulty_run), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == REPORT_JSON
    assert set(document["run"]) == REPORT_RUN and set(document["run"]["machine"]) == MACHINE
    assert set(document["definitions"]) == REPORT_DEFINITIONS
    assert all(set(row) == REPORT_SUMMARY for row in document["summary"])
    assert all(set(task) == REPORT_TASK for task in document["tasks"])
    overall = {s["solver"]: s for s in document["summary"] if s["collection"] == "(all)"}
    assert overall["reference"]["solved"] == 3 and overall["reference"]["agree"] == 3
    assert overall["wrong-grid"]["solved"] == 3 and overall["wrong-grid"]["agree"] == 0
    assert overall["sleeper"]["timeouts"] == 3 and overall["sleeper"]["par2_s"] == pytest.approx(
        0.4
    )
    assert overall["exiter"]["errors"] == 3
    assert document["definitions"] == {"shift_s": 0.01, "cutoff_s": 0.2, "par_factor": 2}
    assert len(document["tasks"]) == 15


def test_csv_has_one_row_per_task_with_the_documented_keys(
    faulty_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(faulty_run), "--format", "csv"]) == 0
    text = capsys.readouterr().out
    metadata = [line for line in text.splitlines() if line.startswith("#")]
    reader = csv.DictReader(line for line in io.StringIO(text) if not line.startswith("#"))
    assert tuple(reader.fieldnames or ()) == REPORT_CSV
    assert len(list(reader)) == 15
    # the run's metadata heads the file, so a file shared alone still says what it measured
    (document,) = [line.removeprefix("# metadata: ") for line in metadata if "metadata: {" in line]
    assert set(json.loads(document)) == REPORT_RUN
    assert any(line.startswith("# command: sudoku-bench bench") for line in metadata)


@pytest.mark.parametrize("fmt", ["table", "md", "latex"])
def test_summary_formats_state_the_settings(
    faulty_run: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(faulty_run), "--format", fmt]) == 0
    text = capsys.readouterr().out
    assert "shift 10 ms" in text and "0.4 s (2 x cut-off)" in text
    assert "wrong-grid" in text and "shared the machine" in text


def test_plots_are_written(faulty_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "report" / "report.md"
    args = ["report", "--db", str(faulty_run), "--format", "md", "-o", str(out)]
    assert (
        main([*args, "--plots", str(tmp_path / "report"), "--scatter", "reference,wrong-grid"]) == 0
    )
    for name in ("cactus.png", "profile.png", "scatter.png"):
        assert (tmp_path / "report" / name).read_bytes().startswith(b"\x89PNG")
    assert "![cactus](cactus.png)" in out.read_text()


def test_repeats_and_limit_two(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with registered("reference"):
        assert (
            bench(db, FOUR, "-s", "reference", "--repeat", "3", "--warmup", "1", "--limit", "2")
            == 0
        )
    rows = SQLiteStore(db).results(1)
    assert sorted(row["repeat"] for row in rows) == [0, 1, 2]
    assert {(row["status"], row["verdict"], row["exact"]) for row in rows} == {
        ("solved", "unique", True)
    }


def test_json_lines_per_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with registered("reference"):
        assert bench(tmp_path / "j.sqlite", FOUR, "-s", "reference", "--json") == 0
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert set(record) == BENCH
    assert record["status"] == "limit" and record["solutions"] == [FOUR_SOLVED]
    assert record["run"] == 1 and record["collection"] == "arguments"


def test_bad_arguments_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(tmp_path / "missing.sqlite")]) == 2
    assert main(["bench", "--db", str(tmp_path / "x.sqlite"), FOUR, "-s", "nonesuch"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all(line.startswith("sudoku-bench: error:") for line in errors)


def test_late_answers_count_as_timeouts_and_unsupported_puzzles_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "late.sqlite"
    with registered("reference", "late", "no-geometry"):
        assert bench(db, FOUR, "-s", "reference,late,no-geometry", "--timeout", "0.3") == 0
    rows = {row["solver"]: row for row in SQLiteStore(db).results(1)}
    assert rows["late"]["status"] == "timeout"
    assert "past the 0.3 s limit" in rows["late"]["error"]
    assert rows["late"]["solution"] == FOUR_SOLVED  # what it found is kept
    assert rows["no-geometry"]["status"] == "unsupported"
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    summary = {s["solver"]: s for s in json.loads(capsys.readouterr().out)["summary"]}
    assert summary["no-geometry"]["tasks"] == 0 and summary["no-geometry"]["unsupported"] == 1
    assert summary["late"]["timeouts"] == 1 and summary["late"]["solved"] == 0


class CountingSolver(ReferenceSolver):
    """A back-end defined in a test module: workers import it by its `module:Class` target."""

    name = "counting"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        outcome = super()._search(model, puzzle, limit, deadline)
        outcome.counters["pid"] = os.getpid()
        return outcome


def test_a_backend_registered_at_run_time_from_a_test_module_runs_in_the_workers(
    tmp_path: Path,
) -> None:
    register(Backend("counting", f"{__name__}:CountingSolver", "test-only", in_all=False))
    try:
        assert bench(tmp_path / "c.sqlite", FOUR, "-s", "counting") == 0
    finally:
        unregister("counting")
    (row,) = SQLiteStore(tmp_path / "c.sqlite").results(1)
    assert row["status"] == "limit" and row["counters"]["pid"] not in (0, os.getpid())


def test_the_run_records_its_own_command_line(faulty_run: Path) -> None:
    command = SQLiteStore(faulty_run).run().command
    assert command.startswith("sudoku-bench bench --db ") and "--timeout 0.2" in command


def test_a_run_says_how_long_it_should_take_and_logs_progress_without_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing said before a long run how long it would take, and without a terminal (a log
    file, a batch job) nothing said how far it was."""
    from sudoku_bench.harness.running import progress

    monkeypatch.setattr(progress, "LOG_EVERY_S", 0.0)
    db = tmp_path / "runs.sqlite"
    assert main(["bench", "seeds", "-s", "dlx", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "expected time: unknown (the store has no earlier results" in err
    assert "run 1: 5 of 5 done (100%), 0 failed" in err
    assert main(["bench", "seeds", "-s", "dlx", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "expected time: about" in err and "(from earlier results in the store)" in err
    assert "run 2: 1 of 5 done (20%)" in err and "left" in err
