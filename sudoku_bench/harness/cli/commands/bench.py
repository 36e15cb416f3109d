"""`sudoku-bench bench`: timed runs of puzzles x back-ends x repeats into the results store."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sudoku_bench.harness import defaults
from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.certifying.certificate import YES, Certificate
from sudoku_bench.harness.certifying.certifier import Certifier
from sudoku_bench.harness.certifying.runs import certify_run
from sudoku_bench.harness.cli.arguments import (
    add_db_argument,
    add_task_arguments,
    int64,
    positive_float,
    positive_int,
    repeats,
    warmups,
)
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_inputs
from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.cli.records import outcome_record
from sudoku_bench.harness.results import Outcome
from sudoku_bench.harness.running import budget, cluster, session, suite
from sudoku_bench.harness.running.progress import TaskProgress
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import Store, StoreError, open_store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.solvers.registry import Backend

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
with a {defaults.SUITE_TIMEOUT_S:g} s limit and one worker per core.

Budget: --plan prints the number of tasks and an estimate of the CPU time (from earlier
results in the store, else a short pilot) and stops. A puzzle and back-end whose first repeat
timed out is not repeated: its other repeats are recorded as `skipped` and counted as
timeouts (--repeat-timeouts runs them all).

Beyond one machine: --cluster local:N | tcp://HOST:PORT | SCHEDULER_FILE runs chunks of
puzzles (every back-end and repeat of each) on a Dask cluster, -j tasks at a time on each
node; --shard I/N runs a deterministic 1/N of the puzzles (for batch job arrays) and
`sudoku-bench merge` joins the shards' stores into one run.
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
        f"seconds per task (default {defaults.TIMEOUT_S:g}; "
        f"{defaults.SUITE_TIMEOUT_S:g} for the default suite)",
    )
    parser.add_argument(
        "--node-limit",
        type=positive_int,
        metavar="N",
        help="node budget per task: the back-ends that count search nodes (backtracking, "
        "propagating, dlx, their -jit twins, logic's steps) stop after N nodes with status "
        "timeout, the same on any machine at any load; the others run to --timeout "
        "(docs/methods/censoring.md)",
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
        choices=(defaults.SOLVE_LIMIT, defaults.COUNT_LIMIT),
        default=defaults.SOLVE_LIMIT,
        help=f"solutions to look for: {defaults.SOLVE_LIMIT} = solve, {defaults.COUNT_LIMIT} = "
        f"also prove uniqueness (default {defaults.SOLVE_LIMIT})",
    )
    parser.add_argument(
        "--seed",
        type=int64,
        metavar="N",
        help="seed of the task order and of --permute's isomorphs (default: random, recorded)",
    )
    parser.add_argument(
        "--permute",
        action="store_true",
        help="each repeat and warm-up solves a random isomorph of the puzzle (digits relabelled, "
        "rows, columns, bands and stacks moved, as far as its rules allow); answers are mapped "
        "back and checked against the original",
    )
    parser.add_argument(
        "--memory-limit",
        type=positive_float,
        metavar="MB",
        help="cap each solve's memory growth at MB megabytes; past it the task is recorded "
        "as memout and the run goes on (default: no cap)",
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
        "--json",
        action="store_true",
        help="one JSON object per finished task instead of the table (with --plan: the estimate)",
    )
    parser.add_argument(
        "--certify",
        action="store_true",
        help="after the run, prove each none / unique / multiple verdict (a DRAT proof on the "
        "puzzle's CNF, checked; two checked grids) and store the certificates (`certified` in "
        "the report); exit 1 when one fails. No proof is checked while back-ends are timed",
    )
    parser.add_argument(
        "--aa",
        metavar="NAME",
        help="carry back-end NAME as the run's A/A reference for `compare --aa`: it is added to "
        "the back-ends (its tasks shuffled among the others', as every task is) and recorded",
    )
    budget_options = parser.add_argument_group("budget")
    budget_options.add_argument(
        "--plan",
        action="store_true",
        help="print the number of tasks and the estimated CPU time, and stop",
    )
    budget_options.add_argument(
        "--pilot",
        type=warmups,
        default=budget.PILOT_PUZZLES,
        metavar="N",
        help="--plan: puzzles run per back-end and collection that the store has no results "
        f"of (default {budget.PILOT_PUZZLES}; 0: no pilot)",
    )
    budget_options.add_argument(
        "--repeat-timeouts",
        action="store_true",
        help="run every repeat of a task whose first repeat timed out (default: skip them)",
    )
    beyond = parser.add_argument_group("beyond one machine")
    beyond.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on a Dask cluster: local:N, tcp://HOST:PORT or a scheduler file "
        "(-j is then the tasks at a time on each node)",
    )
    beyond.add_argument(
        "--chunk-seconds",
        type=positive_float,
        default=cluster.CHUNK_SECONDS,
        metavar="S",
        help="--cluster: the estimated work of one chunk on a node "
        f"(default {cluster.CHUNK_SECONDS:g})",
    )
    beyond.add_argument(
        "--shard",
        type=_shard,
        metavar="I/N",
        help="run only the I-th of N parts of the puzzles (needs --seed); "
        "`sudoku-bench merge` joins the parts' stores",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="end with the table of every measure (default: the shifted geometric mean, "
        "back-ends x collections; `sudoku-bench report` shows any other)",
    )
    parser.set_defaults(run=run)


def _shard(text: str) -> session.Shard:
    try:
        return session.Shard.parse(text)
    except SudokuBenchError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--shard takes ")) from None


def run(args: argparse.Namespace) -> int:
    if args.shard is not None and args.resume is None and args.seed is None:
        raise SudokuBenchError("--shard needs --seed: every shard must plan the same run")
    if args.take_over and args.resume is None:
        raise SudokuBenchError("--take-over goes with --resume: it takes over a stored run")
    if args.plan:
        return _plan(args)
    start = _new_run(args) if args.resume is None else None  # bad input fails before the store
    certifier = Certifier(check_timeout=args.timeout) if args.certify else None  # PySAT first
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(cluster.connect(args.cluster)) if args.cluster else None
        store = open_store(args.db, create=start is not None)
        stack.callback(store.close)
        try:
            work = _resumed(args, store) if start is None else start(store)
        except session.RunComplete as complete:  # nothing to run, and the store is untouched
            print(f"sudoku-bench: {complete}", file=sys.stderr)
            if certifier is None:
                return 0
            _certify(store, store.run(args.resume or None).id, certifier, args.quiet)
            return 1 if certifier.failed else 0
        stack.callback(session.release, store, work)  # however the run ends
        done = work.total - len(work.tasks)
        where = f"on the cluster {args.cluster}" if args.cluster else "on this machine"
        print(
            f"run {work.run_id}: {work.total} tasks ({done} done before), {work.jobs} at a time "
            f"{where}, time limit {work.settings.timeout:g} s, store {args.db}",
            file=sys.stderr,
        )
        if not args.quiet and work.tasks:
            print(_expected(store, work), file=sys.stderr)
        with TaskProgress(
            work.total, f"run {work.run_id}", enabled=not args.quiet, done=done
        ) as bar:

            def finished(outcome: Outcome) -> None:
                bar.done(outcome)
                if args.json:
                    print_json(
                        outcome_record(
                            outcome, run=work.run_id, task=outcome.task.key, host=outcome.host
                        )
                    )

            try:
                if client is None:
                    session.execute(store, work, finished, bar.tick)
                else:
                    cluster.execute(
                        store,
                        work,
                        client,
                        cost=budget.task_cost(store, work),
                        chunk_s=args.chunk_seconds,
                        on_done=finished,
                        tick=bar.tick,
                    )
            except (KeyboardInterrupt, SudokuBenchError):  # a full disk, a lost chunk: resume
                print(
                    f"\nstopped: `sudoku-bench bench --db {args.db} --resume {work.run_id}` finishes it",
                    file=sys.stderr,
                )
                raise
        if certifier is not None:
            _certify(store, work.run_id, certifier, args.quiet)
        report = Report(store, work.run_id)
        if args.json:  # the table's header says them otherwise
            for warning in report.warnings():
                print(f"warning: {warning}", file=sys.stderr)
        else:
            print(report.as_table(full=args.full), end="")
    return 1 if certifier is not None and certifier.failed else 0


def _expected(store: Store, work: session.Plan) -> str:
    """How long the run should take, said before it starts: from the store's earlier results
    of these back-ends and collections (no pilot: `bench --plan` runs one)."""
    found = budget.budget(store, work, work.jobs, pilot_puzzles=0)
    known = sum(e.tasks for e in found.estimates if e.source != "none")
    if not known:
        return (
            "expected time: unknown (the store has no earlier results of these back-ends and "
            "collections; `bench --plan` estimates with a short pilot)"
        )
    share = "" if known == len(work.tasks) else f" for the {known:,} tasks with earlier results"
    return (
        f"expected time: about {budget.duration(found.wall_s)} at {work.jobs} at a time{share} "
        f"(from earlier results in the store)"
    )


def _certify(store: Store, run_id: int, certifier: Certifier, quiet: bool) -> None:
    """Certify the run's claims, saying each one that fails and then the summary."""

    def failed(row: dict[str, Any], certificate: Certificate) -> None:
        if certificate.outcome != YES:
            print(
                f"{row['puzzle_id']}  {row['solver']}  {row['verdict']}  {certificate.words()}",
                file=sys.stderr,
            )

    if not quiet:
        print(f"certifying the verdicts of run {run_id}...", file=sys.stderr)
    certify_run(store, run_id, certifier, report=failed)
    print(certifier.summary(), file=sys.stderr)


def _plan(args: argparse.Namespace) -> int:
    """`--plan`: the tasks and their estimated cost; nothing is run or written to the store."""
    path = Path(args.db)
    store = open_store(path, create=False, read_only=True) if path.is_file() else None
    try:
        if args.resume is None:
            entries, chosen, settings, jobs, seed = _inputs(args)
            names = [backend.name for backend in chosen]
            tasks, _ = session.planned(entries, names, args.repeat, seed, args.shard)
            work = session.Plan(
                0,
                tasks,
                {b.name: b for b in chosen},
                settings,
                jobs,
                len(tasks),
                args.repeat_timeouts,
            )
        else:
            if store is None:
                raise StoreError(
                    f"{args.db}: no such results store (run `sudoku-bench bench` first)"
                )
            info = store.run(args.resume or None)
            work = session.pending(
                info,
                store.tasks(info.id),
                store.statuses(info.id),
                session.stored_backends(store, info.id),
                args.jobs,
            )
        nodes = _nodes(args.cluster, work) if args.cluster else 1
        found = budget.budget(store, work, nodes * work.jobs, args.pilot)
    finally:
        if store is not None:
            store.close()
    if args.json:
        print_json(found.record())
    else:
        print(budget.describe(found, nodes, work.jobs), end="")
    return 0


def _nodes(address: str, work: session.Plan) -> int:
    """The nodes of the cluster: N of local:N, else the workers the scheduler has now."""
    if address.startswith("local:") and address.removeprefix("local:").isdigit():
        return max(1, int(address.removeprefix("local:")))
    with cluster.connect(address) as client:
        return cluster.ready_nodes(client, work.backends)


def _inputs(
    args: argparse.Namespace,
) -> tuple[list[PuzzleEntry], list[Backend], Settings, int, int]:
    """The puzzles, back-ends, settings, jobs and seed of a new run, from the command line."""
    default_suite = not args.inputs
    entries: list[PuzzleEntry] = suite.entries() if default_suite else read_inputs(args)
    timeout = args.timeout or (defaults.SUITE_TIMEOUT_S if default_suite else defaults.TIMEOUT_S)
    jobs = args.jobs or ((os.cpu_count() or 1) if default_suite else 1)
    chosen = session.choose_backends(args.solvers, lambda text: print(text, file=sys.stderr))
    if args.aa:
        (reference,) = session.choose_backends(args.aa, lambda text: print(text, file=sys.stderr))
        args.aa = reference.name  # an alias resolved, so `compare --aa` finds it by name
        if reference.name not in {backend.name for backend in chosen}:
            chosen.append(reference)
    total = len(entries) * len(chosen) * args.repeat
    product = f"{len(entries):,} puzzles x {len(chosen)} back-ends x {args.repeat:,} repeats"
    if total > MAX_TASKS:
        raise SudokuBenchError(
            f"that run would be {total:,} tasks ({product}); a run holds at most {MAX_TASKS:,}: "
            "choose fewer puzzles, back-ends or repeats, or split it into several runs"
        )
    if total >= PLAN_NOTE_FROM:
        print(f"planning {total:,} tasks ({product}) and storing the plan...", file=sys.stderr)
    seed = session.new_seed() if args.seed is None else args.seed
    settings = Settings(
        timeout,
        args.limit,
        args.warmup,
        memory_limit_mb=args.memory_limit,
        permute_seed=seed if args.permute else None,
        node_limit=args.node_limit,
    )
    return entries, chosen, settings, jobs, seed


def _new_run(args: argparse.Namespace) -> Callable[[Store], session.Plan]:
    """Read the puzzles and choose the back-ends; the result records the run in a store."""
    entries, chosen, settings, jobs, seed = _inputs(args)
    return lambda store: session.start(
        store,
        entries,
        chosen,
        settings,
        repeat=args.repeat,
        jobs=jobs,
        seed=seed,
        inputs=args.inputs or [f"default suite: {suite.describe()}"],
        command=_command_line(args),
        repeat_timeouts=args.repeat_timeouts,
        shard=args.shard,
        cluster=args.cluster or "",
        aa_reference=args.aa or "",
    )


def _resumed(args: argparse.Namespace, store: Store) -> session.Plan:
    if args.inputs:
        raise SudokuBenchError("--resume takes the puzzles from the stored run: give no PUZZLE")
    given = {
        "--timeout": args.timeout is not None,
        "--node-limit": args.node_limit is not None,
        "--seed": args.seed is not None,
        "--repeat": args.repeat != 1,
        "--warmup": args.warmup != 0,
        "--limit": args.limit != defaults.SOLVE_LIMIT,
        "--permute": args.permute,
        "--memory-limit": args.memory_limit is not None,
        "-s": args.solvers != "all",
        "--repeat-timeouts": args.repeat_timeouts,
        "--shard": args.shard is not None,
        "--aa": bool(args.aa),
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
