"""Rank correlation, as small pure functions: Spearman's rho with its two-sided p-value.

rho is Pearson's correlation of the ranks (ties given their average rank), and the p-value
comes from Student's t with n - 2 degrees of freedom, t = rho * sqrt((n - 2) / (1 - rho^2)):
what `scipy.stats.spearmanr` computes by default. Nothing here needs scipy; the test suite
checks these against scipy on fixtures.

A censored value (a search stopped at its limit) is passed as `math.inf`: it ranks above every
finished one, tied with the other censored values, which is all a rank correlation needs of
"at least the limit". Which values are censored must not depend on the machine: a caller
censors by a node budget where the method has one, and says in its report how censoring
enters where it censors by a time limit (docs/methods/censoring.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_bench.harness.analysing.paired import ranks


@dataclass(frozen=True)
class Correlation:
    rho: float  # NaN when either variable is constant (no ranking to correlate)
    p_value: float  # two-sided; NaN with rho, or with fewer than 3 pairs
    n: int


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's correlation coefficient (NaN when either variable is constant)."""
    if len(x) != len(y):
        raise ValueError(f"x and y differ in length ({len(x)} and {len(y)})")
    n = len(x)
    if n < 2:
        return math.nan
    mean_x, mean_y = math.fsum(x) / n, math.fsum(y) / n
    dx = [value - mean_x for value in x]
    dy = [value - mean_y for value in y]
    sxx = math.fsum(d * d for d in dx)
    syy = math.fsum(d * d for d in dy)
    if sxx == 0 or syy == 0:
        return math.nan
    r = math.fsum(a * b for a, b in zip(dx, dy, strict=True)) / math.sqrt(sxx * syy)
    return max(-1.0, min(1.0, r))


def spearman(x: Sequence[float], y: Sequence[float]) -> Correlation:
    """Spearman's rank correlation of paired values, with the t-distribution p-value."""
    n = len(x)
    rho = pearson(ranks(x), ranks(y))
    if math.isnan(rho) or n < 3:
        return Correlation(rho, math.nan, n)
    if abs(rho) == 1.0:
        return Correlation(rho, 0.0, n)
    dof = n - 2
    t = rho * math.sqrt(dof / ((1 - rho) * (1 + rho)))
    return Correlation(rho, min(1.0, 2 * student_t_sf(abs(t), dof)), n)


def student_t_sf(t: float, dof: float) -> float:
    """P(T > t) for Student's t with `dof` degrees of freedom."""
    tail = 0.5 * regularized_beta(dof / (dof + t * t), dof / 2, 0.5)
    return tail if t >= 0 else 1 - tail


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (modified Lentz), on whichever side of the mean converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1 - math.exp(log_front) * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return fraction
