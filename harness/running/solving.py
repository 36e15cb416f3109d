"""Running chosen back-ends on puzzles in this process, with every answer checked.

Shared by `solve` and `count`: the solver options, one guarded `solve` call per puzzle and
back-end (a crashing back-end becomes an `error` result, never a traceback), and the rule
checker's verdict on every returned grid.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from harness.cli.arguments import positive_float, positive_int
from harness.cli.output import result_record
from puzzles.checker import solution_problems
from puzzles.errors import SudokuBenchError
from puzzles.formats import PuzzleEntry
from puzzles.symbols import DEFAULT, Alphabet
from solvers.base import Result, Solver, Status
from solvers.registry import Backend, select

DEFAULT_SOLVER = "propagating"


def add_solver_arguments(parser: argparse.ArgumentParser, *, default_limit: int) -> None:
    solving = parser.add_argument_group("solving")
    solving.add_argument(
        "-s",
        "--solver",
        "--solvers",  # the spelling of check and bench, so that either works everywhere
        default=DEFAULT_SOLVER,
        metavar="NAME[,NAME...]",
        help=f"back-ends to run, comma-separated, or 'all' (default: {DEFAULT_SOLVER}; "
        "see `sudoku-bench solvers`)",
    )
    solving.add_argument(
        "--limit",
        type=positive_int,
        default=default_limit,
        metavar="K",
        help=f"stop after K solutions (default: {default_limit}); the count is exact when "
        "the search ends before the limit",
    )
    solving.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle and back-end (default: none)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle per back-end per line (keys in the README)",
    )


@dataclass
class Answer:
    """One back-end's result on one puzzle, with what the rule checker found wrong in it."""

    entry: PuzzleEntry
    result: Result
    problems: list[str]  # empty when every returned grid is a solution of the puzzle

    @property
    def wrong(self) -> bool:
        return bool(self.problems)

    @property
    def failed(self) -> bool:
        """A wrong grid or a crashed back-end: the command's exit code becomes 1."""
        return self.wrong or (self.result.status is Status.ERROR)

    def report_failure(self) -> None:
        """Say loudly on stderr what went wrong, if anything did."""
        if self.wrong:
            print(
                f"WRONG ANSWER from {self.result.solver} on {self.entry.id}: "
                + "; ".join(self.problems),
                file=sys.stderr,
            )
        if self.result.status is Status.ERROR:
            print(
                f"ERROR in {self.result.solver} on {self.entry.id}: {self.result.message}",
                file=sys.stderr,
            )

    def record(self, alphabet: Alphabet = DEFAULT) -> dict[str, Any]:
        """The `--json` record, plus `verified`: every returned grid passed the rule checker."""
        return {**result_record(self.entry, self.result, alphabet), "verified": not self.wrong}


def create_solvers(spec: str) -> list[Solver[Any]]:
    """Instances of the back-ends named in `spec` (unknown or missing ones are user errors)."""
    chosen: list[Backend] = select(spec)
    if not chosen:
        raise SudokuBenchError(f"no back-end selected by {spec!r} is installed")
    return [backend.create() for backend in chosen]


def run_solver(
    solver: Solver[Any], entry: PuzzleEntry, *, limit: int, timeout: float | None
) -> Answer:
    """Solve one puzzle; an unexpected exception in the back-end becomes an `error` result."""
    try:
        result = solver.solve(entry.puzzle, limit=limit, timeout=timeout)
    except SudokuBenchError:
        raise
    except Exception as error:  # a bug in a back-end: report it, keep going
        where = traceback.extract_tb(error.__traceback__)[-1]
        message = f"{type(error).__name__}: {error} ({where.filename}:{where.lineno})"
        result = Result.failure(solver.name, Status.ERROR, message)
    return Answer(entry, result, check(entry, result))


def check(entry: PuzzleEntry, result: Result) -> list[str]:
    """What is wrong with the grids a back-end returned, in words (empty when nothing is)."""
    problems = []
    for number, grid in enumerate(result.solutions, 1):
        broken = solution_problems(entry.puzzle, grid)
        if broken:
            problems.append(f"grid {number} is not a solution: {'; '.join(broken[:3])}")
    if len(set(result.solutions)) != len(result.solutions):
        problems.append("the same solution was returned twice")
    if (
        entry.solution is not None
        and result.exact
        and result.count == 1
        and result.solutions[0] != entry.solution
    ):
        problems.append("the only solution differs from the one the collection lists")
    return problems


def answers(
    entries: list[PuzzleEntry], solvers: list[Solver[Any]], *, limit: int, timeout: float | None
) -> Iterator[Answer]:
    """Every puzzle with every back-end, puzzle by puzzle."""
    for entry in entries:
        for solver in solvers:
            yield run_solver(solver, entry, limit=limit, timeout=timeout)


def format_seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"
