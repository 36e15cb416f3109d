"""The `encodings` experiment's quick mode: every section, each encoding in every table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.experiment_support import assert_complete, run_quick, tables


def test_encodings_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("encodings", tmp_path, capsys)
    assert_complete(record)
    text = record["text"]
    for name in ("sat-minimal", "sat-efficient", "sat-extended", "sat"):
        assert f"`{name}`" in text
    sizes, propagation, times = tables(text.split("\n## Results\n")[1])[:3]
    assert sizes[0][:5] == ["size", "encoding", "puzzles", "variables median", "clauses median"]
    by_encoding = {row[1]: int(row[4]) for row in sizes[1:] if row[0] == "9x9"}
    # the formulas' ordering: optimised < minimal < efficient < extended
    assert by_encoding["optimised"] < by_encoding["minimal"] < by_encoding["efficient"]
    assert by_encoding["efficient"] < by_encoding["extended"]
    assert propagation[0][-4:] == ["minimal", "efficient", "extended", "optimised"]
    assert all(int(row[3]) >= 1 for row in times[1:])  # each encoding answered some
    assert "Lynce and Ouaknine" in text.split("## Compared with the paper")[1]
    inference, paper = tables(text.split("\n## Results\n")[1])[3:5]
    assert inference[0][:4] == ["set", "encoding", "puzzles", "up: unit propagation"]
    by_row = {(row[0], row[1]): row for row in inference[1:]}
    # the rules are ordered by strength on every puzzle: up <= fl <= hbr
    for row in inference[1:]:
        assert int(row[3]) <= int(row[4]) <= int(row[5]) <= int(row[2])
    assert by_row[("17clue", "extended")][4] == "2"  # fl solves both quick 17-clue puzzles
    assert paper[0][:3] == ["measure", "paper", "source of the paper's figure"]
    assert "Prediction" in text.split("## Compared with the paper")[1]


def test_failed_literals_beat_unit_propagation_on_a_17_clue_puzzle() -> None:
    """On the extended encoding failed literals finish a puzzle unit propagation leaves open;
    the minimal encoding's failed literals do not (the paper's contrast, on one puzzle)."""
    from sudoku_bench.harness.experiments.sat_inference import infer
    from sudoku_bench.puzzles.collections import load

    puzzle = list(load("17clue"))[1].puzzle
    extended = infer(puzzle, "extended", binary=False)
    assert not extended.solved("up") and extended.solved("fl") and extended.solved("hbr")
    minimal = infer(puzzle, "minimal", binary=False)
    assert not minimal.solved("fl")
    optimised = infer(puzzle, "extended", "simplify", binary=False)
    assert optimised.fixed_cells == extended.fixed_cells
