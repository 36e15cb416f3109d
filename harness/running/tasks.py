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
from solvers.base import Result

# Outcome statuses: the solver's own (`solvers.base.Status` values) plus one of the harness's.
ANSWERED = ("solved", "no_solution", "limit")  # the back-end did what `limit` asked
UNSUPPORTED = "unsupported"  # the back-end cannot take this geometry: not attempted


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
    guesses: int | None = 0  # None: the back-end does not count guesses
    counters: dict[str, float] = field(default_factory=dict)
    error: str = ""
    worker: int = 0  # the worker's process id
    # the solver's whole answer, when the run asked for it (`Settings.keep_result`): not stored
    result: Result | None = field(default=None, compare=False, repr=False)

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
        }


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
