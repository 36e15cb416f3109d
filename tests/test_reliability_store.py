"""Issue 17, the results store: a run being executed is locked, resumptions record their own
jobs, a complete run is never rewritten, and reports open stores read-only."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.storing.store import LockOwner, SQLiteStore, open_store
from tests.cli_process import ENV

PUZZLES = "...3..4114..3...\n1..4..1..3..4..3\n3....21..34....1\n"
SCRIPT = """
import sys
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.solvers.registry import register
from sudoku_bench.harness.cli import main
register(backend("reference", "busy", spin=int(sys.argv[4])))
sys.exit(main(["bench", "--db", sys.argv[1], *sys.argv[5:], "-s", "busy", "--quiet",
               "--repeat", sys.argv[3], "--timeout", "20", "--seed", "7", sys.argv[2]]))
"""
RESUME = """
import sys
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.solvers.registry import register
from sudoku_bench.harness.cli import main
register(backend("reference", "busy", spin=int(sys.argv[2])))
sys.exit(main(["bench", "--db", sys.argv[1], "--resume", "--quiet", *sys.argv[3:]]))
"""


def bench_process(
    db: Path, puzzles: Path, repeat: int, spin: int, *extra: str
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(db), str(puzzles), str(repeat), str(spin), *extra],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def resume_process(db: Path, spin: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", RESUME, str(db), str(spin), *extra],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def rows(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def wait_for_rows(db: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while rows(db) < count and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    assert rows(db) >= count, process.communicate()


def contents(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as connection:
        return {
            table: connection.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in ("runs", "resumes", "tasks", "results", "locks")
        }


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "p.txt"
    path.write_text(PUZZLES)
    return path


# ----- defect 1: a run being executed is locked ------------------------------------------------


def test_a_resume_while_the_run_goes_on_is_refused_and_the_run_survives(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    running = bench_process(db, puzzles, 40, 30_000)
    wait_for_rows(db, 3, running)
    assert main(["bench", "--db", str(db), "--resume", "--quiet", "-j", "2"]) == 2
    err = capsys.readouterr().err
    assert f"run 1 is being run by pid {running.pid} on {socket.gethostname()}" in err
    _, errors = running.communicate(timeout=120)
    assert running.returncode == 0, errors  # it died of "UNIQUE constraint failed" before
    store = SQLiteStore(db)
    keys = [row["task"] for row in store.results(1)]
    assert sorted(keys) == list(range(3 * 40))
    assert store.run_lock(1) is None  # released at the end
    assert store.run(1).resumes == []


def test_take_over_of_a_run_that_goes_on_here_is_refused_and_the_run_survives(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--take-over` on the same host, with the owner alive, said the owner "is gone", ran its
    tasks again, died on UNIQUE constraint failed, deleted the owner's lock and left the
    failed resumptions recorded."""
    db = tmp_path / "runs.sqlite"
    running = bench_process(db, puzzles, 40, 30_000)
    wait_for_rows(db, 3, running)
    assert main(["bench", "--db", str(db), "--resume", "--quiet", "--take-over"]) == 2
    err = capsys.readouterr().err
    assert f"pid {running.pid} on {socket.gethostname()}" in err and "still running" in err
    assert SQLiteStore(db).run_lock(1) is not None  # the owner's lock stays
    _, errors = running.communicate(timeout=120)
    assert running.returncode == 0, errors
    store = SQLiteStore(db)
    assert sorted(row["task"] for row in store.results(1)) == list(range(3 * 40))
    assert store.run(1).resumes == [] and store.run_lock(1) is None


def test_two_resumptions_of_a_killed_run_one_runs_one_refuses(
    tmp_path: Path, puzzles: Path
) -> None:
    db = tmp_path / "runs.sqlite"
    first = bench_process(db, puzzles, 40, 30_000)
    wait_for_rows(db, 3, first)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert SQLiteStore(db).run_lock(1) is not None  # left behind by the killed process
    both = [resume_process(db, 30_000), resume_process(db, 30_000)]
    results = [(p.wait(timeout=120), *p.communicate()) for p in both]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    refused = next(err for code, _, err in results if code == 2)
    assert "is being run by pid" in refused
    ran = next(err for code, _, err in results if code == 0)
    assert f"was locked by pid {first.pid}" in ran and "which is gone: taking it over" in ran
    store = SQLiteStore(db)
    keys = [row["task"] for row in store.results(1)]
    assert sorted(keys) == list(range(3 * 40))  # every task exactly once
    assert len(store.run(1).resumes) == 1


def test_a_lock_held_on_another_host_needs_take_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    assert main(["bench", "--db", str(db), "--quiet", "...3..4114..3...", "-s", "dlx"]) == 0
    store = SQLiteStore(db)
    store.db.execute("UPDATE runs SET finished = NULL")
    store.db.execute("DELETE FROM results")
    elsewhere = LockOwner(os.getpid(), "another-host", "x")
    store.lock_run(1, elsewhere)
    capsys.readouterr()
    assert main(["bench", "--db", str(db), "--resume", "--quiet"]) == 2
    assert "run 1 is being run by pid" in capsys.readouterr().err
    assert main(["bench", "--db", str(db), "--resume", "--quiet", "--take-over"]) == 0
    assert "on another host (--take-over): taking it over" in capsys.readouterr().err
    assert len(store.results(1)) == 1 and store.run_lock(1) is None


def test_a_lock_of_a_reused_pid_is_stale() -> None:
    owner = LockOwner.here()
    assert not owner.gone()
    assert LockOwner(owner.pid, owner.host, owner.process + "0").gone()  # another process


# ----- defect 2: each resumption's jobs are recorded and shown ----------------------------------


def test_a_resumption_with_other_jobs_is_recorded_and_reported(
    tmp_path: Path, puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    first = bench_process(db, puzzles, 20, 30_000, "-j", "1")
    wait_for_rows(db, 3, first)
    first.send_signal(signal.SIGKILL)
    first.wait()
    again = resume_process(db, 30_000, "-j", "2")
    assert again.wait(timeout=120) == 0, again.communicate()
    capsys.readouterr()
    assert main(["report", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "jobs 1 then 2 (changed on resuming)" in out
    assert "2 tasks ran at a time in part of the run" in out
    assert "jobs 2)" in out  # on the resumed line
    assert SQLiteStore(db).run(1).resumes[0].settings == {"jobs": 2}


# ----- defect 3: resuming a complete run changes nothing ----------------------------------------


def test_resuming_a_complete_run_leaves_it_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    assert main(["bench", "--db", str(db), "--quiet", "...3..4114..3...", "-s", "dlx"]) == 0
    before = contents(db)
    capsys.readouterr()
    for resume in (["--resume"], ["--resume", "0"], ["--resume", "1"]):
        assert main(["bench", "--db", str(db), "--quiet", *resume]) == 0
        assert capsys.readouterr().err == "sudoku-bench: run 1 is complete; nothing to resume\n"
    assert contents(db) == before


def test_run_0_means_the_latest_run_for_report_as_for_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    for _ in range(2):
        assert main(["bench", "--db", str(db), "--quiet", "...3..4114..3...", "-s", "dlx"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--run", "0"]) == 0
    assert capsys.readouterr().out.startswith("run: 2, started")


# ----- defect 10: reports open stores read-only --------------------------------------------------


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user can enter (pytest's own temporary folders are private)."""
    folder = Path(tempfile.mkdtemp(prefix="sudoku-bench-ro-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.iterdir()):
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder)


def _as_another_user() -> list[str]:
    """Permissions do not bind root: its tests run the command as nobody."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot test permissions")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]


def _report(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_as_another_user(), sys.executable, "-m", "sudoku_bench.harness", "report", "--db", str(db)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("read_only", ["folder", "file"])
def test_a_store_that_cannot_be_written_is_reported(shared_folder: Path, read_only: str) -> None:
    db = shared_folder / "runs.sqlite"
    assert main(["bench", "--db", str(db), "--quiet", "...3..4114..3...", "-s", "dlx"]) == 0
    assert sorted(p.name for p in shared_folder.iterdir()) == ["runs.sqlite"]
    db.chmod(0o444)
    if read_only == "folder":
        shared_folder.chmod(0o555)
    done = _report(db)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("run: 1, started")
    assert sorted(p.name for p in shared_folder.iterdir()) == ["runs.sqlite"]  # no -wal, -shm


def test_a_read_only_store_sees_the_results_of_a_run_going_on(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    writer = SQLiteStore(db)
    assert main(["bench", "--db", str(db), "--quiet", "...3..4114..3...", "-s", "dlx"]) == 0
    writer.db.execute("DELETE FROM results")  # in the log, not yet in the main file
    reader = open_store(db, read_only=True)
    assert reader.results(1) == []
    assert Report(reader, None).rows == []
    reader.close()
    writer.close()


def test_an_old_store_reads_read_only_with_the_added_columns(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    assert main(["bench", "--db", str(db), "--quiet", "...3..4114..3...", "-s", "dlx"]) == 0
    with sqlite3.connect(db) as connection:  # back to the first schema version
        connection.execute("ALTER TABLE resumes DROP COLUMN settings")
        connection.execute("DROP TABLE locks")
        connection.execute("PRAGMA user_version = 1")
        connection.execute(
            "INSERT INTO resumes (run, started, command, versions) VALUES (1, 'now', 'x', '{}')"
        )
    store = open_store(db, read_only=True)
    assert store.run(1).resumes[0].settings == {}
    assert store.run_lock(1) is None
    store.close()
    with sqlite3.connect(db) as connection:  # and the file was not upgraded
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 1


def test_results_of_back_ends_that_count_no_guesses_copy_and_merge(tmp_path: Path) -> None:
    """`results()` gives guesses None for them, and the NOT NULL column made OR IGNORE drop
    such rows silently when a merge copied them (shards lost every cpsat result)."""
    source = tmp_path / "a.sqlite"
    assert (
        main(["bench", "--db", str(source), "--quiet", "...3..4114..3...", "-s", "cpsat,dlx"]) == 0
    )
    rows = SQLiteStore(source).results(1)
    assert {row["solver"]: row["guesses"] for row in rows} == {"cpsat": None, "dlx": 0}
    target = SQLiteStore(tmp_path / "b.sqlite")
    run = target.create_run(SQLiteStore(source).run(1), SQLiteStore(source).tasks(1), {})
    assert target.copy_results(run, rows) == 2
    assert {row["solver"]: row["guesses"] for row in target.results(run)} == {
        "cpsat": None,
        "dlx": 0,
    }
