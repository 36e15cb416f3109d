"""The cluster path's own cost: `bench --cluster` against the local pool on the same tasks.

Both run the same tasks of a trivially fast back-end (the reference solver on 4x4 puzzles)
into a fresh store: the local pool (`session.execute`, `-j 1`) and the cluster path
(`cluster.execute`) on a loopback `LocalCluster` of 1 and of 2 single-threaded workers, each
with a `-j 1` pool. Two run sizes separate the per-task cost from the per-run cost (chunks,
node pools, the scheduler's round trips); the cluster's own start (`connect`) is timed apart.
No speed-up is expected on a 2-core machine: this measures overhead, not scaling.

    PYTHONPATH=. python benchmarks/bench_cluster.py [--repeat R] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tabulate import tabulate

from sudoku_bench.harness.running import cluster, session
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import PuzzleEntry


def one_run(
    entries: list[PuzzleEntry], repeat: int, execute: Callable[[SQLiteStore, session.Plan], None]
) -> float:
    """Wall time of a whole run (plan, store, every task) through `execute`."""
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        store = SQLiteStore(Path(directory) / "bench.sqlite")
        work = session.start(
            store,
            entries,
            [backend("reference", "trivial")],
            Settings(10.0),
            repeat=repeat,
            jobs=1,
            seed=0,
            inputs=["benchmark"],
            command="benchmarks/bench_cluster.py",
            repeat_timeouts=True,
        )
        execute(store, work)
        elapsed = time.perf_counter() - start
        assert len(store.results(work.run_id)) == len(entries) * repeat
        store.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="repeats of 4x4 in the big run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each keeps its best")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    entries = load("4x4")
    sizes = (1, args.repeat)

    def local(store: SQLiteStore, work: session.Plan) -> None:
        session.execute(store, work)

    rows: list[list[object]] = []
    per_task: dict[str, float] = {}
    fixed: dict[str, float] = {}

    def measure(label: str, execute: Callable[[SQLiteStore, session.Plan], None]) -> None:
        times = [
            min(one_run(entries, repeat, execute) for _ in range(args.rounds)) for repeat in sizes
        ]
        tasks = [len(entries) * repeat for repeat in sizes]
        slope = (times[1] - times[0]) / (tasks[1] - tasks[0])
        per_task[label], fixed[label] = slope, times[0] - slope * tasks[0]
        for count, seconds in zip(tasks, times, strict=True):
            rows.append([label, count, seconds, seconds / count * 1000])

    measure("local pool -j 1", local)
    starts = {}
    for workers in (1, 2):
        label = f"cluster local:{workers}, -j 1 per node"
        start = time.perf_counter()
        with cluster.connect(f"local:{workers}") as client:
            starts[label] = time.perf_counter() - start

            def on_cluster(store: SQLiteStore, work: session.Plan) -> None:
                cluster.execute(store, work, client)

            measure(label, on_cluster)

    print(
        f"load average (1 min) before/after: {load_before:.2f}/{os.getloadavg()[0]:.2f}, "
        f"{os.cpu_count()} cores; best of {args.rounds} rounds"
    )
    print(tabulate(rows, headers=["run", "tasks", "wall s", "ms per task"], floatfmt=".3f"))
    print()
    summary = [
        [
            label,
            per_task[label] * 1000,
            (per_task[label] - per_task["local pool -j 1"]) * 1000,
            fixed[label],
            starts.get(label, 0.0),
        ]
        for label in per_task
    ]
    print(
        tabulate(
            summary,
            headers=[
                "path",
                "ms per task",
                "ms per task over the pool",
                "s per run",
                "s to start the cluster",
            ],
            floatfmt=".3f",
        )
    )


if __name__ == "__main__":
    main()
