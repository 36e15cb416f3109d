"""Puzzles per CPU-second of `bitboard-jit`, `propagating-jit` and tdoku, in one process.

Contenders, each on whole sets (top95, 500 forum-hardest, 1,000 17-clue; bundled):
- `bitboard-jit` and `propagating-jit` through `Solver.solve`, one puzzle per call;
- `bitboard-jit batch`: `sudoku_bench.solvers.engines.bitboard.jit.solve_batch(..., threads=1)`, the whole set in
  one call of the compiled code;
- tdoku (C, SIMD) called per puzzle through ctypes, when `--tdoku PATH` names its shared
  library. tdoku is not part of this project; build it from its public source as its README
  says, for instance:

      git clone https://github.com/t-dillon/tdoku /tmp/tdoku && cd /tmp/tdoku
      ./BUILD.sh tdoku_shared -DCMAKE_BUILD_TYPE=Release   # -> build/libtdoku_shared.so

  then `--tdoku /tmp/tdoku/build/libtdoku_shared.so`. Without it, tdoku is skipped and the
  script says so.

Method: CPU time (`time.process_time`) of whole-set passes, the contenders alternating pass
by pass, `--repeat` passes each (3 by default), the best pass counted (the machine's other
load only ever slows a pass down). A pass times the contender's calls and what keeps their raw
answers (tdoku's 81 bytes, the batch's arrays, the `Result`s); turning those into digit tuples
for the check comes after the timing. Every grid any contender returns is checked with
`sudoku_bench.puzzles.checker` after its pass, outside the timing; the contenders' answers must agree.
`--limit` is the solution limit of every call (1: find a solution; 2: prove uniqueness).

Then batch mode at scale: `--batch N` puzzles (1,000,000 by default; 0 skips it), the 17-clue
sample repeated, solved by `solve_batch` in chunks of `--chunk` puzzles (memory stays that of
one chunk), with its CPU time and the process's peak RSS. Each returned grid is compared with
the checked solution of its sample puzzle.

    PYTHONPATH=. python benchmarks/bench_bitboard.py [--tdoku PATH] [--repeat 3] [--limit 1]

`--variants` measures instead the rules beyond the classic ones: per-call throughput, counting
to 2, on the bundled Sudoku-X, windoku, anti-knight, anti-king and non-consecutive sets, of
`bitboard-jit` and of `propagating-jit`, `dlx-jit` and `dlx` where they take the rules.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import numpy as np
from tabulate import tabulate

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.engines.bitboard.jit import as_digit_array, solve_batch
from sudoku_bench.solvers.registry import get

SETS = (("top95", 95), ("forum-hardest", 500), ("17clue", 1000))
# per puzzle: the first solution found (its 81 digits; None for none) and the count
Answers = list[tuple[tuple[int, ...] | None, int]]
# a timed pass over the set; what it returns turns its raw answers into `Answers` after the
# timing (that conversion is this script's work, not the contender's)
Pass = Callable[[], Callable[[], Answers]]


def solver_pass(name: str, puzzles: list[Grid], limit: int) -> Pass:
    solver = get(name).create()  # built (and its kernel loaded) before any timing

    def run() -> Callable[[], Answers]:
        results = [solver.solve(puzzle, limit=limit) for puzzle in puzzles]
        return lambda: [(r.solutions[0].values if r.solutions else None, r.count) for r in results]

    return run


def batch_pass(puzzles: list[Grid], limit: int) -> Pass:
    grids = as_digit_array([puzzle.to_line() for puzzle in puzzles])
    solve_batch(grids[:1], limit=limit, threads=1)  # the kernel loaded before any timing

    def run() -> Callable[[], Answers]:
        batch = solve_batch(grids, limit=limit, threads=1)

        def answers() -> Answers:
            rows = batch.solutions.tolist()
            counts = batch.counts.tolist()
            return [
                (tuple(row) if count else None, count)
                for row, count in zip(rows, counts, strict=True)
            ]

        return answers

    return run


def tdoku_pass(library: ctypes.CDLL, puzzles: list[Grid], limit: int) -> Pass:
    solve = library.TdokuSolverDpllTriadSimd
    solve.restype = ctypes.c_size_t
    solve.argtypes = [
        ctypes.c_char_p,
        ctypes.c_size_t,
        ctypes.c_uint32,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_size_t),
    ]
    lines = [puzzle.to_line(blank=".").encode("ascii") for puzzle in puzzles]

    def run() -> Callable[[], Answers]:
        raw: list[tuple[bytes, int]] = []
        out = ctypes.create_string_buffer(82)
        guesses = ctypes.c_size_t(0)
        pointer = ctypes.byref(guesses)
        for line in lines:
            count = solve(line, limit, 0, out, pointer)
            raw.append((out.raw[:81], count))

        def answers() -> Answers:
            # tdoku writes the solution only when asked for one (limit 1); '1'..'9' -> 1..9
            return [
                (tuple(c - 48 for c in digits) if count and limit == 1 else None, count)
                for digits, count in raw
            ]

        return answers

    return run


def checked(name: str, puzzles: list[Grid], answers: Answers) -> None:
    for puzzle, (digits, _count) in zip(puzzles, answers, strict=True):
        if digits is not None:
            grid = Grid(puzzle.rules, digits)
            assert is_solution(puzzle, grid), f"{name} returned a wrong grid"


def compare_sets(args: argparse.Namespace, library: ctypes.CDLL | None) -> None:
    rows = []
    for collection, count in SETS:
        puzzles = [entry.puzzle for entry in islice(load(collection), count)]
        contenders: dict[str, Pass] = {
            "bitboard-jit": solver_pass("bitboard-jit", puzzles, args.limit),
            "bitboard-jit batch": batch_pass(puzzles, args.limit),
            "propagating-jit": solver_pass("propagating-jit", puzzles, args.limit),
        }
        if library is not None:
            contenders["tdoku (ctypes)"] = tdoku_pass(library, puzzles, args.limit)
        best = dict.fromkeys(contenders, float("inf"))
        found: dict[str, list[int]] = {}
        for _ in range(args.repeat):
            for name, run in contenders.items():
                start = time.process_time()
                finish = run()
                spent = time.process_time() - start
                answers = finish()
                best[name] = min(best[name], spent)
                checked(name, puzzles, answers)
                found[name] = [min(n, 2) for _, n in answers]
        # with limit 1 an engine may find the one solution or not; with 2 the counts agree
        assert len({tuple(counts) for counts in found.values()}) == 1, "contenders disagree"
        rate = {name: len(puzzles) / spent for name, spent in best.items()}
        fastest = max(rate[name] for name in rate if name.startswith("bitboard"))
        reference = rate.get("tdoku (ctypes)")
        for name in contenders:
            ratio = f"{reference / rate[name]:.2f}" if reference else "-"
            rows.append([collection, name, f"{rate[name]:,.0f}", ratio])
        if reference:
            rows.append(
                [collection, "best bitboard: tdoku / ours", "", f"{reference / fastest:.2f}"]
            )
    print(
        tabulate(
            rows,
            headers=["set", "contender", "puzzles per CPU-second", "tdoku / this"],
            tablefmt="github",
        )
    )


VARIANT_SETS = ("sudoku-x", "windoku", "anti-knight", "anti-king", "non-consecutive")
VARIANT_PEERS = ("bitboard-jit", "propagating-jit", "dlx-jit", "dlx")


def compare_variants(repeat: int) -> None:
    """Per-call throughput on the bundled variant collections, counting to 2, of
    `bitboard-jit` and the back-ends among VARIANT_PEERS that take the set's rules."""
    rows = []
    for collection in VARIANT_SETS:
        puzzles = [entry.puzzle for entry in load(collection)]
        contenders: dict[str, Pass] = {}
        for name in VARIANT_PEERS:
            if get(name).create().accepts(puzzles[0].rules):
                contenders[name] = solver_pass(name, puzzles, 2)
        best = dict.fromkeys(contenders, float("inf"))
        found: dict[str, list[int]] = {}
        for _ in range(repeat):
            for name, run in contenders.items():
                start = time.process_time()
                finish = run()
                best[name] = min(best[name], time.process_time() - start)
                answers = finish()
                checked(name, puzzles, answers)
                found[name] = [count for _, count in answers]
        assert len({tuple(counts) for counts in found.values()}) == 1, "contenders disagree"
        for name, spent in best.items():
            rows.append([collection, len(puzzles), name, f"{len(puzzles) / spent:,.0f}"])
    print(
        tabulate(
            rows,
            headers=["set", "puzzles", "back-end", "puzzles per CPU-second (limit 2)"],
            tablefmt="github",
        )
    )


def batch_at_scale(total: int, chunk: int, limit: int) -> None:
    sample = [entry.puzzle for entry in load("17clue")]
    grids = as_digit_array([puzzle.to_line() for puzzle in sample])
    reference = solve_batch(grids, limit=limit, threads=1)
    checked("batch", sample, [(tuple(row), 1) for row in reference.solutions.tolist()])
    repeats = -(-chunk // len(grids))
    block = np.tile(grids, (repeats, 1))[:chunk]
    expected = np.tile(reference.solutions, (repeats, 1))[:chunk]
    solved = 0
    spent = 0.0
    while solved < total:
        size = min(chunk, total - solved)
        start = time.process_time()
        batch = solve_batch(block[:size], limit=limit, threads=1)
        spent += time.process_time() - start
        assert np.array_equal(batch.solutions, expected[:size]), "a batch grid differs"
        solved += size
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        f"batch: {total:,} 17-clue puzzles (the sample of {len(grids):,} repeated), chunks of "
        f"{chunk:,}, limit {limit}: {spent:.2f} s CPU, {total / spent:,.0f} puzzles per "
        f"CPU-second; peak RSS {peak:.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tdoku", type=Path, help="tdoku's libtdoku_shared.so (see above)")
    parser.add_argument("--repeat", type=int, default=3, help="passes per contender")
    parser.add_argument("--limit", type=int, default=1, help="solutions to look for (1 or 2)")
    parser.add_argument("--batch", type=int, default=1_000_000, help="batch puzzles (0: skip)")
    parser.add_argument("--chunk", type=int, default=100_000, help="puzzles per batch call")
    parser.add_argument(
        "--variants",
        action="store_true",
        help="only the variant collections (extra units, pair relations), beside other back-ends",
    )
    args = parser.parse_args()
    if args.variants:
        print(f"load average before: {os.getloadavg()}")
        compare_variants(args.repeat)
        print(f"load average after: {os.getloadavg()}")
        return
    print(f"load average before: {os.getloadavg()}")
    library = None
    if args.tdoku is None:
        print("tdoku skipped: no --tdoku PATH given (see --help for how to build it)")
    elif not args.tdoku.is_file():
        print(f"tdoku skipped: {args.tdoku} is not a file (see --help for how to build it)")
    else:
        library = ctypes.CDLL(str(args.tdoku))
    compare_sets(args, library)
    if args.batch:
        batch_at_scale(args.batch, args.chunk, args.limit)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
