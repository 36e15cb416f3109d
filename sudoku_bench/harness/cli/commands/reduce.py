"""`sudoku-bench reduce PUZZLE --to TARGET`: show or export the model a reduction builds."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sudoku_bench.harness.cli.arguments import positive_float
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_inputs
from sudoku_bench.harness.cli.output import print_json, write_output
from sudoku_bench.harness.running.alarm import time_limit
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.reductions import REDUCTIONS


def add_parser(subparsers: Any) -> None:
    names = list(REDUCTIONS)
    parser = subparsers.add_parser(
        "reduce",
        help="show the model a reduction builds (size, export to a standard file)",
        description="Reduce a puzzle to a model and print its size; -o writes the model "
        "in its export format. Targets: "
        + "; ".join(f"{entry.target}: {entry.help}" for entry in REDUCTIONS.values()),
    )
    add_puzzle_arguments(parser, nargs=1)
    parser.add_argument(
        "--to",
        dest="target",
        choices=names,
        default=names[0],
        help="the model to build",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write the exported model here ('-' for stdout)",
    )
    parser.add_argument("--json", action="store_true", help="print the model's size as JSON")
    parser.add_argument(
        "--field",
        metavar="FIELD",
        help="polynomials only: the coefficient field, QQ (the default: the rationals) or "
        "GF(p) for a prime p, e.g. GF(32003), the groebner back-end's",
    )
    parser.add_argument(
        "--encoding",
        metavar="NAME",
        help="cnf: minimal, efficient or extended (the default), Lynce and Ouaknine's "
        "encodings; cp-model: integer (the default) or onehot",
    )
    parser.add_argument(
        "--givens",
        choices=("units", "simplify"),
        help="cnf only: givens as unit clauses (units, the default) or propagated away "
        "(simplify; with the extended encoding that is Kwon and Jain's optimised encoding)",
    )
    parser.add_argument(
        "--model",
        choices=("reduced", "textbook"),
        help="milp only: the program over the candidates left by the givens (reduced, the "
        "default) or the textbook one (all N^3 binaries, each given as an equation x = 1)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="give up building (and exporting) the model after S seconds (default: none); "
        "big polynomial ideals take minutes",
    )
    parser.set_defaults(run=run)


# which targets take which of the model options above
TARGET_OPTIONS = {
    "encoding": ("cnf", "cp-model"),
    "givens": ("cnf",),
    "model": ("milp",),
}


@contextlib.contextmanager
def building(what: str, timeout: float | None) -> Iterator[None]:
    """Say what is being built while it is (a spinner on a terminal: a 16x16 ideal takes
    a minute) and stop it at the time limit."""
    from rich.console import Console  # here: every command imports this module

    status = (
        Console(stderr=True).status(f"{what}...")
        if sys.stderr.isatty()
        else contextlib.nullcontext()
    )
    with status, time_limit(timeout, what):
        yield


def run(args: argparse.Namespace) -> int:
    options: dict[str, Any] = {}
    if args.field is not None:
        if args.target != "polynomials":
            raise SudokuBenchError(f"--field is for --to polynomials, not --to {args.target}")
        from sudoku_bench.reductions.polynomial import field_modulus  # imported when asked for

        options["modulus"] = field_modulus(args.field)
    for option, targets in TARGET_OPTIONS.items():
        value = getattr(args, option)
        if value is None:
            continue
        if args.target not in targets:
            raise SudokuBenchError(
                f"--{option} is for --to {' or --to '.join(targets)}, not --to {args.target}"
            )
        options[option] = value
    if args.target == "polynomials" and args.output is not None:
        # the script's recipe loads the file by its name
        options["script"] = "sudoku.sing" if str(args.output) == "-" else str(args.output)
    try:
        reduction = REDUCTIONS[args.target].create(**options)  # argparse checked the name
    except ValueError as error:  # an --encoding the target does not know
        raise SudokuBenchError(str(error)) from None
    entries = read_inputs(args)
    if len(entries) > 1:  # a model is of one puzzle; quietly taking the first would mislead
        raise SudokuBenchError(
            f"reduce builds the model of one puzzle, and {args.inputs[0]} holds "
            f"{len(entries)}: name one by its id, e.g. {entries[0].id}"
        )
    entry = entries[0]
    if not reduction.accepts(entry.puzzle.rules):
        missing = ", ".join(reduction.missing(entry.puzzle.rules))
        raise SudokuBenchError(
            f"the {args.target} reduction cannot express {missing}: "
            f"its model would leave those rules out"
        )
    what = f"building the {args.target} model of {entry.id} ({entry.puzzle.rules})"
    with building(what, args.timeout):
        summary: dict[str, Any] = {
            "id": entry.id,
            "target": args.target,
            **reduction.describe(entry.puzzle),
        }
    to_stdout = args.output is not None and str(args.output) == "-"
    out = sys.stderr if to_stdout else sys.stdout  # with `-o -` the model owns stdout
    if args.json:
        print_json(summary, out)
    else:
        for key, value in summary.items():
            print(f"{key}: {value}", file=out)
    if args.output is not None:
        with building(what.replace("building", "exporting", 1), args.timeout):
            text = reduction.export(entry.puzzle)
        if str(args.output) == "-":
            sys.stdout.write(text)
        else:
            write_output(args.output, text)
            print(f"wrote {args.output}", file=sys.stderr)
    return 0
