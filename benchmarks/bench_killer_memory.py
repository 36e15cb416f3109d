"""Peak memory of one process solving many distinct killer puzzles: it must stay flat.

An engine keeps tables per rules (units, peers, cages with their digit sets); a killer
puzzle's cages are its rules, so a cache keyed by the rules without a bound grows with every
distinct puzzle a worker meets. This script solves `--puzzles` distinct 9x9 killers in one
process, one after the other, and prints the peak resident set size (`ru_maxrss`) and the
current one (`VmRSS`) every `--every` puzzles.

The puzzles: the bundled killer collection's solutions, each under a random isomorph of
classic Sudoku (rows within bands, bands, columns within stacks, stacks, transposition,
digit relabelling), cut into random cages of 2 to 5 orthogonally connected cells with
distinct digits (each with its sum), with `--givens` cells of the grid given. Seeded, so two
runs (before and after a change) solve the same puzzles; every puzzle is distinct (checked
by the canonical JSON's hash).

    PYTHONPATH=. python benchmarks/bench_killer_memory.py [-s propagating] [--puzzles 10000]
    PYTHONPATH=/path/to/older/checkout python benchmarks/bench_killer_memory.py   # before

Every grid an engine returns is checked by the rule checker; the checker's own per-rules
caches (`functools` caches in `sudoku_bench.puzzles.checker`) are cleared after each check, so that the
figures are the engine's (`--keep-checker-caches` keeps them, to measure the checker).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tabulate import tabulate

from sudoku_bench.puzzles import checker
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.puzzles.transform import random_isomorph
from sudoku_bench.solvers.registry import create

CAGE_SIZES = (2, 5)  # cells per random cage, smallest and largest


def rss_mb() -> tuple[float, float]:
    """(peak, current) resident set size of this process, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    current = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            current = int(line.split()[1]) / 1024
    return peak, current


def random_cages(rng: random.Random, rules: Rules, values: tuple[int, ...]) -> tuple[Cage, ...]:
    """The grid cut into cages of orthogonally connected cells with distinct digits."""
    n = rules.size
    free = set(rules.cells)
    order = list(rules.cells)
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        free.discard(start)
        cells, digits = [start], {values[start]}
        wanted = rng.randint(*CAGE_SIZES)
        while len(cells) < wanted:
            frontier = sorted(
                {
                    r * n + c
                    for cell in cells
                    for r, c in (
                        (cell // n - 1, cell % n),
                        (cell // n + 1, cell % n),
                        (cell // n, cell % n - 1),
                        (cell // n, cell % n + 1),
                    )
                    if 0 <= r < n and 0 <= c < n and r * n + c in free
                }
            )
            frontier = [cell for cell in frontier if values[cell] not in digits]
            if not frontier:
                break
            chosen = rng.choice(frontier)
            free.discard(chosen)
            cells.append(chosen)
            digits.add(values[chosen])
        cages.append(Cage(tuple(sorted(cells)), sum(values[cell] for cell in cells)))
    return tuple(cages)


def killer_puzzles(count: int, givens: int, seed: int) -> Iterator[Grid]:
    """`count` distinct killer puzzles (see the module's note), made one at a time."""
    rng = random.Random(seed)
    solutions = [entry.solution for entry in load("killer") if entry.solution is not None]
    classic = Rules.of_size(9)
    seen: set[bytes] = set()  # hashes of the rules made so far (8 bytes each)
    made = 0
    while made < count:
        base = rng.choice(solutions)
        grid = random_isomorph(classic, rng.randrange(2**32)).apply(Grid(classic, base.values))
        rules = classic.with_rules(cages=random_cages(rng, classic, grid.values))
        key = hashlib.blake2b(rules.canonical_json().encode(), digest_size=8).digest()
        if key in seen:
            continue
        seen.add(key)
        shown = set(rng.sample(range(rules.cell_count), givens))
        yield Grid(rules, tuple(v if c in shown else 0 for c, v in enumerate(grid.values)))
        made += 1


def clear_checker_caches() -> None:
    """Empty every functools cache of the rule checker's module."""
    for value in vars(checker).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-s", "--solver", default="propagating")
    parser.add_argument("--puzzles", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000, help="puzzles between samples")
    parser.add_argument("--givens", type=int, default=20, help="given cells per puzzle")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-checker-caches", action="store_true")
    args = parser.parse_args()
    solver = create(args.solver)
    rows = [["0", *(f"{mb:.1f}" for mb in rss_mb()), "0.0"]]
    start = time.perf_counter()
    wrong = 0
    for number, puzzle in enumerate(killer_puzzles(args.puzzles, args.givens, args.seed), 1):
        result = solver.solve(puzzle, limit=1)
        if not result.solutions or not is_solution(puzzle, result.solutions[0]):
            wrong += 1
        if not args.keep_checker_caches:
            clear_checker_caches()
        if number % args.every == 0:
            seconds = time.perf_counter() - start
            rows.append([f"{number:,}", *(f"{mb:.1f}" for mb in rss_mb()), f"{seconds:.1f}"])
            print(f"{number:,} puzzles, peak RSS {rows[-1][1]} MB", file=sys.stderr, flush=True)
    print(f"{args.solver}: {args.puzzles:,} distinct killer puzzles in one process")
    print(tabulate(rows, headers=["puzzles", "peak RSS MB", "RSS MB", "seconds"]))
    if wrong:
        print(f"{wrong} puzzles not solved or solved wrongly")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
