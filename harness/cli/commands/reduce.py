"""`sudoku-bench reduce PUZZLE --to TARGET`: show or export the model a reduction builds."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.cli.arguments import positive_float
from harness.cli.inputs import add_puzzle_arguments, read_inputs
from harness.cli.output import print_json, write_output
from harness.running.alarm import time_limit
from puzzles.errors import SudokuBenchError
from puzzles.grid import Grid


@dataclass(frozen=True)
class Target:
    """A model a puzzle can be reduced to.

    `module` provides two functions: `describe(puzzle) -> dict` (the model's size, for the
    summary and `--json`) and `export(puzzle) -> str` (the model in its documented text format).
    The module is imported only when the target is used.
    """

    name: str
    module: str
    help: str

    def function(self, name: str) -> Callable[[Grid], Any]:
        function: Callable[[Grid], Any] = getattr(importlib.import_module(self.module), name)
        return function


# One entry per reduction that can be shown; the first is the default.
TARGETS: tuple[Target, ...] = (
    Target(
        "exact-cover",
        "reductions.exact_cover",
        "placements x constraints 0/1 matrix; -o writes it in Knuth's DLX format",
    ),
    Target(
        "polynomials",
        "reductions.polynomial",
        "the thesis's polynomial ideal, givens substituted (Singular script)",
    ),
    Target(
        "cp-model",
        "reductions.cp_model",
        "OR-Tools CP-SAT model, an integer per cell and AllDifferent per unit "
        "(export: CpModelProto text format)",
    ),
    Target(
        "cnf",
        "reductions.cnf",
        "SAT formula, a variable per cell and digit, extended encoding, givens as unit clauses "
        "(export: DIMACS CNF)",
    ),
    Target(
        "milp",
        "reductions.milp",
        "0/1 integer program, the exact-cover matrix as A x = 1 (export: free MPS)",
    ),
    Target(
        "csp",
        "reductions.csp",
        "python-constraint model, a variable per cell and AllDifferent per unit (export: XCSP3)",
    ),
)


def add_parser(subparsers: Any) -> None:
    names = [target.name for target in TARGETS]
    parser = subparsers.add_parser(
        "reduce",
        help="show the model a reduction builds (size, export to a standard file)",
        description="Reduce a puzzle to a model and print its size; -o writes the model "
        "in its export format. Targets: " + "; ".join(f"{t.name}: {t.help}" for t in TARGETS),
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
        "--timeout",
        type=positive_float,
        metavar="S",
        help="give up building (and exporting) the model after S seconds (default: none); "
        "big polynomial ideals take minutes",
    )
    parser.set_defaults(run=run)


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
    target = next(t for t in TARGETS if t.name == args.target)  # argparse checked the name
    entries = read_inputs(args)
    if len(entries) > 1:  # a model is of one puzzle; quietly taking the first would mislead
        raise SudokuBenchError(
            f"reduce builds the model of one puzzle, and {args.inputs[0]} holds "
            f"{len(entries)}: name one by its id, e.g. {entries[0].id}"
        )
    entry = entries[0]
    what = f"building the {target.name} model of {entry.id} ({entry.puzzle.rules})"
    with building(what, args.timeout):
        summary: dict[str, Any] = {
            "id": entry.id,
            "target": target.name,
            **target.function("describe")(entry.puzzle),
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
            text = target.function("export")(entry.puzzle)
        if str(args.output) == "-":
            sys.stdout.write(text)
        else:
            write_output(args.output, text)
            print(f"wrote {args.output}", file=sys.stderr)
    return 0
