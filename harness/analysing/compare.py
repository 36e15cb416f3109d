"""`compare`: paired comparisons of back-ends, within a run or across runs, puzzle by puzzle.

The rule for failures (timeouts, memouts, errors, give-ups) is stated once, here and in the
README: each task's time is its measured time if it answered, else the run's cut-off (its
time limit), a censored observation that is a lower bound of the true time. A puzzle's time
is the median over its repeats. A pair of puzzles where both sides failed says nothing about
their order and is left out; where one side failed, the cut-off stands for its time, which
understates the difference (the test is conservative there). Puzzles a back-end does not
accept (`unsupported`) are left out of its comparisons.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from harness.analysing import paired
from harness.analysing.stats import TIME_FLOOR_S
from harness.storing.store import Store
from puzzles.errors import SudokuBenchError
from solvers.base import Status

METRICS = ("total_s", "wall_s", "cpu_s")
PuzzleKey = tuple[str, str]  # (rules spec, puzzle line): the same puzzle in any run


class CompareError(SudokuBenchError):
    """A comparison that cannot be made (a back-end not in the run, nothing in common)."""


@dataclass(frozen=True)
class Sample:
    """One back-end's times in one run: per puzzle, the median over repeats, and whether
    that median stands for failures (censored at the cut-off)."""

    label: str
    run: int
    solver: str
    cutoff: float
    times: dict[PuzzleKey, float]
    censored: frozenset[PuzzleKey]
    hosts: frozenset[str] = frozenset()


@dataclass
class Comparison:
    """A against B on the puzzles both have: B's time over A's, per puzzle."""

    a: str
    b: str
    puzzles: int  # pairs compared
    ratio: float  # geometric mean of b/a: above 1, B is slower
    ci_low: float
    ci_high: float
    p_value: float
    statistic: float
    method: str
    a_faster: int  # pairs where A took less time
    b_faster: int
    censored: int  # pairs where exactly one side failed (its cut-off stands for its time)
    dropped: int  # pairs where both failed: left out
    p_holm: float | None = None  # with three or more back-ends: Holm-adjusted
    extra: dict[str, Any] = field(default_factory=dict)

    def significant(self, alpha: float) -> bool:
        p = self.p_value if self.p_holm is None else self.p_holm
        return p < alpha

    def record(self) -> dict[str, Any]:
        record = asdict(self)
        extra = record.pop("extra")
        return {**record, **extra}


@dataclass
class Ranking:
    """Three or more back-ends on the puzzles all of them have: the Friedman test."""

    labels: list[str]
    puzzles: int
    statistic: float
    p_value: float
    average_ranks: list[float]  # 1 = fastest
    critical_difference: float | None  # Nemenyi, alpha 0.05 (None past 10 back-ends)


def load_sample(store: Store, spec: str, metric: str = "total_s") -> Sample:
    """`NAME` (a back-end in the latest run) or `RUN:NAME`, read from the store."""
    run_text, _, solver = spec.rpartition(":")
    if run_text and not run_text.isdigit():
        raise CompareError(f"{spec!r}: expected a back-end name or RUN:NAME, e.g. 3:dlx")
    info = store.run(int(run_text) if run_text else None)
    rows = [row for row in store.results(info.id) if row["solver"] == solver]
    if not rows:
        names = sorted({row["solver"] for row in store.results(info.id)})
        raise CompareError(
            f"run {info.id} has no results of {solver!r} (it has: {', '.join(names) or 'none'})"
        )
    label = spec if run_text else solver
    return sample_of(label, info.id, solver, rows, float(info.settings["timeout"]), metric)


def sample_of(
    label: str,
    run: int,
    solver: str,
    rows: Sequence[dict[str, Any]],
    cutoff: float,
    metric: str = "total_s",
) -> Sample:
    """One back-end's sample from its result rows, by the module's rule for failures."""
    per_puzzle: defaultdict[PuzzleKey, list[float]] = defaultdict(list)
    failed: defaultdict[PuzzleKey, int] = defaultdict(int)
    for row in rows:
        if row["solver"] != solver or row["status"] == Status.UNSUPPORTED:
            continue
        key = (row["rules"], row["puzzle"])
        value = row.get(metric)
        if Status(row["status"]).answered and value is not None:
            per_puzzle[key].append(max(float(value), TIME_FLOOR_S))
        else:
            per_puzzle[key].append(cutoff)
            failed[key] += 1
    times = {key: statistics.median(values) for key, values in per_puzzle.items()}
    censored = frozenset(key for key, values in per_puzzle.items() if 2 * failed[key] > len(values))
    hosts = frozenset(str(row["host"]) for row in rows if row.get("host"))
    return Sample(label, run, solver, cutoff, times, censored, hosts)


def compare_pair(a: Sample, b: Sample, *, resamples: int = 2000, seed: int = 0) -> Comparison:
    """The paired comparison of B against A (see the module's rule for failures)."""
    common = sorted(a.times.keys() & b.times.keys())
    if not common:
        raise CompareError(f"{a.label} and {b.label} have no puzzle in common")
    kept = [key for key in common if not (key in a.censored and key in b.censored)]
    ratios = [b.times[key] / a.times[key] for key in kept]
    logs = [math.log(ratio) for ratio in ratios]
    test = paired.wilcoxon(logs)
    low, high = paired.bootstrap_interval(ratios, resamples=resamples, seed=seed)
    return Comparison(
        a=a.label,
        b=b.label,
        puzzles=len(kept),
        ratio=paired.geometric_mean(ratios),
        ci_low=low,
        ci_high=high,
        p_value=test.p_value,
        statistic=test.statistic,
        method=test.method,
        a_faster=sum(1 for r in ratios if r > 1),
        b_faster=sum(1 for r in ratios if r < 1),
        censored=sum(1 for key in kept if (key in a.censored) != (key in b.censored)),
        dropped=len(common) - len(kept),
    )


def compare_all(
    samples: Sequence[Sample], *, resamples: int = 2000, seed: int = 0
) -> tuple[list[Comparison], Ranking | None]:
    """Every pair (in the order given); with three or more, Holm-adjusted p-values and the
    Friedman test on the puzzles all have."""
    if len(samples) < 2:
        raise CompareError("compare needs two back-ends or more (A B [C ...])")
    pairs = [
        compare_pair(a, b, resamples=resamples, seed=seed) for a, b in combinations(samples, 2)
    ]
    if len(samples) == 2:
        return pairs, None
    for comparison, adjusted in zip(pairs, paired.holm([c.p_value for c in pairs]), strict=True):
        comparison.p_holm = adjusted
    return pairs, rank(samples)


def rank(samples: Sequence[Sample]) -> Ranking:
    common = set.intersection(*(set(sample.times) for sample in samples))
    kept = sorted(key for key in common if not all(key in s.censored for s in samples))
    if not kept:
        raise CompareError("the back-ends have no puzzle in common that one of them solved")
    blocks = [[sample.times[key] for sample in samples] for key in kept]
    test = paired.friedman(blocks)
    try:
        cd: float | None = paired.critical_difference(len(samples), len(kept))
    except ValueError:
        cd = None
    return Ranking(
        [sample.label for sample in samples],
        len(kept),
        test.statistic,
        test.p_value,
        list(test.average_ranks),
        cd,
    )


def verdict(comparison: Comparison, alpha: float) -> str:
    """`B 2.31x slower`, `B 1.8x faster`, or `no significant difference`, in words."""
    if not comparison.significant(alpha):
        return "no significant difference"
    if comparison.ratio >= 1:
        return f"{comparison.b} {factor(comparison.ratio)}x slower"
    return f"{comparison.b} {factor(1 / comparison.ratio)}x faster"


def factor(value: float) -> str:
    """Three significant digits without an exponent: 2.31, 47.5, 1110."""
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def mixed_hosts(samples: Sequence[Sample]) -> list[str]:
    """The hosts the compared samples ran on, when more than one (timings then mix machines)."""
    hosts = sorted(set().union(*(sample.hosts for sample in samples)))
    return hosts if len(hosts) > 1 else []
