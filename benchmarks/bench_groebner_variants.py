"""The groebner back-end on variant puzzles: time per rule kind, and the cage local bases.

    PYTHONPATH=. python benchmarks/bench_groebner_variants.py [--puzzles 8] [--seed 1]

Per rule kind, `--puzzles` random 6x6 puzzles (a random grid that keeps the rule, about 60%
of its cells emptied), solved with limit 2: how many finished (solved or no solution), the
median and slowest CPU seconds, one-basis / split counts. Then zero-given 6x6 killers (cages
of 1-5 cells, sums from a random grid) under `cage_cells` = 0, 2, 3, 4: the CPU seconds of
each setting, the point of the default (2). Every returned grid is checked by the rule
checker, and every setting must give the same solutions. CPU time of this process
(`time.process_time`), which the other jobs on a shared machine disturb little.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from tabulate import tabulate

from sudoku_bench.harness.generating.generator import random_full_grid
from sudoku_bench.puzzles.checker import conflicts, is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.solvers import create
from sudoku_bench.solvers.base import Result, Status

SIZE = 6
# A 6x6 grid that keeps the non-consecutive rule; its mirror images (which keep the 2x3
# boxes) and its image under d -> 7 - d keep it too.
NONCONSECUTIVE = "135246462513246351513624351462624135"


def symmetric_image(line: str, rng: random.Random) -> Grid:
    n = SIZE
    rows = [[int(line[r * n + c]) for c in range(n)] for r in range(n)]
    if rng.random() < 0.5:
        rows = rows[::-1]
    if rng.random() < 0.5:
        rows = [row[::-1] for row in rows]
    if rng.random() < 0.5:
        rows = [[n + 1 - v for v in row] for row in rows]
    return Grid.from_rows(rows)


def layout_of(solution: Grid, rng: random.Random) -> tuple[int, ...]:
    """Jigsaw regions the solution keeps: region k takes one cell of each digit."""
    layout = [0] * solution.rules.cell_count
    for digit in solution.rules.digits:
        cells = [c for c in solution.rules.cells if solution[c] == digit]
        rng.shuffle(cells)
        for region, cell in enumerate(cells):
            layout[cell] = region
    return tuple(layout)


def cages_of(solution: Grid, rng: random.Random, most: int) -> tuple[Cage, ...]:
    """A partition into cages of 1-`most` orthogonally connected cells, distinct digits."""
    n, used, cages = SIZE, set[int](), []
    for cell in solution.rules.cells:
        if cell in used:
            continue
        cells = [cell]
        for _ in range(rng.randint(0, most - 1)):
            around = [
                other
                for c in cells
                for other in (c + 1 if c % n + 1 < n else -1, c + n if c + n < n * n else -1)
                if other >= 0 and other not in used and other not in cells
                if all(solution[other] != solution[o] for o in cells)
            ]
            if around:
                cells.append(rng.choice(around))
        used.update(cells)
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return tuple(cages)


def classic(rng: random.Random) -> Grid:
    return random_full_grid(Rules.of_size(SIZE), rng)


def kinds() -> dict[str, Callable[[random.Random], tuple[Rules, Grid]]]:
    """Per rule kind: random rules and a grid that keeps them."""

    def jigsaw(rng: random.Random) -> tuple[Rules, Grid]:
        grid = classic(rng)
        return grid.rules.with_rules(layout=layout_of(grid, rng)), grid

    def extra(rng: random.Random) -> tuple[Rules, Grid]:
        grid = classic(rng)
        cells = list(grid.rules.cells)
        rng.shuffle(cells)
        region: list[int] = []
        for cell in cells:
            if len(region) < 4 and all(grid[cell] != grid[o] for o in region):
                region.append(cell)
        return grid.rules.with_rules(extra_regions=(tuple(sorted(region)),)), grid

    def pairs(flag: str) -> Callable[[random.Random], tuple[Rules, Grid]]:
        def make(rng: random.Random) -> tuple[Rules, Grid]:
            rules = Rules.of_size(SIZE).with_rules(**{flag: True})
            return rules, random_full_grid(rules, rng)

        return make

    def nonconsecutive(rng: random.Random) -> tuple[Rules, Grid]:
        grid = symmetric_image(NONCONSECUTIVE, rng)
        return grid.rules.with_rules(non_consecutive=True), grid

    def parity(rng: random.Random) -> tuple[Rules, Grid]:
        grid = classic(rng)
        marked = rng.sample(list(grid.rules.cells), 12)
        odd = frozenset(c for c in marked if grid[c] % 2)
        return grid.rules.with_rules(odd=odd, even=frozenset(marked) - odd), grid

    def killer(rng: random.Random) -> tuple[Rules, Grid]:
        grid = classic(rng)
        return grid.rules.with_rules(cages=cages_of(grid, rng, 3)), grid

    return {
        "jigsaw": jigsaw,
        "extra region": extra,
        "anti-knight": pairs("anti_knight"),
        "anti-king": pairs("anti_king"),
        "non-consecutive": nonconsecutive,
        "odd/even": parity,
        "killer": killer,
    }


def puzzle_from(rules: Rules, grid: Grid, rng: random.Random, empty: float) -> Grid:
    solution = Grid(rules, grid.values)
    assert not conflicts(solution), rules.name
    emptied = set(rng.sample(list(rules.cells), round(empty * rules.cell_count)))
    return Grid(rules, tuple(0 if c in emptied else v for c, v in enumerate(grid.values)))


def timed(puzzle: Grid, **options: object) -> tuple[Result, float]:
    start = time.process_time()
    result = create("groebner", **options).solve(puzzle, limit=2, timeout=120)
    seconds = time.process_time() - start
    assert all(is_solution(puzzle, grid) for grid in result.solutions), puzzle.rules.name
    return result, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    create("groebner").solve(Grid.from_string("0000302004010000"))  # sympy imported
    rows = []
    for name, make in kinds().items():
        rng = random.Random(f"{args.seed}:{name}")
        times, finished, methods = [], 0, {"basis": 0, "propagate-and-split": 0}
        for _ in range(args.puzzles):
            rules, grid = make(rng)
            result, seconds = timed(puzzle_from(rules, grid, rng, 0.6))
            times.append(seconds)
            finished += result.status in (Status.SOLVED, Status.NO_SOLUTION, Status.LIMIT)
            methods[result.details.get("method", "basis")] += 1
        rows.append(
            [
                name,
                f"{finished}/{len(times)}",
                f"{statistics.median(times):.3f}",
                f"{max(times):.3f}",
                f"{methods['basis']} / {methods['propagate-and-split']}",
            ]
        )
    print(f"groebner, 6x6, 60% empty, limit 2, {args.puzzles} puzzles per kind (CPU s)")
    print(tabulate(rows, ["rule", "finished", "median s", "slowest s", "basis / split"]))

    settings = (0, 2, 3, 4)
    totals = dict.fromkeys(settings, 0.0)
    rng = random.Random(f"{args.seed}:killers")
    disagreements = 0
    for _ in range(args.puzzles):
        grid = classic(rng)
        puzzle = Grid.empty(grid.rules.with_rules(cages=cages_of(grid, rng, 5)))
        verdicts, exact = set(), set()
        for setting in settings:
            result, seconds = timed(puzzle, cage_cells=setting)
            totals[setting] += seconds
            # stopped at the limit, settings may meet different grids first (or may not know
            # that there is no third): the verdicts must agree, and the exact solution sets
            verdicts.add(result.verdict)
            if result.exact:
                exact.add(frozenset(result.solutions))
        disagreements += len(verdicts) > 1 or len(exact) > 1
    print(f"\nzero-given 6x6 killers, limit 2, {args.puzzles} puzzles: CPU s per cage_cells")
    print(tabulate([[s, f"{totals[s]:.2f}"] for s in settings], ["cage_cells", "total s"]))
    print(f"disagreements between the settings: {disagreements}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
