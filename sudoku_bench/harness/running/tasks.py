"""What a run is made of: its tasks (puzzle x back-end x repeat), planned and ordered.

`Task` and its `Outcome` are the result record of `sudoku_bench.harness.results`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sudoku_bench.harness.results import TIMED_OUT, Group, Outcome, Task, puzzle_grid
from sudoku_bench.puzzles.formats import PuzzleEntry

# The record and its task are `sudoku_bench.harness.results`'; they are named here too for the callers
# that plan and run tasks.
__all__ = [
    "TIMED_OUT",
    "Group",
    "Outcome",
    "Task",
    "collection_of",
    "plan",
    "puzzle_grid",
    "shuffled",
    "tasks_of",
]


def collection_of(entry: PuzzleEntry) -> str:
    """The collection an entry was read from: its id without `:line` (`top95:12` -> `top95`)."""
    source, _, line = entry.id.rpartition(":")
    return source if source and line.isdigit() else "arguments"


def plan(entries: Sequence[PuzzleEntry], solvers: Sequence[str], repeat: int) -> list[Task]:
    """Every task, puzzle-major: each puzzle with each back-end, `repeat` times."""
    tasks: list[Task] = []
    for entry in entries:
        tasks += tasks_of(entry, solvers, len(tasks), repeat)
    return tasks


def tasks_of(
    entry: PuzzleEntry, solvers: Sequence[str], first_key: int, repeat: int = 1
) -> list[Task]:
    """One puzzle's tasks, each back-end `repeat` times, numbered from `first_key`."""
    # once per puzzle, not per task: a run may repeat each puzzle thousands of times
    collection, spec, line = collection_of(entry), entry.puzzle.rules.spec, entry.puzzle.to_line()
    return [
        Task(first_key + index, collection, entry.id, spec, line, solver, number)
        for index, (solver, number) in enumerate(
            (solver, number) for solver in solvers for number in range(repeat)
        )
    ]


def shuffled(tasks: Sequence[Task], seed: int) -> list[Task]:
    """The tasks in a random order fixed by `seed`, so slow phases of the machine (other
    load, thermal throttling) do not line up with one back-end or one collection."""
    order = list(tasks)
    random.Random(seed).shuffle(order)
    return order
