"""`bench --plan`: how many tasks a run has and how much CPU time it will take, before it runs.

Each back-end and collection is estimated from what its tasks cost before: the results already
in the store for that back-end and collection (any run), else a short pilot (a few of the
run's puzzles, one repeat each, on this machine's pool with the run's settings). A task costs
its time if it answered within the limit, and the kill time (`kill_after(timeout)`) if it
timed out; an earlier result past this run's limit counts as a timeout, and an earlier
timeout under a shorter limit counts as one under this run's (the pessimistic reading).

With repeats that time out skipped (the default), the expected cost of one puzzle and back-end
of R repeats is p·k + (1 − p)·R·s (p: the share of timeouts, k: the kill time, s: the mean
time of the others); with `--repeat-timeouts`, R·(p·k + (1 − p)·s).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from sudoku_bench.harness.results import TIMED_OUT, Outcome, Task
from sudoku_bench.harness.running.runner import kill_after, timing_pool
from sudoku_bench.harness.running.session import Plan
from sudoku_bench.harness.storing.store import Store
from sudoku_bench.solvers.base import Status

PILOT_PUZZLES = 3  # per back-end and collection without earlier results

Pair = tuple[str, str]  # (solver, collection)


@dataclass
class Sample:
    """What tasks of one back-end on one collection cost, as seen before."""

    timeouts: int = 0
    answered: int = 0  # every other result (solved, gave up, error, unsupported)
    answered_s: float = 0.0

    @property
    def count(self) -> int:
        return self.timeouts + self.answered

    def timeout_share(self) -> float:
        return self.timeouts / self.count if self.count else math.nan

    def mean_s(self) -> float:
        return self.answered_s / self.answered if self.answered else 0.0

    def add(self, status: str, seconds: float, run_timeout: float, timeout: float) -> None:
        """One earlier result, of a run with time limit `run_timeout`, read for `timeout`."""
        # A skipped repeat counts as the timeout it stands for: then a puzzle that timed out
        # weighs as many repeats in the share as one that answered every repeat, and the
        # share is that of puzzles whose first repeat times out (what skips the others).
        if status in TIMED_OUT or seconds > timeout:
            self.timeouts += 1
        elif status == Status.UNSUPPORTED or seconds <= min(run_timeout, timeout):
            self.answered += 1
            self.answered_s += seconds
        else:  # answered past its own run's limit: counted as a timeout there and here
            self.timeouts += 1


@dataclass
class Estimate:
    """One back-end on one collection: its tasks in the plan and what they should cost."""

    solver: str
    collection: str
    tasks: int
    per_task_s: float  # mean time of a task that does not time out
    timeout_share: float
    source: str  # "store" (earlier results), "pilot" or "none"
    samples: int
    cpu_s: float
    skipped: float  # repeats expected to be skipped after a timeout

    def record(self) -> dict[str, Any]:
        """The `--plan --json` estimate: expected counts to a tenth, times to the microsecond,
        shares to 4 digits (sums of probabilities carry rounding noise: 11.999999999999993)."""
        places = {"skipped": 1, "timeout_share": 4}
        return {
            k: None
            if isinstance(v, float) and math.isnan(v)
            else round(v, places.get(k, 6))
            if isinstance(v, float)
            else v
            for k, v in asdict(self).items()
        }


@dataclass
class Budget:
    """The whole plan's estimate."""

    tasks: int
    puzzles: int
    estimates: list[Estimate]
    workers: int  # pool processes at a time, over every node
    pilot_s: float = 0.0  # wall time the pilot took
    pilot_tasks: int = 0
    unknown: list[Pair] = field(default_factory=list)  # pairs with no estimate at all

    @property
    def cpu_s(self) -> float:
        return sum(e.cpu_s for e in self.estimates)

    @property
    def wall_s(self) -> float:
        return self.cpu_s / max(1, self.workers)

    @property
    def skipped(self) -> float:
        return sum(e.skipped for e in self.estimates)

    def record(self) -> dict[str, Any]:
        return {
            "tasks": self.tasks,
            "puzzles": self.puzzles,
            "cpu_s": round(self.cpu_s, 3),
            "wall_s": round(self.wall_s, 3),
            "workers": self.workers,
            "skipped": round(self.skipped, 1),
            "pilot_tasks": self.pilot_tasks,
            "pilot_s": round(self.pilot_s, 3),
            "estimates": [e.record() for e in self.estimates],
        }


def samples_from_store(store: Store | None, work: Plan) -> dict[Pair, Sample]:
    found: dict[Pair, Sample] = defaultdict(Sample)
    if store is None:
        return found
    solvers = sorted({task.solver for task in work.tasks})
    collections = sorted({task.collection for task in work.tasks})
    timeout = work.settings.timeout
    for solver, collection, status, seconds, run_timeout in store.timings(solvers, collections):
        found[(solver, collection)].add(status, seconds, run_timeout, timeout)
    return {pair: sample for pair, sample in found.items() if sample.count}


def pilot(work: Plan, pairs: Iterable[Pair], puzzles: int = PILOT_PUZZLES) -> list[Outcome]:
    """Run up to `puzzles` tasks (distinct puzzles, one repeat) of each pair on this machine."""
    wanted = set(pairs)
    chosen: dict[Pair, list[Task]] = defaultdict(list)
    seen: set[tuple[str, str, str, str, str]] = set()
    for task in work.tasks:
        pair = (task.solver, task.collection)
        if pair in wanted and len(chosen[pair]) < puzzles and task.group not in seen:
            seen.add(task.group)
            chosen[pair].append(task)
    tasks = [task for group in chosen.values() for task in group]
    outcomes: list[Outcome] = []
    if tasks:
        with timing_pool(min(work.jobs, len(tasks)), work.settings, work.backends) as pool:
            pool.run(tasks, outcomes.append)
    return outcomes


def estimate(
    work: Plan, samples: dict[Pair, Sample], workers: int, sources: dict[Pair, str]
) -> Budget:
    """The plan's cost from `samples` per back-end and collection."""
    kill = kill_after(work.settings.timeout)
    by_pair: dict[Pair, list[Task]] = defaultdict(list)
    for task in work.tasks:
        by_pair[(task.solver, task.collection)].append(task)
    estimates, unknown = [], []
    for pair, tasks in by_pair.items():
        sample = samples.get(pair)
        if sample is None:
            unknown.append(pair)
            estimates.append(Estimate(*pair, len(tasks), math.nan, math.nan, "none", 0, 0.0, 0.0))
            continue
        p, s = sample.timeout_share(), sample.mean_s()
        cpu = skipped = 0.0
        leading: set[tuple[str, str, str, str, str]] = set()
        for task in tasks:
            group = task.group
            if work.repeat_timeouts:
                cpu += p * kill + (1 - p) * s
            elif group in work.timed_out:
                skipped += 1
            elif group in work.probed:
                cpu += s
            elif group not in leading:  # the probe
                leading.add(group)
                cpu += p * kill + (1 - p) * s
            else:  # a later repeat: skipped if the probe timed out
                cpu += (1 - p) * s
                skipped += p
        estimates.append(
            Estimate(*pair, len(tasks), s, p, sources[pair], sample.count, cpu, skipped)
        )
    solvers = list(work.backends)  # the run's order of back-ends
    estimates.sort(
        key=lambda e: (e.collection, solvers.index(e.solver) if e.solver in solvers else 0)
    )
    return Budget(
        len(work.tasks),
        len({task.puzzle_key for task in work.tasks}),
        estimates,
        workers,
        unknown=unknown,
    )


def budget(
    store: Store | None, work: Plan, workers: int, pilot_puzzles: int = PILOT_PUZZLES
) -> Budget:
    """Estimate the plan: earlier results where the store has them, else a pilot."""
    samples = samples_from_store(store, work)
    sources = {pair: "store" for pair in samples}
    missing = {(t.solver, t.collection) for t in work.tasks} - set(samples)
    pilot_s, ran = 0.0, 0
    if missing and pilot_puzzles > 0:
        import time

        start = time.perf_counter()
        outcomes = pilot(work, missing, pilot_puzzles)
        pilot_s, ran = time.perf_counter() - start, len(outcomes)
        timeout = work.settings.timeout
        for outcome in outcomes:
            pair = (outcome.task.solver, outcome.task.collection)
            sample = samples.setdefault(pair, Sample())
            sample.add(outcome.status, outcome.total_s, timeout, timeout)
            sources[pair] = "pilot"
    found = estimate(work, samples, workers, sources)
    found.pilot_s, found.pilot_tasks = pilot_s, ran
    return found


def describe(found: Budget, nodes: int, jobs: int) -> str:
    """The estimate in words and a table, for the terminal."""
    from tabulate import tabulate

    lines = [
        f"plan: {found.tasks} tasks ({found.puzzles} puzzles)",
        f"estimated CPU time: {duration(found.cpu_s)} (sum of the tasks' times, one core each)",
        f"estimated wall time: {duration(found.wall_s)} on {nodes} node"
        f"{'s' * (nodes != 1)} x {jobs} at a time",
    ]
    if found.skipped >= 0.5:
        lines.append(
            f"about {found.skipped:.0f} repeats of timed-out tasks will be skipped "
            "(--repeat-timeouts runs them)"
        )
    if found.pilot_tasks:
        lines.append(
            f"pilot: {found.pilot_tasks} tasks on this machine in {found.pilot_s:.1f} s "
            "(for the back-ends and collections the store has no results of)"
        )
    if found.unknown:
        names = ", ".join(f"{s} on {c}" for s, c in sorted(found.unknown))
        lines.append(f"no estimate (no earlier results, no pilot) for {names}: not counted")
    rows = [
        [
            e.solver,
            e.collection,
            e.tasks,
            "-"
            if math.isnan(e.per_task_s) or e.timeout_share == 1
            else f"{e.per_task_s * 1000:.3g}",
            "-" if math.isnan(e.timeout_share) else f"{e.timeout_share:.0%}",
            f"{e.source} ({e.samples})" if e.samples else e.source,
            f"{e.cpu_s:.1f}",
        ]
        for e in found.estimates
    ]
    headers = ["solver", "collection", "tasks", "ms if answered", "timeouts", "from", "CPU s"]
    return "\n".join(lines) + "\n\n" + tabulate(rows, headers=headers) + "\n"


def duration(seconds: float) -> str:
    """A duration in words: seconds, minutes or hours."""
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def task_cost(store: Store | None, work: Plan) -> Callable[[Task], float] | None:
    """Each task's expected time from the store's earlier results (for sizing chunks), or
    None when the store has none for any back-end of the plan."""
    samples = samples_from_store(store, work)
    if not samples:
        return None
    kill = kill_after(work.settings.timeout)
    default = kill / 2
    costs = {
        pair: s.timeout_share() * kill + (1 - s.timeout_share()) * s.mean_s()
        for pair, s in samples.items()
    }
    return lambda task: costs.get((task.solver, task.collection), default)
