"""`bench --cluster`: chunks of tasks on a Dask cluster, one worker pool per node.

Every cluster here is a `LocalCluster` on 127.0.0.1 (`--cluster local:2`): no other address
is ever contacted.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running import cluster, session
from sudoku_bench.harness.running.tasks import Outcome
from sudoku_bench.harness.running.testing import backend, registered
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from tests.cli_contract import BENCH

pytest.importorskip(
    "distributed", reason="the cluster path needs dask[distributed] (extra cluster)"
)

FOURS = (
    "...3..4114..3...",
    "1..4..1..3..4..3",
    "3....21..34....1",
    "....3.2..4.1....",
    "2..1....3..4..2.",
    ".4....1..3....2.",
)


def write_puzzles(path: Path, puzzles: tuple[str, ...] = FOURS) -> Path:
    path.write_text("\n".join(puzzles) + "\n")
    return path


def bench(db: Path, *args: str) -> int:
    return main(["bench", "--db", str(db), "--quiet", *args])


def signature(db: Path) -> dict[int, tuple[str, int, int, str]]:
    """Per task: status, count, nodes and the first solution."""
    store = SQLiteStore(db)
    rows = store.results(store.run().id)
    return {
        row["task"]: (row["status"], row["count"], row["nodes"], row["solution"]) for row in rows
    }


def test_a_run_on_two_workers_equals_the_local_pool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzles = write_puzzles(tmp_path / "fours.txt", FOURS[:4])
    common = [str(puzzles), "-s", "reference,raiser,native-block,segfault"]
    common += ["--repeat", "2", "--timeout", "0.3", "--seed", "5"]
    with registered():
        assert bench(tmp_path / "local.sqlite", *common, "-j", "2") == 0
        capsys.readouterr()
        assert bench(tmp_path / "cluster.sqlite", *common, "--cluster", "local:2", "--json") == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    local, remote = signature(tmp_path / "local.sqlite"), signature(tmp_path / "cluster.sqlite")
    assert local == remote and len(remote) == len(lines)
    assert all(set(record) == BENCH for record in lines)
    # every task that ran names its host; a skipped repeat ran nowhere
    assert all(bool(r["host"]) == (r["harness_status"] != "skipped") for r in lines)
    statuses = {(r["solver"], r["harness_status"]) for r in lines}
    assert statuses == {
        ("reference", "limit"),
        ("raiser", "error"),
        ("native-block", "timeout"),  # stuck in C code holding the GIL: killed at its limit
        ("native-block", "skipped"),  # its second repeat is not run
        ("segfault", "error"),
    }
    store = SQLiteStore(tmp_path / "cluster.sqlite")
    run = store.run()
    rows = store.results(run.id)
    blocked = [r for r in rows if r["solver"] == "native-block" and r["status"] == "timeout"]
    assert len(blocked) == 4
    assert all("killed after" in r["error"] and r["total_s"] < 3 for r in blocked)
    crashed = [r for r in rows if r["solver"] == "segfault"]
    assert all("killed by SIGSEGV" in r["error"] for r in crashed)
    assert run.settings["cluster"] == "local:2" and run.finished
    (host,) = store.hosts(run.id)  # both workers run on this machine
    assert {row["host"] for row in rows if row["status"] != "skipped"} == {host.name}
    assert set(host.versions) == set(run.settings["solvers"])
    # the node's load, sampled at the start and end of each of its chunks, merged
    assert host.conditions["samples"] >= 2 and host.conditions["load_max"] is not None


def test_the_skip_rule_holds_on_the_cluster(tmp_path: Path) -> None:
    """A back-end that stops at its own deadline (`patient`) and one the pool kills
    (`sleeper`): after each timeout, the later repeats are `skipped` on the nodes too."""
    puzzles = write_puzzles(tmp_path / "fours.txt", FOURS[:2])
    args = [str(puzzles), "-s", "patient,sleeper", "--repeat", "3", "--timeout", "0.2"]
    with registered("patient", "sleeper"):
        assert bench(tmp_path / "c.sqlite", *args, "--cluster", "local:2", "--seed", "4") == 0
    rows = SQLiteStore(tmp_path / "c.sqlite").results(1)
    found: dict[tuple[str, str], int] = {}
    for row in rows:
        found[(row["solver"], row["status"])] = found.get((row["solver"], row["status"]), 0) + 1
    assert found == {
        ("patient", "timeout"): 2,
        ("patient", "skipped"): 4,
        ("sleeper", "timeout"): 2,
        ("sleeper", "skipped"): 4,
    }


def test_every_back_end_and_repeat_of_a_puzzle_share_a_chunk() -> None:
    grid = Grid.from_string(FOURS[0])
    entries = [PuzzleEntry(f"p:{i}", grid) for i in range(10)]
    tasks, _ = session.planned(entries, ["a", "b"], 3, seed=1)
    blocks = cluster.chunks(tasks, lambda task: 1.0, budget_s=13.0, most_puzzles=100)
    assert [len(block) for block in blocks] == [18, 18, 18, 6]  # 3 puzzles of 6 tasks: 18 s
    assert sorted(t.key for block in blocks for t in block) == sorted(t.key for t in tasks)
    for block in blocks:
        assert len({t.puzzle_key for t in block}) * 6 == len(block)
        order = [tasks.index(t) for t in block]
        assert order == sorted(order)  # the run's shuffled order within a chunk
    assert len(cluster.chunks(tasks, lambda task: 1.0, 1000.0, most_puzzles=4)) == 3


@pytest.mark.slow  # two worker starts and a restart: about 10-25 s
def test_a_killed_dask_worker_loses_and_doubles_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "runs.sqlite")
    grid = Grid.from_string(FOURS[0])
    entries = [PuzzleEntry(f"p:{i}", grid) for i in range(16)]
    busy = backend("reference", "busy", spin=300_000)  # some tens of milliseconds a task
    work = session.start(
        store, entries, [busy], Settings(20.0), repeat=3, jobs=1, seed=3, inputs=[], command="t"
    )
    heard: list[int] = []
    killed: list[int] = []
    with cluster.connect("local:2") as client:
        pids = client.run(os.getpid)

        def on_done(outcome: Outcome) -> None:
            heard.append(outcome.task.key)
            if not killed:  # kill a worker that is running a chunk right now
                busy_workers = [w for w, keys in client.processing().items() if keys]
                if busy_workers:
                    killed.append(pids[busy_workers[0]])
                    os.kill(pids[busy_workers[0]], signal.SIGKILL)

        cluster.execute(store, work, client, on_done=on_done)
    assert killed, "no worker was busy when the first chunk came back"
    rows = store.results(work.run_id)
    planned = sorted(task.key for task in store.tasks(work.run_id))
    assert sorted(row["task"] for row in rows) == planned  # every task exactly once
    assert sorted(heard) == planned  # and reported once
    assert store.run(work.run_id).finished


SCRIPT = """
import sys
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.solvers.registry import register
from sudoku_bench.harness.cli import main
register(backend("reference", "busy", spin=200_000))
sys.exit(main(["bench", "--db", sys.argv[1], sys.argv[2], "-s", "busy", "--quiet",
               "--repeat", "6", "--timeout", "20", "--seed", "7", "--cluster", "local:2",
               "--chunk-seconds", "0.3"]))
"""


def finished_rows(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "State:\tZ" in state  # a zombie has exited


@pytest.mark.slow  # a driver in a subprocess, then a second cluster: about 15-30 s
def test_the_driver_killed_mid_run_then_resume_completes_the_run(tmp_path: Path) -> None:
    db, puzzles = tmp_path / "runs.sqlite", write_puzzles(tmp_path / "p.txt")
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(db), str(puzzles)],
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while finished_rows(db) == 0 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    store = SQLiteStore(db)
    run = store.run()
    before = {row["task"]: row for row in store.results(run.id)}
    planned = sorted(task.key for task in store.tasks(run.id))
    assert 0 < len(before) < len(planned), "the kill should land part-way"
    assert not run.finished
    # the Dask workers, and the pool processes under them, die with the driver
    workers = {row["worker"] for row in before.values()}
    deadline = time.monotonic() + 20
    while not all(gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(gone(pid) for pid in workers)
    # the back-end comes from the store's record of it (`module:Class` and options)
    assert main(["bench", "--db", str(db), "--resume", "--quiet", "--cluster", "local:2"]) == 0
    after = store.results(run.id)
    assert sorted(row["task"] for row in after) == planned
    for row in after:
        if row["task"] in before:
            assert row == before[row["task"]]  # what was stored before the kill stays
    assert store.run(run.id).finished


def test_cluster_addresses_that_cannot_work_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "x.sqlite"
    with registered("reference"):
        assert bench(db, FOURS[0], "-s", "reference", "--cluster", "local:zero") == 2
        assert bench(db, FOURS[0], "-s", "reference", "--cluster", str(tmp_path / "none")) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all(line.startswith("sudoku-bench: error:") for line in errors)
    assert "local:N takes a number of workers" in errors[0]
    assert "no such scheduler file" in errors[1]


def test_a_daemonic_worker_is_named_before_any_chunk_runs() -> None:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:  # pool processes are daemonic, as Dask's nanny makes them
        problems = pool.apply(cluster.node_problems, (["sudoku_bench.harness.running.testing", "nonesuch_x"],))
    assert len(problems) == 2
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False" in problems[0]
    assert problems[1] == "it cannot import nonesuch_x"


def test_a_chunk_whose_worker_keeps_dying_leaves_its_tasks_for_resume(tmp_path: Path) -> None:
    import dask

    store = SQLiteStore(tmp_path / "runs.sqlite")
    entries = [PuzzleEntry("p:1", Grid.from_string(FOURS[0]))]
    killer = backend("reference", "killer", kill_node=True)
    work = session.start(
        store, entries, [killer], Settings(20.0), repeat=2, jobs=1, seed=3, inputs=[], command="t"
    )
    # the scheduler lives in this process: give up on a chunk at its first lost worker
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        cluster.connect("local:1") as client,
        pytest.raises(cluster.ClusterError, match=r"1 chunks \(2 tasks\) were lost"),
    ):
        cluster.execute(store, work, client)
    assert store.results(work.run_id) == []  # nothing half-stored: --resume runs them
    assert not store.run(work.run_id).finished
