"""Running an experiment in quick mode and checking its report: every experiment's test uses
these (`run_quick(name, tmp_path)` then `assert_complete(report)`)."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.experiments.base import Batch, Design, Experiment, Results
from sudoku_bench.harness.experiments.document import MISSING, SECTIONS, Document
from sudoku_bench.puzzles.collections import load
from sudoku_bench.solvers.registry import get
from tests.cli_contract import EXPERIMENT_RUN, EXPERIMENT_RUN_BATCH

NUMBER = re.compile(r"^-?\d[\d,]*(\.\d+)?(e[+-]?\d+)?%?$")


def run_quick(name: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """`sudoku-bench experiment NAME --quick -o FOLDER --json`: its record (checked against the
    documented keys), with the report's text under `text`."""
    assert (
        main(["experiment", name, "--quick", "-o", str(folder), "-j", "2", "--quiet", "--json"])
        == 0
    )
    record: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert set(record) == EXPERIMENT_RUN
    for batch in record["runs"]:
        assert set(batch) == EXPERIMENT_RUN_BATCH
    assert record["report"] == str(folder / f"{name}.md")
    record["text"] = Path(record["report"]).read_text(encoding="utf-8")
    return record


def tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables of a text: each a list of rows (the header first) of cells."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-:") for cell in cells):  # not the |---| line
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def is_number(cell: str) -> bool:
    return bool(NUMBER.match(cell.replace("`", "")))


def assert_complete(record: dict[str, Any]) -> None:
    """The report has every section in order, its result tables hold real numbers, and the
    plots it names are files beside it."""
    text: str = record["text"]
    places = [text.find(f"\n## {section}\n") for section in SECTIONS]
    assert all(place >= 0 for place in places), f"missing sections in {record['report']}"
    assert places == sorted(places)
    results = text[places[2] : places[3]]
    found = tables(results)
    assert found, "the results section has no table"
    for table in found:
        header, *rows = table
        assert rows, f"a table with no rows: {header}"
        numbers = [cell for row in rows for cell in row if is_number(cell)]
        assert numbers, f"a table without numbers: {header}"
        assert any(cell != MISSING for row in rows for cell in row[1:])
    for plot in record["plots"]:
        path = Path(plot)
        assert path.is_file() and path.stat().st_size > 1000
        assert f"]({path.name})" in results
    comparison = text[places[3] : places[4]].strip().splitlines()[1:]
    assert any(line.strip() for line in comparison), "no comparison paragraph"
    assert "sudoku-bench experiment" in text[places[4] : places[5]]


class Tiny(Experiment):
    """A small experiment for the framework's own tests: a few 4x4 puzzles, two back-ends."""

    name = "tiny"
    summary = "a few 4x4 puzzles on two back-ends (the framework's test)"
    paper = "none: a test"
    question = "Do two back-ends need the same nodes on 4x4 puzzles?"
    puzzles = 3

    def design(self, quick: bool) -> Design:
        entries = tuple(load("4x4")[: self.puzzles])
        backends = (get("dlx"), get("propagating-singles"))
        batch = Batch("4x4", entries, backends, 5.0, (f"4x4 (first {self.puzzles})",))
        return Design((batch,), ("A test design.",))

    def analyse(self, results: Results, doc: Document) -> None:
        rows = [
            [f"`{name}`", len(found), statistics.fmean(int(r["nodes"]) for r in found)]
            for name, found in results["4x4"].by_solver().items()
        ]
        doc.table(["back-end", "puzzles", "nodes mean"], rows)
        doc.plot("nodes", "nodes per back-end", lambda figure: _bars(figure, rows))

    def compare(self, results: Results) -> str:
        return f"{len(results.rows())} results; the paper has no figures."


def _bars(figure: Any, rows: list[list[Any]]) -> None:
    figure.add_subplot(1, 1, 1).bar([str(r[0]) for r in rows], [float(r[2]) for r in rows])
