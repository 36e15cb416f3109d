"""The `dlx` back-end against the well-known dict-of-sets Algorithm X, side by side.

The reference is Ali Assaf's formulation of Knuth's Algorithm X ("Algorithm X in 30 lines",
2009), written out below: columns are a dict of sets of rows, rows a dict of column
lists, and `select`/`deselect` move sets in and out of the dict. Its labels are
(family, (a, b)) tuples as in the original, with integer family codes in place of the
strings "rc", "rn", "cn", "bn" so that string hashing does not make runs differ.

Every solver counts to 2 on every puzzle (so each one proves uniqueness), the answers are
checked against each other and by the independent rule checker, and the times include
building the model from the puzzle. When the PyPI package `dlx` (Sebastian Raaphorst's
pure-Python Dancing Links) is installed it gets a column too; otherwise it is skipped.

    PYTHONPATH=. /work/venv/bin/python benchmarks/bench_dlx.py [COLLECTION ...] [--repeat K]
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable, Iterator
from itertools import islice, product
from typing import Any

from tabulate import tabulate

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.exact_cover import full_matrix, placement_row
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver

Count = Callable[[Grid], list[str]]  # a puzzle -> its solutions (at most 2), as lines

# ----- the reference: Ali Assaf's Algorithm X with dicts of sets ------------------------------

Label = tuple[int, tuple[int, int]]
Placement = tuple[int, int, int]


def assaf_sudoku(rules: Rules, grid: list[list[int]]) -> Iterator[list[list[int]]]:
    n = rules.size
    x_labels: list[Label] = (
        [(0, rc) for rc in product(range(n), range(n))]
        + [(1, rn) for rn in product(range(n), range(1, n + 1))]
        + [(2, cn) for cn in product(range(n), range(1, n + 1))]
        + [(3, bn) for bn in product(range(n), range(1, n + 1))]
    )
    y: dict[Placement, list[Label]] = {}
    for r, c, d in product(range(n), range(n), range(1, n + 1)):
        b = rules.region_of(rules.cell(r, c))
        y[(r, c, d)] = [(0, (r, c)), (1, (r, d)), (2, (c, d)), (3, (b, d))]
    x = assaf_exact_cover(x_labels, y)
    for i, row in enumerate(grid):
        for j, d in enumerate(row):
            if d:
                assaf_select(x, y, (i, j, d))
    for solution in assaf_solve(x, y, []):
        for r, c, d in solution:
            grid[r][c] = d
        yield grid


def assaf_exact_cover(
    x_labels: list[Label], y: dict[Placement, list[Label]]
) -> dict[Label, set[Placement]]:
    x: dict[Label, set[Placement]] = {j: set() for j in x_labels}
    for i, row in y.items():
        for j in row:
            x[j].add(i)
    return x


def assaf_solve(
    x: dict[Label, set[Placement]], y: dict[Placement, list[Label]], solution: list[Placement]
) -> Iterator[list[Placement]]:
    if not x:
        yield list(solution)
    else:
        c = min(x, key=lambda c: len(x[c]))
        for r in list(x[c]):
            solution.append(r)
            cols = assaf_select(x, y, r)
            yield from assaf_solve(x, y, solution)
            assaf_deselect(x, y, r, cols)
            solution.pop()


def assaf_select(
    x: dict[Label, set[Placement]], y: dict[Placement, list[Label]], r: Placement
) -> list[set[Placement]]:
    cols = []
    for j in y[r]:
        for i in x[j]:
            for k in y[i]:
                if k != j:
                    x[k].remove(i)
        cols.append(x.pop(j))
    return cols


def assaf_deselect(
    x: dict[Label, set[Placement]],
    y: dict[Placement, list[Label]],
    r: Placement,
    cols: list[set[Placement]],
) -> None:
    for j in reversed(y[r]):
        x[j] = cols.pop()
        for i in x[j]:
            for k in y[i]:
                if k != j:
                    x[k].add(i)


def count_reference(puzzle: Grid) -> list[str]:
    """Up to two solutions from the reference (givens that clash would raise KeyError)."""
    found = []
    for grid in islice(assaf_sudoku(puzzle.rules, puzzle.to_rows()), 2):
        found.append(Grid.from_rows(grid, puzzle.rules).to_line())
    return found


# ----- the `dlx` back-end and, when installed, the `dlx` package -------------------------------

SOLVER = DlxSolver()


def count_backend(puzzle: Grid) -> list[str]:
    return [grid.to_line() for grid in SOLVER.solve(puzzle, limit=2).solutions]


def count_dlx_package(puzzle: Grid) -> list[str]:
    """The PyPI `dlx` package on the same full matrix, givens forced with `useRow`."""
    from dlx import DLX  # optional and untyped: see the mypy override in pyproject.toml

    rules = puzzle.rules
    matrix = full_matrix(rules)
    links = DLX([(name, DLX.PRIMARY) for name in matrix.columns])
    ids = links.appendRows([list(row) for row in matrix.rows])
    for cell, digit in enumerate(puzzle.values):
        if digit:
            links.useRow(ids[placement_row(rules, cell, digit)])
    first_row = {node: row for row, node in enumerate(ids)}
    found = []
    for solution in islice(links.solve(), 2):
        values = list(puzzle.values)
        for node in solution:
            # A solution lists some node of each chosen row: walk left to the row's first one.
            while node not in first_row:
                node = links.L[node]
            cell, digit = divmod(first_row[node], rules.size)
            values[cell] = digit + 1
        found.append(Grid(rules, tuple(values)).to_line())
    return found


# ----- the run --------------------------------------------------------------------------------


def time_all(
    solvers: dict[str, Count], puzzles: list[Grid], repeat: int
) -> tuple[dict[str, float], dict[str, list[list[str]]]]:
    """CPU seconds per solver over the puzzles (best of `repeat`), and each one's answers.

    The solvers take turns puzzle by puzzle, so a busy machine slows them all alike; CPU
    time (`process_time`) leaves out the time other processes hold the core.
    """
    times = {label: 0.0 for label in solvers}
    answers: dict[str, list[list[str]]] = {label: [] for label in solvers}
    for puzzle in puzzles:
        for label, count in solvers.items():
            best = float("inf")
            for _ in range(repeat):
                start = time.process_time()
                found = count(puzzle)
                best = min(best, time.process_time() - start)
            times[label] += best
            answers[label].append(found)
    return times, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collections", nargs="*", default=["top95", "17clue"])
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per puzzle and solver; the best counts"
    )
    parser.add_argument("--limit", type=int, default=None, help="first N puzzles per collection")
    args = parser.parse_args()

    solvers: dict[str, Count] = {"reference": count_reference, "dlx": count_backend}
    if importlib.util.find_spec("dlx") is not None:
        solvers["dlx package"] = count_dlx_package
    else:
        print("(the PyPI package `dlx` is not installed: its column is skipped)")

    table: list[list[Any]] = []
    for name in args.collections:
        puzzles = [entry.puzzle for entry in load(name)[: args.limit]]
        times, answers = time_all(solvers, puzzles, args.repeat)
        check(name, puzzles, answers)
        row: list[Any] = [name, len(puzzles)]
        row += [f"{times[label]:.2f}" for label in solvers]
        row += [
            f"{times['reference'] / times[label]:.2f}x" for label in solvers if label != "reference"
        ]
        table.append(row)
    headers = ["collection", "puzzles"] + [f"{label} CPU s" for label in solvers]
    headers += [f"{label} speed-up" for label in solvers if label != "reference"]
    print(
        tabulate(
            table,
            headers,
            disable_numparse=True,
            colalign=("left",) + ("right",) * (len(headers) - 1),
        )
    )
    print("speed-up = reference time / solver time (both count to 2; model building included)")


def check(name: str, puzzles: list[Grid], answers: dict[str, list[list[str]]]) -> None:
    """Every solver gives the same answers, and each answer is a solution of its puzzle."""
    reference = answers["reference"]
    for label, found in answers.items():
        for i, (expected, got) in enumerate(zip(reference, found, strict=True)):
            if sorted(expected) != sorted(got):
                raise SystemExit(f"{name} #{i + 1}: {label} found {got}, reference {expected}")
    for puzzle, solutions in zip(puzzles, reference, strict=True):
        for line in solutions:
            if not is_solution(puzzle, Grid.from_string(line, puzzle.rules)):
                raise SystemExit(f"{name}: {line} does not solve {puzzle.to_line()}")


if __name__ == "__main__":
    main()
