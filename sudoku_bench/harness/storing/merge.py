"""`sudoku-bench merge`: the stores of a run's shards (`bench --shard I/N`) joined into one run.

Each input store's latest run must be one shard of the same run: the same settings (but the
shard itself and the cluster address), seed and back-end configurations, and together every
shard 1..N once. The merged run holds every shard's tasks at their places in the whole run's
order (the numbers and positions one unsharded run would have had), every result unchanged
(with its host), every host, and each shard after the first as a resumption (where and with
what it ran), so the report names machines that differ. Inputs are only read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudoku_bench.harness.results import Task
from sudoku_bench.harness.storing.store import (
    HostInfo,
    Resumption,
    RunInfo,
    Store,
    StoreError,
    open_store,
)

# Settings that may differ between the shards of one run: which shard, and where it ran.
PER_SHARD = ("shard", "cluster")


@dataclass
class Shard:
    """One input: its store's latest run, read whole."""

    path: Path
    info: RunInfo
    tasks: list[Task]
    positions: dict[int, int]
    configurations: dict[str, Any]
    results: list[dict[str, Any]]
    hosts: list[HostInfo]
    certificates: dict[int, dict[str, Any]] = field(default_factory=dict)  # `bench --certify`
    index: int = 0
    count: int = 0

    @property
    def name(self) -> str:
        return f"{self.path} (run {self.info.id}, shard {self.index}/{self.count})"


@dataclass
class Merged:
    run_id: int
    shards: int
    tasks: int
    results: int
    warnings: list[str]


def read_shard(path: Path) -> Shard:
    store = open_store(path, create=False, read_only=True)
    try:
        info = store.run()
        shard = Shard(
            path,
            info,
            store.tasks(info.id),
            store.positions(info.id),
            store.configurations(info.id),
            store.results(info.id),
            store.hosts(info.id),
            store.certificates(info.id),
        )
    finally:
        store.close()
    text = str(info.settings.get("shard") or "")
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit()):
        raise StoreError(
            f"{path}: run {info.id} is not a shard (it was not run with --shard I/N): "
            "merge joins the shards of one run"
        )
    shard.index, shard.count = int(index), int(count)
    return shard


def check(shards: Sequence[Shard]) -> None:
    """Refuse shards that are not the parts of one run."""
    first = shards[0]
    common = {k: v for k, v in first.info.settings.items() if k not in PER_SHARD}
    for shard in shards[1:]:
        settings = {k: v for k, v in shard.info.settings.items() if k not in PER_SHARD}
        differing = sorted(
            key for key in common.keys() | settings.keys() if common.get(key) != settings.get(key)
        )
        if shard.info.seed != first.info.seed:
            differing.append("seed")
        if shard.configurations != first.configurations:
            differing.append("back-end configurations")
        if differing:
            raise StoreError(
                f"{shard.name} and {first.name} are not shards of one run: their "
                f"{', '.join(differing)} differ"
            )
    counts = {shard.count for shard in shards}
    if len(counts) > 1:
        raise StoreError(f"the shards split the run in different numbers of parts: {counts}")
    (count,) = counts
    seen: dict[int, Shard] = {}
    for shard in shards:
        if shard.index in seen:
            raise StoreError(
                f"shard {shard.index}/{count} is given twice: {seen[shard.index].name} and {shard.name}"
            )
        seen[shard.index] = shard
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing:
        raise StoreError(
            f"shard {', '.join(missing)} is missing: merge needs every part of the run"
        )
    owner: dict[int, Shard] = {}
    for shard in shards:
        for task in shard.tasks:
            if task.key in owner:
                raise StoreError(
                    f"task {task.key} is in {owner[task.key].name} and in {shard.name}"
                )
            owner[task.key] = shard


def merge(inputs: Sequence[Path], output: Path, command: str) -> Merged:
    """Join the shard stores `inputs` into one new run of the store `output`."""
    if not inputs:
        raise StoreError("merge needs the stores of a run's shards")
    resolved = {path.resolve() for path in inputs}
    if output.resolve() in resolved:
        raise StoreError(f"{output} is one of the inputs: merge into a new store")
    shards = sorted((read_shard(path) for path in inputs), key=lambda shard: shard.index)
    check(shards)
    first = shards[0]
    settings = {**first.info.settings, "shard": "", "cluster": ""}
    info = RunInfo(
        command=command,
        seed=first.info.seed,
        settings=settings,
        machine=first.info.machine,
        versions=first.info.versions,
        git_commit=first.info.git_commit,
        started=min(shard.info.started for shard in shards),
    )
    placed = sorted(
        ((shard.positions[task.key], task) for shard in shards for task in shard.tasks),
        key=lambda pair: pair[0],
    )
    warnings = [
        f"{shard.name} is unfinished: {len(shard.tasks) - len(shard.results)} of "
        f"{len(shard.tasks)} tasks have no result"
        for shard in shards
        if len(shard.results) < len(shard.tasks)
    ]
    store: Store = open_store(output, create=True)
    try:
        run_id = store.create_run(
            info, [task for _, task in placed], first.configurations, [p for p, _ in placed]
        )
        for shard in shards:
            if shard is not first:
                store.add_resumption(run_id, _as_resumption(shard.info))
            for later in shard.info.resumes:
                store.add_resumption(run_id, later)
            for host in shard.hosts:
                store.add_host(run_id, host)
        results = sum(store.copy_results(run_id, shard.results) for shard in shards)
        # a shard keeps the whole run's task numbers: its certificates are the run's
        store.add_certificates(
            run_id, [row for shard in shards for row in shard.certificates.values()]
        )
        if not warnings and all(shard.info.finished for shard in shards):
            store.finish_run(run_id, max(shard.info.finished for shard in shards))
    finally:
        store.close()
    return Merged(run_id, len(shards), len(placed), results, warnings)


def _as_resumption(info: RunInfo) -> Resumption:
    """A shard's own start, as a resumption of the merged run: where and with what it ran."""
    return Resumption(
        started=info.started,
        command=info.command,
        machine=dict(info.machine),
        versions=dict(info.versions),
        git_commit=info.git_commit,
    )
