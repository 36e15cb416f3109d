"""The paired statistics of `compare` equal scipy's on fixtures (scipy is a test dependency)."""

import math
import random

import pytest

from sudoku_bench.harness.analysing import paired

scipy_stats = pytest.importorskip(
    "scipy.stats", reason="scipy is in the dev extra, for these tests"
)


def fixtures() -> list[list[float]]:
    rng = random.Random(12)
    cases = [[rng.gauss(0.2, 1) for _ in range(n)] for n in (5, 9, 20, 49, 50, 51, 120)]
    cases.append([1.0, -2.0, 2.0, 3.0, -3.0, 4.0, 0.0, 5.0, 1.0])  # ties and a zero, n <= 13
    cases.append([round(rng.gauss(0.3, 1), 1) for _ in range(40)])  # ties, n > 13
    cases.append([round(rng.gauss(0, 1), 1) for _ in range(200)] + [0.0] * 5)
    return cases


@pytest.mark.parametrize("differences", fixtures(), ids=lambda d: f"n{len(d)}")
def test_wilcoxon_equals_scipy(differences: list[float]) -> None:
    ours = paired.wilcoxon(differences)
    theirs = scipy_stats.wilcoxon(differences)
    assert ours.statistic == pytest.approx(theirs.statistic)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_friedman_equals_scipy(seed: int) -> None:
    rng = random.Random(seed)
    blocks = [[round(rng.expovariate(1 + j), 2) for j in range(4)] for _ in range(30)]
    blocks[0] = [1.0, 1.0, 2.0, 2.0]  # ties within a block
    ours = paired.friedman(blocks)
    theirs = scipy_stats.friedmanchisquare(*zip(*blocks, strict=True))
    assert ours.statistic == pytest.approx(theirs.statistic)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)


@pytest.mark.parametrize(("x", "dof"), [(0.5, 1), (3.0, 2), (10.0, 3), (40.0, 9), (200.0, 5)])
def test_chi2_tail_equals_scipy(x: float, dof: int) -> None:
    assert paired.chi2_sf(x, dof) == pytest.approx(scipy_stats.chi2.sf(x, dof), rel=1e-9)


def test_holm_equals_statsmodels_definition() -> None:
    # Holm: sort ascending, multiply by m, m-1, ..., keep the running maximum, cap at 1
    assert paired.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])


def test_ranks_average_ties() -> None:
    assert paired.ranks([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]
    ours = paired.ranks([5.0, 5.0, 5.0, 1.0])
    assert ours == list(scipy_stats.rankdata([5.0, 5.0, 5.0, 1.0]))


def test_bootstrap_interval_brackets_the_geometric_mean() -> None:
    rng = random.Random(4)
    ratios = [math.exp(rng.gauss(math.log(2), 0.3)) for _ in range(80)]
    low, high = paired.bootstrap_interval(ratios, seed=1)
    assert low < paired.geometric_mean(ratios) < high
    assert low > 1.7 and high < 2.4
    assert paired.bootstrap_interval(ratios, seed=1) == (low, high)  # reproducible


def test_critical_difference_of_demsar() -> None:
    # Demšar (2006), section 3.2.2: 4 classifiers, 14 data sets -> CD = 1.25 at alpha 0.05
    assert paired.critical_difference(4, 14) == pytest.approx(1.25, abs=0.01)
