"""Difficulty rating by the human techniques a puzzle needs (the `logic` back-end).

The label is the level of the hardest technique the logic solver needed (see
`sudoku_bench.solvers.engines.logic.techniques.TECHNIQUES`); a puzzle it cannot finish is "beyond logic". The
score adds a weight per step (1 for an easy step, 3 medium, 10 hard, 30 expert, 100
extreme), so it grows with both the difficulty and the number of steps.

The numeric rating (`estimate`) is in the spirit of Sudoku Explainer: each technique has a
weight on a scale from 1.0 (a pair rule's elimination) up, and the hardest step decides. A
forcing step is rated as SE rates chains, by its kind and its size (8.0 for static forcing
chains, 8.5 for forcing nets, 10.5 for nested nets, plus SE's length bonus:
`sudoku_bench.solvers.engines.logic.forcing`), so the hardest puzzles spread out instead of sharing one
value; the logic run's `step_weight_max` counter holds it (a result stored before that counter
existed is rated by its techniques' weights). `hard_steps`, the number of steps at level hard
or above, breaks ties: `(estimate, hard_steps)` orders puzzles. A puzzle the solver cannot
finish gets `BEYOND_ESTIMATE` (at least that hard), one with no solution none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Result, Status
from sudoku_bench.solvers.engines.logic import BEYOND_LOGIC, LEVELS, TECHNIQUES, LogicSolver
from sudoku_bench.solvers.engines.logic.techniques import BY_KEY

NO_SOLUTION = "no solution"
LEVEL_WEIGHTS = {"easy": 1, "medium": 3, "hard": 10, "expert": 30, "extreme": 100}
# the logic solver could not finish: above what its nested nets reach within their budget
BEYOND_ESTIMATE = 13.0
HARD_LEVELS = ("hard", "expert", "extreme")
LABELS = (*LEVELS, BEYOND_LOGIC)


@dataclass(frozen=True)
class Rating:
    label: str  # easy, medium, hard, expert, beyond logic, or no solution
    hardest: str | None  # the hardest technique used, in words
    steps: int
    score: int
    counts: dict[str, int] = field(default_factory=dict)  # steps per technique key
    estimate: float | None = None  # the hardest step's weight (Sudoku Explainer-like scale)
    hard_steps: int = 0  # steps at level hard or above: the tie-break

    def record(self) -> dict[str, Any]:
        """The rating keys of `--json`."""
        return {
            "rating": self.label,
            "hardest": self.hardest,
            "steps": self.steps,
            "score": self.score,
            "techniques": self.counts,
            "estimate": self.estimate,
            "hard_steps": self.hard_steps,
        }

    @property
    def order(self) -> tuple[float, int]:
        """Sorts puzzles by difficulty: the estimate, then the number of hard steps."""
        return (self.estimate if self.estimate is not None else -1.0, self.hard_steps)

    @property
    def rank(self) -> int:
        """0 for easy ... 4 for beyond logic, 5 for no solution."""
        return LABELS.index(self.label) if self.label in LABELS else len(LABELS)


def rating_of(result: Result) -> Rating:
    """The rating from a `logic` result (its step records and counters)."""
    return rating_from(result.status, result.counters)


def rating_from(status: Status | str, counters: Mapping[str, float]) -> Rating:
    """The rating from a `logic` run's status and counters (a stored result has both)."""
    status = Status(status)
    counts = {key: int(counters.get(key, 0)) for key in BY_KEY}
    counts = {key: n for key, n in counts.items() if n}
    steps = sum(counts.values())
    score = sum(LEVEL_WEIGHTS[BY_KEY[key].level] * n for key, n in counts.items())
    order = list(BY_KEY)
    used = [BY_KEY[key] for key in BY_KEY if key in counts]
    # the hardest step decides: the heaviest technique (the later one in the table on a tie)
    hardest = max(used, key=lambda t: (t.weight, order.index(t.key))) if used else None
    heaviest = hardest.weight if hardest else BY_KEY["naked_single"].weight
    if counters.get("step_weight_max"):  # each step's own weight (forcing: by its size)
        heaviest = round(float(counters["step_weight_max"]), 1)
    hard_steps = sum(n for key, n in counts.items() if BY_KEY[key].level in HARD_LEVELS)
    estimate: float | None = heaviest
    if status is Status.NO_SOLUTION:
        label, estimate = NO_SOLUTION, None
    elif status is Status.SOLVED:
        label = hardest.level if hardest else "easy"
    else:
        label, estimate = BEYOND_LOGIC, BEYOND_ESTIMATE
    return Rating(
        label, hardest.name if hardest else None, steps, score, counts, estimate, hard_steps
    )


def rate(
    puzzle: Grid, *, timeout: float | None = None, solver: LogicSolver | None = None
) -> Rating:
    """Rate one puzzle with the full logic solver (or the one given)."""
    return rating_of((solver or LogicSolver()).solve(puzzle, timeout=timeout))


def level_table() -> list[tuple[str, str]]:
    """(level, techniques in order with their weights) for the README and `rate --levels`."""
    return [
        (
            level,
            ", ".join(
                f"{t.name} {t.weight:.1f}" + ("" if t.default else " (with --uniqueness)")
                for t in TECHNIQUES
                if t.level == level
            ),
        )
        for level in LEVELS
    ] + [
        (
            BEYOND_LOGIC,
            f"none of the above finishes the puzzle (the logic solver gives up): "
            f"{BEYOND_ESTIMATE:.1f}",
        )
    ]
