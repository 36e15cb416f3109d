"""The rule checker's speed: `solution_problems` (what `solve` and `count` ask of every grid)
and `conflicts` (the words), per grid, on classic and variant collections.

With `--baseline PATH` (another checkout of sudoku-bench, e.g. `/work/main` or a
`git worktree add` of an older commit) the same measurement runs in a subprocess on that
tree too, and the table gives this tree's time over the baseline's: a ratio in one run, on
one machine at one load.

    PYTHONPATH=. python benchmarks/bench_checker.py [--baseline ../main] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# Collections with solutions; "classic" is the Sudoku-X and anti-knight solutions read as
# classic grids (the fast path), the others take the constraints' own checks too.
COLLECTIONS = ("classic", "sudoku-x", "jigsaw", "anti-knight", "odd-even", "killer")


def measure(repeat: int) -> dict[str, dict[str, float]]:
    """Per collection, the best-of-`repeat` microseconds per grid of each check."""
    from sudoku_bench.puzzles.checker import conflicts, solution_problems
    from sudoku_bench.puzzles.grid import Grid
    from sudoku_bench.puzzles.rules import Rules

    found: dict[str, dict[str, float]] = {}
    for name in COLLECTIONS:
        pairs = _pairs(name) if name != "classic" else []
        if name == "classic":  # Sudoku-X solutions are classic solutions too
            classic = Rules.of_size(9)
            pairs = [
                (Grid(classic, p.values), Grid(classic, s.values))
                for p, s in (pair for n in ("sudoku-x", "anti-knight") for pair in _pairs(n))
            ]
        if not pairs:
            continue
        broken = []
        for _, solution in pairs:
            values = list(solution.values)
            values[0], values[1] = values[1], values[0]  # a row keeps its digits; two others break
            broken.append(Grid(solution.rules, tuple(values)))
        timings = {}
        for label, work in (
            ("solution_problems(solution)", lambda ps=pairs: [solution_problems(*p) for p in ps]),
            ("conflicts(broken grid)", lambda gs=broken: [conflicts(grid) for grid in gs]),
        ):
            best = min(_timed(work) for _ in range(repeat))
            timings[label] = best / len(pairs) * 1e6
        found[name] = timings
    return found


def _pairs(name: str) -> list[tuple[Any, Any]]:
    from sudoku_bench.puzzles.collections import load

    return [(e.puzzle, e.solution) for e in load(name) if e.solution is not None]


def _timed(work: object) -> float:
    start = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the subprocess
    args = parser.parse_args()
    here = measure(args.repeat)
    if args.json:
        print(json.dumps(here))
        return
    base: dict[str, dict[str, float]] = {}
    if args.baseline is not None:
        output = subprocess.run(
            [sys.executable, __file__, "--json", "--repeat", str(args.repeat)],
            capture_output=True,
            text=True,
            check=True,
            cwd=args.baseline,
            env={**os.environ, "PYTHONPATH": str(args.baseline.resolve())},
        ).stdout
        base = json.loads(output)
    from tabulate import tabulate

    rows = []
    for name, timings in here.items():
        for label, micros in timings.items():
            row = [name, label, f"{micros:.2f}"]
            if base:
                then = base.get(name, {}).get(label)
                row += ["" if then is None else f"{then:.2f}"]
                row += ["" if then is None else f"{micros / then:.2f}"]
            rows.append(row)
    headers = ["collection", "check", "µs/grid"]
    headers += ["baseline µs/grid", "this / baseline"] if base else []
    print(tabulate(rows, headers=headers))


if __name__ == "__main__":
    main()
