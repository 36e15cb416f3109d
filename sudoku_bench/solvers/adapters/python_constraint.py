"""The `python-constraint` back-end: python-constraint2 on the `sudoku_bench.reductions.csp` model.

Every rule kind is written with the library's own constraints (`sudoku_bench.reductions.csp` lists them:
AllDifferent per unit, function constraints for the pair rules, domains for parity,
`ExactSumConstraint` for cage sums); every algorithm below takes them all.

`algorithm` picks the library's solver:

- `backtracking` (the default): `BacktrackingSolver`, which re-picks the next variable at
  every node (most constraints, then fewest values left). The library's own default,
  `OptimizedBacktrackingSolver`, fixes the variable order once before the search, which
  loses on hard 9x9s by orders of magnitude (docs/measurements/models.md).
- `optimized`, `recursive`: `OptimizedBacktrackingSolver`, `RecursiveBacktrackingSolver`,
  offered for comparison.
- `minconflicts`: `MinConflictsSolver`, local search: it finds at most one solution and
  may give up; it never proves anything. The library's version never restarts, and on
  Sudoku a run either succeeds within a few dozen steps or stalls on a plateau, so the
  back-end restarts it from a fresh random assignment (`restarts` runs of `steps` steps).

`hidden_singles=True` swaps each unit's `AllDifferentConstraint` for
`sudoku_bench.reductions.csp.UnitConstraint` (AllDifferent plus the hidden-single rule). With the plain
model (forward checking and smallest-domain-first only) some top95 puzzles need hundreds of
thousands of nodes; with hidden singles a few thousand (docs/measurements/models.md).

Counting takes `limit` solutions from `getSolutionIter` with `itertools.islice`; fewer than
`limit` means the search space was exhausted.

The library has no time limit. A `_Guard` constraint over every variable, added last,
is called at every node the search accepts (the unit constraints come first, so a value
they reject never reaches it); it counts those nodes and raises `SearchTimeout` once the
deadline has passed, which unwinds the library's generator. The guard costs a small part of
a node, so the deadline is met to within a node (`benchmarks/bench_cpsat_constraint.py`
measures its cost; docs/measurements/models.md). The aborted `Problem`
is thrown away, so the state the library leaves behind does not matter.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from constraint import (
    BacktrackingSolver,
    Constraint,
    MinConflictsSolver,
    OptimizedBacktrackingSolver,
    RecursiveBacktrackingSolver,
)
from constraint import Solver as ConstraintSolver

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.csp import CspModel, CspReduction
from sudoku_bench.solvers.base import Counters, Deadline, SearchOutcome, SearchTimeout, Solver

ALGORITHMS: dict[str, Callable[..., ConstraintSolver]] = {
    "backtracking": BacktrackingSolver,
    "optimized": OptimizedBacktrackingSolver,
    "recursive": RecursiveBacktrackingSolver,
    "minconflicts": MinConflictsSolver,
}


class _Guard(Constraint):
    """Always satisfied: counts the calls and stops the search at the deadline."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.calls = 0

    def __call__(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        assignments: dict[Any, Any],
        forwardcheck: Any = False,
    ) -> bool:
        self.calls += 1
        self.deadline.check()  # a clock read: well under 1% of a node's cost
        return True


@dataclass
class CspProblem:
    """The model, and what the reduction's `invert` needs to map its answers back."""

    model: CspModel
    data: Grid
    reduction: CspReduction


class PythonConstraintSolver(Solver[CspProblem]):
    """python-constraint2 with the solver named by `algorithm` (see the module docstring)."""

    name = "python-constraint"
    encoders = CspReduction.encoders  # the model's table (sudoku_bench/reductions/csp.py)

    def __init__(
        self,
        algorithm: str = "backtracking",
        forwardcheck: bool = True,
        steps: int = 200,
        restarts: int = 100,
        seed: int = 0,
        hidden_singles: bool = False,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {list(ALGORITHMS)}")
        self.algorithm = algorithm
        self.forwardcheck = forwardcheck
        self.steps = steps  # min-conflicts only: repair rounds per run
        self.restarts = restarts  # min-conflicts only: runs before giving up
        self.seed = seed  # min-conflicts only: its random choices, the same for every solve
        self.hidden_singles = hidden_singles
        # the library's recursive solver recurses per branch point (solvers.deep)
        self.frames_per_cell = 3 if algorithm == "recursive" else 0

    def _library_solver(self) -> ConstraintSolver:
        if self.algorithm == "minconflicts":
            return MinConflictsSolver(steps=self.steps, rand=random.Random(self.seed))
        return ALGORITHMS[self.algorithm](forwardcheck=self.forwardcheck)

    def _build(self, puzzle: Grid, deadline: Deadline) -> CspProblem:
        reduction = CspReduction(self._library_solver(), hidden_singles=self.hidden_singles)
        model, data = reduction.apply(puzzle)
        return CspProblem(model, data, reduction)

    def _search(
        self, problem: CspProblem, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        model = problem.model
        guard = _Guard(deadline)
        model.problem.addConstraint(guard)  # no variables given: all of them
        found: list[Grid] = []
        counters: Counters = {}
        counter = "checks" if self.algorithm == "minconflicts" else "nodes"
        try:
            if self.algorithm == "minconflicts":
                found = self._min_conflicts(problem)
            else:
                for answer in islice(model.problem.getSolutionIter(), limit):
                    found.append(problem.reduction.invert(answer, problem.data))
        except SearchTimeout:
            counters[counter] = guard.calls
            return SearchOutcome(found, exhausted=False, timed_out=True, counters=counters)
        counters[counter] = guard.calls
        if self.algorithm == "minconflicts":
            message = (
                "min-conflicts finds one solution at most: it cannot count"
                if found
                else f"no solution in {self.restarts} min-conflicts runs of {self.steps} steps"
            )
            return SearchOutcome(
                found, exhausted=False, gave_up=not found, message=message, counters=counters
            )
        return SearchOutcome(found, exhausted=len(found) < limit, counters=counters)

    def _min_conflicts(self, problem: CspProblem) -> list[Grid]:
        """Up to `restarts` runs, each from a new random assignment (the deadline still holds)."""
        for _ in range(self.restarts):
            answer = problem.model.problem.getSolution()
            if answer is not None:
                return [problem.reduction.invert(answer, problem.data)]
        return []
