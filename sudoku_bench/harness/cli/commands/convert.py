"""`sudoku-bench convert INPUT... -o OUTPUT`: rewrite puzzles in another format or alphabet."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sudoku_bench.harness.cli.inputs import (
    add_puzzle_arguments,
    alphabet_of,
    checked_blank,
    read_inputs,
)
from sudoku_bench.harness.cli.output import write_output
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import (
    EXTENSIONS,
    FORMATS,
    Format,
    WriteOptions,
    format_named,
    format_of_path,
)

EPILOG = """\
formats (chosen by the output file's extension, or --to):
{formats}

examples:
  sudoku-bench convert top95 -o top95.json
  sudoku-bench convert puzzles.sdk --to line
  sudoku-bench convert 16x16 --to-alphabet letters --blank 0 --to grid
  sudoku-bench convert big.txt --skip-invalid -o clean.csv
  sudoku-bench convert jigsaw.json --to fpuzzles-url       # links that open in f-puzzles
  sudoku-bench convert 'https://www.f-puzzles.com/?load=N4Ig...' -o puzzle.json
"""


def add_parser(subparsers: Any) -> None:
    listing = "\n".join(
        f"  {f.name:12} {' '.join(f.extensions):16} {f.summary}" for f in FORMATS.values()
    )
    parser = subparsers.add_parser(
        "convert",
        help="rewrite puzzles in another format (line, grid, sdk, csv, json, jsonl, fpuzzles, "
        "fpuzzles-url)",
        description="Read puzzles (bundled names, files, puzzle strings) and write them in "
        "another format. Without -o the result goes to stdout. What the output format cannot "
        "hold (solutions, metadata, player states, variant rules) is named on stderr.",
        epilog=EPILOG.format(formats=listing),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser)
    writing = parser.add_argument_group("converting")
    writing.add_argument("-o", "--output", type=Path, metavar="FILE", help="the file to write")
    writing.add_argument(
        "--to",
        metavar="FORMAT",
        help="the output format (default: from the output's extension; line on stdout)",
    )
    writing.add_argument(
        "--to-alphabet",
        metavar="NAME",
        help="the alphabet to write in (default: the --alphabet read with)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    target = _target(args)
    options = _write_options(args)
    entries = read_inputs(args)
    text = target.write(entries, options)
    for loss in target.losses(entries):
        print(f"note: the {target.name} format does not keep {loss}", file=sys.stderr)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    write_output(args.output, text)
    puzzles = "1 puzzle" if len(entries) == 1 else f"{len(entries)} puzzles"
    print(f"wrote {puzzles} to {args.output} ({target.name})", file=sys.stderr)
    return 0


def _target(args: argparse.Namespace) -> Format:
    if args.to:
        target = format_named(args.to)
        if args.output is not None and args.output.suffix.lower() in EXTENSIONS:
            implied = format_of_path(args.output)
            compatible = {implied.name} | ({"grid"} if implied.name == "line" else set())
            if target.name not in compatible:  # `.txt` holds lines or grids
                raise SudokuBenchError(
                    f"-o {args.output} says {implied.name} but --to says {target.name}: "
                    f"name the file {args.output.with_suffix(target.extensions[0])}, or drop --to"
                )
        return target
    if args.output is not None:
        return format_of_path(args.output)
    return FORMATS["line"]


def _write_options(args: argparse.Namespace) -> WriteOptions:
    """The written alphabet and blank; `--blank` is read too, so the file reads back with it."""
    alphabet = alphabet_of(args.to_alphabet or args.alphabet)
    return WriteOptions(alphabet, checked_blank(args.blank, alphabet))
