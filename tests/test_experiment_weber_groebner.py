"""The `weber` and `groebner` experiments' quick mode: every section, a "paper vs us" table
with a verdict per row."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_bench.harness.experiments.weber import expected_minimal_size, minimal_size
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from tests.experiment_support import assert_complete, run_quick, tables


def _paper_table(text: str) -> list[list[str]]:
    results = text.split("\n## Results\n")[1].split("\n## Compared with the paper\n")[0]
    table = next(t for t in tables(results) if t[0][:2] == ["measure", "paper"])
    return table[1:]


def test_the_minimal_encoding_has_its_defined_size() -> None:
    assert expected_minimal_size() == (729, 8829)
    assert minimal_size(Grid.empty(Rules.of_size(9))) == (729, 8829)
    assert expected_minimal_size(4) == (64, 16 + 3 * 16 * 6)
    assert minimal_size(Grid.empty(Rules.of_size(4))) == expected_minimal_size(4)


def test_weber_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("weber", tmp_path, capsys)
    assert_complete(record)
    rows = _paper_table(record["text"])
    assert len(rows) == 4
    assert [row[3] for row in rows[:2]] == ["729", "8829"]
    assert rows[0][4] == rows[1][4] == "agrees"
    assert all(row[4] in ("agrees", "disagrees") for row in rows)
    assert "Sudoku.thy" in rows[2][2]


def test_groebner_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("groebner", tmp_path, capsys)
    assert_complete(record)
    rows = _paper_table(record["text"])
    assert rows[0][1] == "288"
    assert rows[0][3] == "288 (exact)" and rows[0][4] == "agrees"
    assert rows[1][4] in ("agrees", "disagrees")
