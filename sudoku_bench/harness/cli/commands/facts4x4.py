"""`sudoku-bench facts4x4`: the 4x4 facts of the thesis, computed (288 grids, 2 classes, 4 givens)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.generating.facts4x4 import FOUR, facts
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.registry import create, get


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "facts4x4",
        help="reproduce the thesis's 4x4 facts: 288 grids, 2 classes, 4 givens minimum",
        description="Enumerate every complete 4x4 grid, group them into essentially different "
        "classes (digit relabelling, row/column swaps within bands/stacks, band/stack swaps, "
        "transposition), and count for 0..4 givens how many puzzles exist and how many have "
        "exactly one solution. A back-end also counts the empty grid's solutions as a check.",
    )
    parser.add_argument(
        "--solver",
        default="propagating",
        metavar="NAME",
        help="back-end that counts the empty grid's solutions (propagating)",
    )
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    found = facts()
    backend = get(args.solver)
    counted = None
    why_not = ""  # why the back-end gave no count: the facts stand alone, but say so
    if backend.available():
        result = create(args.solver).solve(Grid.empty(FOUR), limit=1000)
        counted = result.count if result.exact else None
        if counted is None:
            why_not = f"{backend.name} did not count them ({result.status}"
            why_not += f": {result.message})" if result.message else ")"
    else:
        print(f"not counted: {backend.not_installed()}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "grids": found.grids,
                "classes": len(found.class_sizes),
                "class_sizes": list(found.class_sizes),
                "by_givens": [asdict(row) for row in found.by_givens],
                "minimum_givens": found.minimum_givens,
                "counted_by": backend.name,
                "counted": counted,
            }
        )
        return 0
    print(f"complete 4x4 grids: {found.grids} (enumerated)", end="")
    print(
        f"; {backend.name} counts {counted}"
        if counted is not None
        else f"; {why_not}"
        if why_not
        else ""
    )
    if counted is not None and counted != found.grids:
        print(f"DISAGREEMENT: {backend.name} counts {counted} grids, enumeration {found.grids}")
        return 1
    sizes = " and ".join(str(size) for size in found.class_sizes)
    print(
        f"essentially different grids: {len(found.class_sizes)} classes, of {sizes} grids "
        "(digit relabelling, row/column swaps within bands/stacks, band/stack swaps, transposition)"
    )
    rows = [[r.givens, r.puzzles, r.unique] for r in found.by_givens]
    print(tabulate(rows, headers=["givens", "puzzles", "unique"]))
    print(f"fewest givens of a unique 4x4 puzzle: {found.minimum_givens}")
    return 0
