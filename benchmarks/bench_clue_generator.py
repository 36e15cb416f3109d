"""The clue generator at 9x9: CPU seconds per puzzle, the incremental SAT oracle beside counting.

For each kind (`--kinds`), the same puzzles (`--count`, `--seed`) are made twice in one run:
by `ClueGenerator` as it runs by default (each question "a solution other than the known
grid?" put to one incremental SAT formula per grid, the clues switched on by assumptions,
`sudoku_bench/harness/generating/uniqueness.py`), and with `counter=` a counting back-end
(`--counter`, default cpsat: the puzzle built and counted to 2 afresh for every question,
the way every puzzle was made before the oracle; `none`: the oracle alone). The two ways are run alternately, kind by
kind, in CPU time (`time.process_time`), so a loaded machine slows both alike. A counting
run that passes `--cap` CPU seconds is stopped between two questions and shown as `>cap`
(a signal cannot stop a question inside the solver's C code, so a run can pass the cap by
as long as its current question takes: a near-unique 9x9 of little killers can keep one
`cpsat` question busy for minutes).
The puzzles differ between the two ways (the oracle adds the clue that most of several
other solutions break, and drops what its proofs did not use), so the table also gives the
clues and givens each way's puzzles have.

    PYTHONPATH=. python benchmarks/bench_clue_generator.py [--kinds thermometer,little_killer]
        [--count 1] [--seed 1] [--size 9] [--counter cpsat] [--cap 120]
"""

from __future__ import annotations

import argparse
import os
import signal
import time
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.generating.clues import ClueGenerator
from sudoku_bench.puzzles.rules import Rules

KINDS = "thermometer,difference,arrow,sandwich,little_killer,between_line"


class _OverCap(Exception):
    pass


def _over_cap(*_: Any) -> None:
    raise _OverCap


def run(size: int, kind: str, count: int, seed: int, counter: str | None, cap: float) -> str:
    """CPU seconds per puzzle, with the clues and givens of the puzzles made ('>cap' if over)."""
    generator = ClueGenerator(Rules.of_size(size), [kind], seed=seed, counter=counter)
    signal.signal(signal.SIGPROF, _over_cap)
    signal.setitimer(signal.ITIMER_PROF, cap)
    start = time.process_time()
    try:
        made = generator.generate(count)
    except _OverCap:
        return f">{cap:.0f}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    seconds = (time.process_time() - start) / count
    clues = sum(m.clues for m in made) / count
    givens = sum(m.givens for m in made) / count
    return f"{seconds:.2f} ({clues:.0f} clues, {givens:.0f} givens)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--kinds", default=KINDS)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--counter", default="cpsat")
    parser.add_argument("--cap", type=float, default=120.0, help="CPU seconds per counting run")
    args = parser.parse_args()
    rows = []
    for kind in args.kinds.split(","):
        oracle = run(args.size, kind, args.count, args.seed, None, args.cap)
        counting = (
            "-"
            if args.counter == "none"
            else run(args.size, kind, args.count, args.seed, args.counter, args.cap)
        )
        rows.append([kind, oracle, counting])
        print(tabulate([rows[-1]], tablefmt="plain"), flush=True)
    print()
    print(
        f"{args.size}x{args.size}, {args.count} puzzle(s) per kind, seed {args.seed}; "
        f"load {os.getloadavg()[0]:.1f}; CPU seconds per puzzle"
    )
    print(
        tabulate(
            rows,
            headers=["kind", "sat-incremental (default)", f"--counter {args.counter}"],
            tablefmt="github",
        )
    )


if __name__ == "__main__":
    main()
