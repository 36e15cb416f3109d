"""How much of a collection the logic back-end finishes without forcing chains and nets, and
what the techniques HoDoKu applies by default (Sue de Coq, Franken fish) add.

    PYTHONPATH=. python benchmarks/bench_logic_coverage.py [--top1465 PATH] [--jobs 2]

Every puzzle of the file (magictour's top1465 from the shared data folder by default) is
solved by the logic back-end with every default technique but the forcing ones (level
extreme), and again without Sue de Coq and Franken fish; the share solved by each, and the
puzzles on which the new techniques made a step, are printed. The figures count puzzles, not
time, so the load does not move them (the load average is printed all the same).
"""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sudoku_bench.puzzles.formats import read_file
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.techniques import TECHNIQUES

TOP1465 = ("../shared/data/top1465.txt", "/work/shared/data/top1465.txt")
NEW = ("sue_de_coq", "franken_x_wing", "franken_swordfish", "franken_jellyfish")
WITHOUT_FORCING = tuple(t.key for t in TECHNIQUES if t.default and t.level != "extreme")
WITHOUT_NEW = tuple(key for key in WITHOUT_FORCING if key not in NEW)


def solve(line: str) -> tuple[bool, bool, tuple[str, ...]]:
    """(solved without forcing, solved without forcing and the new techniques, the new
    techniques the first run used)."""
    puzzle = Grid.from_string(line)
    full = LogicSolver(techniques=WITHOUT_FORCING, explain=False).solve(puzzle)
    older = LogicSolver(techniques=WITHOUT_NEW, explain=False).solve(puzzle)
    used = tuple(key for key in NEW if full.counters.get(key))
    return bool(full.solutions), bool(older.solutions), used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top1465", metavar="PATH", help="one puzzle per line")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    found = [Path(p) for p in ([args.top1465] if args.top1465 else TOP1465)]
    path = next((p for p in found if p.is_file()), None)
    if path is None:
        raise SystemExit("top1465 not found: pass --top1465 PATH")
    lines = [entry.puzzle.to_line() for entry in read_file(path)]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(solve, lines, chunksize=8))
    n = len(results)
    solved = sum(r[0] for r in results)
    older = sum(r[1] for r in results)
    used: dict[str, int] = {key: sum(key in r[2] for r in results) for key in NEW}
    print(f"{path.name}: {n} puzzles")
    print(f"  solved without forcing chains/nets: {solved} ({solved / n:.1%})")
    print(f"  the same without Sue de Coq and Franken fish: {older} ({older / n:.1%})")
    print("  puzzles whose solution used: " + ", ".join(f"{k} {v}" for k, v in used.items()))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
