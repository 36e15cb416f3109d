"""`sudoku-bench reduce PUZZLE --to TARGET`: show or export the model a reduction builds."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.cli.inputs import add_puzzle_arguments, read_inputs
from harness.cli.output import print_json, write_output
from puzzles.errors import SudokuBenchError


@dataclass(frozen=True)
class Target:
    """A model a puzzle can be reduced to.

    `module` provides two functions: `describe(puzzle) -> dict` (the model's size, for the
    summary and `--json`) and `export(puzzle) -> str` (the model in its documented text format).
    The module is imported only when the target is used. `polynomials` also takes the options
    `modulus` (from `--field`, read by its `field_modulus`) and, for export, `script`.
    """

    name: str
    module: str
    help: str

    def function(self, name: str) -> Callable[..., Any]:
        function: Callable[..., Any] = getattr(importlib.import_module(self.module), name)
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
        "--field",
        metavar="FIELD",
        help="polynomials only: the coefficient field, QQ (the default: the rationals) or "
        "GF(p) for a prime p, e.g. GF(32003), the groebner back-end's",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    target = next(t for t in TARGETS if t.name == args.target)  # argparse checked the name
    entries = read_inputs(args)
    if len(entries) > 1:  # a model is of one puzzle; quietly taking the first would mislead
        raise SudokuBenchError(
            f"reduce builds the model of one puzzle, and {args.inputs[0]} holds "
            f"{len(entries)}: name one by its id, e.g. {entries[0].id}"
        )
    entry = entries[0]
    options: dict[str, Any] = {}
    if args.field is not None:
        if target.name != "polynomials":
            raise SudokuBenchError(f"--field is for --to polynomials, not --to {target.name}")
        options["modulus"] = target.function("field_modulus")(args.field)
    summary: dict[str, Any] = {
        "id": entry.id,
        "target": target.name,
        **target.function("describe")(entry.puzzle, **options),
    }
    to_stdout = args.output is not None and str(args.output) == "-"
    out = sys.stderr if to_stdout else sys.stdout  # with `-o -` the model owns stdout
    if args.json:
        print_json(summary, out)
    else:
        for key, value in summary.items():
            print(f"{key}: {value}", file=out)
    if args.output is not None:
        if target.name == "polynomials":  # the script's recipe loads the file by its name
            options["script"] = "sudoku.sing" if str(args.output) == "-" else str(args.output)
        text = target.function("export")(entry.puzzle, **options)
        if str(args.output) == "-":
            sys.stdout.write(text)
        else:
            write_output(args.output, text)
            print(f"wrote {args.output}", file=sys.stderr)
    return 0
