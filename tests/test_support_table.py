"""The support table (`sudoku-bench solvers --kinds`) is read from the back-ends' encoder tables,
and the committed `docs/reference/support.md` is its generated page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.cli.commands.solvers_list import (
    SUPPORT_PAGE,
    support_page,
    support_records,
)
from sudoku_bench.puzzles.constraints import KINDS
from sudoku_bench.solvers.registry import backends, get
from tests.cli_contract import SOLVER_KINDS

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_support_page_is_the_generated_one() -> None:
    missing = [backend.name for backend in backends() if not backend.available()]
    if missing:
        pytest.skip(f"not installed here, so their rows cannot be read: {', '.join(missing)}")
    committed = (ROOT / SUPPORT_PAGE).read_text(encoding="utf-8")
    # regenerate: sudoku-bench solvers --kinds --format page > docs/reference/support.md
    assert committed == support_page()


def test_each_row_is_the_back_ends_own_encoder_table() -> None:
    for record in support_records():
        backend = get(record["name"])
        if not backend.available():
            assert set(record["kinds"].values()) == {None}
            continue
        table = backend.solver_class().encoders
        if table is None:  # a back-end still declaring its kinds the older way
            continue
        assert record["kinds"] == {name: table.encodes(kind) for name, kind in KINDS.items()}


def test_the_exact_cover_references_claim_only_extra_units() -> None:
    # dlx-jit also links the pair relations' secondary columns
    pairs = {"anti_knight", "anti_king", "non_consecutive"}
    for name in ("exact-cover-c", "dlx-jit", "xcover"):
        kinds = next(r["kinds"] for r in support_records() if r["name"] == name)
        expected = {"diagonal", "extra_region"} | (pairs if name == "dlx-jit" else set())
        assert {kind for kind, yes in kinds.items() if yes} >= expected
        assert not {kind for kind, yes in kinds.items() if yes} & {"parity", "killer_cage"}


def test_solvers_kinds_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solvers", "--kinds", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {record["name"] for record in records} == {backend.name for backend in backends()}
    for record in records:
        assert set(record) == SOLVER_KINDS
        assert set(record["kinds"]) == set(KINDS)


def test_rules_is_the_older_name_of_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solvers", "--kinds", "--format", "md"]) == 0
    kinds = capsys.readouterr().out
    assert main(["solvers", "--rules", "--format", "md"]) == 0
    assert capsys.readouterr().out == kinds
    assert kinds.startswith("| back-end")
