"""The groebner back-end's time per puzzle, and where the time goes.

    PYTHONPATH=. python benchmarks/bench_groebner.py            # 4x4 set and easy50
    PYTHONPATH=. python benchmarks/bench_groebner.py --hard     # + hardest and top95, 60 s each

For each collection: how many puzzles were solved, the median / mean / slowest time per
puzzle, the propagating back-end's median in the same run (the ratio says how much the
algebra costs over bit masks), how many puzzles took one full basis and how many the
propagate-and-split scheme, and the seconds spent in full bases, in leaf bases and in
univariate propagation (gcds and unit polynomials). Times are wall seconds in this process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field

from tabulate import tabulate

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers import create
from sudoku_bench.solvers.base import Result, Status

QUICK = ("4x4", "easy50")
HARD = ("hardest", "top95")


@dataclass
class Row:
    collection: str
    times: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    methods: dict[str, int] = field(default_factory=dict)
    work: dict[str, float] = field(default_factory=dict)
    disagreements: int = 0

    def add(self, ours: Result, theirs: Result) -> None:
        self.times.append(ours.total_s)
        self.reference.append(theirs.total_s)
        self.statuses[ours.status.value] = self.statuses.get(ours.status.value, 0) + 1
        method = ours.details.get("method", "?")
        self.methods[method] = self.methods.get(method, 0) + 1
        for key in ("full_basis_s", "leaf_basis_s", "local_basis_s", "propagate_s", "splits"):
            self.work[key] = self.work.get(key, 0.0) + ours.counters.get(key, 0.0)
        finished = ours.status in (Status.SOLVED, Status.NO_SOLUTION)
        if finished and (ours.verdict, ours.solutions) != (theirs.verdict, theirs.solutions):
            self.disagreements += 1

    def table_row(self) -> list[object]:
        median = statistics.median(self.times)
        reference = statistics.median(self.reference)
        return [
            self.collection,
            f"{self.statuses.get('solved', 0)}/{len(self.times)}",
            f"{median:.3f}",
            f"{statistics.mean(self.times):.3f}",
            f"{max(self.times):.3f}",
            f"{median / reference:.0f}x" if reference else "-",
            f"{self.methods.get('basis', 0)} / {self.methods.get('propagate-and-split', 0)}",
            f"{self.work.get('full_basis_s', 0):.1f}",
            f"{self.work.get('leaf_basis_s', 0):.1f}",
            f"{self.work.get('propagate_s', 0):.1f}",
            int(self.work.get("splits", 0)),
            self.disagreements,
        ]


HEADERS = [
    "collection",
    "solved",
    "median s",
    "mean s",
    "slowest s",
    "vs propagating",
    "basis / split",
    "full-basis s",
    "leaf-basis s",
    "propagation s",
    "splits",
    "disagree",
]


def run(collection: str, timeout: float, backend: str) -> Row:
    row = Row(collection)
    ours, theirs = create(backend), create("propagating")
    for entry in load(collection):
        row.add(
            ours.solve(entry.puzzle, limit=2, timeout=timeout), theirs.solve(entry.puzzle, limit=2)
        )
        print(".", end="", file=sys.stderr, flush=True)
    print(f" {collection}", file=sys.stderr)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hard", action="store_true", help="also hardest and top95 (slow)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle")
    parser.add_argument("--backend", default="groebner", help="a groebner configuration")
    args = parser.parse_args()
    warm = Grid.from_string("0000302004010000")
    create(args.backend).solve(warm)  # imports sympy outside the timings
    collections = QUICK + (HARD if args.hard else ())
    rows = [run(name, args.timeout, args.backend).table_row() for name in collections]
    print(f"back-end: {args.backend}, limit=2, timeout {args.timeout:g} s per puzzle")
    print(tabulate(rows, HEADERS, tablefmt="github"))


if __name__ == "__main__":
    main()
