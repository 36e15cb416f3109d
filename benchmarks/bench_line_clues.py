"""Outside clues (sandwich, X-sum, skyscraper) as tables or as automata: puzzles per CPU-second.

The models that take both forms (CP-SAT, SAT, MILP) write a clue as its table of fillings when
the table has at most `encoding.TABLE_ROWS_AT_MOST` rows, else as its automaton. This script
sets that bound in one process to compare three forms side by side: `table` (every clue a
table, as far as tables are listed: 9x9), `automaton` (every clue an automaton) and `chosen`
(the default bound). The puzzles: the bundled 6x6 collections of each kind (30 each) and 9x9
and 12x12 puzzles made here from a seeded full grid with up to 10 clues of the kind and 40%
of the cells given (`--puzzles` of each; 12x12 only as automata, its tables are not listed).

Each puzzle is solved to a limit of 2 by every back-end in every form; the answers of the
forms must agree on the verdict (none, unique, multiple) and on a unique solution, and every
grid returned must keep the rules (a disagreement is reported and the script exits 1). A form's pass over a
set is timed in CPU time (`time.process_time`); the passes alternate form by form
`--repeat` times and the best pass is kept.

    PYTHONPATH=. python benchmarks/bench_line_clues.py [--repeat 2] [--puzzles 6] \
        [--solvers cpsat,cpsat-onehot,sat,milp] [--timeout 60]

With `--propagating`, the same comparison for the `propagating` engine, which propagates a
clue either by its table's support (`table`, as far as tables are listed) or by its
automaton's REGULAR filtering (`automaton`; `solver.TABLES_TO` chooses, set here): the
first `--puzzles` puzzles of the bundled 9x9 collections `sandwich-9x9`, `x-sum-9x9` and
`skyscraper-9x9`, and `--puzzles` 12x12 puzzles made as above (automaton only); search
nodes summed beside the puzzles per CPU-second.

    PYTHONPATH=. python benchmarks/bench_line_clues.py --propagating [--puzzles 10] \
        [--repeat 1] [--sizes 9,12]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from tabulate import tabulate

from sudoku_bench.puzzles import GridShape, Rules
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints import Sandwich, Skyscraper, XSum
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions import cnf, encoding
from sudoku_bench.solvers.base import Result
from sudoku_bench.solvers.engines.propagating import solver as propagating
from sudoku_bench.solvers.registry import create

ClueKind = type[Sandwich] | type[XSum] | type[Skyscraper]
KINDS: dict[str, ClueKind] = {"sandwich": Sandwich, "x-sum": XSum, "skyscraper": Skyscraper}
FORMS = {"table": 10**9, "automaton": -1, "chosen": encoding.TABLE_ROWS_AT_MOST}
VERDICTS = ("none", "unique", "multiple")
BROKEN = "a grid that breaks the rules"


def made_puzzles(kind: ClueKind, size: int, count: int) -> list[Grid]:
    """`count` puzzles of `size` with up to 10 clues of `kind` from a seeded full grid (boxes
    of h rows and w columns, digits relabelled) and 40% of the cells given."""
    shape = GridShape.of_size(size)
    h = len({shape.row_of(cell) for cell in shape.regions[0]})
    w = size // h
    puzzles = []
    for seed in range(count):
        rng = random.Random(f"{kind.kind}-{size}-{seed}")
        digits = list(range(1, size + 1))
        rng.shuffle(digits)
        solution = [
            digits[(w * (r % h) + r // h + c) % size] for r in range(size) for c in range(size)
        ]
        clues = kind.candidates(solution, shape, rng)[:10]
        values = list(solution)
        for cell in rng.sample(range(size * size), size * size * 6 // 10):
            values[cell] = 0
        puzzles.append(Grid(Rules.from_constraints(shape, clues), tuple(values)))
    return puzzles


Answer = tuple[str, tuple[int, ...] | None]


def one_pass(
    solver_name: str, puzzles: Sequence[Grid], timeout: float
) -> tuple[float, list[Answer]]:
    """CPU seconds of solving every puzzle to a limit of 2, and each answer: its verdict
    (none, unique, multiple; or the status when it did not finish) and the solution when
    unique. Every grid returned is checked against the rules."""
    cnf.FamilyVariables.of.cache_clear()  # numbered for the form in force
    cnf._rules.cache_clear()
    solver = create(solver_name)
    results = []
    start = time.process_time()
    for puzzle in puzzles:
        results.append(solver.solve(puzzle, limit=2, timeout=timeout))
    seconds = time.process_time() - start
    return seconds, answers_of(puzzles, results)


def answers_of(puzzles: Sequence[Grid], results: Sequence[Result]) -> list[Answer]:
    """Each result as what the forms must agree on: its verdict and unique grid, BROKEN for a
    grid the checker rejects, or its status when it did not finish."""
    answers: list[Answer] = []
    for puzzle, result in zip(puzzles, results, strict=True):
        if not all(is_solution(puzzle, grid) for grid in result.solutions):
            answers.append((BROKEN, None))
        elif result.exact or result.count == 2:
            unique = result.solutions[0].values if result.count == 1 else None
            answers.append((result.verdict.value, unique))
        else:
            answers.append((result.status.value, None))
    return answers


PROPAGATING_FORMS: dict[str, int | None] = {"table": 9, "automaton": None}  # TABLES_TO


def propagating_pass(puzzles: Sequence[Grid], timeout: float) -> tuple[float, int, list[Answer]]:
    """`one_pass` for `propagating` under the form in force, with its nodes summed."""
    propagating.tables_for.cache_clear()  # type: ignore[attr-defined]  # built per form
    solver = create("propagating")
    results = []
    start = time.process_time()
    for puzzle in puzzles:
        results.append(solver.solve(puzzle, limit=2, timeout=timeout))
    seconds = time.process_time() - start
    answers = answers_of(puzzles, results)
    nodes = sum(int(result.counters.get("nodes", 0)) for result in results)
    return seconds, nodes, answers


def compare_propagating(args: argparse.Namespace) -> int:
    """Table against automaton for `propagating`: puzzles per CPU-second and nodes."""
    sizes = {int(size) for size in args.sizes.split(",")}
    sets: list[tuple[str, int, list[Grid]]] = []
    for name in args.kinds.split(","):
        if 9 in sizes:
            entries = load(f"{name}-9x9")[: args.puzzles]
            sets.append((name, 9, [entry.puzzle for entry in entries]))
        for size in sorted(sizes - {9}):
            sets.append((name, size, made_puzzles(KINDS[name], size, args.puzzles)))
    rows = []
    disagreements = 0
    for name, size, puzzles in sets:
        forms = [form for form, to in PROPAGATING_FORMS.items() if to is None or size <= to]
        best: dict[str, float] = {}
        nodes: dict[str, int] = {}
        answers: dict[str, list[Answer]] = {}
        for _ in range(args.repeat):
            for form in forms:
                propagating.TABLES_TO = PROPAGATING_FORMS[form]
                seconds, counted, found = propagating_pass(puzzles, args.timeout)
                best[form] = min(best.get(form, seconds), seconds)
                nodes[form] = counted
                answers.setdefault(form, found)
        propagating.TABLES_TO = None
        finished = {form for form, found in answers.items() if all(a[0] in VERDICTS for a in found)}
        if len({tuple(answers[form]) for form in finished}) > 1 or any(
            a[0] == BROKEN for found in answers.values() for a in found
        ):
            disagreements += 1
            print(f"DISAGREEMENT: {name} {size}x{size} propagating", file=sys.stderr)
        cells = []
        for form in PROPAGATING_FORMS:
            if form not in best:
                cells += ["-", "-"]
            elif form not in finished:
                cells += ["timeout", str(nodes[form])]
            else:
                cells += [f"{len(puzzles) / best[form]:.2f}", str(nodes[form])]
        rows.append([f"{name} {size}x{size} ({len(puzzles)})", *cells])
        print(f"{rows[-1]}", file=sys.stderr)
    print(
        f"propagating: puzzles per CPU-second (best of {args.repeat} alternating passes, "
        "limit 2) and search nodes summed; '-': tables are not listed past 9x9"
    )
    headers = ["puzzles", "table /s", "table nodes", "automaton /s", "automaton nodes"]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    return 1 if disagreements else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--puzzles", type=int, default=6, help="made puzzles per kind and size")
    parser.add_argument("--solvers", default="cpsat,cpsat-onehot,sat,milp")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help="comma-separated: " + ", ".join(KINDS)
    )
    parser.add_argument("--sizes", default="6,9,12", help="comma-separated: 6, 9, 12")
    parser.add_argument(
        "--propagating",
        action="store_true",
        help="compare propagating's two forms instead (9x9 collections, made 12x12 puzzles)",
    )
    args = parser.parse_args(argv)
    if args.propagating:
        if args.sizes == parser.get_default("sizes"):
            args.sizes = "9,12"
        return compare_propagating(args)
    sizes = {int(size) for size in args.sizes.split(",")}
    sets: list[tuple[str, int, list[Grid]]] = []
    for name in args.kinds.split(","):
        kind = KINDS[name]
        if 6 in sizes:
            sets.append((name, 6, [entry.puzzle for entry in load(name)]))
        for size in sorted(sizes - {6}):
            sets.append((name, size, made_puzzles(kind, size, args.puzzles)))
    rows = []
    disagreements = 0
    for name, size, puzzles in sets:
        for solver in args.solvers.split(","):
            best: dict[str, float] = {}
            answers: dict[str, list[Answer]] = {}
            forms = ["automaton", "chosen"] if size > 9 else list(FORMS)
            for _ in range(args.repeat):
                for form in forms:
                    encoding.TABLE_ROWS_AT_MOST = FORMS[form]
                    seconds, found = one_pass(solver, puzzles, args.timeout)
                    best[form] = min(best.get(form, seconds), seconds)
                    answers.setdefault(form, found)
            encoding.TABLE_ROWS_AT_MOST = FORMS["chosen"]
            finished = {
                form for form, found in answers.items() if all(a[0] in VERDICTS for a in found)
            }
            if len({tuple(answers[form]) for form in finished}) > 1 or any(
                a[0] == BROKEN for found in answers.values() for a in found
            ):
                disagreements += 1
                print(f"DISAGREEMENT: {name} {size}x{size} {solver}", file=sys.stderr)
            rows.append(
                [
                    f"{name} {size}x{size} ({len(puzzles)})",
                    solver,
                    *(
                        "-"
                        if form not in best
                        else f"{len(puzzles) / best[form]:.1f}"
                        if form in finished
                        else "timeout"
                        for form in FORMS
                    ),
                ]
            )
            print(f"{rows[-1]}", file=sys.stderr)
    print(
        "puzzles per CPU-second (best of "
        f"{args.repeat} alternating passes, limit 2); '-': tables are not listed past 9x9; "
        "timeout: some puzzle was not finished within --timeout"
    )
    print(tabulate(rows, headers=["puzzles", "back-end", *FORMS], tablefmt="github"))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
