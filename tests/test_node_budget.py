"""The node budget (`Solver.solve(..., node_limit=)`): the engines that count nodes stop at it
the same way every time, a search over it is censored as a `timeout` whose message names the
budget, the others say they have none; and `difficulty`'s headline, which rests on it, comes
out the same with a busy CPU beside the run."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.experiments.base import Results
from sudoku_bench.harness.experiments.conduct import Conduct, run_batch
from sudoku_bench.harness.experiments.difficulty import LABEL, Difficulty, by_budget, headline
from sudoku_bench.harness.storing.store import open_store
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create

BUDGETED = ("backtracking", "propagating", "dlx", "propagating-jit", "dlx-jit", "logic")
# Inkala's puzzle: from 87 nodes (propagating) to about 50,000 (backtracking), well under a
# second in each budgeted engine
HARD = Grid.from_string(
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
)
EASY = load("easy50")[0].puzzle  # logic's steps on Inkala's puzzle take seconds


def puzzle_for(name: str) -> Grid:
    return EASY if name == "logic" else HARD


@pytest.mark.parametrize("name", BUDGETED)
def test_a_search_over_its_budget_is_censored_the_same_way_each_time(name: str) -> None:
    solver = create(name)
    assert solver.honours_node_limit
    puzzle = puzzle_for(name)
    full = solver.solve(puzzle, timeout=120)
    assert full.status in (Status.SOLVED, Status.LIMIT, Status.GAVE_UP)
    budget = max(full.nodes // 4, 1)
    first = solver.solve(puzzle, timeout=120, node_limit=budget)
    second = solver.solve(puzzle, timeout=120, node_limit=budget)
    assert first.status is Status.TIMEOUT
    assert first.message.startswith(f"node budget of {budget} nodes spent")
    assert first.nodes > budget
    assert first.counters["node_budget"] == budget
    assert (second.status, second.nodes, second.message) == (
        first.status,
        first.nodes,
        first.message,
    )


@pytest.mark.parametrize("name", BUDGETED)
def test_a_budget_the_search_fits_in_changes_nothing(name: str) -> None:
    solver = create(name)
    puzzle = puzzle_for(name)
    full = solver.solve(puzzle, timeout=120)
    within = solver.solve(puzzle, timeout=120, node_limit=max(full.nodes, 1))
    assert (within.status, within.nodes, within.solutions) == (
        full.status,
        full.nodes,
        full.solutions,
    )
    assert "node budget" not in within.message


def test_a_backend_without_a_budget_runs_and_says_so() -> None:
    solver = create("sat")
    assert not solver.honours_node_limit
    result = solver.solve(HARD, timeout=60, node_limit=1)
    assert result.status is Status.LIMIT
    assert "no node budget: the sat back-end" in result.message


def test_a_node_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="node_limit must be at least 1"):
        create("dlx").solve(HARD, node_limit=0)


def _spin(seconds: float) -> None:
    import time

    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _headline(folder: Path) -> tuple[float | None, int]:
    """The quick design's budgeted batch run into a fresh store: its headline, and how many
    of its searches the node budget censored."""
    batch = next(b for b in Difficulty().design(quick=True).batches if b.label == LABEL)
    folder.mkdir()
    store = open_store(folder / "difficulty.sqlite")
    try:
        results = Results()
        results.batches[LABEL] = run_batch(
            store, "difficulty", batch, Conduct(jobs=1, command="test", progress=False)
        )
    finally:
        store.close()
    return headline(results), sum(1 for row in results.rows(LABEL) if by_budget(row))


@pytest.mark.slow
def test_the_headline_is_the_same_on_a_busy_machine(tmp_path: Path) -> None:
    idle = _headline(tmp_path / "idle")
    spinner = multiprocessing.get_context("spawn").Process(target=_spin, args=(600.0,))
    spinner.start()
    try:
        busy = _headline(tmp_path / "busy")
    finally:
        spinner.kill()
        spinner.join()
    assert idle[0] is not None and idle[1] > 0  # a headline, with censored searches in it
    assert busy == idle


def test_bench_node_limit_reaches_the_workers_and_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.sqlite"
    argv = ["bench", "hardest:4", "-s", "backtracking,sat", "--node-limit", "5000"]
    assert main([*argv, "--timeout", "60", "--db", str(db), "--json", "--quiet"]) == 0
    records = {
        record["solver"]: record for record in map(json.loads, capsys.readouterr().out.splitlines())
    }
    assert records["backtracking"]["status"] == "timeout"
    assert records["backtracking"]["counters"]["node_budget"] == 5000
    assert records["backtracking"]["nodes"] > 5000
    assert records["sat"]["status"] in ("limit", "solved")
    assert "node_budget" not in records["sat"]["counters"]
    store = open_store(db)
    try:
        assert store.runs()[-1].settings["node_limit"] == 5000
    finally:
        store.close()
