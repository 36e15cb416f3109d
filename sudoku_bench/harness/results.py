"""The harness's one result record, from the engine's `Result` to the store row and back.

The way of a result through the harness:

1. the engine's `sudoku_bench.solvers.base.Result` (in the worker process);
2. its packed form, a plain tuple that crosses the pipe to the parent (`packed_outcome`,
   `Outcome.packed`): the task's key and every field of `Outcome` in order, since the parent
   holds the task itself (`Outcome.unpacked`);
3. the record, `Outcome`: the task and what it produced;
4. the store row (`Outcome.row`) and back (`Outcome.from_row`);
5. the `--json` record of the CLI (`json_record`, the one builder of its keys).

Status and verdict words are `sudoku_bench.solvers.base.Status` and `Verdict`, defined there once. A task's
rules are carried as their serialised form (`Rules.spec`) under one name, `rules`, and parsed
once per process per distinct rules (`parse_rules`).

`guesses` has one meaning everywhere: the back-end's count of guesses, or None when the
back-end does not count them (CP-SAT, MILP); a task that produced no answer has None too.

This module sits below `sudoku_bench.harness.running` and `sudoku_bench.harness.storing`: both import it, it imports
neither.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Protocol

from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT, Alphabet
from sudoku_bench.solvers.base import Result, Status, Verdict

# The version of the `--json` records' and JSON reports' key sets, written in each as
# `schema_version`: it goes up by one when a record gains keys (keys are never renamed or
# removed), so a script can tell which keys to expect. (`version` in `solvers --json` was
# already the back-end library's version.)
RECORD_SCHEMA_VERSION = 1

__all__ = [
    "FAILED",
    "RECORD_SCHEMA_VERSION",
    "TIMED_OUT",
    "Group",
    "Outcome",
    "Status",
    "Task",
    "Verdict",
    "json_record",
    "outcome_json",
    "packed_outcome",
    "parse_rules",
    "puzzle_grid",
    "result_json",
    "rules_json",
]

# A timeout, or a repeat not run after one (`Status.SKIPPED`): what the skip rule looks at.
TIMED_OUT = frozenset({Status.TIMEOUT, Status.SKIPPED})
# The statuses whose message is an outcome's `error`.
FAILED = (Status.ERROR, Status.UNSUPPORTED)

# The tasks that differ only in their repeat: (collection, puzzle_id, rules, puzzle, solver).
Group = tuple[str, str, str, str, str]

# How many distinct rules a process keeps parsed: a collection of killer puzzles has one per
# puzzle, so the cache is bounded; a run meets the same rules again in its repeats and back-ends.
RULES_CACHE = 1024


@functools.lru_cache(maxsize=RULES_CACHE)
def parse_rules(spec: str) -> Rules:
    """The rules of a serialised form (`Rules.spec`), parsed once per process per spec."""
    return Rules.parse(spec)


def rules_json(spec: str) -> dict[str, Any]:
    """`Rules.to_json()` of a serialised form: the `rules` value of a `--json` record."""
    return parse_rules(spec).to_json()


def puzzle_grid(rules: str, puzzle: str) -> Grid:
    """The grid of a task's puzzle line under its serialised rules (`Task.rules`)."""
    return Grid.from_string(puzzle, parse_rules(rules))


@dataclass(frozen=True)
class Task:
    """One timed solve. `key` numbers the task within its run (its order before shuffling).

    Tasks compare by value: the parent's task and the copy a worker or a cluster node sends
    back are equal, and a rule about "the same task" compares keys or values, never identity.
    """

    key: int
    collection: str
    puzzle_id: str
    rules: str  # `Rules.spec`: the name of classic rules, else their canonical JSON
    puzzle: str
    solver: str
    repeat: int

    @property
    def geometry(self) -> str:
        """`rules`, by the name the store and the job tuple gave it up to schema version 4."""
        return self.rules

    def grid(self) -> Grid:
        return puzzle_grid(self.rules, self.puzzle)

    @property
    def group(self) -> Group:
        """The puzzle and back-end: the same for every repeat of this task."""
        return (self.collection, self.puzzle_id, self.rules, self.puzzle, self.solver)

    @property
    def puzzle_key(self) -> tuple[str, str, str, str]:
        """The puzzle: the same for every back-end and repeat of it (one chunk or shard)."""
        return (self.collection, self.puzzle_id, self.rules, self.puzzle)


# The task's columns in a store row, in `Task`'s order (`key` is the row's `task`).
TASK_COLUMNS = ("task", "collection", "puzzle_id", "rules", "puzzle", "solver", "repeat")


@dataclass
class Outcome:
    """What one task produced: the result record of the harness, from the worker through the
    store to the reports (a row of the results table, without the run id).

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
    guesses: int | None = None  # None: not counted (by this back-end, or nothing ran)
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
        """Flat keys for the store, CSV and JSON: the task's columns, then the outcome's."""
        task = self.task
        return {
            "task": task.key,
            "collection": task.collection,
            "puzzle_id": task.puzzle_id,
            "rules": task.rules,
            "puzzle": task.puzzle,
            "solver": task.solver,
            "repeat": task.repeat,
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

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Outcome:
        """The outcome of a store row (`Store.results()`, or `record()`): the inverse of
        `record` for every stored field."""
        task = Task(*(row[column] for column in TASK_COLUMNS))
        return cls(
            task,
            Status(row["status"]),
            int(row["count"]),
            bool(row["exact"]),
            Verdict(row["verdict"]),
            list(row["solutions"]),
            float(row["build_s"]),
            float(row["solve_s"]),
            int(row["nodes"]),
            None if row.get("guesses") is None else int(row["guesses"]),
            dict(row["counters"]),
            row["error"],
            int(row["worker"]),
            row.get("wall_s"),
            row.get("cpu_s"),
            row.get("peak_rss_mb"),
            row.get("permutation"),
            row.get("host") or "",
        )

    def json_record(self, **extra: Any) -> dict[str, Any]:
        """The `--json` record of `bench` and `check`: `outcome_json`."""
        return outcome_json(self, **extra)


# every field but the task, in the order of the class (`Outcome.packed`)
_PACKED = attrgetter(*[item.name for item in fields(Outcome)][1:])


class Measured(Protocol):
    """What the worker measured around a solve (`sudoku_bench.harness.running.worker.Meter`)."""

    wall_s: float | None
    cpu_s: float | None
    peak_mb: float | None


def packed_outcome(
    key: int,
    result: Result,
    meter: Measured | None = None,
    seed: int | None = None,
    pid: int = 0,
    *,
    keep_result: bool = False,
) -> tuple[Any, ...]:
    """The outcome of the task of `key` from the solver's result, measured by `meter`, on the
    isomorph of `seed`, solved by process `pid`, packed (`Outcome.packed`) without making the
    Outcome: a batch sends only this, and making and packing an Outcome costs a sizeable part
    of a compiled engine's solve. The fields are in `Outcome`'s order (a test holds the two
    together)."""
    status = result.status
    solutions = result.solutions
    return (
        key,
        status,
        len(solutions),
        result.exact,
        result.verdict,
        [solutions[0].to_line()] if len(solutions) == 1 else [g.to_line() for g in solutions],
        result.build_s,
        result.search_s,
        result.nodes,
        result.guesses,
        dict(result.counters),
        result.message if status in FAILED else "",
        pid,  # worker
        None if meter is None else meter.wall_s,
        None if meter is None else meter.cpu_s,
        None if meter is None else meter.peak_mb,
        seed,  # permutation
        "",  # host: the parent's to set
        result if keep_result else None,
    )


def json_record(
    *,
    id: str,
    puzzle: str,
    rules: Any,
    solver: str,
    status: Status,
    solutions: list[str],
    count: int,
    exact: bool,
    verdict: Verdict,
    build_s: float,
    solve_s: float,
    nodes: int,
    guesses: int | None,
    counters: dict[str, float],
    message: str,
) -> dict[str, Any]:
    """The common `--json` record of every command that solves: id, puzzle, rules
    (`Rules.to_json()`), solver, status, solutions (line strings), count, exact, verdict,
    build_s, solve_s, nodes, guesses, counters, message. Commands add their own keys after
    these (`result_json`, `outcome_json`)."""
    return {
        "id": id,
        "puzzle": puzzle,
        "rules": rules,
        "solver": solver,
        "status": Status(status).value,
        "solutions": solutions,
        "count": count,
        "exact": exact,
        "verdict": Verdict(verdict).value,
        "build_s": round(build_s, 6),
        "solve_s": round(solve_s, 6),
        "nodes": nodes,
        "guesses": guesses,
        "counters": counters,
        "message": message,
    }


def result_json(entry: PuzzleEntry, result: Result, alphabet: Alphabet = DEFAULT) -> dict[str, Any]:
    """The `--json` record of a solver's `Result` on a puzzle (`solve`, `count`, `explain`)."""
    return json_record(
        id=entry.id,
        puzzle=entry.puzzle.to_line(alphabet),
        rules=entry.puzzle.rules.to_json(),
        solver=result.solver,
        status=result.status,
        solutions=[grid.to_line(alphabet) for grid in result.solutions],
        count=result.count,
        exact=result.exact,
        verdict=result.verdict,
        build_s=result.build_s,
        solve_s=result.search_s,
        nodes=result.nodes,
        guesses=result.guesses,
        counters=result.counters,
        message=result.message,
    )


def outcome_json(outcome: Outcome, **extra: Any) -> dict[str, Any]:
    """The `--json` record of a task's outcome (`bench`, `check`): the common keys, then
    collection, repeat, total_s, the harness's status (`harness_status`, the same as
    `status`) and `extra`.

    Built from the outcome's own fields, never by reading its grids back: a back-end that
    returns a grid of the wrong size is a wrong answer to record, not a failure of the output.
    """
    task = outcome.task
    record = json_record(
        id=task.puzzle_id,
        puzzle=task.puzzle,
        rules=rules_json(task.rules),
        solver=task.solver,
        status=outcome.status,
        solutions=list(outcome.solutions),
        count=outcome.count,
        exact=outcome.exact,
        verdict=outcome.verdict,
        build_s=outcome.build_s,
        solve_s=outcome.solve_s,
        nodes=outcome.nodes,
        guesses=outcome.guesses,
        counters=outcome.counters,
        message=outcome.error,
    )
    record["collection"] = task.collection
    record["repeat"] = task.repeat
    record["total_s"] = round(outcome.total_s, 6)
    record["harness_status"] = record["status"]
    record.update(extra)
    return record
