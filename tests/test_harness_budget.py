"""Budget control (`bench --plan`, skipped repeats after a timeout), shards and `merge`, and
the store's idempotent inserts, hosts and read-only opening."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running import session
from sudoku_bench.harness.running.tasks import Outcome
from sudoku_bench.harness.running.testing import backend, registered
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import HostInfo, RunInfo, SQLiteStore
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from tests.cli_contract import PLAN, PLAN_ESTIMATE, REPORT_HOST

FOURS = (
    "...3..4114..3...",
    "1..4..1..3..4..3",
    "3....21..34....1",
    "....3.2..4.1....",
    "2..1....3..4..2.",
    ".4....1..3....2.",
    "..3..2......1..4",
)


def puzzles_file(tmp_path: Path) -> Path:
    path = tmp_path / "fours.txt"
    path.write_text("\n".join(FOURS) + "\n")
    return path


def bench(db: Path, *args: str) -> int:
    return main(["bench", "--db", str(db), "--quiet", *args])


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----- skipped repeats -----------------------------------------------------------------------


def test_a_timed_out_first_repeat_is_not_repeated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    with registered("reference", "sleeper"):
        args = [FOURS[0], FOURS[1], "-s", "reference,sleeper", "--repeat", "3"]
        assert bench(db, *args, "--timeout", "0.2", "--seed", "2") == 0
    store = SQLiteStore(db)
    rows = store.results(1)
    by = {(r["solver"], r["status"]): 0 for r in rows}
    for row in rows:
        by[(row["solver"], row["status"])] += 1
    assert by == {("reference", "limit"): 6, ("sleeper", "timeout"): 2, ("sleeper", "skipped"): 4}
    skipped = [r for r in rows if r["status"] == "skipped"]
    assert all("timed out" in r["error"] and r["total_s"] == 0 and not r["host"] for r in skipped)
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    summary = {s["solver"]: s for s in json.loads(capsys.readouterr().out)["summary"]}
    assert summary["sleeper"]["timeouts"] == 6 and summary["sleeper"]["skipped"] == 4
    assert summary["sleeper"]["par2_s"] == pytest.approx(0.4)  # all six at 2 x cut-off
    assert summary["reference"]["skipped"] == 0


def test_repeat_timeouts_runs_every_repeat(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with registered("sleeper"):
        assert bench(db, FOURS[0], "-s", "sleeper", "--repeat", "2", "--timeout", "0.1",
                     "--repeat-timeouts") == 0  # fmt: skip
    store = SQLiteStore(db)
    assert [r["status"] for r in store.results(1)] == ["timeout", "timeout"]
    assert store.run().settings["repeat_timeouts"] is True


def test_a_resumed_run_skips_the_repeats_of_what_timed_out_before(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "r.sqlite")
    entries = [PuzzleEntry("a:1", Grid.from_string(FOURS[0]))]
    with registered("sleeper"):
        work = session.start(
            store, entries, [backend("sleeper")], Settings(0.1), repeat=3, jobs=1,
            seed=1, inputs=[], command="t",
        )  # fmt: skip
        first = work.tasks[0]
        store.add(work.run_id, Outcome(first, "timeout", error="killed"))  # then the run died
        resumed = session.resume(store, None, None, command="t --resume", warn=print)
        assert len(resumed.tasks) == 2 and first.group in resumed.timed_out
        session.execute(store, resumed)
    statuses = sorted(r["status"] for r in store.results(work.run_id))
    assert statuses == ["skipped", "skipped", "timeout"]


# ----- --plan ---------------------------------------------------------------------------------


def test_plan_estimates_from_the_store_and_a_pilot_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, more = tmp_path / "p.sqlite", puzzles_file(tmp_path)
    with registered("reference", "sleeper"):
        args = [str(more), "-s", "reference,sleeper", "--timeout", "0.2", "--repeat", "4"]
        assert bench(db, *args, "--plan", "--json") == 0
        assert not db.exists()  # --plan runs nothing and stores nothing
        plan = json.loads(capsys.readouterr().out)
        assert set(plan) == PLAN and all(set(e) == PLAN_ESTIMATE for e in plan["estimates"])
        assert plan["tasks"] == 7 * 2 * 4 and plan["puzzles"] == 7
        estimates = {e["solver"]: e for e in plan["estimates"]}
        assert {e["source"] for e in estimates.values()} == {"pilot"}
        assert plan["pilot_tasks"] == 6  # 3 puzzles of each back-end, one repeat
        sleeper = estimates["sleeper"]
        assert sleeper["timeout_share"] == 1.0 and sleeper["skipped"] == 7 * 3
        assert sleeper["cpu_s"] == pytest.approx(7 * (0.2 * 1.1 + 0.25))  # one kill per puzzle
        assert estimates["reference"]["timeout_share"] == 0.0
        assert plan["cpu_s"] == pytest.approx(sum(e["cpu_s"] for e in estimates.values()), abs=1e-3)
        # counts and times as people write them, not a sum's rounding noise (11.999999999999993)
        for estimate in plan["estimates"]:
            assert estimate["skipped"] == round(estimate["skipped"], 1)
            assert all(
                value == round(value, 6) for value in estimate.values() if isinstance(value, float)
            )

        more.write_text(FOURS[0] + "\n")  # earlier results of the same collection (file)
        assert bench(db, str(more), "-s", "reference,sleeper", "--timeout", "0.2") == 0
        more.write_text("\n".join(FOURS) + "\n")
        before = digest(db)
        capsys.readouterr()
        assert bench(db, *args, "--plan", "--json", "--repeat-timeouts") == 0
        assert digest(db) == before  # the store was only read
        plan = json.loads(capsys.readouterr().out)
        estimates = {e["solver"]: e for e in plan["estimates"]}
        assert {e["source"] for e in estimates.values()} == {"store"}
        assert plan["pilot_tasks"] == 0
        assert estimates["sleeper"]["skipped"] == 0  # every repeat runs
        assert estimates["sleeper"]["cpu_s"] == pytest.approx(28 * 0.47)

        assert bench(db, *args, "--plan") == 0  # the table
        text = capsys.readouterr().out
        assert "plan: 56 tasks (7 puzzles)" in text and "estimated CPU time" in text


def test_plan_of_a_resumed_run_counts_what_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.sqlite"
    store = SQLiteStore(db)
    entries = [PuzzleEntry(f"a:{i}", Grid.from_string(p)) for i, p in enumerate(FOURS)]
    work = session.start(
        store, entries, [backend("reference")], Settings(1.0), repeat=2, jobs=1, seed=1,
        inputs=[], command="t",
    )  # fmt: skip
    for task in work.tasks[:5]:
        store.add(work.run_id, Outcome(task, "solved", solve_s=0.01))
    assert bench(db, "--plan", "--resume", "--json", "--pilot", "0") == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["tasks"] == 14 - 5
    (estimate,) = plan["estimates"]
    assert estimate["source"] == "store" and estimate["cpu_s"] == pytest.approx(9 * 0.01)
    assert store.run().resumes == []  # planning a resumption records none


# ----- shards and merge ----------------------------------------------------------------------


def plan_of(db: Path) -> list[tuple[int, int, str, str, int]]:
    with sqlite3.connect(db) as connection:
        return sorted(
            connection.execute(
                "SELECT task, position, puzzle_id, solver, repeat FROM tasks WHERE run ="
                " (SELECT MAX(id) FROM runs)"
            ).fetchall()
        )


def test_three_shards_merged_equal_one_unsharded_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    more = puzzles_file(tmp_path)
    # limit 2: the reference back-end's counts are exact verdicts, which the shards certify
    args = [str(more), "-s", "reference,raiser", "--repeat", "2", "--seed", "9", "--limit", "2"]
    shards = [tmp_path / f"shard{i}.sqlite" for i in (1, 2, 3)]
    with registered("reference", "raiser"):
        assert bench(tmp_path / "whole.sqlite", *args) == 0
        for number, db in enumerate(shards, 1):
            # the shards certify their verdicts (the reference back-end's), the merge keeps them
            assert bench(db, *args, "--shard", f"{number}/3", "--certify") == 0
    sizes = [len(plan_of(db)) for db in shards]
    assert sizes == [3 * 4, 2 * 4, 2 * 4]  # puzzles 0,3,6 / 1,4 / 2,5 with every task of each
    before = [digest(db) for db in shards]
    merged = tmp_path / "all.sqlite"
    capsys.readouterr()
    assert main(["merge", *map(str, reversed(shards)), "-o", str(merged)]) == 0
    assert "merged 3 shards into run 1" in capsys.readouterr().err
    assert [digest(db) for db in shards] == before  # the inputs were only read
    assert plan_of(merged) == plan_of(tmp_path / "whole.sqlite")  # same tasks, order, once each
    store = SQLiteStore(merged)
    run = store.run()
    whole = SQLiteStore(tmp_path / "whole.sqlite")
    rows = store.results(run.id)
    assert sorted(r["task"] for r in rows) == [t for t, *_ in plan_of(merged)]
    assert {(r["task"], r["status"]) for r in rows} == {
        (r["task"], r["status"]) for r in whole.results(1)
    }
    assert run.finished and run.settings["shard"] == "" and run.seed == 9
    assert len(run.resumes) == 2  # shards 2 and 3, where and with what they ran
    assert [h.name for h in store.hosts(run.id)] == [whole.hosts(1)[0].name]
    certified = {task for shard in shards for task in SQLiteStore(shard).certificates(1)}
    assert certified and set(store.certificates(run.id)) == certified
    report = Report(store, run.id)
    assert dict(report.header())["tasks"] == f"{len(rows)} of {len(rows)} finished"


def test_merge_refuses_what_is_not_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    more = puzzles_file(tmp_path)
    args = [str(more), "-s", "reference", "--seed", "1"]
    with registered("reference"):
        assert bench(tmp_path / "a.sqlite", *args, "--shard", "1/2") == 0
        assert bench(tmp_path / "b.sqlite", *args, "--shard", "2/2", "--timeout", "3") == 0
        assert bench(tmp_path / "c.sqlite", *args, "--shard", "2/2") == 0
        assert bench(tmp_path / "plain.sqlite", *args) == 0
        capsys.readouterr()
        no_seed = [str(more), "-s", "reference", "--shard", "1/2"]
        assert bench(tmp_path / "d.sqlite", *no_seed) == 2  # every shard must plan one run
    a, b, c = (str(tmp_path / f"{n}.sqlite") for n in "abc")
    out = str(tmp_path / "out.sqlite")
    assert main(["merge", a, b, "-o", out]) == 2
    assert main(["merge", a, a, c, "-o", out]) == 2
    assert main(["merge", a, "-o", out]) == 2
    assert main(["merge", a, str(tmp_path / "plain.sqlite"), "-o", out]) == 2
    assert main(["merge", a, c, "-o", a]) == 2
    errors = capsys.readouterr().err.splitlines()
    with pytest.raises(SystemExit):
        main(["bench", "--db", out, FOURS[0], "--shard", "3/2"])
    errors.append(capsys.readouterr().err.strip())
    assert len(errors) == 7 and all(line.startswith("sudoku-bench: error:") for line in errors[:-1])
    assert "--shard needs --seed" in errors.pop(0)
    assert "their timeout differ" in errors[0]
    assert "shard 1/2 is given twice" in errors[1]
    assert "shard 2/2 is missing" in errors[2]
    assert "is not a shard" in errors[3]
    assert "is one of the inputs" in errors[4]
    assert errors[5].startswith("sudoku-bench bench: error: argument --shard: I/N with")
    assert not Path(out).exists()
    assert main(["merge", a, c, "-o", out]) == 0


# ----- the store ------------------------------------------------------------------------------


def test_inserts_of_a_chunk_are_idempotent_and_hosts_are_recorded_once(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite")
    entries = [PuzzleEntry("a:1", Grid.from_string(FOURS[0]))]
    tasks, _ = session.planned(entries, ["x"], 3, seed=1)
    run_id = store.create_run(RunInfo("t", 1, {"timeout": 1.0}), tasks, {"x": {}})
    outcomes = [Outcome(task, "solved", host="node1") for task in tasks[:2]]
    assert store.add_many(run_id, outcomes) == 2
    assert store.add_many(run_id, [*outcomes, Outcome(tasks[2], "error", host="node2")]) == 1
    assert sorted(r["task"] for r in store.results(run_id)) == sorted(t.key for t in tasks)
    assert {r["task"]: r["host"] for r in store.results(run_id)}[tasks[2].key] == "node2"
    host = HostInfo({"host": "node1", "cpu": "Xeon", "cores": 8}, {"x": "lib 1"}, "abc")
    store.add_host(run_id, host)
    store.add_host(run_id, host)
    assert store.hosts(run_id) == [
        HostInfo({**host.machine, "os": None, "python": None, "load": None}, {"x": "lib 1"}, "abc")
    ]


def test_an_older_store_reads_read_only_and_gains_host_when_opened_for_writing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite"
    from sudoku_bench.harness.storing import store as store_module

    with sqlite3.connect(db) as connection:  # a store of schema version 1, as released
        connection.executescript(store_module._SCHEMA)
        connection.execute(
            "INSERT INTO runs (started, command, versions, seed, settings) VALUES"
            " ('2026-01-01', 'sudoku-bench bench', '{}', 1, '{\"timeout\": 1}')"
        )
    before = digest(db)
    reader = SQLiteStore(db, create=False, read_only=True)
    assert reader.hosts(1) == [] and reader.results(1) == []
    reader.close()
    assert digest(db) == before and not Path(f"{db}-wal").exists()
    writer = SQLiteStore(db)
    columns = {row[1] for row in writer.db.execute("PRAGMA table_info(results)")}
    assert "host" in columns and writer.hosts(1) == []
    assert writer.db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def test_the_report_counts_hosts_and_warns_of_machines_of_different_kinds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SQLiteStore(tmp_path / "h.sqlite")
    entries = [PuzzleEntry(f"a:{i}", Grid.from_string(p)) for i, p in enumerate(FOURS[:3])]
    tasks, _ = session.planned(entries, ["x", "y"], 1, seed=1)
    run_id = store.create_run(RunInfo("t", 1, {"timeout": 1.0, "solvers": ["x", "y"]}), tasks, {})
    where = {"a:0": "n1", "a:1": "n2", "a:2": "n3"}
    # a:2 compares x on n3 with y on n1, two kinds of machine
    outcomes = [
        Outcome(
            t,
            "solved",
            host="n1" if (t.puzzle_id, t.solver) == ("a:2", "y") else where[t.puzzle_id],
        )
        for t in tasks
    ]
    store.add_many(run_id, outcomes)
    same = {"cpu": "Xeon", "cores": 8, "os": "Linux", "python": "CPython 3.11.7"}
    store.add_host(run_id, HostInfo({"host": "n1", **same}, {"x": "lib 1"}, "abc"))
    store.add_host(run_id, HostInfo({"host": "n2", **same}, {"x": "lib 1"}, "abc"))
    store.add_host(run_id, HostInfo({"host": "n3", **same, "cpu": "EPYC"}, {"x": "lib 1"}, "abc"))
    report = Report(store, run_id)
    header = dict(report.header())
    assert header["hosts"] == (
        "3 hosts: n1 (Xeon, 8 cores) 3 tasks; n2 (Xeon, 8 cores) 2 tasks; n3 (EPYC, 8 cores) 1 tasks"
    )
    assert header["warning"].startswith(
        "the run used 2 kinds of machine (n3 has another cpu than n1)"
    )
    assert header["warning"].endswith(
        "1 puzzles compare back-ends measured on different kinds of machine"
    )
    document = json.loads(report.as_json())
    assert all(set(host) == REPORT_HOST for host in document["run"]["hosts"])
    assert document["run"]["warnings"] == [header["warning"]]
    assert [h["tasks"] for h in document["run"]["hosts"]] == [3, 2, 1]
    csv_lines = [line for line in report.as_csv().splitlines() if not line.startswith("#")]
    assert "host" in csv_lines[0].split(",")
