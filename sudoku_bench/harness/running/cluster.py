"""`bench --cluster`: a run's tasks on a Dask cluster, in chunks, one worker pool per node.

Dask hands out chunks; it cannot stop a solver stuck in native code (CP-SAT, CaDiCaL), so each
node runs the harness's own `Pool`, which kills a task at its time limit. One Dask worker per
node (one thread) runs one chunk at a time with `jobs` pool processes. A chunk holds every
back-end and repeat of a block of puzzles (about `chunk_s` seconds of the node's work), so
every per-puzzle comparison is measured on one machine.

The driver (the `bench` process) alone writes the store: one transaction per chunk, with
idempotent inserts, so a chunk that runs twice (Dask runs a lost worker's chunk again) never
doubles a row. Each result records the host it ran on, and each host its machine and versions.

Addresses: `local:N` (a `LocalCluster` of N single-threaded worker processes on 127.0.0.1,
for trying it out and for tests), `tcp://HOST:PORT` (a running scheduler), or the path of a
scheduler file (`dask scheduler --scheduler-file FILE`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import math
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudoku_bench.harness.results import Group, Outcome, Task
from sudoku_bench.harness.running.machine import Conditions
from sudoku_bench.harness.running.runner import Pool, kill_after, timing_pool
from sudoku_bench.harness.running.session import Plan, host_info, run_plan
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import HostInfo, Store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.solvers.registry import Backend

if TYPE_CHECKING:
    from distributed import Client

CHUNK_SECONDS = 60.0  # a chunk's work on one node, as estimated
CHUNKS_PER_NODE = 4  # at least this many chunks per node, so the last ones spread out
CONNECT_SECONDS = 30.0
WORKERS_SECONDS = 60.0  # how long to wait for the first worker to join the scheduler
TICK_SECONDS = 0.2


class ClusterError(SudokuBenchError):
    """A cluster that cannot be reached or used, or a chunk that failed on it."""


def available() -> bool:
    return importlib.util.find_spec("distributed") is not None


# ----- on each node -------------------------------------------------------------------------


@dataclass
class ChunkResult:
    """What a node sends back for one chunk: its machine and every task's outcome."""

    host: HostInfo
    outcomes: list[Outcome]


class _Node:
    """The pool a Dask worker process keeps between chunks (its processes hold built
    solvers), and the lock that runs one chunk at a time on it."""

    lock = threading.Lock()
    pool: Pool | None = None
    key: str = ""
    host: HostInfo | None = None


def run_chunk(
    tasks: Sequence[Task],
    backends: dict[str, Backend],
    settings: Settings,
    jobs: int,
    repeat_timeouts: bool,
    probed: set[Group],
) -> ChunkResult:
    """Run one chunk with this node's pool (called by Dask on a worker)."""
    conditions = Conditions()
    conditions.sample()
    with _Node.lock:
        key = repr((jobs, settings, sorted(backends.items())))
        if _Node.pool is None or _Node.key != key:
            close_node_pool()
            _Node.pool = timing_pool(jobs, settings, backends)
            _Node.key = key
            _Node.host = host_info(backends.values())
        pool, host = _Node.pool, _Node.host
        assert host is not None
        outcomes: list[Outcome] = []
        work = Plan(0, list(tasks), backends, settings, jobs, len(tasks), repeat_timeouts)
        work.probed = set(probed)
        run_plan(work, pool.run, outcomes.append)
        conditions.sample()
        return ChunkResult(dataclasses.replace(host, conditions=asdict(conditions)), outcomes)


def close_node_pool() -> None:
    """Stop this node's pool (at the end of a run; Dask calls it on every worker)."""
    if _Node.pool is not None:
        _Node.pool.close()
    _Node.pool, _Node.key, _Node.host = None, "", None


def node_problems(modules: Sequence[str]) -> list[str]:
    """What keeps this Dask worker from running chunks (called on every worker)."""
    problems = []
    if multiprocessing.current_process().daemon:
        problems.append(
            "it is a daemonic process, which cannot start the pool's worker processes: start "
            "workers with DASK_DISTRIBUTED__WORKER__DAEMON=False in their environment"
        )
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            problems.append(f"it cannot import {module}")
    return problems


# ----- on the driver ------------------------------------------------------------------------


@contextlib.contextmanager
def connect(address: str) -> Iterator[Client]:
    """A client of the cluster at `address` (see the module's docstring); a `local:N`
    cluster is started here and stopped on exit."""
    if not available():
        raise ClusterError(
            "--cluster needs Dask: pip install 'sudoku-bench[cluster]' (dask[distributed])"
        )
    import dask
    from distributed import Client, LocalCluster

    if address.startswith("local:"):
        count = address.removeprefix("local:")
        if not count.isdigit() or int(count) < 1:
            raise ClusterError(f"--cluster local:N takes a number of workers, got {address!r}")
        # the pool starts processes: Dask's workers must not be daemonic, including the ones
        # a nanny starts again after a worker died (it reads the setting then)
        with dask.config.set({"distributed.worker.daemon": False}):
            cluster = LocalCluster(
                n_workers=int(count),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            try:
                with Client(cluster) as client:
                    yield client
            finally:
                cluster.close()
        return
    if "://" in address:
        where: dict[str, Any] = {"address": address}
    elif Path(address).is_file():
        where = {"scheduler_file": address}
    else:
        raise ClusterError(
            f"--cluster {address}: no such scheduler file; give local:N, a scheduler address "
            "(tcp://HOST:PORT) or the file of `dask scheduler --scheduler-file FILE`"
        )
    try:
        client = Client(**where, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"--cluster {address}: cannot reach the scheduler: {error}") from None
    with client:
        yield client


def ready_nodes(client: Client, backends: dict[str, Backend]) -> int:
    """Wait for a worker, check every worker can run chunks; return how many there are."""
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except TimeoutError:
        raise ClusterError(
            f"no Dask worker joined the scheduler within {WORKERS_SECONDS:g} s"
        ) from None
    modules = sorted({b.target.partition(":")[0] for b in backends.values()})
    found = client.run(node_problems, modules)
    problems = [f"worker {where}: {text}" for where, texts in found.items() for text in texts]
    if problems:
        raise ClusterError("; ".join(problems))
    return len(found)


def chunks(
    tasks: Sequence[Task], cost: Callable[[Task], float], budget_s: float, most_puzzles: int
) -> list[list[Task]]:
    """The tasks in blocks of whole puzzles (every back-end and repeat of each), each about
    `budget_s` of estimated work and at most `most_puzzles` puzzles, in the run's order."""
    by_puzzle: dict[tuple[str, str, str, str], list[Task]] = {}
    for task in tasks:
        by_puzzle.setdefault(task.puzzle_key, []).append(task)
    blocks: list[list[Task]] = []
    block: list[Task] = []
    spent, puzzles = 0.0, 0
    for group in by_puzzle.values():
        block += group
        spent += sum(cost(task) for task in group)
        puzzles += 1
        if spent >= budget_s or puzzles >= most_puzzles:
            blocks.append(block)
            block, spent, puzzles = [], 0.0, 0
    if block:
        blocks.append(block)
    order = {task.key: place for place, task in enumerate(tasks)}
    return [sorted(block, key=lambda task: order[task.key]) for block in blocks]


def execute(
    store: Store,
    work: Plan,
    client: Client,
    *,
    cost: Callable[[Task], float] | None = None,
    chunk_s: float = CHUNK_SECONDS,
    on_done: Callable[[Outcome], None] = lambda outcome: None,
    tick: Callable[[], None] | None = None,
) -> None:
    """Run the plan's tasks on the cluster, storing each chunk's outcomes in one transaction
    as it returns, then calling `on_done` with each new one. A chunk whose worker died as
    many times as Dask allows leaves its tasks without a row (`--resume` runs them) and
    is reported as an error once every other chunk is in."""
    from distributed import wait
    from distributed.scheduler import KilledWorker

    nodes = ready_nodes(client, work.backends)
    settings = work.settings
    early = _skip_timed_out(work)  # on a resume: repeats of groups that timed out before
    if early:
        store.add_many(work.run_id, early)
        for outcome in early:
            on_done(outcome)
    skipped = {outcome.task.key for outcome in early}
    tasks = [task for task in work.tasks if task.key not in skipped]
    guess = kill_after(settings.timeout) / 2  # no estimate: half the cost of a timeout
    puzzles = len({task.puzzle_key for task in tasks})
    blocks = chunks(
        tasks,
        cost or (lambda task: guess),
        chunk_s * work.jobs,
        max(1, math.ceil(puzzles / (CHUNKS_PER_NODE * nodes))),
    )
    futures = {
        client.submit(
            run_chunk,
            block,
            work.backends,
            settings,
            work.jobs,
            work.repeat_timeouts,
            {task.group for task in block} & work.probed,
            pure=False,
            key=f"sudoku-bench-run{work.run_id}-chunk{number}-{time.time_ns()}",
        ): block
        for number, block in enumerate(blocks)
    }
    seen: set[int] = set()
    lost: list[list[Task]] = []
    node_conditions: dict[str, dict[str, Any]] = {}  # per host: its chunks' samples merged
    pending = set(futures)
    try:
        while pending:
            try:
                done, _ = wait(list(pending), timeout=TICK_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            for future in done:
                pending.discard(future)
                try:
                    result: ChunkResult = future.result()
                except KilledWorker:
                    lost.append(futures[future])
                    continue
                except Exception as error:
                    raise ClusterError(f"a chunk failed on the cluster: {error!r}") from None
                fresh = [o for o in result.outcomes if o.task.key not in seen]
                host = result.host
                merged = Conditions(**host.conditions).merged(node_conditions.get(host.name, {}))
                node_conditions[host.name] = merged
                host = dataclasses.replace(host, conditions=merged)
                store.add_many(work.run_id, fresh, host)  # one transaction
                for outcome in fresh:
                    seen.add(outcome.task.key)
                    on_done(outcome)
            if tick is not None:
                tick()
    finally:
        for future in pending:
            future.cancel()
        with contextlib.suppress(Exception):
            client.run(close_node_pool)
    if lost:
        count = sum(len(block) for block in lost)
        raise ClusterError(
            f"{len(lost)} chunks ({count} tasks) were lost: the Dask worker running each died "
            "as many times as Dask allows (distributed.scheduler.allowed-failures); their "
            "tasks have no result: `sudoku-bench bench --resume` runs them"
        )
    store.finish_run(work.run_id)


def _skip_timed_out(work: Plan) -> list[Outcome]:
    """On a resume: the repeats whose puzzle and back-end timed out before are skipped here
    (the driver knows it; the nodes need not), and left out of the chunks already sent."""
    if work.repeat_timeouts or not work.timed_out:
        return []
    from sudoku_bench.harness.running.repeats import skipped

    return [skipped(task, None) for task in work.tasks if task.group in work.timed_out]
