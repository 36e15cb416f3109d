"""The same algorithms pure-Python and compiled, beside native references, in one process.

Engines: `propagating` and `dlx` (pure Python), `propagating-jit` and `dlx-jit` (the same
searches compiled with numba: same counters), `exact-cover-c` (the C `exact-cover`
package) and `xcover` (numba, Algorithm C) on the same exact-cover matrix. Each engine
solves every puzzle through `Solver.solve` (building its model included), counting to 1
and to 2; the figure is puzzles per CPU-second (`time.process_time` around the whole
loop). Every grid returned is checked by the rule checker and every engine's verdicts
must agree. Compilation and warm-up happen when each solver is constructed, before timing.

tdoku's published figures (t-dillon/tdoku README, GCE c2-standard-4, clang-8 -O3 PGO, all
~49,000 puzzles of each set, counting to 2): 17-clue 316,959 puzzles/s; forum-hardest
(SE 11+) 19,717 puzzles/s.

With `--repeat N` each engine goes through each set N times and the best pass counts (on a
shared machine the other users' load only ever slows a pass down).

    PYTHONPATH=. python benchmarks/bench_engines.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import time
from itertools import islice

from tabulate import tabulate

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Solver, Status
from sudoku_bench.solvers.registry import get

ENGINES = ("propagating", "dlx", "propagating-jit", "dlx-jit", "exact-cover-c", "xcover")
NATIVE = ("exact-cover-c", "xcover")
SETS = (("top95", 95), ("forum-hardest", 500), ("17clue", 1000), ("gecode16", 100))
TDOKU = {"17clue": 316_959, "forum-hardest": 19_717}  # published, counting to 2
TIMEOUT = 60.0


def run(solver: Solver[object], puzzles: list[Grid], limit: int) -> tuple[float, list[str]]:
    """Puzzles per CPU-second, and each puzzle's answer (grids checked; '' for a timeout)."""
    verdicts = []
    start = time.process_time()
    results = [solver.solve(puzzle, limit=limit, timeout=TIMEOUT) for puzzle in puzzles]
    spent = time.process_time() - start
    for puzzle, result in zip(puzzles, results, strict=True):
        assert all(is_solution(puzzle, grid) for grid in result.solutions), solver.name
        if result.status is Status.TIMEOUT:
            verdicts.append("")
        elif limit == 2:
            verdicts.append(result.verdict.value)
        else:
            verdicts.append("found" if result.count else result.status.value)
    return len(puzzles) / spent, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each set")
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="N", help="passes per engine; the best counts"
    )
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    solvers = {}
    for name in ENGINES:
        backend = get(name)
        if backend.available():
            solvers[name] = backend.create()
        else:
            print(f"skipped: {backend.not_installed()}")
    rows = []
    ratios = []
    for collection, count in SETS:
        if args.quick:
            count = max(count // 10, 5)
        puzzles = [entry.puzzle for entry in islice(load(collection), count)]
        for limit in (1, 2):
            speed: dict[str, float] = {}
            answers: dict[str, list[str]] = {}
            for name, solver in solvers.items():
                speed[name], answers[name] = run(solver, puzzles, limit)
                for _ in range(args.repeat - 1):
                    speed[name] = max(speed[name], run(solver, puzzles, limit)[0])
            reference = answers["propagating"]
            for name, verdicts in answers.items():
                # a timeout is no answer; every answer must match
                for mine, theirs in zip(verdicts, reference, strict=True):
                    assert mine == theirs or "" in (mine, theirs), (name, collection)
            tdoku = f"{TDOKU[collection]:,}" if limit == 2 and collection in TDOKU else ""
            rows.append(
                [f"{collection} ({len(puzzles)})", limit]
                + [f"{speed.get(name, 0):,.0f}" for name in ENGINES]
                + [tdoku]
            )
            jit = speed.get("propagating-jit", 0.0)
            natives = [speed[name] for name in NATIVE if name in speed]
            ratios.append(
                [
                    f"{collection} ({len(puzzles)})",
                    limit,
                    f"{jit / speed['propagating']:.1f}x" if jit else "",
                    f"{jit / max(natives):.1f}x" if jit and natives else "",
                    f"{speed['dlx-jit'] / speed['exact-cover-c']:.1f}x"
                    if {"dlx-jit", "exact-cover-c"} <= set(speed)
                    else "",
                    f"{speed['dlx-jit'] / speed['dlx']:.1f}x" if "dlx-jit" in speed else "",
                ]
            )
    best = f", best of {args.repeat} passes" if args.repeat > 1 else ""
    print(f"\npuzzles per CPU-second (Solver.solve, model building included{best})")
    print(tabulate(rows, headers=["set", "limit", *ENGINES, "tdoku (published)"]))
    print()
    print(
        tabulate(
            ratios,
            headers=[
                "set",
                "limit",
                "propagating-jit / propagating",
                "propagating-jit / best native",
                "dlx-jit / exact-cover-c",
                "dlx-jit / dlx",
            ],
        )
    )
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
