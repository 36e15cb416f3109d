"""Framework overhead of the `cpsat` and `python-constraint` back-ends against the bare libraries.

Each back-end does the job the harness gives it, `solve(puzzle, limit=2)` (one solution and
the proof that there is no second), side by side with the same job written directly against
the library, the way the libraries' own Sudoku examples write it: OR-Tools' `sudoku_sat.py`
(an IntVar per cell, `add_all_different` per row, column and box, givens as `x == v`) and
python-constraint's `sudoku.py` (variables 11..99, `AllDifferentConstraint` per unit, givens
as unary constraints). The bare CP-SAT count uses what the back-end uses: one worker,
`enumerate_all_solutions` and a callback that stops at the second solution. A last row
compares `python-constraint` with its own model searched directly, without the timeout
guard, Grid conversions and timing: the cost of making the library honour a deadline.

Both versions of a job run back to back on each puzzle, alternating which goes first, each
`--repeats` times; a puzzle's time is the least of its repeats. Times are the process's CPU
time (`time.process_time`, all threads), which other processes on a shared machine disturb
far less than the wall clock (both libraries search on the calling thread here: one
CP-SAT worker). The goal: framework time at most 1.10 x bare time.

    PYTHONPATH=. python benchmarks/bench_cpsat_constraint.py [--repeats 3] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any

from constraint import AllDifferentConstraint, BacktrackingSolver, Problem
from ortools.sat.python import cp_model
from tabulate import tabulate

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.csp import CspReduction
from sudoku_bench.solvers import Solver, create

GOAL = 1.10  # framework time / bare time

# ----- the bare libraries, written as their Sudoku examples write them --------------------


class _StopAtTwo(cp_model.CpSolverSolutionCallback):
    """Reads each solution as a list of digits (`read(value)`), stops at the second."""

    def __init__(self, read: Callable[[Callable[[Any], int]], list[int]]) -> None:
        super().__init__()
        self.read = read
        self.solutions: list[list[int]] = []

    def on_solution_callback(self) -> None:
        self.solutions.append(self.read(self.value))
        if len(self.solutions) >= 2:
            self.stop_search()


def bare_cpsat(board: list[list[int]]) -> int:
    """OR-Tools' sudoku_sat.py, counting to two with one worker."""
    n = len(board)
    box = int(n**0.5)
    model = cp_model.CpModel()
    grid = {(i, j): model.new_int_var(1, n, f"grid {i} {j}") for i in range(n) for j in range(n)}
    for i in range(n):
        model.add_all_different(grid[(i, j)] for j in range(n))
        model.add_all_different(grid[(j, i)] for j in range(n))
    for i in range(0, n, box):
        for j in range(0, n, box):
            model.add_all_different(
                grid[(i + di, j + dj)] for di in range(box) for dj in range(box)
            )
    for i in range(n):
        for j in range(n):
            if board[i][j]:
                model.add(grid[(i, j)] == board[i][j])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    callback = _StopAtTwo(lambda value: [value(grid[key]) for key in sorted(grid)])
    solver.solve(model, callback)
    return len(callback.solutions)


def bare_cpsat_onehot(board: list[list[int]]) -> int:
    """The 0/1 model written directly: x[i, j, d], exactly one per cell, row, column, box."""
    n = len(board)
    box = int(n**0.5)
    model = cp_model.CpModel()
    digits = range(1, n + 1)
    x = {(i, j, d): model.new_bool_var("") for i in range(n) for j in range(n) for d in digits}
    for i in range(n):
        for j in range(n):
            model.add_exactly_one(x[(i, j, d)] for d in digits)
            if board[i][j]:
                model.add(x[(i, j, board[i][j])] == 1)
    for d in digits:
        for i in range(n):
            model.add_exactly_one(x[(i, j, d)] for j in range(n))
            model.add_exactly_one(x[(j, i, d)] for j in range(n))
        for i in range(0, n, box):
            for j in range(0, n, box):
                model.add_exactly_one(
                    x[(i + di, j + dj, d)] for di in range(box) for dj in range(box)
                )
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    callback = _StopAtTwo(
        lambda value: [
            next(d for d in digits if value(x[(i, j, d)])) for i in range(n) for j in range(n)
        ]
    )
    solver.solve(model, callback)
    return len(callback.solutions)


def bare_python_constraint(board: list[list[int]]) -> int:
    """python-constraint's sudoku.py (9x9), with BacktrackingSolver, counting to two."""
    problem = Problem(BacktrackingSolver())
    for i in range(1, 10):
        problem.addVariables(range(i * 10 + 1, i * 10 + 10), range(1, 10))
    for i in range(1, 10):
        problem.addConstraint(AllDifferentConstraint(), range(i * 10 + 1, i * 10 + 10))
        problem.addConstraint(AllDifferentConstraint(), range(10 + i, 100 + i, 10))
    for row in (1, 4, 7):
        for col in (1, 4, 7):
            cells = [(row + r) * 10 + col + c for r in range(3) for c in range(3)]
            problem.addConstraint(AllDifferentConstraint(), cells)
    for i in range(1, 10):
        for j in range(1, 10):
            if board[i - 1][j - 1]:
                given = board[i - 1][j - 1]
                problem.addConstraint(lambda var, val=given: var == val, (i * 10 + j,))
    return len(list(islice(problem.getSolutionIter(), 2)))


def unguarded_csp(board: list[list[int]]) -> int:
    """The back-end's own model (`sudoku_bench.reductions.csp`) searched without the timeout guard.

    Framework against this isolates what the guard, the Grid conversions and the timing
    cost on top of the very same search.
    """
    model, _ = CspReduction(BacktrackingSolver()).apply(Grid.from_rows(board))
    return len(list(islice(model.problem.getSolutionIter(), 2)))


# ----- the comparison ---------------------------------------------------------------------


@dataclass
class Job:
    backend: str
    collections: Sequence[str]
    bare: Callable[[list[list[int]]], int]
    against: str = "library example"


JOBS = (
    Job("cpsat", ("top95", "easy50"), bare_cpsat),
    Job("cpsat-onehot", ("top95", "easy50"), bare_cpsat_onehot),
    # the plain model takes minutes on some of top95: the easy puzzles and the seeds' 9x9s
    Job("python-constraint", ("easy50", "seeds"), bare_python_constraint),
    Job("python-constraint", ("easy50", "seeds"), unguarded_csp, "same model, no guard"),
)


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    value = function()
    return time.process_time() - start, value


def measure(job: Job, puzzles: list[Grid], repeats: int) -> dict[str, Any]:
    solver: Solver[Any] = create(job.backend)
    framework_times, bare_times = [], []
    for index, puzzle in enumerate(puzzles):
        board = puzzle.to_rows()
        best_framework = best_bare = float("inf")
        for repeat in range(repeats):
            runs: list[tuple[str, Callable[[], Any]]] = [
                ("framework", partial(solver.solve, puzzle, limit=2, timeout=600)),
                ("bare", partial(job.bare, board)),
            ]
            if (index + repeat) % 2:
                runs.reverse()
            for kind, run in runs:
                seconds, value = timed(run)
                if kind == "framework":
                    assert value.count == 1 and is_solution(puzzle, value.solutions[0])
                    best_framework = min(best_framework, seconds)
                else:
                    assert value == 1, f"the bare {job.backend} found {value} solutions"
                    best_bare = min(best_bare, seconds)
        framework_times.append(best_framework)
        bare_times.append(best_bare)
    ratio = sum(framework_times) / sum(bare_times)
    return {
        "back-end": job.backend,
        "bare": job.against,
        "puzzles": f"{len(puzzles)} ({', '.join(job.collections)})",
        "bare CPU s": round(sum(bare_times), 3),
        "framework CPU s": round(sum(framework_times), 3),
        "median bare ms": round(1000 * statistics.median(bare_times), 2),
        "median framework ms": round(1000 * statistics.median(framework_times), 2),
        "framework / bare": round(ratio, 3),
        "goal met": "yes" if ratio <= GOAL else "NO",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per puzzle (best counts)")
    parser.add_argument("--quick", action="store_true", help="ten puzzles per collection")
    args = parser.parse_args()
    rows = []
    for job in JOBS:
        puzzles = [
            entry.puzzle
            for name in job.collections
            for entry in load(name)[: 10 if args.quick else None]
            if entry.puzzle.size == 9
        ]
        create(job.backend).solve(puzzles[0], limit=2)  # warm up: imports, first-call costs
        job.bare(puzzles[0].to_rows())
        rows.append(measure(job, puzzles, args.repeats))
        print(f"{job.backend} against {job.against}: done", flush=True)
    print()
    print(tabulate(rows, headers="keys"))
    print(f"\ngoal: framework / bare <= {GOAL} (best of {args.repeats} runs per puzzle)")


if __name__ == "__main__":
    main()
