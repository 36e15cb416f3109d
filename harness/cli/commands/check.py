"""`sudoku-bench check`: do the back-ends agree? Exit code 1 when they do not."""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any, TextIO

from tabulate import tabulate

from harness.cli.arguments import add_task_arguments
from harness.cli.inputs import add_puzzle_arguments, read_inputs
from harness.cli.output import print_json
from harness.cli.records import outcome_record
from harness.running import session
from harness.running.crosscheck import PuzzleCheck, answers_of, check_puzzle
from harness.running.progress import TaskProgress
from harness.running.runner import Pool
from harness.running.tasks import Outcome, plan
from harness.running.worker import Settings
from puzzles.formats import PuzzleEntry

DEFAULT_TIMEOUT_S = 10.0
# Summary columns: the verdicts, then what kept a back-end from one, then what is wrong.
COLUMNS = ("none", "unique", "multiple", "unknown", "gave_up", "timeout", "error", "unsupported")

DESCRIPTION = """\
Cross-check: every chosen back-end solves each puzzle with limit 2 (so its verdict is no
solution, unique, or at least 2); every grid it returns goes through the independent rule
checker; the answers are compared. One line per puzzle where something fails or disagrees,
then a table of verdicts per back-end. A back-end that returns a wrong grid, or claims an
exact count that another back-end's checked solutions disprove, is named loudly and the exit
code is 1. Timeouts and errors are reported but are not disagreements.
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="cross-check the back-ends on puzzles (exit code 1 on any disagreement)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser)
    add_task_arguments(parser, f"seconds per puzzle and back-end (default {DEFAULT_TIMEOUT_S:g})")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per puzzle per back-end"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    entries = read_inputs(args)
    chosen = session.choose_backends(args.solvers, lambda text: print(text, file=sys.stderr))
    settings = Settings(args.timeout or DEFAULT_TIMEOUT_S, limit=2)
    tasks = plan(entries, [b.name for b in chosen], 1)
    outcomes: dict[int, list[Outcome]] = defaultdict(list)  # by the puzzle's place in `entries`
    with (
        TaskProgress(len(tasks), "check", enabled=not args.quiet) as bar,
        Pool(min(args.jobs or 1, len(tasks)), settings, {b.name: b for b in chosen}) as pool,
    ):

        def finished(outcome: Outcome) -> None:
            outcomes[outcome.task.key // len(chosen)].append(outcome)
            bar.done(outcome)

        pool.run(tasks, finished, bar.tick)
    order = [b.name for b in chosen]
    failures = 0
    counts: dict[str, Counter[str]] = {name: Counter() for name in order}
    out = sys.stderr if args.json else sys.stdout  # keep stdout pure JSON Lines under --json
    for number, entry in enumerate(entries):
        found = sorted(outcomes[number], key=lambda o: order.index(o.task.solver))
        verdict = check_puzzle(entry.puzzle, answers_of(found), entry.solution)
        failures += not verdict.ok
        _tally(counts, found, verdict)
        for line in _lines(entry, found, verdict):
            print(line, file=out)
        if args.json:
            for outcome in found:
                blamed = verdict.blamed()
                print_json(outcome_record(outcome, agrees=outcome.task.solver not in blamed))
    _summary(counts, len(entries), failures, out)
    return 1 if failures else 0


def _tally(counts: dict[str, Counter[str]], found: list[Outcome], verdict: PuzzleCheck) -> None:
    for outcome in found:
        tally = counts[outcome.task.solver]
        tally[outcome.verdict if outcome.answered else outcome.status] += 1
        tally["wrong"] += outcome.task.solver in verdict.wrong
        tally["disproved"] += outcome.task.solver in verdict.contradicted


def _lines(entry: PuzzleEntry, found: list[Outcome], verdict: PuzzleCheck) -> list[str]:
    """What failed or disagreed on one puzzle: loud for wrong answers, plain for timeouts."""
    lines = []
    for solver, problems in verdict.wrong.items():
        lines.append(
            f"WRONG GRID  {entry.id}: {solver} returned a grid that is not a solution: "
            + "; ".join(problems)
        )
    for solver, reasons in verdict.contradicted.items():
        said = {o.task.solver: o.verdict for o in found}
        lines.append(
            f"DISAGREEMENT  {entry.id}: {solver} is disproved: "
            + "; ".join(reasons)
            + f" [verdicts: {_verdicts(said)}]"
        )
    for outcome in found:  # gave_up is an incomplete method's normal answer: counted, not listed
        if outcome.status in ("timeout", "error"):
            why = f": {outcome.error}" if outcome.error else ""
            lines.append(f"{outcome.status}  {entry.id}: {outcome.task.solver}{why}")
    return lines


def _verdicts(said: Mapping[str, str]) -> str:
    return ", ".join(f"{solver} {verdict}" for solver, verdict in said.items())


def _summary(counts: dict[str, Counter[str]], puzzles: int, failures: int, out: TextIO) -> None:
    headers = ["solver", *COLUMNS, "wrong grid", "disproved"]
    rows = [
        [name, *(tally[c] for c in COLUMNS), tally["wrong"], tally["disproved"]]
        for name, tally in counts.items()
    ]
    print(tabulate(rows, headers=headers, tablefmt="simple"), file=out)
    noun = "puzzle" if puzzles == 1 else "puzzles"
    if failures:
        print(f"\nFAILED: wrong or disproved answers on {failures} of {puzzles} {noun}", file=out)
    else:
        print(f"\nOK: no wrong grid and no disagreement on {puzzles} {noun}", file=out)
