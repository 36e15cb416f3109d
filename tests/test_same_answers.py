"""`benchmarks/same_answers.py`: two stored runs compared task by task, old schema included."""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "store-v4.sqlite"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "same_answers", ROOT / "benchmarks" / "same_answers.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["same_answers"] = module
    spec.loader.exec_module(module)
    return module


same_answers = _script()


def test_a_store_is_the_same_as_itself_across_schema_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    migrated = tmp_path / "new.sqlite"
    shutil.copyfile(FIXTURE, migrated)
    from sudoku_bench.harness.storing.store import SQLiteStore

    SQLiteStore(migrated).close()  # now schema 5
    args = [str(FIXTURE), str(migrated), "--before-run", "1", "--after-run", "1"]
    assert same_answers.main(args) == 0
    assert "32 tasks in both runs (32 with deterministic counters)" in capsys.readouterr().out


def test_every_kind_of_difference_is_printed_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = tmp_path / "changed.sqlite"
    shutil.copyfile(FIXTURE, changed)
    with sqlite3.connect(changed) as db:
        first, second, third, fourth = [
            row[0]
            for row in db.execute(
                "SELECT task FROM results WHERE run = 1 AND solver = 'dlx' ORDER BY task LIMIT 4"
            )
        ]
        db.execute("UPDATE results SET nodes = nodes + 1 WHERE run = 1 AND task = ?", (first,))
        db.execute(
            "UPDATE results SET status = 'timeout', verdict = 'unknown' WHERE run = 1 AND task = ?",
            (second,),
        )
        db.execute(
            "UPDATE results SET verdict = 'multiple', count = 2 WHERE run = 1 AND task = ?",
            (third,),
        )
        db.execute("DELETE FROM results WHERE run = 1 AND task = ?", (fourth,))
    args = [str(FIXTURE), str(changed), "--before-run", "1", "--after-run", "1"]
    assert same_answers.main(args) == 1
    out = capsys.readouterr().out
    assert "nodes" in out and ("limit -> timeout" in out or "solved -> timeout" in out)
    assert "verdict" in out and "only in BEFORE" in out and "4 differ" in out
    assert same_answers.main([*args, "--ignore-timeouts"]) == 1
    assert "3 differ" in capsys.readouterr().out
