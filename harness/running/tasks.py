"""What a run is made of: tasks (puzzle x back-end x repeat) and their outcomes.

Both are plain data so they cross process boundaries and map one-to-one onto store rows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from puzzles.formats import PuzzleEntry
from puzzles.grid import Grid
from puzzles.rules import Rules

# Outcome statuses: the solver's own (`solvers.base.Status` values) plus one of the harness's.
ANSWERED = ("solved", "no_solution", "limit")  # the back-end did what `limit` asked
UNSUPPORTED = "unsupported"  # the back-end cannot take this geometry: not attempted
# A repeat not run because an earlier repeat of the same puzzle and back-end timed out: the
# report counts it as a timeout (the time it would have cost is the cut-off's).
SKIPPED = "skipped"
TIMED_OUT = ("timeout", SKIPPED)

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
        return Grid.from_string(self.puzzle, Rules.parse(self.geometry))

    @property
    def group(self) -> Group:
        """The puzzle and back-end: the same for every repeat of this task."""
        return (self.collection, self.puzzle_id, self.geometry, self.puzzle, self.solver)

    @property
    def puzzle_key(self) -> tuple[str, str, str, str]:
        """The puzzle: the same for every back-end and repeat of it (one chunk or shard)."""
        return (self.collection, self.puzzle_id, self.geometry, self.puzzle)


@dataclass
class Outcome:
    """What one task produced (a row of the results table, without the run id)."""

    task: Task
    status: str
    count: int = 0
    exact: bool = False
    verdict: str = "unknown"
    solutions: list[str] = field(default_factory=list)
    build_s: float = 0.0
    solve_s: float = 0.0
    nodes: int = 0
    guesses: int = 0
    counters: dict[str, float] = field(default_factory=dict)
    error: str = ""
    worker: int = 0  # the worker's process id
    host: str = ""  # the machine the task ran on ("" for a skipped repeat: it ran nowhere)

    @property
    def total_s(self) -> float:
        return self.build_s + self.solve_s

    @property
    def answered(self) -> bool:
        return self.status in ANSWERED

    def record(self) -> dict[str, Any]:
        """Flat keys for the store, CSV and JSON."""
        row = asdict(self.task)
        row.pop("key")
        return {
            "task": self.task.key,
            **row,
            "status": self.status,
            "count": self.count,
            "exact": self.exact,
            "verdict": self.verdict,
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
            "host": self.host,
        }


def collection_of(entry: PuzzleEntry) -> str:
    """The collection an entry was read from: its id without `:line` (`top95:12` -> `top95`)."""
    source, _, line = entry.id.rpartition(":")
    return source if source and line.isdigit() else "arguments"


def plan(entries: Sequence[PuzzleEntry], solvers: Sequence[str], repeat: int) -> list[Task]:
    """Every task, puzzle-major: each puzzle with each back-end, `repeat` times."""
    tasks: list[Task] = []
    for entry in entries:
        grid = entry.puzzle
        for solver in solvers:
            for number in range(repeat):
                tasks.append(
                    Task(
                        len(tasks),
                        collection_of(entry),
                        entry.id,
                        grid.rules.spec,
                        grid.to_line(),
                        solver,
                        number,
                    )
                )
    return tasks


def shuffled(tasks: Sequence[Task], seed: int) -> list[Task]:
    """The tasks in a random order fixed by `seed`, so slow phases of the machine (other
    load, thermal throttling) do not line up with one back-end or one collection."""
    order = list(tasks)
    random.Random(seed).shuffle(order)
    return order
