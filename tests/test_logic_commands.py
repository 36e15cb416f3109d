"""The explain and rate commands, and the rating labels."""

from __future__ import annotations

import json

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.rating import level_table, rate
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.engines.logic import TECHNIQUES
from tests.cli_contract import EXPLAIN, RATE, STEP_DETAIL

NEWSPAPER = "004036927100005000000200004005000060640000085070000200500001000000700002437920500"
HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
# NEWSPAPER's solution without a rectangle 5/8, 8/5 (r4c3, r4c4, r6c3, r6c4): two solutions,
# so logic gives up (it never guesses), and at once (nothing is left to try)
TWO_SOLUTIONS = "85413692712947563876328915429..1746364139278537..64291582641379916753842437928516"


def test_explain_prints_the_steps_then_the_boxed_grid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", NEWSPAPER]) == 0
    out = capsys.readouterr().out
    assert "1. r1c1 = 8: naked single" in out
    assert "solved in 53 steps; hardest technique: naked single; rating: easy" in out
    assert out.rstrip().endswith("4 3 7 | 9 2 8 | 5 1 6")  # the last row of the solution


def test_explain_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--json", NEWSPAPER]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == EXPLAIN
    assert all(set(step) == STEP_DETAIL for step in record["step_details"])
    assert record["status"] == "solved" and record["rating"] == "easy"
    assert record["log"][0] == "1. r1c1 = 8: naked single"
    assert record["step_details"][0] == {
        "technique": "naked_single",
        "text": "r1c1 = 8: naked single",
        "placements": [["r1c1", 8]],
        "eliminations": [],
    }
    assert record["steps"] == 53 and record["counters"]["naked_single"] == 53


def test_explain_shows_the_candidates_when_it_gives_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", TWO_SOLUTIONS]) == 0
    out = capsys.readouterr().out
    assert "gave up after 0 steps" in out and "candidates left:" in out
    assert "2  9  58 | 58 1  7  | 4  6  3" in out  # row 4: the givens and two cells' candidates
    assert main(["explain", "--json", TWO_SOLUTIONS]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "gave_up" and record["rating"] == "beyond logic"
    assert record["candidates"] == dict.fromkeys(("r4c3", "r4c4", "r6c3", "r6c4"), "58")
    assert record["partial"] == TWO_SOLUTIONS


def test_unknown_technique_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--techniques", "guessing", NEWSPAPER]) == 2
    assert "unknown technique(s) guessing" in capsys.readouterr().err


def test_rate_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "easy50"]) == 0
    out = capsys.readouterr().out
    assert "50 puzzles: easy 40, medium 9, hard 1" in out
    assert main(["rate", "--json", NEWSPAPER, HARD, TWO_SOLUTIONS]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(set(record) == RATE for record in records)
    assert [r["rating"] for r in records] == ["easy", "extreme", "beyond logic"]
    assert records[1]["hardest"] == "nested forcing nets (last resort)"
    assert records[0]["hardest"] == "naked single" and records[0]["score"] == 53


def test_rate_levels_lists_every_technique(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "--levels"]) == 0
    out = capsys.readouterr().out
    assert all(t.name in out for t in TECHNIQUES)
    assert [level for level, _ in level_table()] == [
        "easy",
        "medium",
        "hard",
        "expert",
        "extreme",
        "beyond logic",
    ]


def test_ratings_grow_with_the_techniques_needed() -> None:
    ratings = [rate(entry.puzzle) for entry in load("easy50")]
    hardest = max(ratings, key=lambda r: r.rank)
    assert hardest.label == "hard" and hardest.score > min(r.score for r in ratings)
    no_solution = rate(Grid.from_string("11" + "." * 79))
    assert no_solution.label == "no solution"


def test_explain_draws_what_the_rules_mark(capsys: pytest.CaptureFixture[str]) -> None:
    """`explain` of a killer drew the bare grid: its steps name cages the reader could not see."""
    assert main(["explain", "killer:1", "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "cages (a letter each) and their sums:" in out.split("1. ", 1)[0]
