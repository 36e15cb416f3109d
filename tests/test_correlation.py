"""Spearman's rank correlation equals scipy's on fixtures (scipy is a test dependency)."""

from __future__ import annotations

import math
import random

import pytest

from sudoku_bench.harness.analysing import correlation

scipy_stats = pytest.importorskip(
    "scipy.stats", reason="scipy is in the dev extra, for these tests"
)


def _pairs(seed: int, n: int, ties: bool) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    x = [float(rng.randint(0, 5) if ties else rng.random()) for _ in range(n)]
    y = [value + rng.gauss(0, 2 if ties else 0.3) for value in x]
    if ties:
        y = [float(round(value)) for value in y]
    return x, y


@pytest.mark.filterwarnings("ignore:An input array is constant")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n", [3, 5, 12, 40, 300])
@pytest.mark.parametrize("ties", [False, True])
def test_spearman_equals_scipy(seed: int, n: int, ties: bool) -> None:
    x, y = _pairs(seed, n, ties)
    ours = correlation.spearman(x, y)
    theirs = scipy_stats.spearmanr(x, y)
    if math.isnan(theirs.statistic):
        assert math.isnan(ours.rho)
        return
    assert ours.rho == pytest.approx(theirs.statistic, abs=1e-12)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-8, abs=1e-300)
    assert ours.n == n


@pytest.mark.parametrize("dof", [1, 2, 3, 7.5, 30, 500])
@pytest.mark.parametrize("t", [-3.0, -0.4, 0.0, 0.7, 2.5, 12.0])
def test_t_tail_equals_scipy(t: float, dof: float) -> None:
    assert correlation.student_t_sf(t, dof) == pytest.approx(scipy_stats.t.sf(t, dof), rel=1e-9)


def test_perfect_and_constant_and_reversed() -> None:
    assert correlation.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == correlation.Correlation(
        1.0, 0.0, 4
    )
    assert correlation.spearman([1, 2, 3, 4], [4, 3, 2, 1]).rho == -1.0
    constant = correlation.spearman([1, 2, 3], [5, 5, 5])
    assert math.isnan(constant.rho) and math.isnan(constant.p_value)
    assert math.isnan(correlation.spearman([1, 2], [2, 1]).p_value)  # too few pairs for a p-value
    with pytest.raises(ValueError, match="differ in length"):
        correlation.pearson([1.0], [1.0, 2.0])
