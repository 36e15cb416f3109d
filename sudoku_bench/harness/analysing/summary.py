"""The numbers of a report: per back-end and collection, from a run's result rows."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sudoku_bench.harness.analysing import stats
from sudoku_bench.harness.results import TIMED_OUT, puzzle_grid
from sudoku_bench.harness.running.crosscheck import Claim, check_puzzle
from sudoku_bench.solvers.base import Status

ALL = "(all)"
Row = dict[str, Any]
PuzzleKey = tuple[str, str]  # (collection, puzzle_id)


@dataclass
class Summary:
    """One line of the report. Times in seconds; `tasks` excludes unsupported puzzles."""

    solver: str
    collection: str
    tasks: int
    solved: int  # answered what the limit asked (solved, no_solution, or limit reached)
    gave_up: int
    timeouts: int
    memouts: int
    errors: int
    median_s: float  # median, mean and max over the solved tasks
    mean_s: float
    max_s: float
    sgm_s: float  # shifted geometric mean over all tasks, failures at the cut-off
    par2_s: float
    per_second: float  # solved tasks per second of time spent on all tasks
    guesses: float  # mean guesses per solved task (nan: the back-end does not count them)
    agree: int  # solved tasks whose answer no other answer disproves and whose grids check
    unsupported: int
    skipped: int  # repeats not run after a timeout: counted in `timeouts` too

    def record(self) -> dict[str, Any]:
        return {key: _finite(value) for key, value in asdict(self).items()}


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def attempted(rows: Iterable[Row]) -> list[Row]:
    return [row for row in rows if row["status"] != Status.UNSUPPORTED]


def time_of(row: Row) -> float | None:
    """The task's time if it was solved, else None."""
    return float(row["total_s"]) if Status(row["status"]).answered else None


def blamed(rows: Sequence[Row]) -> dict[PuzzleKey, set[str]]:
    """Per puzzle, the back-ends whose answer is wrong or disproved by another's."""
    by_puzzle: dict[PuzzleKey, list[Row]] = defaultdict(list)
    for row in rows:
        by_puzzle[(row["collection"], row["puzzle_id"])].append(row)
    found = {}
    for key, group in by_puzzle.items():
        first = group[0]
        puzzle = puzzle_grid(first["rules"], first["puzzle"])
        answers = [Claim.of_row(r) for r in group if r["exact"] or r["solutions"]]
        found[key] = check_puzzle(puzzle, answers).blamed()
    return found


def summarize(rows: Sequence[Row], cutoff: float, solvers: Sequence[str]) -> list[Summary]:
    """Per back-end (in `solvers` order) and collection, then each back-end over all of them."""
    wrong = blamed(rows)
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    collections: list[str] = []
    for row in rows:
        if row["collection"] not in collections:
            collections.append(row["collection"])
        groups[(row["solver"], row["collection"])].append(row)
        groups[(row["solver"], ALL)].append(row)
    order = [*solvers, *sorted({row["solver"] for row in rows} - set(solvers))]
    if len(collections) > 1:
        collections.append(ALL)
    return [
        _summary(solver, collection, groups[(solver, collection)], cutoff, wrong)
        for collection in collections
        for solver in order
        if groups.get((solver, collection))
    ]


def _summary(
    solver: str, collection: str, group: list[Row], cutoff: float, wrong: dict[PuzzleKey, set[str]]
) -> Summary:
    tried = attempted(group)
    solved = [row for row in tried if Status(row["status"]).answered]
    times = [time_of(row) for row in tried]
    solved_times = [float(row["total_s"]) for row in solved]
    # a skipped repeat counts as a timeout: it costs the cut-off
    spent = sum(
        cutoff if row["status"] == Status.SKIPPED else float(row["total_s"]) for row in tried
    )
    agreeing = [r for r in solved if solver not in wrong[(r["collection"], r["puzzle_id"])]]
    return Summary(
        solver=solver,
        collection=collection,
        tasks=len(tried),
        solved=len(solved),
        gave_up=sum(row["status"] == Status.GAVE_UP for row in tried),
        timeouts=sum(row["status"] in TIMED_OUT for row in tried),
        memouts=sum(row["status"] == Status.MEMOUT for row in tried),
        errors=sum(row["status"] == Status.ERROR for row in tried),
        median_s=stats.median(solved_times),
        mean_s=stats.mean(solved_times),
        max_s=max(solved_times, default=math.nan),
        sgm_s=stats.shifted_geometric_mean(stats.penalised(times, cutoff, 1)),
        par2_s=stats.par(times, cutoff),
        per_second=len(solved) / spent if spent > 0 else math.nan,
        guesses=stats.mean([float(r["guesses"]) for r in solved if r["guesses"] is not None]),
        agree=len(agreeing),
        unsupported=len(group) - len(tried),
        skipped=sum(row["status"] == Status.SKIPPED for row in tried),
    )


def puzzle_times(rows: Sequence[Row]) -> dict[str, dict[PuzzleKey, float | None]]:
    """Per back-end, per puzzle: the median time over the repeats (None when it failed)."""
    repeats: dict[str, dict[PuzzleKey, list[float | None]]] = defaultdict(lambda: defaultdict(list))
    for row in attempted(rows):
        repeats[row["solver"]][(row["collection"], row["puzzle_id"])].append(time_of(row))
    return {
        solver: {key: stats.per_puzzle(times) for key, times in per.items()}
        for solver, per in repeats.items()
    }
