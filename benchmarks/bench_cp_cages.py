"""Killer cages in CP-SAT: a linear sum, or a table of the cage's allowed fillings?

The question of issue 11 for `cpsat`: does writing each cage as `add_allowed_assignments`
of its fillings (every ordering of distinct digits that reaches the total) help, against
`add_all_different` plus the linear `sum == total`? Both run on the same killer puzzles, the
job the harness gives a back-end: `solve(puzzle, limit=2)` (a solution and the proof that
there is no second). `cpsat-onehot` (0/1 literals, the sum as `sum(d * x[c,d])`) and `milp`
(the same sum over SCIP's 0/1 placements) run beside them for scale.

The puzzles: OR-Tools' own example (the bundled `ortools-killer`) and `--count` killers made
here from a seed: a random full 9x9 grid (the generator's `random_full_grid`), cut into
orthogonally connected cages of 1 to `--max-cage` cells with their sums, no givens, redrawn
until `cpsat` proves the puzzle unique. A puzzle's time is the least of `--repeats` runs of
each configuration, run back to back; times are CPU time (`time.process_time`; one CP-SAT
worker, so the search runs on the calling thread). `median nodes` is the solver's own count
(CP-SAT's branches, SCIP's branch-and-bound nodes).

    PYTHONPATH=. python benchmarks/bench_cp_cages.py [--count 20] [--repeats 3] [--seed 2026]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from tabulate import tabulate

from sudoku_bench.harness.generating.generator import random_full_grid
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.solvers import Solver, Status, create

CONFIGURATIONS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("cpsat (sum)", "cpsat", {"cages": "sum"}),
    ("cpsat (table)", "cpsat", {"cages": "table"}),
    ("cpsat-onehot (sum)", "cpsat-onehot", {}),
    ("milp (SCIP)", "milp", {}),
)


def random_cages(solution: Grid, rng: random.Random, max_cage: int) -> tuple[Cage, ...]:
    """A partition of the grid into connected cages of 1..max_cage cells whose digits in
    `solution` differ, each with its sum."""
    rules = solution.rules
    free = set(rules.cells)
    cages = []
    while free:
        start = min(free)  # row by row, so the cages tile without stranding cells
        cells = [start]
        free.discard(start)
        for _ in range(rng.randint(1, max_cage) - 1):
            around = sorted(
                n
                for cell in cells
                for n in _orthogonal(rules, cell)
                if n in free and all(solution[n] != solution[c] for c in cells)
            )
            if not around:
                break
            cell = rng.choice(around)
            cells.append(cell)
            free.discard(cell)
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return tuple(cages)


def _orthogonal(rules: Rules, cell: int) -> list[int]:
    row, col = divmod(cell, rules.size)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    return [
        rules.cell(row + dr, col + dc)
        for dr, dc in steps
        if 0 <= row + dr < rules.size and 0 <= col + dc < rules.size
    ]


def killer_puzzles(count: int, seed: int, max_cage: int) -> list[tuple[str, Grid]]:
    rng = random.Random(seed)
    counter = create("cpsat")
    puzzles = [(entry.id, entry.puzzle) for entry in load("ortools-killer")]
    while len(puzzles) < count + 1:
        solution = random_full_grid(Rules.of_size(9), rng)
        rules = solution.rules.with_rules(cages=random_cages(solution, rng, max_cage))
        puzzle = Grid.empty(rules)
        if counter.solve(puzzle, limit=2).verdict == "unique":
            puzzles.append((f"seed {seed} #{len(puzzles)}", puzzle))
    return puzzles


def least_time(solver: Solver, puzzle: Grid, repeats: int) -> tuple[float, int]:
    """The least CPU time of `repeats` runs, and the search nodes of the last."""
    best, nodes = float("inf"), 0
    for _ in range(repeats):
        start = time.process_time()
        result = solver.solve(puzzle, limit=2)
        best = min(best, time.process_time() - start)
        if result.status is not Status.SOLVED or not is_solution(puzzle, result.solutions[0]):
            raise SystemExit(f"{solver.name}: {result.status} {result.message}")
        nodes = result.nodes
    return best, nodes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="generated killers (default 20)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-cage", type=int, default=5, help="largest cage (default 5)")
    args = parser.parse_args(argv)
    puzzles = killer_puzzles(args.count, args.seed, args.max_cage)
    times: dict[str, list[float]] = {label: [] for label, _, _ in CONFIGURATIONS}
    nodes: dict[str, list[int]] = {label: [] for label, _, _ in CONFIGURATIONS}
    solvers = {label: create(name, **options) for label, name, options in CONFIGURATIONS}
    for _, puzzle in puzzles:
        for label, solver in solvers.items():
            seconds, searched = least_time(solver, puzzle, args.repeats)
            times[label].append(seconds)
            nodes[label].append(searched)
    reference = times[CONFIGURATIONS[0][0]]
    rows = [
        [
            label,
            f"{statistics.median(values) * 1000:.1f}",
            f"{max(values) * 1000:.1f}",
            f"{sum(values) * 1000:.0f}",
            f"{statistics.median(v / r for v, r in zip(values, reference, strict=True)):.2f}",
            f"{statistics.median(nodes[label]):.0f}",
        ]
        for label, values in times.items()
    ]
    print(
        f"{len(puzzles)} killer 9x9 (ortools-killer + {args.count} generated, seed {args.seed},"
        f" cages of 1-{args.max_cage} cells, no givens), solve(limit=2), least of"
        f" {args.repeats}, CPU ms"
    )
    headers = [
        "configuration",
        "median ms",
        "max ms",
        "total ms",
        "median ratio to sum",
        "median nodes",
    ]
    print(tabulate(rows, headers=headers, disable_numparse=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
