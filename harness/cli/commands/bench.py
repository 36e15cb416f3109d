"""`sudoku-bench bench`: timed runs of puzzles x back-ends x repeats into the results store."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable
from typing import Any

from harness.analysing.report import Report
from harness.cli.arguments import add_db_argument, add_task_arguments, int64, repeats, warmups
from harness.cli.inputs import add_puzzle_arguments, read_inputs
from harness.cli.output import print_json
from harness.cli.records import outcome_record
from harness.running import session, suite
from harness.running.progress import TaskProgress
from harness.running.tasks import Outcome
from harness.running.worker import Settings
from harness.storing.store import Store, StoreError, open_store
from puzzles.errors import SudokuBenchError
from puzzles.formats import PuzzleEntry

DEFAULT_TIMEOUT_S = 10.0
# A run's plan is held in memory and written to the store before the first task: 100 million
# tasks (`bench 17clue -s all --repeat 10000`) planned for minutes in silence, then ran out of
# memory. A million tasks plan in seconds and take hours to run.
MAX_TASKS = 1_000_000
PLAN_NOTE_FROM = 50_000  # tasks from which planning is announced (it takes a moment)

DESCRIPTION = f"""\
Time back-ends on puzzles. Each task (puzzle x back-end x repeat) runs in a worker process;
at its time limit the worker is killed and replaced and the task recorded as a timeout; a
back-end that raises or whose process dies is recorded as an error. Results go to an SQLite
store as each task ends, so a killed run resumes with --resume and loses nothing finished.
At the end the comparison table of the run is printed (`sudoku-bench report` shows it again,
in other formats, with plots).

With no PUZZLE, runs the default suite: {suite.describe()}, on every available back-end,
with a {suite.DEFAULT_TIMEOUT_S:g} s limit and one worker per core.
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="timed runs into the results store, with real timeouts (no arguments: the main job)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser, nargs="*")
    add_task_arguments(
        parser,
        f"seconds per task (default {DEFAULT_TIMEOUT_S:g}; "
        f"{suite.DEFAULT_TIMEOUT_S:g} for the default suite)",
    )
    parser.add_argument(
        "--repeat",
        type=repeats,
        default=1,
        metavar="R",
        help="runs per puzzle and back-end (default 1)",
    )
    parser.add_argument(
        "--warmup",
        type=warmups,
        default=0,
        metavar="W",
        help="untimed solves of each task's puzzle before the timed one, in the same worker (default 0)",
    )
    parser.add_argument(
        "--limit",
        type=int,
        choices=(1, 2),
        default=1,
        help="solutions to look for: 1 = solve, 2 = also prove uniqueness (default 1)",
    )
    parser.add_argument(
        "--seed", type=int64, metavar="N", help="seed of the task order (default: random, recorded)"
    )
    add_db_argument(parser)
    parser.add_argument(
        "--resume",
        nargs="?",
        const=0,
        type=int64,
        metavar="RUN",
        help="finish a stopped run (default, or 0: the latest) with its own settings; "
        "refused while another process runs it",
    )
    parser.add_argument(
        "--take-over",
        action="store_true",
        help="with --resume: resume a run whose lock is held by a process on another host "
        "that is known to be gone (a lock of a dead process on this host is taken over anyway)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per finished task instead of the table"
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="end with the table of every measure (default: the shifted geometric mean, "
        "back-ends x collections; `sudoku-bench report` shows any other)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.take_over and args.resume is None:
        raise SudokuBenchError("--take-over goes with --resume: it takes over a stored run")
    start = _new_run(args) if args.resume is None else None  # bad input fails before the store
    store = open_store(args.db, create=start is not None)
    try:
        try:
            work = _resumed(args, store) if start is None else start(store)
        except session.RunComplete as complete:  # nothing to do, and the store is untouched
            print(f"sudoku-bench: {complete}", file=sys.stderr)
            return 0
        done = work.total - len(work.tasks)
        print(
            f"run {work.run_id}: {work.total} tasks ({done} done before), {work.jobs} at a time, "
            f"time limit {work.settings.timeout:g} s, store {args.db}",
            file=sys.stderr,
        )
        with TaskProgress(
            work.total, f"run {work.run_id}", enabled=not args.quiet, done=done
        ) as bar:

            def finished(outcome: Outcome) -> None:
                bar.done(outcome)
                if args.json:
                    print_json(outcome_record(outcome, run=work.run_id, task=outcome.task.key))

            try:
                session.execute(store, work, finished, bar.tick)
            except (KeyboardInterrupt, StoreError):  # a full disk: free some, then resume
                print(
                    f"\nstopped: `sudoku-bench bench --db {args.db} --resume {work.run_id}` finishes it",
                    file=sys.stderr,
                )
                raise
        if not args.json:
            print(Report(store, work.run_id).as_table(full=args.full), end="")
    finally:
        store.close()
    return 0


def _new_run(args: argparse.Namespace) -> Callable[[Store], session.Plan]:
    """Read the puzzles and choose the back-ends; the result records the run in a store."""
    default_suite = not args.inputs
    entries: list[PuzzleEntry] = suite.entries() if default_suite else read_inputs(args)
    timeout = args.timeout or (suite.DEFAULT_TIMEOUT_S if default_suite else DEFAULT_TIMEOUT_S)
    jobs = args.jobs or ((os.cpu_count() or 1) if default_suite else 1)
    chosen = session.choose_backends(args.solvers, lambda text: print(text, file=sys.stderr))
    total = len(entries) * len(chosen) * args.repeat
    product = f"{len(entries):,} puzzles x {len(chosen)} back-ends x {args.repeat:,} repeats"
    if total > MAX_TASKS:
        raise SudokuBenchError(
            f"that run would be {total:,} tasks ({product}); a run holds at most {MAX_TASKS:,}: "
            "choose fewer puzzles, back-ends or repeats, or split it into several runs"
        )
    if total >= PLAN_NOTE_FROM:
        print(f"planning {total:,} tasks ({product}) and storing the plan...", file=sys.stderr)
    return lambda store: session.start(
        store,
        entries,
        chosen,
        Settings(timeout, args.limit, args.warmup),
        repeat=args.repeat,
        jobs=jobs,
        seed=args.seed,
        inputs=args.inputs or [f"default suite: {suite.describe()}"],
        command=_command_line(args),
    )


def _resumed(args: argparse.Namespace, store: Store) -> session.Plan:
    if args.inputs:
        raise SudokuBenchError("--resume takes the puzzles from the stored run: give no PUZZLE")
    given = {
        "--timeout": args.timeout is not None,
        "--seed": args.seed is not None,
        "--repeat": args.repeat != 1,
        "--warmup": args.warmup != 0,
        "--limit": args.limit != 1,
        "-s": args.solvers != "all",
    }
    ignored = [flag for flag, used in given.items() if used]
    if ignored:
        print(
            f"--resume uses the run's own settings: ignoring {', '.join(ignored)}", file=sys.stderr
        )
    return session.resume(
        store,
        args.resume or None,
        args.jobs,
        command=_command_line(args),
        warn=lambda text: print(f"warning: {text}", file=sys.stderr),
        take_over=args.take_over,
    )


def _command_line(args: argparse.Namespace) -> str:
    return shlex.join(["sudoku-bench", *getattr(args, "argv", sys.argv[1:])])
