"""The `cpsat` back-end: Google OR-Tools CP-SAT on the `sudoku_bench.reductions.cp_model` model.

Counting is where a naive wrapper goes wrong. With `enumerate_all_solutions` and two or
more workers, CP-SAT 9.15 misses solutions while still reporting OPTIMAL (the empty 4x4
grid gave 168-245 of its 288). So a count (`limit >= 2`) is made one of two safe ways:

- `enumerate`: one search with `enumerate_all_solutions`, always on ONE worker whatever
  `num_workers` says; a solution callback stops it at `limit`. Used when `num_workers == 1`.
- `resolve`: solve, add "at least one empty cell differs" from each solution found, solve
  again; INFEASIBLE proves there is no other (`sudoku_bench.solvers.counting.count_by_exclusion`, the loop
  `sat` and `milp` share). Each solve may use every worker, so this is the safe way to count
  in parallel. Used when `num_workers > 1`.

`counting="auto"` (the default) picks as above; `limit=1` is a single solve either way.
The time limit is the solve's `timeout` (CP-SAT's `max_time_in_seconds`), capped by the
`max_time_in_seconds` option if set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.cp_model import CpData, CpModelReduction
from sudoku_bench.solvers.base import Counters, Deadline, SearchOutcome, SearchTimeout, Solver
from sudoku_bench.solvers.counting import count_by_exclusion

COUNTING = ("auto", "enumerate", "resolve")


@dataclass
class CpProblem:
    model: cp_model.CpModel
    data: CpData


@dataclass
class _Tally:
    """The solver's own counters, summed over the solves of one search."""

    branches: int = 0
    conflicts: int = 0
    wall_time: float = 0.0
    solves: int = 0
    statuses: list[str] = field(default_factory=list)

    def add(self, solver: cp_model.CpSolver, status: Any) -> None:
        self.branches += solver.num_branches
        self.conflicts += solver.num_conflicts
        self.wall_time += solver.wall_time
        self.solves += 1
        self.statuses.append(solver.status_name(status))

    def counters(self) -> Counters:
        return {
            "nodes": self.branches,  # CP-SAT's branches are its search-tree decisions
            "branches": self.branches,
            "conflicts": self.conflicts,
            "wall_time_s": round(self.wall_time, 6),
            "solves": self.solves,
        }


class _Collector(cp_model.CpSolverSolutionCallback):
    """Maps each solution back to a grid; stops the search at `limit` or at the deadline."""

    def __init__(
        self, reduction: CpModelReduction, data: CpData, limit: int, deadline: Deadline
    ) -> None:
        super().__init__()
        self.reduction, self.data, self.limit, self.deadline = reduction, data, limit, deadline
        self.solutions: list[Grid] = []
        self.stopped_at_limit = False
        self.stopped_at_deadline = False

    def on_solution_callback(self) -> None:
        self.solutions.append(self.reduction.invert(self.value, self.data))
        if len(self.solutions) >= self.limit:
            self.stopped_at_limit = True
            self.stop_search()
        elif self.deadline.expired():
            self.stopped_at_deadline = True
            self.stop_search()


class CpSatSolver(Solver[CpProblem]):
    """OR-Tools CP-SAT; `encoding` is `integer` (AllDifferent) or `onehot` (exactly-one);
    `cages` is `sum` (linear) or `table` (allowed fillings; integer encoding only)."""

    name = "cpsat"
    encoders = CpModelReduction.encoders  # the model's table: a solver over a reduction

    def __init__(
        self,
        encoding: str = "integer",
        num_workers: int = 1,
        seed: int = 0,
        counting: str = "auto",
        max_time_in_seconds: float | None = None,
        cages: str = "sum",
    ) -> None:
        if num_workers < 1:
            raise ValueError(f"num_workers must be at least 1, got {num_workers}")
        if counting not in COUNTING:
            raise ValueError(f"unknown counting {counting!r}; choose one of {COUNTING}")
        self.reduction = CpModelReduction(encoding, cages)
        self.num_workers = num_workers
        self.seed = seed
        self.counting = counting
        self.max_time_in_seconds = max_time_in_seconds

    def counting_method(self, limit: int) -> str:
        """`single` for limit 1, else `enumerate` or `resolve` as the module docstring says."""
        if limit == 1:
            return "single"
        if self.counting == "auto":
            return "enumerate" if self.num_workers == 1 else "resolve"
        return self.counting

    def _build(self, puzzle: Grid, deadline: Deadline) -> CpProblem:
        model, data = self.reduction.apply(puzzle)
        return CpProblem(model, data)

    def _search(
        self, problem: CpProblem, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        method = self.counting_method(limit)
        tally = _Tally()
        if method == "resolve":
            outcome = self._resolve(problem, puzzle, limit, deadline, tally)
        else:
            outcome = self._enumerate(problem, limit, deadline, tally, method == "enumerate")
        outcome.counters = tally.counters()
        outcome.details["counting"] = method
        outcome.details["statuses"] = tally.statuses
        return outcome

    def _solver(self, deadline: Deadline, workers: int) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.random_seed = self.seed
        limits = [t for t in (deadline.remaining(), self.max_time_in_seconds) if t is not None]
        if limits:
            solver.parameters.max_time_in_seconds = min(limits)
        return solver

    def _enumerate(
        self,
        problem: CpProblem,
        limit: int,
        deadline: Deadline,
        tally: _Tally,
        enumerate_all: bool,
    ) -> SearchOutcome:
        """One solve; with `enumerate_all`, every solution up to `limit` (on one worker)."""
        solver = self._solver(deadline, 1 if enumerate_all else self.num_workers)
        solver.parameters.enumerate_all_solutions = enumerate_all
        collector = _Collector(self.reduction, problem.data, limit, deadline)
        status = solver.solve(problem.model, collector)
        tally.add(solver, status)
        _check(solver, status)
        solutions = collector.solutions
        if not enumerate_all and not solutions and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            solutions = [self.reduction.invert(solver.value, problem.data)]  # no callback made
        if status == cp_model.INFEASIBLE:
            return SearchOutcome([], exhausted=True)
        stopped = collector.stopped_at_limit or collector.stopped_at_deadline
        if status == cp_model.OPTIMAL and enumerate_all and not stopped:
            return SearchOutcome(solutions, exhausted=True)  # the enumeration ran to the end
        if collector.stopped_at_limit or (solutions and not enumerate_all):
            return SearchOutcome(solutions, exhausted=False)
        return _timed_out(solutions, solver, status)

    def _resolve(
        self, problem: CpProblem, puzzle: Grid, limit: int, deadline: Deadline, tally: _Tally
    ) -> SearchOutcome:
        """Solve, exclude the solution, solve again: sound with any number of workers."""

        def solve() -> Grid | None:
            solver = self._solver(deadline, self.num_workers)
            status = solver.solve(problem.model)
            tally.add(solver, status)
            _check(solver, status)
            if status == cp_model.INFEASIBLE:
                return None
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                raise SearchTimeout(_stopped_message(solver, status))
            return self.reduction.invert(solver.value, problem.data)

        def exclude(solution: Grid) -> None:
            self.reduction.exclude(problem.model, problem.data, solution)

        return count_by_exclusion(puzzle, limit, deadline, solve, exclude)


def _check(solver: cp_model.CpSolver, status: Any) -> None:
    if status == cp_model.MODEL_INVALID:  # a bug in the reduction, never the puzzle's fault
        raise RuntimeError(f"CP-SAT rejected the model: {solver.solution_info()}")


def _stopped_message(solver: cp_model.CpSolver, status: Any) -> str:
    return f"CP-SAT stopped at its time limit ({solver.status_name(status)})"


def _timed_out(solutions: list[Grid], solver: cp_model.CpSolver, status: Any) -> SearchOutcome:
    return SearchOutcome(
        solutions, exhausted=False, timed_out=True, message=_stopped_message(solver, status)
    )
