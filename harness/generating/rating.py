"""Difficulty rating by the human techniques a puzzle needs (the `logic` back-end).

The label is the level of the hardest technique the logic solver needed (see
`solvers.logic.techniques.TECHNIQUES`); a puzzle it cannot finish is "beyond logic". The
score adds a weight per step (1 for an easy step, 3 medium, 10 hard, 30 expert), so it grows
with both the difficulty and the number of steps and orders puzzles within one label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from puzzles.grid import Grid
from solvers.base import Result, Status
from solvers.logic import BEYOND_LOGIC, LEVELS, TECHNIQUES, LogicSolver
from solvers.logic.techniques import BY_KEY

NO_SOLUTION = "no solution"
LEVEL_WEIGHTS = {"easy": 1, "medium": 3, "hard": 10, "expert": 30}
LABELS = (*LEVELS, BEYOND_LOGIC)


@dataclass(frozen=True)
class Rating:
    label: str  # easy, medium, hard, expert, beyond logic, or no solution
    hardest: str | None  # the hardest technique used, in words
    steps: int
    score: int
    counts: dict[str, int] = field(default_factory=dict)  # steps per technique key

    def record(self) -> dict[str, Any]:
        """The rating keys of `--json`."""
        return {
            "rating": self.label,
            "hardest": self.hardest,
            "steps": self.steps,
            "score": self.score,
            "techniques": self.counts,
        }

    @property
    def rank(self) -> int:
        """0 for easy ... 4 for beyond logic, 5 for no solution."""
        return LABELS.index(self.label) if self.label in LABELS else len(LABELS)


def rating_of(result: Result) -> Rating:
    """The rating from a `logic` result (its step records and counters)."""
    counts = {key: int(result.counters.get(key, 0)) for key in BY_KEY}
    counts = {key: n for key, n in counts.items() if n}
    steps = sum(counts.values())
    score = sum(LEVEL_WEIGHTS[BY_KEY[key].level] * n for key, n in counts.items())
    used = [BY_KEY[key] for key in BY_KEY if key in counts]  # the table's order is difficulty's
    hardest = used[-1] if used else None
    if result.status is Status.NO_SOLUTION:
        label = NO_SOLUTION
    elif result.status is Status.SOLVED:
        label = hardest.level if hardest else "easy"
    else:
        label = BEYOND_LOGIC
    return Rating(label, hardest.name if hardest else None, steps, score, counts)


def rate(
    puzzle: Grid, *, timeout: float | None = None, solver: LogicSolver | None = None
) -> Rating:
    """Rate one puzzle with the full logic solver (or the one given)."""
    return rating_of((solver or LogicSolver()).solve(puzzle, timeout=timeout))


def level_table() -> list[tuple[str, str]]:
    """(level, techniques in order) for the README and `rate --levels`."""
    return [
        (level, ", ".join(t.name for t in TECHNIQUES if t.level == level)) for level in LEVELS
    ] + [(BEYOND_LOGIC, "none of the above finishes the puzzle (the logic solver gives up)")]
