"""The `models` experiment's quick mode: every section, every model in the tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.experiment_support import assert_complete, run_quick, tables


def test_models_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("models", tmp_path, capsys)
    assert_complete(record)
    text = record["text"]
    results = text.split("\n## Results\n")[1].split("\n## Compared with the paper\n")[0]
    sizes, times, pairs = tables(results)[:3]
    assert all(int(row[4]) >= 1 for row in times[1:])  # each model answered on each set
    everything = {row[2].strip("`") for row in sizes[1:]}
    assert everything >= {"cpsat", "cpsat-onehot", "milp", "milp-textbook", "groebner"}
    assert {"groebner-qq", "groebner-unity", "groebner-basis-qq"} <= everything
    models = {row[2].strip("`"): row for row in sizes[1:] if row[0] == "9x9"}
    # the textbook MILP has all N³ variables; the reduced program fewer
    assert models["milp-textbook"][4] == "729" and int(models["milp"][4]) < 729
    assert int(models["cpsat"][4]) == 81 < int(models["cpsat-onehot"][4])
    assert len(pairs) == 7  # the header and the six pairs
    assert "CP-SAT with 0/1" in text.split("## Compared with the paper")[1]
