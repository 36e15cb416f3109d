"""Running chosen back-ends on puzzles for `solve`, `count`, `explain` and `rate`, with every
answer checked.

Each solve runs in a worker process, as `bench` and `check` run theirs (`runner.Pool`): a
back-end that overruns its time limit by the pool's margin is killed from outside and its
answer is a timeout; Ctrl-C reaches only this process, which stops the workers and exits at
once; nothing a back-end prints reaches this process's standard output (the workers' is
their standard error). The rule checker runs here, on every returned grid, within what is
left of the puzzle's time (so `--timeout` bounds the whole of each puzzle's work).
"""

from __future__ import annotations

import gc
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sudoku_bench.harness.results import Outcome, result_json
from sudoku_bench.harness.running.runner import Pool, kill_after
from sudoku_bench.harness.running.tasks import Task, tasks_of
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.puzzles.checker import solution_problems
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.symbols import DEFAULT, Alphabet
from sudoku_bench.solvers.base import Result, Status
from sudoku_bench.solvers.registry import Backend

# Tasks a worker gets in one message (`runner.Pool`): a round trip per task cost more than
# a compiled engine's whole solve; each task keeps its own clock and kill all the same.
BATCH = 256


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
        return self.wrong or self.result.status is Status.ERROR

    def report_failure(self) -> None:
        """Say loudly on stderr what went wrong, if anything did."""
        if self.wrong:
            print(
                f"WRONG ANSWER from {self.result.solver} on {self.entry.id}: "
                + "; ".join(self.problems),
                file=sys.stderr,
            )
        elif self.result.status is Status.ERROR:  # a wrong answer's error is the same story
            print(
                f"ERROR in {self.result.solver} on {self.entry.id}: {self.result.message}",
                file=sys.stderr,
            )

    def record(self, alphabet: Alphabet = DEFAULT) -> dict[str, Any]:
        """The `--json` record, plus `verified`: every returned grid passed the rule checker."""
        record = result_json(self.entry, self.result, alphabet)
        record["verified"] = not self.wrong
        return record


def choose(spec: str) -> list[Backend]:
    """The back-ends named in `spec` (unknown or missing ones are user errors)."""
    from sudoku_bench.harness.running.session import (
        choose_backends,  # the session imports the store
    )

    return choose_backends(spec, lambda text: print(text, file=sys.stderr))


class Solving:
    """One worker process that solves puzzles with chosen back-ends, every answer checked.

    Entering starts the worker and has it build the solvers (for a compiled back-end,
    loading its machine code takes most of a second); `run` reads the first puzzles
    meanwhile, then solves them as it reads the rest:

        with Solving(backends, limit=1, timeout=None) as solving:
            solving.run(stream_inputs(args), on_answer)
    """

    def __init__(
        self,
        backends: Sequence[Backend],
        *,
        limit: int,
        timeout: float | None,
        keep_result: bool = False,
    ) -> None:
        self.backends = list(backends)
        self.settings = Settings(
            math.inf if timeout is None else timeout,
            limit,
            keep_result=keep_result,
            resources=False,  # not reported here
            whole_batches=True,  # a back-end's `solve_many` gets each batch in one call
        )
        self.pool = Pool(
            1, self.settings, {backend.name: backend for backend in backends}, batch=BATCH
        )
        self.most_held = 0  # the most puzzles `run` held at once (its memory bound)

    def __enter__(self) -> Solving:
        self.pool.prepare(backend.name for backend in self.backends)
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.close()

    def run(
        self,
        entries: Iterable[PuzzleEntry],
        on_answer: Callable[[Answer], None],
        *,
        after_answers: Callable[[], None] | None = None,
    ) -> int:
        """Every puzzle with every back-end, puzzle by puzzle; `on_answer` hears each checked
        answer in that order, as it comes, and `after_answers` is called once the answers
        that came together have been heard (to flush the output once, not per answer).
        Returns the number of puzzles.

        `entries` is read as the worker needs puzzles (a generator over a file of any
        length): only the puzzles whose answers are still to come are held (`most_held`).
        A read error (`SudokuBenchError`) raised by `entries` is raised again once the
        puzzles read before it have been answered."""
        names = [backend.name for backend in self.backends]
        per_puzzle = len(names)
        kill_at = kill_after(self.settings.timeout)
        held: dict[int, PuzzleEntry] = {}  # by the puzzle's place: answers still to come
        stopped: list[SudokuBenchError] = []  # what ended the reading early
        count = 0

        def tasks() -> Iterator[Task]:
            nonlocal count
            try:
                for index, entry in enumerate(entries):
                    held[index] = entry
                    self.most_held = max(self.most_held, len(held))
                    count = index + 1
                    yield from tasks_of(entry, names, index * per_puzzle)
            except SudokuBenchError as error:
                stopped.append(error)

        # answers in task order: after a kill in a batch, some tasks before it run again later
        early: dict[int, Outcome] = {}
        next_key = 0

        def finished(outcome: Outcome) -> None:
            nonlocal next_key
            if outcome.task.key != next_key:  # held until the answers before it have come
                early[outcome.task.key] = outcome
                return
            while True:
                next_key += 1
                index, backend_number = divmod(outcome.task.key, per_puzzle)
                entry = held[index]
                if backend_number == per_puzzle - 1:  # the puzzle's last answer
                    del held[index]
                # the checker gets what the puzzle's time limit leaves (at least a moment)
                until = kill_at
                if until != math.inf:
                    until = time.monotonic() + max(kill_at - outcome.total_s, 0.05)
                on_answer(answer_of(entry, outcome, until))
                if next_key not in early:
                    return
                outcome = early.pop(next_key)

        # What exists now (modules, solvers) lives to the end: full collections scanning it
        # again and again cost more per answer than a compiled engine's solve.
        gc.freeze()
        try:
            self.pool.run(tasks(), finished, tick=after_answers)
        finally:
            gc.unfreeze()
        if stopped:
            raise stopped[0]
        return count


def solve_all(
    entries: Sequence[PuzzleEntry],
    backends: Sequence[Backend],
    on_answer: Callable[[Answer], None],
    *,
    limit: int,
    timeout: float | None,
    keep_result: bool = False,
) -> None:
    """`Solving.run` for puzzles already read."""
    with Solving(backends, limit=limit, timeout=timeout, keep_result=keep_result) as solving:
        solving.run(entries, on_answer)


def answer_of(entry: PuzzleEntry, outcome: Outcome, check_until: float = math.inf) -> Answer:
    """The worker's outcome as a checked `Answer`. A line that is no grid of the puzzle's
    rules (a back-end's bug) is a wrong answer, not a crash of the command."""
    problems: list[str] = []
    grids: list[Grid] = []
    rules = entry.puzzle.rules
    for number, line in enumerate(outcome.solutions, 1):
        try:
            grids.append(Grid.from_string(line, rules))
        except SudokuBenchError as error:
            problems.append(f"grid {number} cannot be read as a {rules} grid: {error}")
    status = Status(outcome.status)  # the pool's verdict: late answers time out
    if outcome.result is not None:
        result = replace(outcome.result, solutions=grids)
        result.status = status
        result.message = outcome.error or result.message
    else:
        # exhausted, build_s, search_s, counters (the outcome's are the answer's alone) and
        # message, by position: `solve FILE` makes one per puzzle
        result = Result(
            outcome.task.solver,
            status,
            grids,
            outcome.exact,
            outcome.build_s,
            outcome.solve_s,
            outcome.counters,
            outcome.error,
        )
    if problems:  # unreadable grids: no count or verdict can be claimed from what is left
        result.status = Status.ERROR
        result.exhausted = False
        result.message = f"returned {problems[0]}" + (
            f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        )
    checked, wrong = check(entry, result, check_until)
    if checked < len(grids):  # honest and bounded: grids not checked in time are no answer
        result.solutions = result.solutions[:checked]
        result.exhausted = False
        result.status = Status.TIMEOUT
        result.message = f"{len(grids)} solutions found, {checked} checked within the time limit"
    return Answer(entry, result, problems + wrong)


def check(entry: PuzzleEntry, result: Result, until: float = math.inf) -> tuple[int, list[str]]:
    """How many of the returned grids were checked before `until` (time.monotonic), and what is
    wrong with them, in words. Stopping early is not a problem in itself: the caller says so."""
    problems: list[str] = []
    checked = 0
    for number, grid in enumerate(result.solutions, 1):
        if number % 256 == 0 and time.monotonic() > until:
            return checked, problems
        broken = solution_problems(entry.puzzle, grid)
        if broken:
            problems.append(f"grid {number} is not a solution: {'; '.join(broken[:3])}")
        checked += 1
    if len(result.solutions) > 1 and len(set(result.solutions)) != len(result.solutions):
        problems.append("the same solution was returned twice")
    if (
        entry.solution is not None
        and result.exact
        and result.count == 1
        and result.solutions[0] != entry.solution
    ):
        problems.append("the only solution differs from the one the collection lists")
    return checked, problems


def format_seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"
