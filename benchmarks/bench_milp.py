"""The MILP back-ends against each other, against CP-SAT, and against the textbook MILP model.

Every row does the harness's job, `solve(puzzle, limit=2)`: a solution, then the proof that
there is no second (one more solve after a no-good cut). The `bare SCIP` row writes the model
the way PuLP's and most textbooks' Sudoku examples do, straight against OR-Tools' `pywraplp`:
all N³ binaries, the four exactly-one families, each given as `x == 1`. It shows what the
back-end's reduction (givens selecting their rows first, so only candidates become variables)
and its wrapper cost or save.

Times are the process's CPU time (`time.process_time`; every solver runs on the calling thread
with one thread), the least of `--repeats` runs per puzzle.

    PYTHONPATH=. python benchmarks/bench_milp.py [--repeats 1] [--sample 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from ortools.linear_solver import pywraplp
from tabulate import tabulate

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers import create


def bare_scip(puzzle: Grid) -> int:
    """The textbook 0/1 model (N³ binaries, givens as equations), counting to two."""
    rules, n = puzzle.rules, puzzle.rules.size
    solver = pywraplp.Solver.CreateSolver("SCIP")
    x = {(c, d): solver.BoolVar(f"x{c}_{d}") for c in rules.cells for d in rules.digits}
    for c in rules.cells:
        solver.Add(sum(x[c, d] for d in rules.digits) == 1)
    for unit in rules.units:
        for d in rules.digits:
            solver.Add(sum(x[c, d] for c in unit) == 1)
    for c, value in enumerate(puzzle.values):
        if value:
            solver.Add(x[c, value] == 1)
    found = 0
    while found < 2 and solver.Solve() == pywraplp.Solver.OPTIMAL:
        found += 1
        chosen = [
            x[c, d] for c in rules.cells for d in range(1, n + 1) if x[c, d].solution_value() > 0.5
        ]
        solver.Add(sum(chosen) <= len(chosen) - 1)
    return found


def backend(name: str) -> Callable[[Grid], int]:
    solver = create(name)
    return lambda puzzle: solver.solve(puzzle, limit=2).count


def cpu_times(job: Callable[[Grid], int], puzzles: list[Grid], repeats: int) -> list[float]:
    times = []
    for puzzle in puzzles:
        best = float("inf")
        for _ in range(repeats):
            start = time.process_time()
            count = job(puzzle)
            best = min(best, time.process_time() - start)
        if count != 1:
            raise AssertionError(f"expected a unique puzzle, counted {count}: {puzzle.to_line()}")
        times.append(best)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--sample", type=int, default=200, help="puzzles of 17clue (default 200)")
    args = parser.parse_args()
    collections = {
        "top95": [entry.puzzle for entry in load("top95")],
        "17clue": [entry.puzzle for entry in load("17clue")[: args.sample]],
        "gecode16": [entry.puzzle for entry in load("gecode16")[:20]],
    }
    jobs: dict[str, Callable[[Grid], int]] = {
        "milp (SCIP)": backend("milp"),
        "milp-cbc": backend("milp-cbc"),
        "milp-highs": backend("milp-highs"),
        "bare SCIP, textbook model": bare_scip,
        "cpsat": backend("cpsat"),
    }
    rows = []
    for collection, puzzles in collections.items():
        for label, job in jobs.items():
            times = cpu_times(job, puzzles, args.repeats)
            rows.append(
                [
                    collection,
                    label,
                    len(times),
                    f"{statistics.median(times) * 1000:.1f}",
                    f"{max(times) * 1000:.0f}",
                    f"{sum(times):.2f}",
                ]
            )
    headers = ["collection", "solver", "puzzles", "median ms", "max ms", "total s"]
    print(tabulate(rows, headers=headers, disable_numparse=True))


if __name__ == "__main__":
    main()
