"""The `milp` back-ends: a 0/1 integer program (`sudoku_bench.reductions.milp`) solved by SCIP, CBC or HiGHS.

Every rule kind is a linear row over the placement variables (`sudoku_bench.reductions.milp` lists them).
`model="reduced"` (the default) gives variables only to the candidates the givens leave;
`model="textbook"` (the `milp-textbook` configuration) is the program of the textbooks: all N³
binaries, every rule row, each given an equation x = 1, left to the solver's presolve.

The three are the mixed-integer solvers shipped in the `ortools` wheel, driven through its
`pywraplp` wrapper, so this method needs no dependency beyond the `ortools` extra. A MILP solver
answers one feasibility question per call, so counting re-solves: after each solution a no-good
cut excludes it, and INFEASIBLE proves there is no other (`sudoku_bench.solvers.counting.count_by_exclusion`,
the loop `cpsat` with several workers and `sat` share). Each call gets the time left before the
deadline as its own time limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.linear_solver import pywraplp

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.milp import MilpData, MilpReduction
from sudoku_bench.solvers.base import Counters, Deadline, SearchOutcome, SearchTimeout, Solver
from sudoku_bench.solvers.counting import count_by_exclusion

_SOLVED = (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE)
_FAILURES = (pywraplp.Solver.ABNORMAL, pywraplp.Solver.MODEL_INVALID, pywraplp.Solver.UNBOUNDED)
_STATUS_NAMES = {
    pywraplp.Solver.OPTIMAL: "OPTIMAL",
    pywraplp.Solver.FEASIBLE: "FEASIBLE",
    pywraplp.Solver.INFEASIBLE: "INFEASIBLE",
    pywraplp.Solver.UNBOUNDED: "UNBOUNDED",
    pywraplp.Solver.ABNORMAL: "ABNORMAL",
    pywraplp.Solver.MODEL_INVALID: "MODEL_INVALID",
    pywraplp.Solver.NOT_SOLVED: "NOT_SOLVED",
}


@dataclass
class MilpProblem:
    solver: pywraplp.Solver
    data: MilpData


class MilpSolver(Solver[MilpProblem]):
    """A MILP solver on the 0/1 placement program; `backend` is SCIP, CBC or HIGHS."""

    name = "milp"
    encoders = MilpReduction.encoders  # the program's table (sudoku_bench/reductions/milp.py)

    def __init__(self, backend: str = "SCIP", threads: int = 1, model: str = "reduced") -> None:
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        self.reduction = MilpReduction(backend, model)
        self.threads = threads  # one by default, like `cpsat`: a fair single-core comparison

    def _build(self, puzzle: Grid, deadline: Deadline) -> MilpProblem:
        solver, data = self.reduction.apply(puzzle)
        solver.SetNumThreads(self.threads)
        return MilpProblem(solver, data)

    def _search(
        self, problem: MilpProblem, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        solver, data = problem.solver, problem.data
        statuses: list[str] = []
        counters: Counters = {"nodes": 0, "iterations": 0, "solves": 0}
        size = {"variables": solver.NumVariables(), "constraints": solver.NumConstraints()}

        def solve() -> Grid | None:
            remaining = deadline.remaining()
            if remaining is not None:
                solver.SetTimeLimit(max(1, int(remaining * 1000)))
            status = solver.Solve()
            statuses.append(_STATUS_NAMES.get(status, str(status)))
            counters["nodes"] += solver.nodes()
            counters["iterations"] += solver.iterations()
            counters["solves"] += 1
            if status == pywraplp.Solver.INFEASIBLE:
                return None
            if status not in _SOLVED:
                # At its time limit SCIP and CBC say NOT_SOLVED (CBC a few ms before our own
                # clock runs out), HiGHS a code pywraplp does not list; the rest are failures.
                if remaining is None or status in _FAILURES:
                    raise RuntimeError(f"{self.backend} ended with status {statuses[-1]}")
                raise SearchTimeout(f"{self.backend} stopped at its time limit")
            return self.reduction.invert([v.solution_value() for v in data.variables], data)

        def exclude(solution: Grid) -> None:
            self.reduction.exclude(solver, data, solution)

        outcome = count_by_exclusion(puzzle, limit, deadline, solve, exclude)
        outcome.counters = {**counters, **size}  # the program's size before any no-good cut
        outcome.details["statuses"] = statuses
        outcome.details["solver"] = self.backend
        outcome.details["model"] = self.reduction.model
        outcome.details.update(size)
        return outcome

    @property
    def backend(self) -> str:
        return self.reduction.backend
