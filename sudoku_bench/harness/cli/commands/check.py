"""`sudoku-bench check`: do the back-ends agree? Exit code 1 when they do not."""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from tabulate import tabulate

from sudoku_bench.harness import defaults
from sudoku_bench.harness.certifying.certifier import HELP as CERTIFY_HELP
from sudoku_bench.harness.certifying.certifier import Certifier, InOrder
from sudoku_bench.harness.cli.arguments import add_task_arguments
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_inputs
from sudoku_bench.harness.cli.output import json_line, print_json, versioned
from sudoku_bench.harness.cli.records import outcome_record
from sudoku_bench.harness.results import Outcome
from sudoku_bench.harness.running import session
from sudoku_bench.harness.running.crosscheck import PuzzleCheck, answers_of, check_puzzle
from sudoku_bench.harness.running.progress import TaskProgress
from sudoku_bench.harness.running.runner import timing_pool
from sudoku_bench.harness.running.tasks import plan
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.solvers.base import Status, Verdict

# Summary columns: the verdicts, then what kept a back-end from one, then what is wrong.
COLUMNS = ("none", "unique", "multiple", "unknown", "gave_up", "timeout", "error", "unsupported")
# Per back-end, the puzzles whose answer passed every check and that nothing disproved, and
# those it got wrong (a wrong grid or a disproved claim): with `timeout` and `unsupported`,
# what a run over many collections is read by.
AGREED, DISAGREED = "agreed", "disagreed"

DESCRIPTION = """\
Cross-check: every chosen back-end solves each puzzle with limit 2 (so its verdict is no
solution, unique, or at least 2); every grid it returns goes through the independent rule
checker; the answers are compared. One line per puzzle where something fails or disagrees,
then a table of verdicts per back-end. A back-end that returns a wrong grid, or claims an
exact count that another back-end's checked solutions disprove, is named loudly and the exit
code is 1. Timeouts and errors are reported but are not disagreements; the summary says how
many puzzles were verified (answered by at least one back-end), and when none was the exit
code is 3. Each puzzle's lines (and --json records) come as soon as its back-ends are done;
Ctrl-C prints the summary so far. Per back-end the table says on how many puzzles it agreed
(its answer passed the checks and nothing disproved it), timed out, declined (unsupported) and
disagreed (a wrong grid or a disproved claim); --summary-json prints the same as one JSON object.
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="cross-check the back-ends on puzzles (exit code 1 on any disagreement)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser)
    add_task_arguments(parser, f"seconds per puzzle and back-end (default {defaults.TIMEOUT_S:g})")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per puzzle per back-end"
    )
    parser.add_argument(
        "--summary-json",
        action="store_true",
        help="after the records, one JSON object with the counts per back-end (agreed, "
        "timeout, unsupported, disagreed, ...); the lines and the table go to stderr",
    )
    parser.add_argument("--certify", action="store_true", help=CERTIFY_HELP)
    parser.set_defaults(run=run)


# Exit status when no puzzle was verified: every answer timed out or failed. Not 0 ("OK"),
# not 1 (nothing disagreed): a script must not read "nothing checked" as a pass.
NOTHING_VERIFIED = 3


def run(args: argparse.Namespace) -> int:
    entries = read_inputs(args)
    chosen = session.choose_backends(args.solvers, lambda text: print(text, file=sys.stderr))
    settings = Settings(args.timeout or defaults.TIMEOUT_S, limit=defaults.COUNT_LIMIT)
    tasks = plan(entries, [b.name for b in chosen], 1)
    order = [b.name for b in chosen]
    outcomes: dict[int, list[Outcome]] = defaultdict(list)  # by the puzzle's place in `entries`
    tally = Tally({name: Counter() for name in order})
    certifier = Certifier(check_timeout=settings.timeout) if args.certify else None
    # proofs are made and checked beside the pool, never holding up its clock
    in_order = InOrder() if certifier is not None else None
    # keep stdout pure JSON Lines under --json and --summary-json
    out = sys.stderr if args.json or args.summary_json else sys.stdout
    with (
        TaskProgress(len(tasks), "check", enabled=not args.quiet) as bar,
        timing_pool(min(args.jobs or 1, len(tasks)), settings, {b.name: b for b in chosen}) as pool,
    ):

        def finished(outcome: Outcome) -> None:
            number = outcome.task.key // len(chosen)
            outcomes[number].append(outcome)
            bar.done(outcome)
            if len(outcomes[number]) == len(chosen):  # the puzzle is complete: report it now
                found = sorted(outcomes.pop(number), key=lambda o: order.index(o.task.solver))
                entry = entries[number]
                if in_order is None:
                    _report_puzzle(entry, found, tally, args.json, out, bar)
                else:
                    in_order.submit(
                        lambda: _report_puzzle(entry, found, tally, args.json, out, bar, certifier)
                    )

        try:
            pool.run(tasks, finished, bar.tick)
            if in_order is not None:
                in_order.close()
        except KeyboardInterrupt:  # what was checked so far is worth its summary
            bar.progress.stop()
            _summary(tally, len(entries), out, stopped=True)
            if args.summary_json:
                print_json(summary_record(tally, len(entries), settings.timeout, stopped=True))
            raise
    _summary(tally, len(entries), out)
    if args.summary_json:
        print_json(summary_record(tally, len(entries), settings.timeout))
    if certifier is not None:
        print(certifier.summary(), file=out)
    if tally.failures or (certifier is not None and certifier.failed):
        return 1
    return NOTHING_VERIFIED if not tally.verified else 0


@dataclass
class Tally:
    """What the cross-check found so far: per back-end verdict counts, and per puzzle."""

    counts: dict[str, Counter[str]]
    puzzles: int = 0  # puzzles checked (every back-end answered, timed out or failed)
    failures: int = 0  # puzzles with a wrong grid or a disproved claim
    verified: int = 0  # puzzles with at least one answer that passed the checks


def _report_puzzle(
    entry: PuzzleEntry,
    found: list[Outcome],
    tally: Tally,
    as_json: bool,
    out: TextIO,
    bar: TaskProgress,
    certifier: Certifier | None = None,
) -> None:
    verdict = check_puzzle(entry.puzzle, answers_of(found), entry.solution)
    certificates = {
        outcome.task.solver: certifier.certificate(
            entry.puzzle, Verdict(outcome.verdict).value, outcome.solutions
        )
        for outcome in found
        if certifier is not None and outcome.answered
    }
    tally.puzzles += 1
    tally.failures += not verdict.ok
    blamed = verdict.blamed()
    tally.verified += any(o.answered and o.task.solver not in blamed for o in found)
    _tally(tally.counts, found, verdict)
    for line in _lines(entry, found, verdict):
        bar.write_line(line, out)
    for solver, certificate in certificates.items():
        if certificate is not None and not certificate.certified:
            bar.write_line(
                f"{entry.id}: {solver}'s {certificate.verdict}: " + certificate.words(), out
            )
    if as_json:
        for outcome in found:
            record = outcome_record(outcome, agrees=outcome.task.solver not in blamed)
            if certifier is not None:
                certificate = certificates.get(outcome.task.solver)
                record["certified"] = certificate.outcome if certificate else None
                record["certificate"] = certificate.record() if certificate else None
            bar.write_line(json_line(versioned(record)), sys.stdout)


def _tally(counts: dict[str, Counter[str]], found: list[Outcome], verdict: PuzzleCheck) -> None:
    blamed = verdict.blamed()
    for outcome in found:
        solver = outcome.task.solver
        tally = counts[solver]
        tally[outcome.verdict if outcome.answered else outcome.status] += 1
        tally["wrong"] += solver in verdict.wrong
        tally["disproved"] += solver in verdict.contradicted
        tally[DISAGREED] += solver in blamed
        tally[AGREED] += outcome.answered and solver not in blamed


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
        if outcome.status in (Status.TIMEOUT, Status.ERROR):
            why = f": {outcome.error}" if outcome.error else ""
            lines.append(f"{outcome.status}  {entry.id}: {outcome.task.solver}{why}")
    return lines


def _verdicts(said: Mapping[str, str]) -> str:
    return ", ".join(f"{solver} {verdict}" for solver, verdict in said.items())


def summary_record(
    tally: Tally, puzzles: int, timeout: float, *, stopped: bool = False
) -> dict[str, Any]:
    """The `--summary-json` object: the run's totals, then the table's counts per back-end."""
    return {
        "puzzles": puzzles,
        "checked": tally.puzzles,
        "verified": tally.verified,
        "failures": tally.failures,
        "interrupted": stopped,
        "timeout_s": timeout,
        "solvers": [
            {
                "solver": name,
                AGREED: counts[AGREED],
                **{column: counts[column] for column in COLUMNS},
                "wrong_grid": counts["wrong"],
                "disproved": counts["disproved"],
                DISAGREED: counts[DISAGREED],
            }
            for name, counts in tally.counts.items()
        ],
    }


def _summary(tally: Tally, puzzles: int, out: TextIO, *, stopped: bool = False) -> None:
    headers = ["solver", AGREED, *COLUMNS, "wrong grid", "disproved", DISAGREED]
    rows = [
        [
            name,
            counts[AGREED],
            *(counts[c] for c in COLUMNS),
            counts["wrong"],
            counts["disproved"],
            counts[DISAGREED],
        ]
        for name, counts in tally.counts.items()
    ]
    if stopped:
        print(f"\ninterrupted after {tally.puzzles} of {puzzles} puzzles; so far:", file=out)
    print(tabulate(rows, headers=headers, tablefmt="simple"), file=out)
    checked = tally.puzzles
    noun = "puzzle" if checked == 1 else "puzzles"
    unverified = checked - tally.verified
    verified = f"verified {tally.verified} of {checked} {noun}" + (
        f" ({unverified} without any answer: timed out or failed everywhere)" if unverified else ""
    )
    if tally.failures:
        print(
            f"\nFAILED: wrong or disproved answers on {tally.failures} of {checked} {noun}; "
            f"{verified}",
            file=out,
        )
    elif not checked:  # interrupted before any puzzle finished: nothing to call OK
        print(f"\nNOTHING CHECKED: no puzzle of {puzzles} was finished", file=out)
    elif not tally.verified:
        print(
            f"\nNOTHING VERIFIED: no back-end answered any of the {checked} {noun} (every "
            "task timed out or failed): raise --timeout or choose other back-ends",
            file=out,
        )
    else:
        print(f"\nOK: no wrong grid and no disagreement; {verified}", file=out)
