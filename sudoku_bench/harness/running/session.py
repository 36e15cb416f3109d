"""A timed run from start to end: choose the back-ends, plan and record the run, run the tasks
that have no result yet (all of them, or the rest of a resumed run), store each as it ends."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_bench.harness.results import Group, Outcome, Task
from sudoku_bench.harness.running import machine
from sudoku_bench.harness.running.repeats import run_with_skips, timed_out_groups
from sudoku_bench.harness.running.runner import timing_pool
from sudoku_bench.harness.running.tasks import plan, shuffled
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import (
    HostInfo,
    LockOwner,
    Resumption,
    RunInfo,
    Store,
    StoreError,
)
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.solvers.registry import Backend, get, select


def importable(backend: Backend) -> bool:
    """Whether the back-end's module exists (found without importing it)."""
    module = backend.target.partition(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def choose_backends(spec: str, warn: Callable[[str], None]) -> list[Backend]:
    """The back-ends named by `-s` (`all` = every available one). Under `all`, one whose code
    is missing is skipped with a warning; named explicitly, it is an error."""
    chosen = select(spec)
    explicit = {part.strip().lower() for part in spec.split(",")} - {"all"}
    usable = []
    for backend in chosen:
        if not backend.available():  # only when named: `all` picks available ones
            raise SudokuBenchError(backend.not_installed())
        if importable(backend):
            usable.append(backend)
        elif backend.name in explicit or explicit & set(backend.aliases):
            raise SudokuBenchError(
                f"back-end {backend.name!r}: its module {backend.target} is missing"
            )
        else:
            warn(f"skipping back-end {backend.name}: its module {backend.target} is missing")
    if not usable:
        raise SudokuBenchError(f"no usable back-end in {spec!r} (see `sudoku-bench solvers`)")
    return usable


def configuration(backend: Backend) -> dict[str, Any]:
    """What is stored of a back-end: enough to run the same configuration on resume."""
    return {
        "target": backend.target,
        "options": json.loads(json.dumps(dict(backend.options), default=str)),
        "distribution": backend.distribution,
        "version": backend.version(),
    }


def backend_from(name: str, config: dict[str, Any]) -> Backend:
    """The back-end a stored run used: the registered one if unchanged, else rebuilt. A
    target of an earlier layout (`sudoku_bench.solvers.propagating:PropagatingSolver`, a retired
    configuration class) reads as where it lives now (`sudoku_bench.solvers.registry.current_target`)."""
    stored = Backend(
        name,
        config["target"],
        "(as recorded in the store)",
        distribution=config.get("distribution", "sudoku-bench"),
        options=config["options"],
    )
    try:
        registered = get(name)
        if registered.target == stored.target and dict(registered.options) == stored.options:
            return registered
    except SudokuBenchError:
        pass
    return stored


@dataclass(frozen=True)
class Shard:
    """`--shard I/N`: the puzzles whose place in the input is I-1 modulo N, with every
    back-end and repeat of each (so each puzzle's comparisons come from one machine)."""

    index: int  # 1 .. count
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        index, slash, count = text.partition("/")
        try:
            shard = cls(int(index), int(count))
        except ValueError:
            shard = None
        if not slash or shard is None or not 1 <= shard.index <= shard.count:
            raise SudokuBenchError(f"--shard takes I/N with 1 <= I <= N, e.g. 2/8 (got {text!r})")
        return shard

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, puzzle_index: int) -> bool:
        return puzzle_index % self.count == self.index - 1


def planned(
    entries: Sequence[PuzzleEntry],
    names: Sequence[str],
    repeat: int,
    seed: int,
    shard: Shard | None = None,
) -> tuple[list[Task], list[int]]:
    """The run's tasks in execution order and their positions in it. A shard keeps its part
    of the whole run's order, with the whole run's task numbers and positions, so shards
    merge into the run that one machine would have planned."""
    tasks = shuffled(plan(entries, names, repeat), seed)
    if shard is None:
        return tasks, list(range(len(tasks)))
    per_puzzle = len(names) * repeat  # `plan` is puzzle-major: key // per_puzzle = puzzle
    kept = [(p, t) for p, t in enumerate(tasks) if shard.holds(t.key // per_puzzle)]
    return [t for _, t in kept], [p for p, _ in kept]


class RunComplete(SudokuBenchError):
    """`--resume` of a run that has every result: nothing to do, and the store is untouched."""

    exit_code = 0


@dataclass
class Plan:
    run_id: int
    tasks: list[Task]  # still to run, in order
    backends: dict[str, Backend]
    settings: Settings
    jobs: int
    total: int  # tasks in the whole run
    repeat_timeouts: bool = False  # False: a puzzle and back-end that timed out is not repeated
    timed_out: set[Group] = field(default_factory=set)  # groups with a timed-out result
    probed: set[Group] = field(default_factory=set)  # groups with a result that did not
    owner: LockOwner | None = None  # this process, holding the run's lock in the store


# How often the load and the CPU clock are sampled while a run runs.
CONDITIONS_EVERY_S = 2.0


def new_seed() -> int:
    """A random seed for a run that was given none (it is recorded, so the run repeats)."""
    return random.SystemRandom().randrange(2**31)


def start(
    store: Store,
    entries: Sequence[PuzzleEntry],
    chosen: Sequence[Backend],
    settings: Settings,
    *,
    repeat: int,
    jobs: int,
    seed: int | None,
    inputs: Sequence[str],
    command: str,
    repeat_timeouts: bool = False,
    shard: Shard | None = None,
    cluster: str = "",
    aa_reference: str = "",
) -> Plan:
    """Record a new run (its settings, machine, versions and plan) and return what to run."""
    if seed is None:
        seed = new_seed()
    names = [backend.name for backend in chosen]
    tasks, positions = planned(entries, names, repeat, seed, shard)
    info = RunInfo(
        command=command,
        seed=seed,
        settings={
            "inputs": list(inputs),
            "solvers": names,
            "timeout": settings.timeout,
            "node_limit": settings.node_limit,
            "limit": settings.limit,
            "warmup": settings.warmup,
            "memory_limit_mb": settings.memory_limit_mb,
            "permute": settings.permute_seed is not None,
            "repeat": repeat,
            "jobs": jobs,
            "repeat_timeouts": repeat_timeouts,
            "shard": str(shard or ""),
            "cluster": cluster,
            **({"aa_reference": aa_reference} if aa_reference else {}),
        },
        machine=machine.describe(),
        versions=machine.versions(chosen),  # the libraries this run used, not all installed
        git_commit=machine.git_commit(),
    )
    configs = {backend.name: configuration(backend) for backend in chosen}
    run_id = store.create_run(info, tasks, configs, positions)
    owner = LockOwner.here()
    store.lock_run(run_id, owner)
    backends = {b.name: b for b in chosen}
    return Plan(run_id, tasks, backends, settings, jobs, len(tasks), repeat_timeouts, owner=owner)


def resume(
    store: Store,
    run_id: int | None,
    jobs: int | None,
    *,
    command: str,
    warn: Callable[[str], None],
    take_over: bool = False,
) -> Plan:
    """The unfinished tasks of a stored run, with the run's own settings and back-ends.

    The run is locked first (`RunLockedError` while another process executes it; a lock left
    by a process that is gone is taken over), so two resumptions never run the same task.
    A complete run raises `RunComplete` and is left untouched. The resumption is recorded
    with its machine, versions, commit and `jobs`; `warn` hears what differs from the run's
    first start, since the timings then mix two setups.
    """
    info = store.run(run_id)
    tasks = store.tasks(info.id)
    if info.is_complete(len(store.statuses(info.id)), len(tasks)):
        raise RunComplete(f"run {info.id} is complete; nothing to resume")
    owner = LockOwner.here()
    taken = store.lock_run(info.id, owner, take_over=take_over)
    if taken is not None:
        why = "which is gone" if taken.gone() else "on another host (--take-over)"
        warn(f"run {info.id} was locked by {taken.describe()}, {why}: taking it over")
    done = store.statuses(info.id)  # read under the lock: nobody else adds results now
    chosen = stored_backends(store, info.id)
    jobs = jobs or int(info.settings.get("jobs", 1))
    here = Resumption(
        started="",
        command=command,
        machine=machine.describe(),
        versions=machine.versions(chosen.values()),
        git_commit=machine.git_commit(),
        settings={"jobs": jobs},
    )
    changed = info.differences(here)
    if changed:
        warn(
            f"run {info.id} started with another {', '.join(changed)}: its timings will mix "
            "both (the report says so)"
        )
    store.add_resumption(info.id, here)
    work = pending(info, tasks, done, chosen, jobs)
    work.owner = owner
    return work


def pending(
    info: RunInfo,
    tasks: Sequence[Task],
    done: dict[int, str],
    backends: dict[str, Backend],
    jobs: int | None,
) -> Plan:
    """What is left of a stored run: its tasks without a result (`done`: key -> status)."""
    settings = info.settings
    finished = [(task, done[task.key]) for task in tasks if task.key in done]
    return Plan(
        info.id,
        [task for task in tasks if task.key not in done],
        backends,
        stored_settings(info),
        jobs or int(settings.get("jobs", 1)),
        len(tasks),
        # runs recorded before budget control repeated every timeout
        repeat_timeouts=bool(settings.get("repeat_timeouts", True)),
        timed_out=timed_out_groups(finished),
        probed={task.group for task, _ in finished},
    )


def stored_backends(store: Store, run_id: int) -> dict[str, Backend]:
    """The back-ends of a stored run, as it recorded them."""
    return {name: backend_from(name, c) for name, c in store.configurations(run_id).items()}


def host_info(backends: Iterable[Backend]) -> HostInfo:
    """This machine, as a host of a run: where its tasks were measured."""
    return HostInfo(machine.describe(), machine.versions(backends), machine.git_commit())


def stored_settings(info: RunInfo) -> Settings:
    """The settings a run was started with (runs stored before an option existed lack it)."""
    settings = info.settings
    return Settings(
        float(settings["timeout"]),
        int(settings["limit"]),
        int(settings["warmup"]),
        memory_limit_mb=settings.get("memory_limit_mb"),
        permute_seed=info.seed if settings.get("permute") else None,
        node_limit=None if settings.get("node_limit") is None else int(settings["node_limit"]),
    )


def execute(
    store: Store,
    work: Plan,
    on_done: Callable[[Outcome], None] = lambda outcome: None,
    tick: Callable[[], None] | None = None,
) -> None:
    """Run the plan's tasks on this machine, storing each outcome before anything else hears
    of it. The outcomes that arrive together are stored in one transaction (a commit per
    row cost more than a fast engine's solve); a run killed before their commit runs
    those tasks again on `--resume`."""
    arrived: list[Outcome] = []

    def finished(outcome: Outcome) -> None:
        arrived.append(outcome)

    def store_arrived() -> None:
        if arrived:
            outcomes = arrived[:]
            arrived.clear()
            store.add_all(work.run_id, outcomes)
            for outcome in outcomes:
                on_done(outcome)

    conditions = machine.Conditions()
    last_sample = -math.inf

    def sampled_tick() -> None:
        nonlocal last_sample
        store_arrived()
        if time.monotonic() - last_sample >= CONDITIONS_EVERY_S:
            conditions.sample()
            last_sample = time.monotonic()
        if tick is not None:
            tick()

    try:
        try:
            if work.tasks:
                store.add_host(work.run_id, host_info(work.backends.values()))
                # no more workers than tasks: each is a process to start and stop
                with timing_pool(
                    min(work.jobs, len(work.tasks)), work.settings, work.backends
                ) as pool:
                    run_plan(
                        work, lambda tasks, done: pool.run(tasks, done, sampled_tick), finished
                    )
                store_arrived()
        finally:  # what was seen is kept even when the run is stopped
            with contextlib.suppress(StoreError):  # a failing store has already said so
                store_arrived()
            conditions.sample()
            with contextlib.suppress(StoreError):  # a failing store has already said so
                earlier = store.run(work.run_id).conditions
                store.record_conditions(work.run_id, conditions.merged(earlier))
        store.finish_run(work.run_id)
    finally:  # stopped (Ctrl-C, a full disk) or done: the run may be resumed by anyone
        release(store, work)


def release(store: Store, work: Plan) -> None:
    """Give up the run's lock, if this process holds it."""
    if work.owner is not None:
        with contextlib.suppress(StoreError):
            store.unlock_run(work.run_id, work.owner)


def run_plan(
    work: Plan,
    run: Callable[[Sequence[Task], Callable[[Outcome], None]], None],
    on_done: Callable[[Outcome], None],
) -> None:
    """The plan's tasks through `run` (a pool's), with its rule for repeats that time out."""
    if work.repeat_timeouts:
        run(work.tasks, on_done)
    else:
        run_with_skips(run, work.tasks, on_done, timed_out=work.timed_out, probed=work.probed)
