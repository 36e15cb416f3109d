"""Outcomes of worker tasks as the CLI's common `--json` record (`harness.cli.output.result_record`)."""

from __future__ import annotations

from typing import Any

from harness.cli.output import result_record
from harness.running.tasks import Outcome
from puzzles.formats import PuzzleEntry
from puzzles.grid import Grid
from solvers.base import Result, Status


def as_result(outcome: Outcome) -> Result:
    """The outcome as a `Result`, with the harness's status and message."""
    rules = outcome.task.grid().rules
    return Result(
        outcome.task.solver,
        Status(outcome.status),
        [Grid.from_string(line, rules) for line in outcome.solutions],
        exhausted=outcome.exact,
        build_s=outcome.build_s,
        search_s=outcome.solve_s,
        counters=outcome.counters,
        message=outcome.error,
    )


def outcome_record(outcome: Outcome, **extra: Any) -> dict[str, Any]:
    """The common record (id, puzzle, solver, status, ...) plus collection, repeat, total_s,
    the harness's status (`harness_status`, the same as `status`) and `extra`."""
    task = outcome.task
    record = result_record(PuzzleEntry(task.puzzle_id, task.grid()), as_result(outcome))
    record.update(
        collection=task.collection,
        repeat=task.repeat,
        total_s=round(outcome.total_s, 6),
        harness_status=Status(outcome.status).value,
        **extra,
    )
    return record
