"""The `logic` back-end: pencil marks and human techniques, one logged step at a time.

Every step is a sound deduction, so a filled grid is the only solution (the result is exact)
and a contradiction proves there is none. When no technique applies the solver gives up with
the partial grid and its candidates; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_bench.puzzles.checker import is_solution, solution_problems
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Deadline, SearchOutcome, SearchTimeout, Solver
from sudoku_bench.solvers.engines.logic.state import Candidates, Contradiction, Step
from sudoku_bench.solvers.engines.logic.structure import ENCODERS
from sudoku_bench.solvers.engines.logic.techniques import (
    BEYOND_LOGIC,
    BY_KEY,
    UNIQUENESS_KEYS,
    Technique,
    choose,
    for_rules,
    next_step,
)

SOLVED, STUCK, CONTRADICTION, TIMED_OUT = "solved", "stuck", "contradiction", "timed out"


@dataclass
class LogicRun:
    """How far the techniques took one puzzle: the steps, and where it ended."""

    start: Grid
    state: Candidates | None  # None when the givens themselves break a rule
    steps: list[Step] = field(default_factory=list)
    end: str = STUCK  # SOLVED, STUCK, CONTRADICTION or TIMED_OUT
    message: str = ""

    @property
    def hardest(self) -> Technique | None:
        """The hardest technique the run used (the table is in order of difficulty)."""
        used = {step.technique for step in self.steps}
        keys = [key for key in BY_KEY if key in used]
        return BY_KEY[keys[-1]] if keys else None

    @property
    def level(self) -> str:
        """The difficulty label: the hardest technique's level, or "beyond logic" if stuck."""
        if self.end != SOLVED:
            return BEYOND_LOGIC
        hardest = self.hardest
        return hardest.level if hardest else "easy"

    def counts(self) -> Counter[str]:
        return Counter(step.technique for step in self.steps)

    def log(self) -> list[str]:
        rules = self.start.rules
        return [f"{i}. {step.describe(rules)}" for i, step in enumerate(self.steps, 1)]

    def grid(self) -> Grid:
        return self.state.to_grid() if self.state is not None else self.start


def run_logic(
    puzzle: Grid,
    techniques: Sequence[Technique] | None = None,
    deadline: Deadline | None = None,
    *,
    state: Candidates | None = None,
) -> LogicRun:
    """Apply the easiest technique that finds something until the grid is full or none does."""
    chosen = for_rules(techniques if techniques is not None else choose(None), puzzle.rules)
    if state is None:
        try:
            state = Candidates.from_grid(puzzle)
        except Contradiction as error:
            return LogicRun(puzzle, None, end=CONTRADICTION, message=str(error))
    run = LogicRun(puzzle, state)
    while not state.solved:
        if deadline is not None and deadline.spent(len(run.steps)):
            run.end = TIMED_OUT
            return run
        try:
            step = next_step(state, chosen, deadline)
        except SearchTimeout:
            run.end = TIMED_OUT
            return run
        try:
            if step is None:
                state.check()  # stuck on a position with no solution: say so
                run.message = f"no technique applies with {len(state.empty_cells())} cells left"
                return run
            run.steps.append(step)
            state.apply(step)
        except Contradiction as error:
            run.end, run.message = CONTRADICTION, f"no solution: {error}"
            return run
    if not is_solution(puzzle, state.to_grid()):
        # every placement was forced, so a full grid that breaks a rule (a pair or a cage
        # rule whose technique had no turn after the last placement) proves there is none
        problem = solution_problems(puzzle, state.to_grid())[0]
        run.end, run.message = CONTRADICTION, f"no solution: {problem}"
        return run
    run.end = SOLVED
    return run


def step_weight(step: Step) -> float:
    """A step's rating: its own weight (forcing steps), else its technique's."""
    return step.weight if step.weight is not None else BY_KEY[step.technique].weight


def step_record(step: Step, puzzle: Grid) -> dict[str, Any]:
    """A step for `--json`: technique key, text, and the moves as (cell name, digit) pairs."""
    rules = puzzle.rules
    return {
        "technique": step.technique,
        "text": step.describe(rules),
        "placements": [[rules.cell_name(c), d] for c, d in step.placements],
        "eliminations": [[rules.cell_name(c), d] for c, d in step.eliminations],
    }


class LogicSolver(Solver[Candidates | Contradiction]):
    """Human techniques only; `techniques` restricts them to a subset (by key). With
    `explain=False` the details keep only the counters' summary, not the step log (faster
    where only the rating matters, as in the generator). `uniqueness=True` adds the
    uniqueness techniques (unique rectangles, BUG+1), which assume a unique solution.

    The kinds it reasons about are those of its encoder table (`structure.ENCODERS`):
    regions and extra units in every technique (only houses, units of N cells, in those
    that need a digit to be present), pair rules (any relation), cages, linear equations,
    tables of fillings and automata read along a line (outside clues past the side their
    tables are listed to) by their own techniques (`families`), cell digits (parity) in the
    starting candidates; any other kind is answered `unsupported`."""

    name = "logic"
    honours_node_limit = True
    encoders = ENCODERS

    def __init__(
        self,
        techniques: Iterable[str] | None = None,
        explain: bool = True,
        uniqueness: bool = False,
    ) -> None:
        keys = None if techniques is None else list(techniques)
        if uniqueness:
            keys = [
                *(keys if keys is not None else (t.key for t in choose(None))),
                *UNIQUENESS_KEYS,
            ]
        self.techniques = choose(keys)
        self.explain = explain

    def _build(self, puzzle: Grid, deadline: Deadline) -> Candidates | Contradiction:
        try:
            return Candidates.from_grid(puzzle)
        except Contradiction as error:
            return error

    def _search(
        self, model: Candidates | Contradiction, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        if isinstance(model, Contradiction):
            run = LogicRun(puzzle, None, end=CONTRADICTION, message=f"no solution: {model}")
        else:
            run = run_logic(puzzle, self.techniques, deadline, state=model.copy())
        counts = run.counts()
        counters: dict[str, float] = {
            "nodes": len(run.steps),
            "guesses": 0,
            "steps": len(run.steps),
            "placements": sum(len(s.placements) for s in run.steps),
            "eliminations": sum(len(s.eliminations) for s in run.steps),
            # the heaviest step's weight (a forcing step's own, by its size): the rating
            "step_weight_max": max((step_weight(s) for s in run.steps), default=0.0),
            **{t.key: counts[t.key] for t in self.techniques},
        }
        hardest = run.hardest
        details: dict[str, Any] = {"hardest": hardest.key if hardest else None, "level": run.level}
        if self.explain:
            details["log"] = run.log()
            details["steps"] = [step_record(step, puzzle) for step in run.steps]
        grid = run.grid()
        if run.end == SOLVED:
            return SearchOutcome([grid], exhausted=True, counters=counters, details=details)
        if run.end == CONTRADICTION:
            return SearchOutcome(
                [], exhausted=True, message=run.message, counters=counters, details=details
            )
        if run.state is not None and self.explain:
            details["candidates"] = run.state.marks()
        return SearchOutcome(
            [],
            exhausted=False,
            timed_out=run.end == TIMED_OUT,
            gave_up=run.end == STUCK,
            message=run.message,
            counters=counters,
            partial=grid,
            details=details,
        )
