"""A timed run from start to end: choose the back-ends, plan and record the run, run the tasks
that have no result yet (all of them, or the rest of a resumed run), store each as it ends."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from harness.running import machine
from harness.running.runner import Pool
from harness.running.tasks import Outcome, Task, plan, shuffled
from harness.running.worker import Settings
from harness.storing.store import LockOwner, Resumption, RunInfo, Store, StoreError
from puzzles.errors import SudokuBenchError
from puzzles.formats import PuzzleEntry
from solvers.registry import Backend, get, select


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
    """The back-end a stored run used: the registered one if unchanged, else rebuilt."""
    try:
        registered = get(name)
        if registered.target == config["target"] and dict(registered.options) == config["options"]:
            return registered
    except SudokuBenchError:
        pass
    return Backend(
        name,
        config["target"],
        "(as recorded in the store)",
        distribution=config.get("distribution", "sudoku-bench"),
        options=config["options"],
    )


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
    owner: LockOwner | None = None  # this process, holding the run's lock in the store


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
) -> Plan:
    """Record a new run (its settings, machine, versions and plan) and return what to run."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    names = [backend.name for backend in chosen]
    tasks = shuffled(plan(entries, names, repeat), seed)
    info = RunInfo(
        command=command,
        seed=seed,
        settings={
            "inputs": list(inputs),
            "solvers": names,
            "timeout": settings.timeout,
            "limit": settings.limit,
            "warmup": settings.warmup,
            "repeat": repeat,
            "jobs": jobs,
        },
        machine=machine.describe(),
        versions=machine.versions(chosen),  # the libraries this run used, not all installed
        git_commit=machine.git_commit(),
    )
    configs = {backend.name: configuration(backend) for backend in chosen}
    run_id = store.create_run(info, tasks, configs)
    owner = LockOwner.here()
    store.lock_run(run_id, owner)
    return Plan(run_id, tasks, {b.name: b for b in chosen}, settings, jobs, len(tasks), owner)


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
    settings = info.settings
    tasks = store.tasks(info.id)
    if info.is_complete(len(store.finished_tasks(info.id)), len(tasks)):
        raise RunComplete(f"run {info.id} is complete; nothing to resume")
    owner = LockOwner.here()
    taken = store.lock_run(info.id, owner, take_over=take_over)
    if taken is not None:
        warn(f"run {info.id} was locked by {taken.describe()}, which is gone: taking it over")
    done = store.finished_tasks(info.id)  # read under the lock: nobody else adds results now
    configs = store.configurations(info.id)
    chosen = {name: backend_from(name, config) for name, config in configs.items()}
    jobs = jobs or int(settings.get("jobs", 1))
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
    return Plan(
        info.id,
        [task for task in tasks if task.key not in done],
        chosen,
        Settings(float(settings["timeout"]), int(settings["limit"]), int(settings["warmup"])),
        jobs,
        len(tasks),
        owner,
    )


def execute(
    store: Store,
    work: Plan,
    on_done: Callable[[Outcome], None] = lambda outcome: None,
    tick: Callable[[], None] | None = None,
) -> None:
    """Run the plan's tasks, storing each outcome before anything else hears of it."""

    def finished(outcome: Outcome) -> None:
        store.add(work.run_id, outcome)
        on_done(outcome)

    try:
        if work.tasks:
            # no more workers than tasks: each is a process to start and stop
            with Pool(min(work.jobs, len(work.tasks)), work.settings, work.backends) as pool:
                pool.run(work.tasks, finished, tick)
        store.finish_run(work.run_id)
    finally:  # stopped (Ctrl-C, a full disk) or done: the run may be resumed by anyone
        if work.owner is not None:
            with contextlib.suppress(StoreError):
                store.unlock_run(work.run_id, work.owner)
