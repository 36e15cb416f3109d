"""Outcomes of worker tasks as the CLI's common `--json` record (`harness.cli.output.result_record`)."""

from __future__ import annotations

from typing import Any

from harness.running.tasks import Outcome
from puzzles.rules import Rules
from solvers.base import Status, Verdict


def outcome_record(outcome: Outcome, **extra: Any) -> dict[str, Any]:
    """The common record (id, puzzle, rules, solver, status, ...) plus collection, repeat,
    total_s, the harness's status (`harness_status`, the same as `status`) and `extra`.

    Built from the outcome's own fields, never by reading its grids back: a back-end that
    returns a grid of the wrong size is a wrong answer to record, and stopped `bench --json`
    ("column 17: expected 81 cells") when the record parsed it.
    """
    task = outcome.task
    status = Status(outcome.status).value
    return {
        "id": task.puzzle_id,
        "puzzle": task.puzzle,
        "rules": Rules.parse(task.geometry).to_json(),
        "solver": task.solver,
        "status": status,
        "solutions": list(outcome.solutions),
        "count": outcome.count,
        "exact": outcome.exact,
        "verdict": Verdict(outcome.verdict).value,
        "build_s": round(outcome.build_s, 6),
        "solve_s": round(outcome.solve_s, 6),
        "nodes": outcome.nodes,
        "guesses": outcome.guesses,
        "counters": outcome.counters,
        "message": outcome.error,
        "collection": task.collection,
        "repeat": task.repeat,
        "total_s": round(outcome.total_s, 6),
        "harness_status": status,
        **extra,
    }
