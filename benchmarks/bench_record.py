"""The result record's own cost per task, in one process: each step a result takes in the
harness, timed as the best of --rounds rounds of --number calls (the best is the least
disturbed by other load on the machine).

Steps, per task: pack the engine's `Result` as the worker does; unpack it in the parent;
the `--json` record of `bench`; the store row (`Outcome.record()`). Each on a classic 9x9
puzzle and on a killer puzzle (rules with cages, whose serialised form is long JSON).

To compare two checkouts (before and after a change), run it in each, one after the other:

    PYTHONPATH=/path/to/before python benchmarks/bench_record.py
    PYTHONPATH=. python benchmarks/bench_record.py

The script reads the record's functions where this checkout keeps them (`sudoku_bench.harness.results`),
or where releases before schema version 5 kept them.
"""

from __future__ import annotations

import argparse
import os
import timeit
from collections.abc import Callable
from typing import Any

from tabulate import tabulate

from sudoku_bench.puzzles.collections import load
from sudoku_bench.solvers.registry import get

try:  # schema version 5 and later
    from sudoku_bench.harness.results import Outcome, Task, outcome_json, packed_outcome

    PID = os.getpid()  # the worker asks once too

    def pack(key: int, result: Any) -> tuple[Any, ...]:
        return packed_outcome(key, result, None, None, PID)

    LAYOUT = "sudoku_bench.harness.results"
except ImportError:  # the layout before it
    from sudoku_bench.harness.cli.records import outcome_record as outcome_json
    from sudoku_bench.harness.running.tasks import Outcome, Task
    from sudoku_bench.harness.running.worker import packed_outcome

    def pack(key: int, result: Any) -> tuple[Any, ...]:
        return packed_outcome(key, result, None, None)

    LAYOUT = "sudoku_bench.harness.running.tasks"


def best_us(call: Callable[[], object], number: int, rounds: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=rounds)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=2000, help="calls per round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds; the best counts")
    args = parser.parse_args()
    rows = []
    for collection in ("top95", "killer"):
        entry = load(collection)[0]
        result = get("propagating").create().solve(entry.puzzle, limit=2)
        task = Task(0, collection, entry.id, entry.puzzle.rules.spec, entry.puzzle.to_line(),
                    "propagating", 0)  # fmt: skip
        packed = pack(0, result)
        outcome = Outcome.unpacked(task, packed)
        steps: dict[str, Callable[[], object]] = {
            "pack (worker)": lambda: pack(0, result),  # noqa: B023
            "unpack (parent)": lambda: Outcome.unpacked(task, packed),  # noqa: B023
            "--json record": lambda: outcome_json(outcome),  # noqa: B023
            "store row": outcome.record,
        }
        for step, call in steps.items():
            rows.append([collection, step, f"{best_us(call, args.number, args.rounds):.2f}"])
    load_1 = os.getloadavg()[0]
    print(f"layout: {LAYOUT}; load average {load_1:.2f} on {os.cpu_count()} cores")
    print(tabulate(rows, headers=["puzzle", "step", "µs per task (best)"]))


if __name__ == "__main__":
    main()
