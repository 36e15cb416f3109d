"""What a run is made of: tasks (puzzle x back-end x repeat) and their outcomes.

Both are plain data so they cross process boundaries and map one-to-one onto store rows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from operator import attrgetter
from typing import Any

from puzzles.formats import PuzzleEntry
from puzzles.grid import Grid
from puzzles.rules import Rules
from solvers.base import Result, Status, Verdict

# A timeout, or a repeat not run after one (`Status.SKIPPED`): what the skip rule looks at.
TIMED_OUT = frozenset({Status.TIMEOUT, Status.SKIPPED})

# The tasks that differ only in their repeat: (collection, puzzle_id, geometry, puzzle, solver).
Group = tuple[str, str, str, str, str]


@dataclass(frozen=True)
class Task:
    """One timed solve. `key` numbers the task within its run (its order before shuffling)."""

    key: int
    collection: str
    puzzle_id: str
    geometry: str  # `Rules.spec`: the name of classic rules, else their canonical JSON
    puzzle: str
    solver: str
    repeat: int

    def grid(self) -> Grid:
        return puzzle_grid(self.geometry, self.puzzle)

    @property
    def group(self) -> Group:
        """The puzzle and back-end: the same for every repeat of this task."""
        return (self.collection, self.puzzle_id, self.geometry, self.puzzle, self.solver)

    @property
    def puzzle_key(self) -> tuple[str, str, str, str]:
        """The puzzle: the same for every back-end and repeat of it (one chunk or shard)."""
        return (self.collection, self.puzzle_id, self.geometry, self.puzzle)


def puzzle_grid(geometry: str, puzzle: str) -> Grid:
    """The grid of a task's puzzle line under its rules (`Task.geometry`)."""
    return Grid.from_string(puzzle, Rules.parse(geometry))


@dataclass
class Outcome:
    """What one task produced: the one result record of the harness, from the worker through
    the store to the reports (a row of the results table, without the run id).

    `build_s` and `solve_s` are the back-end's own split of its time; `wall_s`, `cpu_s` and
    `peak_rss_mb` are measured around the whole solve by the worker (None when the worker was
    killed before it could say: a timeout or memout enforced from outside).
    """

    task: Task
    status: Status
    count: int = 0
    exact: bool = False
    verdict: Verdict = Verdict.UNKNOWN
    solutions: list[str] = field(default_factory=list)
    build_s: float = 0.0
    solve_s: float = 0.0
    nodes: int = 0
    guesses: int | None = 0  # None: the back-end does not count guesses
    counters: dict[str, float] = field(default_factory=dict)
    error: str = ""
    worker: int = 0  # the worker's process id
    wall_s: float | None = None
    cpu_s: float | None = None  # user + system time of the worker process (all its threads)
    peak_rss_mb: float | None = None  # the worker's peak resident memory during the solve
    permutation: int | None = None  # `--permute`: the seed of the isomorph solved
    host: str = ""  # the machine the task ran on ("" for a skipped repeat: it ran nowhere)
    # the solver's whole answer, when the run asked for it (`Settings.keep_result`): not stored
    result: Result | None = field(default=None, compare=False, repr=False)

    @property
    def total_s(self) -> float:
        return self.build_s + self.solve_s

    @property
    def answered(self) -> bool:
        return Status(self.status).answered

    def packed(self) -> tuple[Any, ...]:
        """The outcome without its task, for a worker's message of answers: the task's key,
        then every other field in order. The parent holds the task (`unpacked`): sending it
        back, and pickling a whole dataclass, costs more than a compiled engine's solve."""
        return (self.task.key, *_PACKED(self))

    @classmethod
    def unpacked(cls, task: Task, packed: tuple[Any, ...]) -> Outcome:
        """The outcome of `task` from its `packed` form; the key must be the task's."""
        if packed[0] != task.key:
            raise RuntimeError(f"the answer of task {packed[0]} came for task {task.key}")
        return cls(task, *packed[1:])

    def record(self) -> dict[str, Any]:
        """Flat keys for the store, CSV and JSON."""
        row = asdict(self.task)
        row.pop("key")
        return {
            "task": self.task.key,
            **row,
            "status": Status(self.status).value,
            "count": self.count,
            "exact": self.exact,
            "verdict": Verdict(self.verdict).value,
            "solution": self.solutions[0] if self.solutions else "",
            "solutions": self.solutions,
            "build_s": self.build_s,
            "solve_s": self.solve_s,
            "total_s": self.total_s,
            "nodes": self.nodes,
            "guesses": self.guesses,
            "counters": self.counters,
            "error": self.error,
            "worker": self.worker,
            "wall_s": self.wall_s,
            "cpu_s": self.cpu_s,
            "peak_rss_mb": self.peak_rss_mb,
            "permutation": self.permutation,
            "host": self.host,
        }


# every field but the task, in the order of the class (`Outcome.packed`)
_PACKED = attrgetter(*[item.name for item in fields(Outcome)][1:])


def collection_of(entry: PuzzleEntry) -> str:
    """The collection an entry was read from: its id without `:line` (`top95:12` -> `top95`)."""
    source, _, line = entry.id.rpartition(":")
    return source if source and line.isdigit() else "arguments"


def plan(entries: Sequence[PuzzleEntry], solvers: Sequence[str], repeat: int) -> list[Task]:
    """Every task, puzzle-major: each puzzle with each back-end, `repeat` times."""
    tasks: list[Task] = []
    for entry in entries:
        # once per puzzle, not per task: a run may repeat each puzzle thousands of times
        collection, spec, line = (
            collection_of(entry),
            entry.puzzle.rules.spec,
            entry.puzzle.to_line(),
        )
        for solver in solvers:
            for number in range(repeat):
                tasks.append(Task(len(tasks), collection, entry.id, spec, line, solver, number))
    return tasks


def shuffled(tasks: Sequence[Task], seed: int) -> list[Task]:
    """The tasks in a random order fixed by `seed`, so slow phases of the machine (other
    load, thermal throttling) do not line up with one back-end or one collection."""
    order = list(tasks)
    random.Random(seed).shuffle(order)
    return order
