"""The report's statistics against values computed by hand."""

import math

import pytest

from sudoku_bench.harness.analysing import stats
from sudoku_bench.harness.analysing.summary import summarize


def test_median_of_odd_and_even_counts() -> None:
    assert stats.median([3.0, 1.0, 2.0]) == 2.0
    assert stats.median([4.0, 1.0, 3.0, 2.0]) == 2.5
    assert math.isnan(stats.median([]))


def test_shifted_geometric_mean() -> None:
    # shift 1: sqrt((1 + 1) * (3 + 1)) - 1 = sqrt(8) - 1
    assert stats.shifted_geometric_mean([1.0, 3.0], shift=1.0) == pytest.approx(math.sqrt(8) - 1)
    # shift 0 is the plain geometric mean: sqrt(2 * 8) = 4
    assert stats.shifted_geometric_mean([2.0, 8.0], shift=0.0) == pytest.approx(4.0)
    # the default shift is 10 ms: equal values give themselves back
    assert stats.shifted_geometric_mean([0.5, 0.5]) == pytest.approx(0.5)
    # (0.01 + 0.01) * (0.07 + 0.01) = 0.0016 -> sqrt = 0.04 -> minus the shift: 0.03
    assert stats.shifted_geometric_mean([0.01, 0.07]) == pytest.approx(0.03)


def test_par2_counts_each_failure_at_twice_the_cutoff() -> None:
    assert stats.par([1.0, None, 3.0], cutoff=10.0) == pytest.approx((1 + 20 + 3) / 3)
    assert stats.par([None], cutoff=0.5) == pytest.approx(1.0)
    assert stats.par([2.0, 4.0], cutoff=10.0, factor=10) == pytest.approx(3.0)


TIMES = {
    "a": {"p1": 1.0, "p2": 4.0, "p3": None},
    "b": {"p1": 2.0, "p2": 2.0, "p3": 5.0},
}


def test_performance_ratios_and_profile() -> None:
    ratios = stats.performance_ratios(TIMES)
    assert ratios["a"] == {"p1": 1.0, "p2": 2.0, "p3": math.inf}
    assert ratios["b"] == {"p1": 2.0, "p2": 1.0, "p3": 1.0}
    assert stats.profile(ratios["a"].values(), [1.0, 2.0, 4.0]) == pytest.approx(
        [1 / 3, 2 / 3, 2 / 3]
    )
    assert stats.profile(ratios["b"].values(), [1.0, 1.5, 2.0]) == pytest.approx(
        [2 / 3, 2 / 3, 1.0]
    )


def test_ratio_is_inf_for_everyone_when_no_backend_solved_a_puzzle() -> None:
    ratios = stats.performance_ratios({"a": {"p": None}, "b": {"p": None}})
    assert ratios == {"a": {"p": math.inf}, "b": {"p": math.inf}}


def test_virtual_best_and_cactus() -> None:
    assert stats.virtual_best(TIMES) == {"p1": 1.0, "p2": 2.0, "p3": 5.0}
    assert stats.cactus([3.0, None, 1.0, 2.0]) == [1.0, 2.0, 3.0]


def test_per_puzzle_time_is_the_median_of_the_repeats_with_failures_slowest() -> None:
    assert stats.per_puzzle([1.0, None, 3.0]) == 3.0
    assert stats.per_puzzle([None, None, 1.0]) is None
    assert stats.per_puzzle([0.2]) == 0.2


def _row(solver: str, puzzle: str, status: str, total: float, guesses: int = 0) -> dict:
    return {
        "solver": solver,
        "collection": "c",
        "puzzle_id": puzzle,
        "puzzle": "1234341221434321",  # a solved 4x4: every answer below is checked against it
        "rules": "4x4",
        "status": status,
        "count": 1 if status == "solved" else 0,
        "exact": status == "solved",
        "solutions": ["1234341221434321"] if status == "solved" else [],
        "total_s": total,
        "guesses": guesses,
    }


def test_summary_of_a_backend_with_a_timeout_and_an_error() -> None:
    rows = [
        _row("a", "p1", "solved", 0.1, guesses=2),
        _row("a", "p2", "solved", 0.3, guesses=4),
        _row("a", "p3", "timeout", 1.1),
        _row("a", "p4", "error", 0.0),
    ]
    (line,) = summarize(rows, cutoff=1.0, solvers=["a"])
    assert (line.tasks, line.solved, line.timeouts, line.errors) == (4, 2, 1, 1)
    assert line.median_s == pytest.approx(0.2)
    assert line.max_s == pytest.approx(0.3)
    assert line.par2_s == pytest.approx((0.1 + 0.3 + 2.0 + 2.0) / 4)
    expected_sgm = math.exp((math.log(0.11) + math.log(0.31) + 2 * math.log(1.01)) / 4) - 0.01
    assert line.sgm_s == pytest.approx(expected_sgm)
    assert line.per_second == pytest.approx(2 / 1.5)
    assert line.guesses == pytest.approx(3.0)
    assert line.agree == 2


def test_repeat_variation_tells_a_duplicate_puzzle_from_a_repeat() -> None:
    """easy50 lists one puzzle twice (easy50:9 = easy50:41): a single-repeat run warned that
    "repeats vary" from the two entries' different times."""
    seed = "." * 81

    def row(puzzle_id: str, seconds: float) -> dict[str, object]:
        return {"solver": "dlx", "collection": "easy50", "puzzle_id": puzzle_id,
                "geometry": "9x9", "puzzle": seed, "status": "solved", "total_s": seconds}  # fmt: skip

    assert stats.repeat_variation([row("easy50:9", 0.001), row("easy50:41", 0.004)]) == []
    (spread,) = stats.repeat_variation([row("easy50:9", 0.001), row("easy50:9", 0.003)])
    assert spread == pytest.approx(math.sqrt(2) / 2)
