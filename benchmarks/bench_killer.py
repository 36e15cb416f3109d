"""Killer cages in exact cover and in CNF: the encodings side by side on generated 9x9 killers.

The puzzles: a full grid shuffled from a pattern (digits, rows in bands, bands, columns in
stacks, stacks; seeded), cut into cages of 1 to 5 orthogonally connected cells with distinct
digits, each with its sum, and no givens (every cell is then found through the sums).

Exact cover (`dlx`, count to 2): every cage with a sum by one option per filling (Knuth's
encoding), every cage by one option per digit set, and the default mixture (fillings for the
cages with at most `MAX_FILLINGS` of them). CNF (count to 2 with CaDiCaL 1.5.3, each model
blocked by its placements): the cage sums by digit-set selectors (`sudoku_bench/reductions/cnf.py`), and,
when the `pindakaas` package is installed (`pip install 'python-sat[pb]'`), by PySAT's
pseudo-Boolean encodings of sum(d · x(c, d)) = total, the rest of the formula the same.

    PYTHONPATH=. python benchmarks/bench_killer.py [--puzzles 40] [--seed 1] [--timeout 30]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from pysat.solvers import Solver as PySatSolver
from tabulate import tabulate

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions.cnf import Clause, CnfReduction, variable
from sudoku_bench.reductions.exact_cover import MAX_FILLINGS, sudoku_matrix
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver

Run = Callable[[Grid, float], tuple[list[Grid], bool, dict[str, Any]]]  # solutions, exhausted


def shuffled_grid(rng: random.Random) -> Grid:
    """A valid 9x9 grid: the pattern grid with its symmetries applied at random."""
    rules = Rules.of_size(9)
    digits = rng.sample(range(1, 10), 9)
    bands, stacks = rng.sample(range(3), 3), rng.sample(range(3), 3)
    rows = [3 * b + r for b in bands for r in rng.sample(range(3), 3)]
    cols = [3 * s + c for s in stacks for c in rng.sample(range(3), 3)]
    pattern = [[(3 * (r % 3) + r // 3 + c) % 9 for c in range(9)] for r in range(9)]
    return Grid(rules, tuple(digits[pattern[r][c]] for r in rows for c in cols))


def killer(rng: random.Random) -> tuple[Grid, Grid]:
    """A 9x9 killer without givens (not always unique), and the grid its cages were cut from."""
    solution = shuffled_grid(rng)
    used: set[int] = set()
    cages = []
    for start in rng.sample(range(81), 81):
        if start in used:
            continue
        cells = [start]
        used.add(start)
        for _ in range(rng.randint(1, 5) - 1):
            around = [
                near
                for cell in cells
                for near in _orthogonal(cell)
                if near not in used and all(solution[near] != solution[o] for o in cells)
            ]
            if not around:
                break
            cells.append(rng.choice(around))
            used.add(cells[-1])
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return Grid.empty(solution.rules.with_rules(cages=tuple(cages))), solution


def _orthogonal(cell: int) -> list[int]:
    row, col = divmod(cell, 9)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    return [(row + r) * 9 + col + c for r, c in steps if 0 <= row + r < 9 and 0 <= col + c < 9]


# ----- the configurations ---------------------------------------------------------------------


def dlx(cages: str, max_fillings: int) -> Run:
    solver = DlxSolver(cages=cages, max_fillings=max_fillings)

    def run(puzzle: Grid, timeout: float) -> tuple[list[Grid], bool, dict[str, Any]]:
        sudoku_matrix.cache_clear()  # each killer is built once, as a new puzzle would be
        result = solver.solve(puzzle, limit=2, timeout=timeout)
        size = sudoku_matrix(puzzle.rules, cages, max_fillings).matrix.size()
        sizes = {"rows": size["rows"], "ones": size["ones"], "nodes": result.nodes}
        return result.solutions, result.status is not Status.TIMEOUT, sizes

    return run


def sat(encoding: str | None) -> Run:
    """Count to 2 on the CNF, its cage sums as selectors (None) or a PySAT PB encoding."""

    def run(puzzle: Grid, timeout: float) -> tuple[list[Grid], bool, dict[str, Any]]:
        reduction = CnfReduction("simplify")
        model, data = reduction.apply(puzzle)
        clauses = list(model.clauses)
        top = model.variables
        if encoding is not None:
            clauses, top = _with_pb_sums(puzzle, model.families, clauses, encoding)
        solutions: list[Grid] = []
        deadline = time.perf_counter() + timeout
        with PySatSolver(name="cadical153", bootstrap_with=clauses) as engine:
            while engine.solve():
                solutions.append(reduction.invert(engine.get_model() or (), data))
                if len(solutions) == 2 or time.perf_counter() > deadline:
                    break
                engine.add_clause(reduction.blocking_clause(data, solutions[-1]))
        others = sum(count for name, count in model.families if name != "cage-sum")
        return (
            solutions,
            True,
            {"clauses": len(clauses), "sum_clauses": len(clauses) - others, "variables": top},
        )

    return run


def _with_pb_sums(
    puzzle: Grid, families: tuple[tuple[str, int], ...], clauses: list[Clause], encoding: str
) -> tuple[list[Clause], int]:
    """The formula with its selector clauses replaced by a PB encoding of each cage's sum."""
    from pysat.pb import EncType, PBEnc

    start = 0
    for name, count in families:
        if name == "cage-sum":
            clauses = clauses[:start] + clauses[start + count :]
            break
        start += count
    rules = puzzle.rules
    top = rules.size**3
    for cage in rules.cages:
        assert cage.total is not None
        lits = [variable(rules, c, d) for c in cage.cells for d in rules.digits]
        weights = [d for _ in cage.cells for d in rules.digits]
        pb = PBEnc.equals(
            lits=lits,
            weights=weights,
            bound=cage.total,
            top_id=top,
            encoding=getattr(EncType, encoding),
        )
        clauses += [tuple(clause) for clause in pb.clauses]
        top = max(top, pb.nv)
    return clauses, top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    puzzles = [killer(rng) for _ in range(args.puzzles)]
    runs: dict[str, Run] = {
        f"dlx, fillings up to {MAX_FILLINGS} (default)": dlx("fillings", MAX_FILLINGS),
        "dlx, every cage by fillings": dlx("fillings", 10**9),
        "dlx, every cage by digit sets": dlx("combinations", MAX_FILLINGS),
        "sat, digit-set selectors (default)": sat(None),
    }
    if importlib.util.find_spec("pindakaas") is not None:
        for encoding in ("best", "seqcounter", "sortnetwrk", "bdd"):
            runs[f"sat, PySAT PB {encoding}"] = sat(encoding)
    else:
        print("(pindakaas is not installed: the PySAT pseudo-Boolean rows are skipped)")
    table = []
    counts: dict[int, int] = {}  # puzzle -> how many solutions (at most 2), once known
    for label, run in runs.items():
        times, sizes = [], []
        within = 0
        for number, (puzzle, _) in enumerate(puzzles):
            start = time.process_time()
            found, finished, size = run(puzzle, args.timeout)
            elapsed = time.process_time() - start
            if not all(is_solution(puzzle, grid) for grid in found):
                raise SystemExit(f"{label}: a wrong grid for puzzle {number}")
            if finished and counts.setdefault(number, len(found)) != len(found):
                raise SystemExit(
                    f"{label}: {len(found)} solutions for puzzle {number}, others {counts[number]}"
                )
            times.append(elapsed)
            sizes.append(size)
            within += finished and elapsed <= 10
        medians = {key: statistics.median(s[key] for s in sizes) for key in sizes[0]}
        table.append(
            [
                label,
                f"{within}/{len(puzzles)}",
                f"{statistics.median(times):.3f}",
                f"{max(times):.2f}",
                f"{sum(times):.1f}",
                ", ".join(f"{key} {value:,.0f}" for key, value in medians.items()),
            ]
        )
    headers = ["configuration", "within 10 s", "median s", "max s", "total s", "medians"]
    print(tabulate(table, headers, disable_numparse=True))
    print("CPU seconds per puzzle, counting to 2 (model building included); no givens")


if __name__ == "__main__":
    main()
