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
