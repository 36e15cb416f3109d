"""What `--certify` costs per puzzle: proof size, the proof-producing solve, and the check.

Every puzzle of each collection (or the first `--take`) has its "unique" certified by
`sudoku_bench.harness.certifying.certify` (the solution found by CaDiCaL, checked by the rule checker; the
CNF plus the clause blocking it refuted by a DRAT proof that this project's checker verifies),
and the first `--unsolvable` puzzles, each made unsolvable by a wrong digit in an empty cell
that breaks no rule on its face, have their "none" certified. Per collection: how many were
certified, the proof size, the CPU seconds of the solve (CaDiCaL writing the proof) and of
the check, and of the whole certification (the CNF built, the solution found, proven and
checked), as median and max. With drat-trim installed (on PATH or named by
`SUDOKU_BENCH_DRAT_TRIM`), `--drat-trim` runs it as a second checker on every proof and
reports its wall time beside ours.

    PYTHONPATH=. python benchmarks/bench_certify.py                 # every collection below
    PYTHONPATH=. python benchmarks/bench_certify.py --collections top95,16x16 --take 20

drat-trim is not packaged by Debian: `git clone https://github.com/marijnheule/drat-trim`,
`gcc -O2 -o drat-trim drat-trim.c`, and put the binary on PATH.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass, field

from tabulate import tabulate

from sudoku_bench.harness.certifying import YES, certify
from sudoku_bench.harness.certifying.external import drat_trim
from sudoku_bench.harness.certifying.proving import find_model
from sudoku_bench.puzzles.checker import has_conflicts, is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.cnf import CnfReduction

# (collection, how many of its puzzles by default): the 9x9 sets, 16x16, every variant
DEFAULT = (
    ("top95", 95),
    ("17clue", 1000),
    ("forum-hardest", 100),
    ("16x16", 100),
    ("6x6", 50),
    ("12x12", 50),
    ("sudoku-x", 50),
    ("jigsaw", 50),
    ("windoku", 50),
    ("anti-knight", 50),
    ("anti-king", 50),
    ("non-consecutive", 50),
    ("odd-even", 50),
    ("killer", 50),
    ("ortools-killer", 1),
)


@dataclass
class Costs:
    """One collection's certificates for one verdict."""

    puzzles: int = 0
    certified: int = 0
    proof_bytes: list[int] = field(default_factory=list)
    lemmas: list[int] = field(default_factory=list)
    solve_s: list[float] = field(default_factory=list)
    check_s: list[float] = field(default_factory=list)
    total_s: list[float] = field(default_factory=list)
    second_s: list[float] = field(default_factory=list)
    second_agreed: int = 0
    failures: list[str] = field(default_factory=list)

    def row(self, name: str, verdict: str) -> list[object]:
        def both(values: list[float], scale: float = 1.0, digits: int = 3) -> str:
            if not values:
                return "-"
            return (
                f"{statistics.median(values) * scale:.{digits}f} / {max(values) * scale:.{digits}f}"
            )

        ratio = (
            statistics.median(c / s for c, s in zip(self.check_s, self.solve_s, strict=True) if s)
            if self.solve_s
            else 0.0
        )
        second = (
            f"{self.second_agreed}/{self.puzzles} agree, {both(self.second_s)}"
            if self.second_s
            else "-"
        )
        return [
            name,
            verdict,
            f"{self.certified}/{self.puzzles}",
            both([float(b) for b in self.proof_bytes], 1 / 1024, 1),
            both([float(n) for n in self.lemmas], 1, 0),
            both(self.solve_s),
            both(self.check_s),
            f"{ratio:.1f}",
            both(self.total_s),
            second,
        ]


def made_unsolvable(puzzle: Grid, solution: Grid) -> Grid:
    """The puzzle with its first empty cell that allows it given a wrong digit that breaks no
    rule on its face (so no shortcut sees it: only search or a proof shows there is none)."""
    values = list(puzzle.values)
    for cell in puzzle.empty_cells:
        for digit in puzzle.rules.digits:
            if digit == solution[cell]:
                continue
            values[cell] = digit
            candidate = Grid(puzzle.rules, tuple(values))
            if not has_conflicts(candidate):
                return candidate
        values[cell] = 0
    raise ValueError("no wrong digit fits anywhere")


def solution_of(puzzle: Grid) -> Grid:
    reduction = CnfReduction()
    cnf, data = reduction.apply(puzzle)
    model = find_model(cnf.clauses)
    if model is None:
        raise ValueError("the puzzle has no solution")
    grid = reduction.invert(model, data)
    assert is_solution(puzzle, grid)
    return grid


def measure(puzzle: Grid, verdict: str, costs: Costs, label: str, second: bool) -> None:
    started = time.process_time()
    certificate = certify(puzzle, verdict, second_checker=second)
    costs.total_s.append(time.process_time() - started)
    costs.puzzles += 1
    if certificate.outcome != YES:
        costs.failures.append(f"{label}: {certificate.words()}")
        return
    costs.certified += 1
    costs.proof_bytes.append(certificate.proof_bytes or 0)
    costs.lemmas.append(certificate.lemmas or 0)
    costs.solve_s.append(certificate.solve_s or 0.0)
    costs.check_s.append(certificate.check_s or 0.0)
    if certificate.second_check_s is not None:
        costs.second_s.append(certificate.second_check_s)
        costs.second_agreed += certificate.second_checker == YES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--collections",
        default=",".join(name for name, _ in DEFAULT),
        help="comma-separated bundled collections (default: all of the list above)",
    )
    parser.add_argument("--take", type=int, help="at most this many puzzles per collection")
    parser.add_argument(
        "--unsolvable", type=int, default=5, help="puzzles made unsolvable per collection"
    )
    parser.add_argument(
        "--drat-trim", action="store_true", help="also run drat-trim on every proof"
    )
    args = parser.parse_args()
    if args.drat_trim and drat_trim() is None:
        parser.error("--drat-trim: no drat-trim on PATH (see the docstring to build it)")
    sizes = dict(DEFAULT)
    rows = []
    failures: list[str] = []
    load_before = os.getloadavg()
    wall = time.perf_counter()
    for name in args.collections.split(","):
        entries = load(name)[: min(args.take or sizes.get(name, 100), sizes.get(name, 10**9))]
        unique, none = Costs(), Costs()
        for number, entry in enumerate(entries):
            measure(entry.puzzle, "unique", unique, entry.id, args.drat_trim)
            if number < args.unsolvable:
                solution = entry.solution or solution_of(entry.puzzle)
                broken = made_unsolvable(entry.puzzle, solution)
                measure(broken, "none", none, f"{entry.id} made unsolvable", args.drat_trim)
        rows.append(unique.row(name, "unique"))
        if none.puzzles:
            rows.append(none.row(name, "none"))
        failures += unique.failures + none.failures
        print(f"{name}: done", file=sys.stderr, flush=True)
    headers = [
        "collection",
        "verdict",
        "certified",
        "proof KB med/max",
        "lemmas med/max",
        "solve s med/max",
        "check s med/max",
        "check/solve",
        "certify s med/max",
        "drat-trim (wall s) med/max",
    ]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    print(
        f"\nCPU seconds (process time) per puzzle; proof size as DRAT text; prover CaDiCaL 1.9.5 "
        f"(PySAT). Load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}; "
        f"{time.perf_counter() - wall:.0f} s wall in all."
    )
    for failure in failures:
        print(f"NOT CERTIFIED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
