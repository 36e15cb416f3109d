"""The documentation is the public contract: it names every documented `--json` key, report
column and store column (the sets in `tests/cli_contract.py`), and `reduce --json` prints exactly them.

Each other command's tests assert that it prints exactly its documented set."""

from __future__ import annotations

import json

import pytest

from sudoku_bench.harness.cli import main
from tests.cli_contract import DOCUMENTED, MATRIX_SIZE, REDUCE, documentation

FOURS = "....3.2..4.1...."  # the thesis's 4x4 puzzle


def test_the_documentation_names_every_documented_key() -> None:
    text = documentation()
    missing = {
        what: sorted(key for key in keys if f"`{key}`" not in text)
        for what, keys in DOCUMENTED.items()
    }
    assert {what: keys for what, keys in missing.items() if keys} == {}


@pytest.mark.parametrize("target", sorted(REDUCE))
def test_reduce_json_has_the_documented_keys(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reduce", FOURS, "--to", target, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == REDUCE[target]
    assert (record["id"], record["target"]) == ("arg1", target)
    if target == "exact-cover":
        assert set(record["before"]) == set(record["after"]) == MATRIX_SIZE


def test_reduce_json_goes_to_stderr_when_the_model_takes_stdout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["reduce", FOURS, "--to", "cnf", "-o", "-", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("c sudoku-bench: 4x4 Sudoku")
    assert set(json.loads(captured.err)) == REDUCE["cnf"]
