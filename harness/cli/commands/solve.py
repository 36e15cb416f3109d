"""`sudoku-bench solve PUZZLE...`: solve puzzles with one or more back-ends, every answer checked."""

from __future__ import annotations

import argparse
from typing import Any

from harness.cli.inputs import add_puzzle_arguments, read_inputs, read_options
from harness.cli.output import print_json
from harness.running.solving import (
    Answer,
    add_solver_arguments,
    answers,
    create_solvers,
    format_seconds,
)
from puzzles.symbols import Alphabet

EXAMPLES = """\
examples:
  sudoku-bench solve 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
  sudoku-bench solve seeds -s backtracking,propagating
  sudoku-bench solve top95 --line --timeout 5
  sudoku-bench solve multi --limit 2 --json
"""


LOWER_BOUND_REASONS = {
    "limit": "the limit was reached",
    "timeout": "timed out",
    "gave_up": "the back-end gave up",
}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve puzzles and print the solutions, with status, counts and times",
        description="Solve each puzzle with each chosen back-end. Every returned grid is "
        "checked by the independent rule checker; a wrong one is reported loudly and the "
        "exit code is 1.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser)
    add_solver_arguments(parser, default_limit=1)
    parser.add_argument(
        "--line", action="store_true", help="print each solution as one line, not a picture"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    entries = read_inputs(args)
    solvers = create_solvers(args.solver)
    alphabet = read_options(args).alphabet  # write solutions the way the puzzles were read
    failed = 0
    for answer in answers(entries, solvers, limit=args.limit, timeout=args.timeout):
        if args.json:
            print_json(answer.record(alphabet))
        else:
            print_answer(answer, alphabet, line=args.line)
        answer.report_failure()
        failed += answer.failed
    return 1 if failed else 0


def print_answer(answer: Answer, alphabet: Alphabet, *, line: bool) -> None:
    result = answer.result
    head = f"{answer.entry.id}  {result.solver}  {result.status.value}"
    print(f"{head}  {describe_count(answer)}  {describe_times(answer)}")
    if result.message:
        print(f"  {result.message}")
    for grid in result.solutions:
        if line:
            print(grid.to_line(alphabet))
        else:
            print(grid.picture(alphabet))
            print()


def describe_count(answer: Answer) -> str:
    result = answer.result
    noun = "solution" if result.count == 1 else "solutions"
    if result.exact:
        return f"{result.count} {noun} (exact)"
    reason = LOWER_BOUND_REASONS.get(result.status.value, result.status.value)
    return f"{result.count} {noun} (at least: {reason})"


def describe_times(answer: Answer) -> str:
    result = answer.result
    counters = f"nodes {result.nodes}  guesses {result.guesses}"
    return (
        f"build {format_seconds(result.build_s)}  search {format_seconds(result.search_s)}  "
        f"{counters}"
    )
