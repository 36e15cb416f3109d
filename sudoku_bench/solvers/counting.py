"""Counting by exclusion: solve, exclude the solution found, solve again.

Engines that answer one feasibility question per call (a MILP solver; CP-SAT with several
workers, whose own enumeration is unsound; an incremental SAT solver) count this way. After
each solution a constraint that cuts off exactly that solution is added and the engine is asked
again; once it answers "infeasible" there is no other, so the count is exact. The loop is the
same for every such engine, so it lives here once; a back-end supplies two functions:

- `solve()`: one solve of the current model. It returns the solution as a grid, or None when
  the model is infeasible; it raises `SearchTimeout` (its message says why) when the engine
  stopped at its time limit without an answer.
- `exclude(solution)`: add the constraint that cuts off `solution` (a no-good cut in MILP, a
  blocking clause in SAT, "some empty cell differs" in CP-SAT). It is only called for a puzzle
  with at least one empty cell, so the constraint always has something to say.

The deadline is checked before every solve, so a count of many easy solutions stops on time.
"""

from __future__ import annotations

from collections.abc import Callable

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Deadline, SearchOutcome, SearchTimeout


def count_by_exclusion(
    puzzle: Grid,
    limit: int,
    deadline: Deadline,
    solve: Callable[[], Grid | None],
    exclude: Callable[[Grid], None],
) -> SearchOutcome:
    """Up to `limit` solutions of `puzzle`, found one solve at a time (see the module docstring).

    The outcome is exhausted (the count exact) when a solve proves infeasibility, or at once
    when the puzzle has no empty cell (its one grid is the only possible solution).
    """
    solutions: list[Grid] = []
    seen: set[Grid] = set()
    full = not puzzle.empty_cells
    while True:
        if deadline.expired():
            return _stopped(solutions, "the deadline passed before the next solve")
        try:
            solution = solve()
        except SearchTimeout as stop:
            return _stopped(solutions, str(stop) or "the solver stopped at its time limit")
        if solution is None:
            return SearchOutcome(solutions, exhausted=True)
        if solution in seen:  # the exclusion did not hold: a count from here would be wrong
            raise RuntimeError(f"the engine found an excluded solution again: {solution}")
        solutions.append(solution)
        seen.add(solution)
        if full:
            return SearchOutcome(solutions, exhausted=True)
        if len(solutions) >= limit:
            return SearchOutcome(solutions, exhausted=False)
        exclude(solution)


def _stopped(solutions: list[Grid], message: str) -> SearchOutcome:
    return SearchOutcome(solutions, exhausted=False, timed_out=True, message=message)
