"""`sudoku-bench solve PUZZLE...`: solve puzzles with one or more back-ends, every answer checked."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sudoku_bench.harness import defaults
from sudoku_bench.harness.cli.arguments import add_solver_arguments
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_options, stream_inputs
from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.running.solving import Answer, Solving, choose, format_seconds
from sudoku_bench.puzzles.symbols import Alphabet
from sudoku_bench.solvers.base import Status

EXAMPLES = """\
examples:
  sudoku-bench solve 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
  sudoku-bench solve seeds -s backtracking,propagating
  sudoku-bench solve top95 --line --timeout 5
  sudoku-bench solve multi --limit 2 --json
"""


# What the status of an answer without a solution says, in words.
UNSOLVED = {
    Status.NO_SOLUTION: "no solution",
    Status.TIMEOUT: "timed out",
    Status.GAVE_UP: "gave up",
    Status.ERROR: "error",
    Status.UNSUPPORTED: "unsupported",
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
    add_solver_arguments(parser, default_limit=defaults.SOLVE_LIMIT)
    parser.add_argument(
        "--line", action="store_true", help="print each solution as one line, not a picture"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backends = choose(args.solver)
    alphabet = read_options(args).alphabet  # write solutions the way the puzzles were read
    failed = 0

    def show(answer: Answer) -> None:
        nonlocal failed
        if args.json:
            print_json(answer.record(alphabet), flush=False)
        else:
            print_answer(answer, alphabet, line=args.line, limit=args.limit)
        answer.report_failure()
        failed += answer.failed

    with Solving(backends, limit=args.limit, timeout=args.timeout) as solving:
        # read as they are solved: a file of millions of puzzles is never held whole
        solving.run(stream_inputs(args), show, after_answers=sys.stdout.flush)
    return 1 if failed else 0


def print_answer(answer: Answer, alphabet: Alphabet, *, line: bool, limit: int = 1) -> None:
    result = answer.result
    head = f"{answer.entry.id}  {result.solver}  {describe_outcome(answer, limit)}"
    text = [f"{head}  {describe_times(answer)}\n"]
    if result.message:
        text.append(f"  {result.message}\n")
    for grid in result.solutions:
        text.append(f"{grid.to_line(alphabet)}\n" if line else f"{grid.picture(alphabet)}\n\n")
    sys.stdout.write("".join(text))  # one write: `solve FILE` prints thousands of answers


def describe_outcome(answer: Answer, limit: int) -> str:
    """`solved`, or what kept the back-end from it; counting words only when more than one
    solution was asked for (`--limit`), which is `count`'s business otherwise."""
    result = answer.result
    if not result.solutions:
        return UNSOLVED.get(result.status, result.status.value)
    late = "timed out, " if result.status == Status.TIMEOUT else ""
    if limit == 1:
        return f"{late}solved"
    noun = "solution" if result.count == 1 else "solutions"
    if result.exact:
        return f"{late}solved: {result.count} {noun} (all of them)"
    why = "the limit" if result.count >= limit else "the search did not end"
    return f"{late}solved: {result.count} {noun} ({why}; there may be more)"


def describe_times(answer: Answer) -> str:
    result = answer.result
    guesses = "-" if result.guesses is None else result.guesses
    return (
        f"build {format_seconds(result.build_s)}  search {format_seconds(result.search_s)}  "
        f"nodes {result.nodes}  guesses {guesses}"
    )
