"""The `clues` experiment: its analysis on hand-made results, and its quick run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.experiments.clues import (
    FOUR_FILE,
    NINE_FILE,
    CountRow,
    Effort,
    check_four,
    first_per_k,
    onset,
    solution_shares,
    transition,
    where,
)
from sudoku_bench.harness.generating.facts4x4 import FOUR, all_grids
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from tests.experiment_support import assert_complete, run_quick, tables


def row(puzzle: str, verdict: str, pid: str | None = None, **more: Any) -> dict[str, Any]:
    return {"puzzle_id": pid or puzzle, "puzzle": puzzle, "verdict": verdict, **more}


def test_solution_shares_count_verdicts_per_number_of_givens() -> None:
    rows = [
        row("12..", "unique", "a"),
        row("12..", "unique", "a"),
        row("1...", "multiple", "b"),
        row("1...", "unknown", "b"),
        row("3...", "unknown", "c"),  # nobody settled it
        row("..34", "unique", "d"),
        row("..34", "multiple", "d"),  # two answers differ
    ]
    shares = solution_shares(rows)
    assert shares[2] == CountRow(puzzles=2, unique=1, unknown=1, disagree=1)
    assert shares[1] == CountRow(puzzles=2, multiple=1, unknown=1)
    assert shares[2].unique_share == 1.0
    assert shares[1].unique_share == 0.0


def test_transition_interpolates_where_half_are_unique() -> None:
    def counts(shares: dict[int, float]) -> dict[int, CountRow]:
        return {k: CountRow(10, 0, round(10 * s), 10 - round(10 * s)) for k, s in shares.items()}

    assert transition(counts({10: 0.0, 20: 0.2, 30: 0.8, 40: 1.0})) == 25.0
    assert transition(counts({10: 0.0, 20: 0.4})) is None
    assert transition(counts({10: 0.6, 20: 1.0})) == 10.0


def test_where_places_a_peak_against_the_transition() -> None:
    ks = [10, 20, 25, 30, 40, 50]
    assert where(25, 27.0, ks) == "at"
    assert where(20, 27.0, ks) == "at"  # one design step below the bracketing k
    assert where(40, 27.0, ks) == "at"
    assert where(10, 27.0, ks) == "below"
    assert where(50, 27.0, ks) == "above"
    assert where(None, 27.0, ks) == "–"


def test_effort_censors_timeouts_at_the_cutoff() -> None:
    cell = Effort(times=[0.1, 0.2, 0.3], nodes=[5, 7, 9], timeouts=2)
    assert cell.median_time(1.0) == 0.3  # 0.1 0.2 0.3 1 1
    assert cell.median_nodes() == 7
    assert cell.time_cell(1.0) == "300 (2 t/o)"
    mostly_timeouts = Effort(times=[0.1], nodes=[3], timeouts=1)
    assert mostly_timeouts.median_time(1.0) is None  # only known to be >= the cut-off
    assert mostly_timeouts.time_cell(1.0).startswith(">1000")
    assert Effort([], [], gave_up=2).time_cell(1.0) == "– (2 gave up)"


def test_check_four_compares_verdicts_with_the_true_count() -> None:
    grid = all_grids(FOUR)[0]
    full = grid.to_line()
    empty = "." * 16
    rows = [
        row(full, "unique"),
        row(empty, "multiple"),
        row(empty, "unique"),  # wrong: the empty 4x4 has 288 solutions
        row(empty, "unknown"),  # not settled: not checked
    ]
    assert check_four(rows) == (3, 1)


def test_first_per_k_keeps_the_order_of_the_sample() -> None:
    grid = all_grids(FOUR)[3]
    lines = [grid.with_values({c: 0 for c in range(16) if c >= k}) for k in (2, 2, 2, 3, 3)]
    entries = [PuzzleEntry(f"f:{i}", g) for i, g in enumerate(lines, start=1)]
    assert [e.id for e in first_per_k(entries, 2)] == ["f:1", "f:2", "f:4", "f:5"]
    assert isinstance(entries[0].puzzle, Grid)


def test_clues_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("clues", tmp_path, capsys)
    assert_complete(record)
    text = record["text"]
    for heading in (
        "9x9: solutions by number of givens",
        "4x4, exhaustively",
        "9x9: effort by number of givens",
        "4x4: effort by number of givens",
        "Where does the effort peak?",
    ):
        assert f"### {heading}" in text
    assert [run["label"] for run in record["runs"]] == ["9x9-count", "9x9-effort", "4x4-effort"]
    # the exhaustive 4x4 table: 288 grids, the first unique puzzle at 4 givens
    four = next(t for t in tables(text) if t[0][1] == "(grid, cells) pairs")
    assert four[1][:2] == ["0", "288"] and four[5][:3] == ["4", "524160", "25728"]
    assert "The first k with a unique puzzle: 4." in text
    assert ", 0 wrong." in text  # the harness's 4x4 verdicts match the exhaustive counts
    # the samples are puzzle files beside the report, and their ids are the stored ones
    nine = load(str(tmp_path / NINE_FILE))
    assert len(nine) == 16 and {entry.puzzle.givens for entry in nine} == {20, 30, 40, 50}
    assert len(load(str(tmp_path / FOUR_FILE))) == 10
    assert "So our figures" in text


def test_the_verdict_follows_where_the_peaks_lie() -> None:
    from sudoku_bench.harness.experiments.clues import Findings, comparison_text, peak_rows
    from sudoku_bench.harness.generating.exhaustive4x4 import exhaustive

    shares = {10: 0, 15: 0, 20: 2, 25: 6, 30: 9, 35: 10, 40: 10}  # unique of 10
    counts = {k: CountRow(10, 0, u, 10 - u) for k, u in shares.items()}
    assert transition(counts) == 23.75
    assert onset(counts) == 20  # the first k with a unique puzzle

    def curve(times: list[float], gave_up: int = 0) -> dict[int, Effort]:
        return {
            k: Effort([t] * 3, [t * 100] * 3, gave_up=gave_up)
            for k, t in zip(shares, times, strict=False)
        }

    peaked = curve([0.01, 0.1, 0.5, 0.9, 0.3, 0.1, 0.02])
    falling = curve([0.9, 0.7, 0.5, 0.3, 0.1, 0.05, 0.02])
    data = {"a": peaked, "b": peaked, "c": falling, "logic": curve([0.1], gave_up=1)}
    peaks = peak_rows(data, counts, 1.0)
    assert [(p.solver, p.time_peak, p.time_verdict) for p in peaks] == [
        ("a", 25, "at"),
        ("b", 25, "at"),
        ("c", 10, "below"),
    ]  # a back-end that gave up is not placed

    def text(chosen: dict[str, dict[int, Effort]]) -> str:
        found = Findings(
            exhaustive(),
            counts,
            chosen,
            {},
            (1.0, 1.0),
            {},
            {},
            {},
            peak_rows(chosen, counts, 1.0),
            3,
            {},
        )
        return comparison_text(found)

    assert "So our figures agree" in text(data)
    assert "So our figures do not agree" in text({"c": falling})
    assert "So our figures partly agree" in text({"a": peaked, "c": falling, "d": falling})
    # an easy-hard-easy curve peaking where the first unique puzzles appear, below the 50%
    # mark: partly
    early = {10: 0, 15: 1, 20: 2, 25: 3, 30: 6, 35: 10, 40: 10}
    counts = {k: CountRow(10, 0, u, 10 - u) for k, u in early.items()}
    humped = curve([0.01, 0.9, 0.1, 0.05, 0.03, 0.02, 0.01])
    (peak,) = peak_rows({"e": humped}, counts, 1.0)
    assert (peak.time_peak, peak.humped, peak.time_verdict, peak.onset_verdict) == (
        15,
        True,
        "below",
        "at",
    )
    assert "So our figures partly agree" in text({"e": humped, "c": falling})
    assert "So our figures do not agree" in text({"c": falling, "f": falling})
