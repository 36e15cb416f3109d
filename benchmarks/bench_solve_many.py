"""CPU per puzzle of `bitboard-jit` on the paths a batch of puzzles can take, in one process.

Contenders, on the bundled 17-clue sample (1,000 puzzles) repeated `--times` times:
- `solve_batch`: `sudoku_bench.solvers.engines.bitboard.jit.solve_batch(array, threads=1)`, answers as arrays;
- `solve_many`: `BitboardJitSolver.solve_many`, a `Result` per puzzle (the path the worker of
  `solve FILE` and `count FILE` takes);
- `solve each`: `BitboardJitSolver.solve` per puzzle (the path before `solve_many` was
  overridden);
- `worker, solve_many` and `worker, solve each`: the harness worker's loop around them
  (`sudoku_bench.harness.running.worker._run_many`, batches of 256 as `solve` sends, each result metered and
  packed for the parent; the parent's reading, checking and printing are not included).

Method: CPU time (`time.process_time`) of whole-set passes, the contenders alternating pass by
pass, `--repeat` passes each, the best pass counted. The `solve_many` results are compared
with the `solve` results, field by field but the times, outside the timing.

    PYTHONPATH=. python benchmarks/bench_solve_many.py [--times 20] [--repeat 3] [--limit 1]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
from tabulate import tabulate

from sudoku_bench.harness.running.worker import Settings, _run_many
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Result, Solver
from sudoku_bench.solvers.engines.bitboard.jit import BitboardJitSolver, solve_batch
from sudoku_bench.solvers.registry import Backend, get

BATCH = 256  # puzzles per message from `solve` to its worker


class OneByOne(BitboardJitSolver):
    """`bitboard-jit` with `Solver`'s own `solve_many`: `solve` of each puzzle."""

    def solve_many(
        self,
        puzzles: Iterable[Grid],
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Iterator[Result]:
        return Solver.solve_many(self, puzzles, limit=limit, timeout=timeout, node_limit=node_limit)


class CountingOutbox:
    """Takes the worker's packed answers and keeps only how many there were."""

    def __init__(self) -> None:
        self.answers = 0

    def add(self, packed: tuple[Any, ...]) -> None:
        self.answers += 1


def through_worker(
    backend: Backend, solver: BitboardJitSolver, lines: list[str], limit: int
) -> Callable[[], None]:
    settings = Settings(float("inf"), limit, resources=False, whole_batches=True)
    solvers: dict[str, Solver[Any]] = {backend.name: solver}
    rules = next(iter(load("17clue"))).puzzle.rules.spec
    jobs = [(key, backend, rules, line) for key, line in enumerate(lines)]

    def run() -> None:
        outbox = CountingOutbox()
        for start in range(0, len(jobs), BATCH):
            _run_many(jobs[start : start + BATCH], settings, solvers, None, outbox)  # type: ignore[arg-type]
        assert outbox.answers == len(jobs)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=int, default=1)
    args = parser.parse_args()
    puzzles = [entry.puzzle for entry in load("17clue")] * args.times
    lines = [puzzle.to_line() for puzzle in puzzles]
    array = np.array([puzzle.values for puzzle in puzzles], dtype=np.uint8)
    solver, one_by_one = BitboardJitSolver(), OneByOne()
    backend = get("bitboard-jit")
    many = list(solver.solve_many(puzzles, limit=args.limit))
    each = [solver.solve(puzzle, limit=args.limit) for puzzle in puzzles]
    for got, expected in zip(many, each, strict=True):
        assert (got.status, got.solutions, got.exhausted, got.counters) == (
            expected.status,
            expected.solutions,
            expected.exhausted,
            expected.counters,
        )
    contenders: dict[str, Callable[[], object]] = {
        "solve_batch": lambda: solve_batch(array, limit=args.limit, threads=1),
        "solve_many": lambda: list(solver.solve_many(puzzles, limit=args.limit)),
        "solve each": lambda: [solver.solve(puzzle, limit=args.limit) for puzzle in puzzles],
        "worker, solve_many": through_worker(backend, solver, lines, args.limit),
        "worker, solve each": through_worker(backend, one_by_one, lines, args.limit),
    }
    load_before = os.getloadavg()
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, run in contenders.items():
            start = time.process_time()
            run()
            best[name] = min(best.get(name, float("inf")), time.process_time() - start)
    print(
        f"{len(puzzles):,} 17-clue puzzles, limit {args.limit}, best of {args.repeat} passes; "
        f"load average before {load_before}, after {os.getloadavg()}"
    )
    print(
        tabulate(
            [[name, seconds / len(puzzles) * 1e6] for name, seconds in best.items()],
            headers=["path", "CPU µs per puzzle"],
            floatfmt=".1f",
        )
    )


if __name__ == "__main__":
    main()
