"""`sudoku-bench experiment`: reproduce a published comparison (run, analyse, write a report)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudoku_bench.harness.cli.arguments import job_count
from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.puzzles.errors import SudokuBenchError

if TYPE_CHECKING:
    from sudoku_bench.harness.experiments.conduct import Written

DEFAULT_FOLDER = Path("reports/experiments")
# --quick without -o: apart from the committed full reports, which it would overwrite
QUICK_FOLDER = DEFAULT_FOLDER / "quick"

DESCRIPTION = """\
Reproduce a published comparison. An experiment is a fixed design of bench runs (puzzle
sets x back-end configurations) run through the harness into a results store (DIR/NAME.sqlite
unless --db), with real timeouts and a progress bar; then an analysis of the stored results
written to DIR/NAME.md, with its plots (DIR/NAME-*.png), the exact command, the machine and
versions, and a paragraph that sets our figures beside the paper's.

Running the same command again reuses the finished runs and resumes an unfinished one: a
stopped experiment loses nothing that was finished. --quick runs a handful of puzzles (a
check that it works, in seconds); the full designs take minutes to about a quarter of an hour.
"""

EPILOG = """\
examples:
  sudoku-bench experiment --list
  sudoku-bench experiment propagation --quick -o /tmp/exp
  sudoku-bench experiment propagation            # the full run, into reports/experiments/
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "experiment",
        help="reproduce a published comparison: runs, analysis and a Markdown report",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="the experiment (see --list)")
    parser.add_argument(
        "--list", action="store_true", help="name the experiments, one per line, and stop"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a handful of puzzles: checks that it runs"
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="DIR",
        help="where the report, its plots and (without --db) the store go "
        f"(default {DEFAULT_FOLDER}; with --quick {QUICK_FOLDER})",
    )
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="the results store (default DIR/NAME.sqlite)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=job_count,
        metavar="N",
        help="tasks run at a time, each in its own worker process (default: one per core)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--json",
        action="store_true",
        help="--list: one JSON object per experiment; a run: one JSON object saying what it wrote",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sudoku_bench.harness import experiments

    if args.list:
        if args.name:
            raise SudokuBenchError("--list takes no experiment name")
        for name in experiments.EXPERIMENTS:
            found = experiments.experiment_class(name)
            if args.json:
                print_json({"name": name, "summary": found.summary, "paper": found.paper})
            else:
                print(f"{name:<12} {found.summary}")
        return 0
    if not args.name:
        raise SudokuBenchError(
            "name an experiment (see `sudoku-bench experiment --list`), or give --list"
        )
    try:
        written = _perform(args)
    except ModuleNotFoundError as error:
        missing = experiments.missing_library(args.name, error)
        if missing is None:
            raise
        raise missing from error
    if args.json:
        print_json(
            {
                "experiment": args.name,
                "quick": args.quick,
                "report": str(written.report),
                "plots": [str(path) for path in written.plots],
                "store": str(written.store),
                "runs": [
                    {
                        "label": label,
                        "run": batch.run.id,
                        "tasks": len(batch.rows),
                        "reused": batch.reused,
                    }
                    for label, batch in written.results.batches.items()
                ],
            }
        )
    else:
        print(f"wrote {written.report}", end="")
        if written.plots:
            print(f" and {len(written.plots)} plot(s) beside it", end="")
        print(f" (results in {written.store})")
    return 0


def _perform(args: argparse.Namespace) -> Written:
    """Run (or resume) the experiment named on the command line and write its report."""
    from sudoku_bench.harness import experiments
    from sudoku_bench.harness.experiments.conduct import Conduct, perform

    experiment = experiments.get(args.name)
    how = Conduct(
        jobs=args.jobs or os.cpu_count() or 1,
        command=shlex.join(["sudoku-bench", *getattr(args, "argv", sys.argv[1:])]),
        progress=not args.quiet,
        warn=lambda text: print(f"warning: {text}", file=sys.stderr),
    )
    folder = args.output or (QUICK_FOLDER if args.quick else DEFAULT_FOLDER)
    return perform(experiment, quick=args.quick, folder=folder, db=args.db, how=how)
