"""`sudoku-bench count PUZZLE...`: count solutions up to a limit: none, unique or multiple."""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness import defaults
from sudoku_bench.harness.certifying.certifier import HELP as CERTIFY_HELP
from sudoku_bench.harness.certifying.certifier import Certifier, InOrder
from sudoku_bench.harness.cli.arguments import add_solver_arguments
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_options, stream_inputs
from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.running.solving import Answer, Solving, choose, format_seconds

EXAMPLES = """\
examples:
  sudoku-bench count top95                  # verdict per puzzle: none / unique / multiple
  sudoku-bench count ................ --limit 1000 -s backtracking,propagating   # 288
  sudoku-bench count multi --json
  sudoku-bench count top95 -s dlx --certify # each verdict proven (DRAT proof, checked)
"""

VERDICTS = ("none", "unique", "multiple", "unknown")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "count",
        help="count solutions up to --limit (default 2: none / unique / multiple)",
        description="Count the solutions of each puzzle with each chosen back-end, stopping "
        "at --limit. A count is exact when the search ended before the limit; the verdict "
        "is none, unique, multiple, or unknown (timeout, error). Every returned grid is "
        "checked by the rule checker; a wrong one makes the exit code 1.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser)
    add_solver_arguments(parser, default_limit=defaults.COUNT_LIMIT)
    parser.add_argument("--certify", action="store_true", help=CERTIFY_HELP)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backends = choose(args.solver)
    alphabet = read_options(args).alphabet
    tally = Tally()  # not the answers themselves: a file may hold millions of puzzles

    certifier = Certifier(check_timeout=args.timeout) if args.certify else None

    def emit(answer: Answer) -> None:
        certificate = None
        if certifier is not None:
            result = answer.result
            certificate = certifier.certificate(
                answer.entry.puzzle, result.verdict, result.solutions
            )
        if args.json:
            record = answer.record(alphabet)
            if certifier is not None:
                record["certified"] = certificate.outcome if certificate else None
                record["certificate"] = certificate.record() if certificate else None
            print_json(record, flush=False)
        else:
            line = count_line(answer)
            if certifier is not None:
                line += "  " + (certificate.words() if certificate else "not certified (unknown)")
            print(line)
        answer.report_failure()
        tally.add(answer)

    # proofs are made and checked beside the solving, never holding up the pool's clock
    in_order = InOrder() if certifier is not None else None

    def show(answer: Answer) -> None:
        if in_order is None:
            emit(answer)
        else:
            in_order.submit(lambda: emit(answer))

    with Solving(backends, limit=args.limit, timeout=args.timeout) as solving:
        # read as they are solved: a file of millions of puzzles is never held whole
        puzzles = solving.run(stream_inputs(args), show, after_answers=sys.stdout.flush)
    if in_order is not None:
        in_order.close()
        sys.stdout.flush()
    if not args.json and puzzles > 1:
        print()
        print(tally.table())
    if certifier is not None:
        print(certifier.summary(), file=sys.stderr if args.json else sys.stdout)
    return 1 if tally.failed or (certifier is not None and certifier.failed) else 0


def count_line(answer: Answer) -> str:
    result = answer.result
    count = str(result.count) if result.exact else f">={result.count}"
    exactness = "exact" if result.exact else result.status.value
    line = (
        f"{answer.entry.id}  {result.solver}  {count}  {exactness}  {result.verdict}  "
        f"{format_seconds(result.total_s)}"
    )
    if result.message:
        line += f"  ({result.message})"
    return line


class Tally:
    """Per back-end: how many puzzles got each verdict, wrong answers, total time."""

    def __init__(self) -> None:
        self.verdicts: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.failed = False  # a wrong grid or a crashed back-end

    def add(self, answer: Answer) -> None:
        solver = answer.result.solver
        self.verdicts[solver][answer.result.verdict] += 1
        self.verdicts[solver]["wrong"] += answer.wrong
        self.seconds[solver] += answer.result.total_s
        self.failed = self.failed or answer.failed

    def table(self) -> str:
        rows = [
            [solver, sum(counts[v] for v in VERDICTS)]
            + [counts[v] for v in (*VERDICTS, "wrong")]
            + [format_seconds(self.seconds[solver])]
            for solver, counts in self.verdicts.items()
        ]
        headers = ["solver", "puzzles", *VERDICTS, "wrong", "total time"]
        return tabulate(rows, headers=headers)
