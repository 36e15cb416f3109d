"""Which method wins where: puzzles per CPU-second per back-end on each variant kind, beside a peer.

The puzzles: the bundled variant collections (one per kind under `sudoku_bench/puzzles/data/variants/`,
30 unique 6x6 puzzles each, and `mixed`) plus `killer` (9x9). The contenders: every chosen
back-end (`--solvers`, default `all`: the available back-ends that `-s all` picks; `every`:
each registered configuration) that accepts the kind's puzzles (`create(name).accepts(rules)`);
a back-end that accepts only part of a collection is left out of that kind. Each solves every puzzle to a limit of 2 (a
solution and the proof that there is no second, the harness's job), with the solvers' own
`timeout` per puzzle. Every answer is checked against the collection's solution: a wrong
or missing answer, or a second solution, is an error in the table, never a speed.

The peer: a CP-SAT model written here from the constraint objects' own data (cells and
units, each pair's `allows` table, each equation's terms and total, each table's rows,
each cage's cells and sum), with nothing imported from `reductions`, so it is independent
of the project's encodings. It finds a solution, then forbids it and proves the rest
infeasible (the same count-to-2 work), on one worker. For killer, OR-Tools' example model
(examples/contrib/killer_sudoku.py: all-different per row, column, box and cage, and each
cage's sum) is the same as this model's cage encoding; the repository bundles that
example's puzzle (`ortools-killer`), not its code.

A whole-set pass is timed in CPU time (`time.process_time`); the contenders' passes
alternate (back-end 1, 2, ..., peer, then again) `--repeat` times, and the table gives the
BEST (least CPU) pass as puzzles per CPU-second, the winner per kind marked `*` (the peer
is not a contender for the mark). A back-end that times out on a puzzle stops that kind
(`timeout`, not a speed); so does `gave up` (an incomplete method, `logic`, stopped
without an answer); `error` is a wrong answer or a failure.

    PYTHONPATH=. python benchmarks/bench_variants.py [--repeat 3] [--timeout 5] \
        [--solvers all|every|a,b,...] [--kinds thermometer,killer,...] [--puzzles 30] [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ortools.sat.python import cp_model
from tabulate import tabulate

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints.base import (
    CellDigits,
    LinearConstraint,
    PairConstraint,
    SumConstraint,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.formats.common import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers import Solver, Status, backends, create, select

PEER = "peer (CP-SAT)"
QUICK_SOLVERS = "cpsat,sat,dlx,propagating"
QUICK_PUZZLES = 3


def variant_kinds() -> list[str]:
    """The bundled variant collections' names (`little-killer`, ..., `mixed`), then `killer`."""
    folder = resources.files("sudoku_bench.puzzles").joinpath("data", "variants")
    names = sorted(
        item.name.removesuffix(".jsonl").replace("_", "-")
        for item in folder.iterdir()
        if item.name.endswith(".jsonl") and not item.name.startswith(".")
    )
    return [*names, "killer"]


class PeerUnsupportedError(Exception):
    """A constraint of a family the peer model does not write."""


class PeerModel:
    """The independent CP-SAT model of one puzzle, built from the constraints' data."""

    def __init__(self, puzzle: Grid) -> None:
        rules = puzzle.rules
        size = rules.size
        model = cp_model.CpModel()
        cells = [model.new_int_var(1, size, f"c{cell}") for cell in range(rules.cell_count)]
        for cell, value in enumerate(puzzle.values):
            if value:
                model.add(cells[cell] == value)
        for unit in rules.units:  # rows, columns, regions and every UnitConstraint's units
            model.add_all_different([cells[cell] for cell in unit])
        digits = range(1, size + 1)
        shape = rules.shape
        for constraint in rules.constraints:
            if isinstance(constraint, UnitConstraint):
                continue  # in `rules.units` above
            if isinstance(constraint, PairConstraint):
                allowed = [(a, b) for a in digits for b in digits if constraint.allows(a, b)]
                for first, second in constraint.pairs(shape):
                    model.add_allowed_assignments([cells[first], cells[second]], allowed)
            elif isinstance(constraint, LinearConstraint):
                for equation in constraint.equations(shape):
                    terms = [k * cells[cell] for cell, k in equation.terms]
                    model.add(sum(terms) == equation.total)
            elif isinstance(constraint, TableConstraint):
                for table in constraint.tables(shape):
                    # one selector per row (rows are exclusive); 0 in a row: any digit there
                    chosen = [model.new_bool_var("") for _ in table.rows]
                    model.add_exactly_one(chosen)
                    for row, selector in zip(table.rows, chosen, strict=True):
                        for cell, digit in zip(table.cells, row, strict=True):
                            if digit:
                                model.add(cells[cell] == digit).only_enforce_if(selector)
            elif isinstance(constraint, SumConstraint):
                summed = [cells[cell] for cell in constraint.summed]
                if constraint.distinct:
                    model.add_all_different(summed)
                if constraint.target is not None:
                    model.add(sum(summed) == constraint.target)
            elif isinstance(constraint, CellDigits):
                for cell, allowed_digits in constraint.allowed(shape).items():
                    model.add_allowed_assignments([cells[cell]], [(d,) for d in allowed_digits])
            else:
                raise PeerUnsupportedError(type(constraint).__name__)
        self.model = model
        self.cells = cells

    def count_to_two(self, timeout: float) -> tuple[list[tuple[int, ...]], bool]:
        """Up to two solutions and whether the search finished (False: timed out)."""
        deadline = time.perf_counter() + timeout
        found: list[tuple[int, ...]] = []
        for _ in range(2):
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.001)
            status = solver.solve(self.model)
            if status == cp_model.INFEASIBLE:
                return found, True
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return found, False
            values = tuple(int(solver.value(cell)) for cell in self.cells)
            found.append(values)
            # forbid this solution: some cell differs
            differs = [self.model.new_bool_var("") for _ in self.cells]
            for cell, value, flag in zip(self.cells, values, differs, strict=True):
                self.model.add(cell != value).only_enforce_if(flag)
            self.model.add_bool_or(differs)
        return found, True


@dataclass
class Outcome:
    """One contender's passes over one kind: CPU seconds per pass, or why it has none."""

    passes: list[float]
    failure: str = ""  # "timeout (puzzle id)", "error: ..."; "" when every pass answered


def backend_pass(solver: Solver[Any], entries: Sequence[PuzzleEntry], timeout: float) -> float:
    """CPU seconds of one pass; raises `PassFailedError` on a timeout or a wrong answer."""
    start = time.process_time()
    for entry in entries:
        result = solver.solve(entry.puzzle, limit=2, timeout=timeout)
        if result.status is Status.TIMEOUT:
            raise PassFailedError(f"timeout ({entry.id})")
        if result.status is Status.GAVE_UP:  # an incomplete method (logic): no answer, not wrong
            raise PassFailedError(f"gave up ({entry.id})")
        if result.status is not Status.SOLVED or result.count != 1:
            raise PassFailedError(f"error: {result.status} {result.count} ({entry.id})")
        assert entry.solution is not None
        if result.solutions[0].values != entry.solution.values:
            raise PassFailedError(f"error: wrong answer ({entry.id})")
    return time.process_time() - start


def peer_pass(entries: Sequence[PuzzleEntry], timeout: float) -> float:
    """CPU seconds of one pass of the peer model (built and solved per puzzle)."""
    start = time.process_time()
    for entry in entries:
        try:
            found, finished = PeerModel(entry.puzzle).count_to_two(timeout)
        except PeerUnsupportedError as error:
            raise PassFailedError(f"unsupported: {error}") from None
        if not finished:
            raise PassFailedError(f"timeout ({entry.id})")
        assert entry.solution is not None
        if len(found) != 1 or found[0] != entry.solution.values:
            raise PassFailedError(f"error: {len(found)} solutions or wrong ({entry.id})")
    return time.process_time() - start


class PassFailedError(Exception):
    """A pass that did not answer every puzzle right: the message is the table's cell."""


def run_kind(
    entries: Sequence[PuzzleEntry], solvers: dict[str, Solver[Any]], repeat: int, timeout: float
) -> dict[str, Outcome]:
    """Every contender's passes over `entries`, alternating, `repeat` times."""
    outcomes = {name: Outcome([]) for name in [*solvers, PEER]}
    for _ in range(repeat):
        for name, outcome in outcomes.items():
            if outcome.failure:
                continue
            try:
                if name == PEER:
                    outcome.passes.append(peer_pass(entries, timeout))
                else:
                    outcome.passes.append(backend_pass(solvers[name], entries, timeout))
            except PassFailedError as failure:
                outcome.failure = str(failure)
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="passes per contender (best kept)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per puzzle")
    parser.add_argument(
        "--solvers",
        default="all",
        help="comma-separated back-ends, all, or every (each registered configuration)",
    )
    parser.add_argument("--kinds", default="", help="comma-separated collections (default: all)")
    parser.add_argument("--puzzles", type=int, default=0, help="puzzles per kind (0: all)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_PUZZLES} puzzles per kind, back-ends {QUICK_SOLVERS} (a smoke run)",
    )
    parser.add_argument("--format", default="simple", help="tabulate's table format (github)")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k] or variant_kinds()
    solver_names = QUICK_SOLVERS if args.quick and args.solvers == "all" else args.solvers
    puzzles = QUICK_PUZZLES if args.quick and not args.puzzles else args.puzzles
    # `every`: each registered configuration (sat-minimal, cpsat-onehot, ...), not only `all`'s
    picked = backends() if solver_names == "every" else select(solver_names)
    chosen = [backend for backend in picked if backend.available()]
    instances = {backend.name: create(backend.name) for backend in chosen}
    columns = [*instances, PEER]
    rows = []
    for kind in kinds:
        entries = load(kind)
        if puzzles:
            entries = entries[:puzzles]
        accepting = {
            name: solver
            for name, solver in instances.items()
            if all(solver.accepts(entry.puzzle.rules) for entry in entries)
        }
        began = time.perf_counter()
        outcomes = run_kind(entries, accepting, args.repeat, args.timeout)
        rates = {
            name: len(entries) / min(outcome.passes)
            for name, outcome in outcomes.items()
            if not outcome.failure and outcome.passes and min(outcome.passes) > 0
        }
        ours = {name: rate for name, rate in rates.items() if name != PEER}
        winner = max(ours, key=ours.__getitem__) if ours else ""
        row: list[str] = [f"{kind} ({len(entries)})"]
        for name in columns:
            if name not in outcomes:
                row.append("-")
            elif outcomes[name].failure:
                row.append(outcomes[name].failure.split(" (")[0])
            else:
                row.append(f"{rates[name]:.1f}{' *' if name == winner else ''}")
        row.append(winner)
        rows.append(row)
        print(f"{kind}: {time.perf_counter() - began:.0f} s wall;", flush=True)
        for name, outcome in outcomes.items():
            if outcome.failure:
                print(f"  {name}: {outcome.failure}", flush=True)
    # a back-end that accepts none of the kinds gets no column, only a line below the table
    unused = [i + 1 for i, name in enumerate(columns) if all(row[i + 1] == "-" for row in rows)]
    headers = ["kind (puzzles)", *columns, "winner"]
    kept = [i for i in range(len(headers)) if i not in unused]
    print()
    print(
        f"puzzles per CPU-second (best of {args.repeat} alternating passes, limit 2, "
        f"timeout {args.timeout:g} s per puzzle); '-': does not accept the kind; * the winner"
    )
    print(
        tabulate(
            [[row[i] for i in kept] for row in rows],
            headers=[headers[i] for i in kept],
            tablefmt=args.format,
            disable_numparse=True,
        )
    )
    if unused:
        print(f"accepting none of these kinds: {', '.join(headers[i] for i in unused)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
