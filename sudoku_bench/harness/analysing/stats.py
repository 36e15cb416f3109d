"""The statistics of a timing report, as small pure functions.

Times are seconds; an unsolved task's time is None (or inf where a ratio is taken).
Conventions (stated in every report):
- shifted geometric mean: exp(mean(ln(t + s))) - s with shift s = 10 ms, so that puzzles
  solved in microseconds do not dominate; failed tasks count at the cut-off (the time limit).
- PAR-k (penalised average runtime): the mean time, a failed task counting as k x cut-off.
- performance ratio (Dolan & Moré 2002): a back-end's time on a puzzle over the best
  back-end's time on it; inf where it failed. The profile rho(tau) is the share of puzzles
  with ratio <= tau.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from sudoku_bench.solvers.base import Status

SHIFT_S = 0.010
PAR_FACTOR = 2
# Times below this are raised to it before taking ratios (a clock can read 0 for tiny work).
TIME_FLOOR_S = 1e-6

Key = TypeVar("Key", bound=Hashable)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else math.nan


def shifted_geometric_mean(values: Sequence[float], shift: float = SHIFT_S) -> float:
    """exp(mean(ln(v + shift))) - shift; nan for no values."""
    if not values:
        return math.nan
    return math.exp(statistics.fmean(math.log(v + shift) for v in values)) - shift


def penalised(times: Iterable[float | None], cutoff: float, factor: float) -> list[float]:
    """Each time, or `factor` x `cutoff` where the task failed (None)."""
    return [factor * cutoff if t is None else t for t in times]


def par(times: Sequence[float | None], cutoff: float, factor: float = PAR_FACTOR) -> float:
    """PAR-k: the mean of the times with each failure counted as k x cutoff."""
    return mean(penalised(times, cutoff, factor))


def virtual_best(times: Mapping[str, Mapping[Key, float | None]]) -> dict[Key, float | None]:
    """Per puzzle, the best time any back-end took (None if none solved it)."""
    best: dict[Key, float | None] = {}
    for per_puzzle in times.values():
        for key, t in per_puzzle.items():
            current = best.get(key)
            best[key] = t if current is None else (current if t is None else min(current, t))
    return best


def performance_ratios(
    times: Mapping[str, Mapping[Key, float | None]],
) -> dict[str, dict[Key, float]]:
    """Dolan–Moré ratios t(p, s) / min over s of t(p, s); inf where s failed on p."""
    best = virtual_best(times)
    ratios: dict[str, dict[Key, float]] = {}
    for solver, per_puzzle in times.items():
        ratios[solver] = {}
        for key in best:
            t, b = per_puzzle.get(key), best[key]
            if t is None or b is None:
                ratios[solver][key] = math.inf
            else:
                ratios[solver][key] = max(t, TIME_FLOOR_S) / max(b, TIME_FLOOR_S)
    return ratios


def profile(ratios: Iterable[float], taus: Sequence[float]) -> list[float]:
    """rho(tau): the share of puzzles whose ratio is at most tau, for each tau."""
    values = sorted(ratios)
    if not values:
        return [0.0 for _ in taus]
    return [bisect.bisect_right(values, tau) / len(values) for tau in taus]


def cactus(times: Iterable[float | None]) -> list[float]:
    """The solved times in increasing order: the k-th is the time needed to solve k puzzles
    if each is given that long (a cactus plot's line)."""
    return sorted(t for t in times if t is not None)


def per_puzzle(repeats: Sequence[float | None]) -> float | None:
    """One time for a puzzle run several times: the median over the repeats, a failed repeat
    counting as infinitely slow; None when the median is a failure."""
    if not repeats:
        return None
    middle = median([math.inf if t is None else t for t in repeats])
    return None if math.isinf(middle) else middle


def repeat_variation(rows: Iterable[Mapping[str, object]]) -> list[float]:
    """The coefficient of variation (stdev / mean) of the times of each task repeated two
    or more times with every repeat answered: one value per (back-end, puzzle entry). Entries
    are told apart by their id, so a puzzle a collection lists twice is two tasks that ran
    once each, not one task that varies."""
    times: dict[tuple[object, object, object], list[float]] = {}
    failed: set[tuple[object, object, object]] = set()
    for row in rows:
        key = (row["solver"], row["collection"], row["puzzle_id"])
        if Status(str(row["status"])).answered:
            times.setdefault(key, []).append(float(row["total_s"]))  # type: ignore[arg-type]
        else:
            failed.add(key)
    return [
        statistics.stdev(values) / statistics.fmean(values)
        for key, values in times.items()
        if len(values) >= 2 and key not in failed and statistics.fmean(values) > 0
    ]
