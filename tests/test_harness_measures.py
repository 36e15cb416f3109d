"""Per-task measurements (wall, CPU, peak memory), `--memory-limit` and `--permute`."""

from pathlib import Path

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.testing import registered
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid

FOUR = "...3..4114..3..."


def bench(db: Path, *args: str) -> int:
    return main(["bench", "--db", str(db), "--quiet", *args])


def test_a_runaway_allocation_is_a_memout_and_the_run_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        args = ["-s", "hog,reference", "--memory-limit", "200", "--timeout", "20", "-j", "1"]
        assert bench(db, FOUR, *args) == 0
    rows = {row["solver"]: row for row in SQLiteStore(db).results(1)}
    assert rows["hog"]["status"] == "memout"
    assert "200 MB" in rows["hog"]["error"]
    assert rows["reference"]["status"] in ("solved", "limit")
    assert rows["reference"]["peak_rss_mb"] < 1000


def test_cpu_time_of_a_sleeping_backend_is_near_zero(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    with registered():
        assert bench(db, FOUR, "-s", "napper", "--timeout", "20") == 0
    (row,) = SQLiteStore(db).results(1)
    assert row["wall_s"] >= 0.3
    assert row["cpu_s"] < 0.1
    assert row["peak_rss_mb"] > 1  # a Python process holds megabytes


def test_permuted_repeats_are_mapped_back_and_checked(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    assert bench(db, "top95", "-s", "propagating", "--repeat", "5", "--permute", "--seed", "3") == 0
    store = SQLiteStore(db)
    rows = store.results(1)
    assert len(rows) == 95 * 5
    puzzles = {task.puzzle_id: task.grid() for task in store.tasks(1)}
    for row in rows:
        assert row["status"] in ("solved", "limit")
        puzzle = puzzles[row["puzzle_id"]]
        assert is_solution(puzzle, Grid.from_string(row["solution"], puzzle.rules))
    seeds = {(row["puzzle_id"], row["permutation"]) for row in rows}
    assert len(seeds) == len(rows)  # every repeat met its own isomorph
    times: dict[str, set[float]] = {}
    for row in rows:
        times.setdefault(row["puzzle_id"], set()).add(row["total_s"])
    assert sum(len(t) > 1 for t in times.values()) > 90  # the repeats' times differ


def test_stability_warnings_name_load_clock_and_noisy_repeats(tmp_path: Path) -> None:
    from sudoku_bench.harness.analysing.report import Report

    db = tmp_path / "runs.sqlite"
    with registered():
        assert bench(db, FOUR, "-s", "reference", "--repeat", "3") == 0
    store = SQLiteStore(db)
    assert store.run(1).conditions["samples"] >= 1  # sampled while it ran
    store.record_conditions(1, {"load_max": 99.0, "mhz_min": 1200.0, "mhz_max": 3000.0})
    rows = store.results(1)
    for number, row in enumerate(rows):  # make the three repeats differ a lot
        store.db.execute(
            "UPDATE results SET solve_s = ?, total_s = ? WHERE run = 1 AND task = ?",
            (0.01 * (number + 1), 0.01 * (number + 1) + row["build_s"], row["task"]),
        )
    warnings = Report(store, 1).warnings()
    assert any("load average reached 99" in w for w in warnings)
    assert any("1200 to 3000 MHz" in w for w in warnings)
    assert any("1 of 1 repeated tasks vary" in w for w in warnings)
