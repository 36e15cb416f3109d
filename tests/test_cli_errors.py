"""The CLI: stable `--json` keys, and every user error as one line on stderr with exit code 2."""

from __future__ import annotations

import json

import pytest

from harness.cli import main


def test_solvers_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solvers", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {"name", "aliases", "available", "version", "library", "summary"} <= set(records[0])
    assert [r["name"] for r in records][:2] == ["backtracking", "propagating"]
