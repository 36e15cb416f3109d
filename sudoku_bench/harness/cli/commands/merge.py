"""`sudoku-bench merge`: the stores of a run's shards joined into one run."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from sudoku_bench.harness.storing.merge import merge

DESCRIPTION = """\
Join the stores of the shards of one run (`bench --shard I/N --seed S`, e.g. the tasks of a
batch job array) into one run of the store -o. The latest run of each input must be a shard
of the same run: the same puzzles, back-ends, settings and seed, and every shard 1..N once;
anything else is refused. The merged run holds every task once, at its place in the whole
run's order, with every result unchanged (and the host it ran on); each shard after the
first is recorded as a resumption, so the report names the machines that differ. The inputs
are only read. An unfinished shard is merged with a warning: `bench --resume` on the merged
store runs its missing tasks.
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "merge",
        help="join the stores of a run's shards (bench --shard) into one run",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("inputs", nargs="+", type=Path, metavar="STORE", help="shard stores")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="PATH",
        help="the store to write the merged run into (created if missing; a new run if not)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    command = shlex.join(["sudoku-bench", *getattr(args, "argv", sys.argv[1:])])
    merged = merge(args.inputs, args.output, command)
    for warning in merged.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(
        f"merged {merged.shards} shards into run {merged.run_id} of {args.output}: "
        f"{merged.tasks} tasks, {merged.results} results"
        + (
            f" (`sudoku-bench bench --db {args.output} --resume {merged.run_id}` runs the rest)"
            if merged.results < merged.tasks
            else ""
        ),
        file=sys.stderr,
    )
    return 0
