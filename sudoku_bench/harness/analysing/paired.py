"""Paired statistics for comparing back-ends on the same puzzles, as small pure functions.

The unit of comparison is the puzzle, so every test here is paired:
- the Wilcoxon signed-rank test on the log time ratios (two-sided; zeros dropped; the exact
  null distribution for up to 50 pairs without ties, else the normal approximation with the
  tie correction and no continuity correction: scipy's defaults);
- the geometric mean of the ratios with a percentile bootstrap confidence interval;
- with three or more back-ends: the Friedman test on the within-puzzle ranks (ties averaged,
  tie-corrected statistic), Holm's step-down correction of the pairwise Wilcoxon p-values,
  and the Nemenyi critical difference of the average ranks (Demšar 2006).
Nothing here needs scipy; the test suite checks these against scipy on fixtures.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class WilcoxonResult:
    statistic: float  # the smaller of the rank sums of the positive and negative differences
    p_value: float
    n: int  # pairs with a non-zero difference
    method: str  # "exact" or "approx"


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the average of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def _tie_sizes(values: Sequence[float]) -> list[int]:
    counts: dict[float, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return [count for count in counts.values() if count > 1]


def wilcoxon(differences: Sequence[float]) -> WilcoxonResult:
    """The two-sided Wilcoxon signed-rank test of `differences`, as scipy's defaults do it:
    zeros dropped; the exact null distribution for up to 50 differences with no ties or
    zeros; with ties or zeros, the exact permutation distribution for up to 13 differences;
    else the normal approximation with the tie correction and no continuity correction."""
    nonzero = [d for d in differences if d != 0]
    n = len(nonzero)
    if n == 0:
        return WilcoxonResult(0.0, 1.0, 0, "exact")
    magnitude = ranks([abs(d) for d in nonzero])
    plus = sum(r for r, d in zip(magnitude, nonzero, strict=True) if d > 0)
    minus = sum(r for r, d in zip(magnitude, nonzero, strict=True) if d < 0)
    statistic = min(plus, minus)
    ties = _tie_sizes([abs(d) for d in nonzero])
    zeros = len(differences) - n
    if not ties and not zeros and n <= 50:
        return WilcoxonResult(statistic, _exact_p(n, statistic), n, "exact")
    if len(differences) <= 13:
        return WilcoxonResult(statistic, _permutation_p(magnitude, plus), n, "exact")
    mean = n * (n + 1) / 4
    variance = n * (n + 1) * (2 * n + 1) / 24 - sum(t**3 - t for t in ties) / 48
    z = (plus - mean) / math.sqrt(variance) if variance > 0 else 0.0
    return WilcoxonResult(statistic, min(1.0, 2 * normal_sf(abs(z))), n, "approx")


def _permutation_p(magnitude: Sequence[float], plus: float) -> float:
    """Two-sided p of the positive rank sum over all 2^n sign patterns (ties kept as ranked)."""
    sums = [0.0]
    for rank in magnitude:
        sums = [s for total in sums for s in (total, total + rank)]
    tolerance = 1e-9 * max(1.0, abs(plus))
    below = sum(1 for s in sums if s <= plus + tolerance) / len(sums)
    above = sum(1 for s in sums if s >= plus - tolerance) / len(sums)
    return min(1.0, 2 * min(below, above))


@cache
def _signed_rank_counts(n: int) -> tuple[int, ...]:
    """How many of the 2^n sign patterns give each rank sum 0..n(n+1)/2."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for rank in range(1, n + 1):
        for total in range(len(counts) - 1, rank - 1, -1):
            counts[total] += counts[total - rank]
    return tuple(counts)


def _exact_p(n: int, statistic: float) -> float:
    counts = _signed_rank_counts(n)
    below = sum(counts[: math.floor(statistic) + 1])
    return min(1.0, 2 * below / 2**n)


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi2_sf(x: float, dof: int) -> float:
    """P(X > x) for X chi-squared with `dof` degrees of freedom."""
    if x <= 0:
        return 1.0
    return _upper_gamma_regularized(dof / 2, x / 2)


def _upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): a series below a + 1, a continued fraction above."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300  # Lentz's method
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    fraction = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        fraction *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(log_front) * fraction


@dataclass(frozen=True)
class FriedmanResult:
    statistic: float
    p_value: float
    average_ranks: tuple[float, ...]  # per treatment, 1 = fastest


def friedman(blocks: Sequence[Sequence[float]]) -> FriedmanResult:
    """The Friedman test: `blocks[i][j]` is treatment j's value on block (puzzle) i."""
    n, k = len(blocks), len(blocks[0])
    within = [ranks(block) for block in blocks]
    totals = [sum(row[j] for row in within) for j in range(k)]
    statistic = 12 / (n * k * (k + 1)) * sum(t * t for t in totals) - 3 * n * (k + 1)
    ties = sum(t**3 - t for block in blocks for t in _tie_sizes(block))
    correction = 1 - ties / (n * k * (k * k - 1))
    statistic = statistic / correction if correction > 0 else 0.0
    average = tuple(total / n for total in totals)
    return FriedmanResult(statistic, chi2_sf(statistic, k - 1), average)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=p_values.__getitem__)
    adjusted = [0.0] * m
    running = 0.0
    for position, index in enumerate(order):
        running = max(running, min(1.0, (m - position) * p_values[index]))
        adjusted[index] = running
    return adjusted


# Critical values q_0.05 of the Studentized range divided by sqrt(2), for 2..10 treatments
# (Demšar 2006, table 5a): the Nemenyi test's.
_NEMENYI_Q05 = (1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164)


def critical_difference(treatments: int, blocks: int) -> float:
    """The Nemenyi critical difference of average ranks at alpha = 0.05."""
    if not 2 <= treatments <= 1 + len(_NEMENYI_Q05):
        raise ValueError(
            f"the critical difference table covers 2 to 10 back-ends, not {treatments}"
        )
    q = _NEMENYI_Q05[treatments - 2]
    return q * math.sqrt(treatments * (treatments + 1) / (6 * blocks))


def geometric_mean(ratios: Sequence[float]) -> float:
    return math.exp(statistics.fmean(math.log(r) for r in ratios)) if ratios else math.nan


def bootstrap_interval(
    ratios: Sequence[float], *, resamples: int = 2000, level: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """A percentile bootstrap interval of the geometric mean of `ratios` (puzzles resampled
    with replacement); the same seed gives the same interval."""
    if not ratios:
        return math.nan, math.nan
    logs = [math.log(r) for r in ratios]
    rng = random.Random(seed)
    n = len(logs)
    means = sorted(
        statistics.fmean(logs[rng.randrange(n)] for _ in range(n)) for _ in range(resamples)
    )
    tail = (1 - level) / 2
    low = means[max(0, math.floor(tail * resamples))]
    high = means[min(resamples - 1, math.ceil((1 - tail) * resamples) - 1)]
    return math.exp(low), math.exp(high)
