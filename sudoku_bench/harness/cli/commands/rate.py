"""`sudoku-bench rate PUZZLE`: difficulty by the hardest human technique needed, and steps."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.cli.arguments import positive_float
from sudoku_bench.harness.cli.commands.explain import add_uniqueness_argument, logic_backend
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_inputs
from sudoku_bench.harness.cli.output import print_json, result_record
from sudoku_bench.harness.generating.rating import LABELS, NO_SOLUTION, level_table, rating_of
from sudoku_bench.harness.running.solving import Answer, solve_all
from sudoku_bench.puzzles.errors import SudokuBenchError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rate",
        help="rate difficulty: easy / medium / hard / expert / extreme / beyond logic",
        description="Rate each puzzle by the hardest human technique the logic back-end needs "
        "(its level is the label; extreme = forcing chains or nets, nested too) and the number of steps "
        "(the score weighs each step 1 easy, 3 medium, 10 hard, 30 expert, 100 extreme). The "
        "estimate is a number in the spirit of Sudoku Explainer: the weight of the hardest "
        "step (1.0 up; forcing steps as SE rates chains, by kind and size: 8.0 and up; 13.0 "
        "when the solver gives up), with the number of hard steps to "
        "break ties. 'beyond logic': no technique finishes it (it has several solutions, or "
        "needs more than nested forcing nets). --levels prints the technique table with weights.",
    )
    add_puzzle_arguments(parser, nargs="*")
    parser.add_argument("--levels", action="store_true", help="print the technique-to-level table")
    parser.add_argument("--techniques", metavar="KEYS", help="use only these techniques (keys)")
    parser.add_argument(
        "--timeout", type=positive_float, metavar="S", help="per puzzle, in seconds"
    )
    add_uniqueness_argument(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle: the solve record plus rating, hardest, steps, score, "
        "techniques, estimate, hard_steps",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.levels and args.inputs:  # the puzzles were silently left unrated
        raise SudokuBenchError(
            "--levels prints the table of techniques and rates nothing: give it no PUZZLE"
        )
    if args.levels or not args.inputs:
        print(tabulate(level_table(), headers=["level", "techniques"]))
        return 0
    entries = read_inputs(args)
    rows = []
    labels: Counter[str] = Counter()

    def show(answer: Answer) -> None:
        entry, result = answer.entry, answer.result
        answer.report_failure()
        rating = rating_of(result)
        labels[rating.label] += 1
        if args.json:
            print_json(result_record(entry, result) | rating.record())
        else:
            empty = len(entry.puzzle.empty_cells)
            estimate = "-" if rating.estimate is None else f"{rating.estimate:.1f}"
            rows.append(
                [
                    entry.id,
                    rating.label,
                    estimate,
                    rating.hard_steps,
                    rating.hardest or "-",
                    rating.steps,
                    rating.score,
                    empty,
                ]
            )

    solve_all(entries, [logic_backend(args)], show, limit=1, timeout=args.timeout)
    if not args.json:
        headers = ["puzzle", "rating", "estimate", "hard steps", "hardest", "steps", "score"]
        print(tabulate(rows, headers=[*headers, "empty"]))
        if len(rows) > 1:
            summary = ", ".join(
                f"{label} {labels[label]}" for label in (*LABELS, NO_SOLUTION) if labels[label]
            )
            print(f"\n{len(rows)} puzzles: {summary}")
    return 0
