"""The experiment framework: the command, the registry, the report, resuming and reusing runs
(on a tiny test experiment), and each built-in experiment's quick mode."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness import experiments
from sudoku_bench.harness.cli import main
from tests.cli_contract import EXPERIMENT_LIST
from tests.experiment_support import Tiny, assert_complete, run_quick


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> type[Tiny]:
    monkeypatch.setitem(experiments.EXPERIMENTS, "tiny", "tests.experiment_support:Tiny")
    return Tiny


def test_list_names_each_experiment_first_on_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiment", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(experiments.EXPERIMENTS)
    assert main(["experiment", "--list", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(set(record) == EXPERIMENT_LIST for record in records)
    assert [record["name"] for record in records] == list(experiments.EXPERIMENTS)


def test_every_registered_experiment_declares_itself() -> None:
    for name in experiments.EXPERIMENTS:
        found = experiments.experiment_class(name)
        assert found.name == name
        assert found.summary and found.paper and found.question


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["experiment", "nonesuch"], "unknown experiment 'nonesuch'"),
        (["experiment"], "name an experiment"),
        (["experiment", "propagation", "--list"], "--list takes no experiment name"),
    ],
)
def test_bad_use_is_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert words in error and len(error.splitlines()) == 1


def test_a_report_has_every_section_and_a_second_start_reuses_the_run(
    tiny: type[Tiny], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_quick("tiny", tmp_path, capsys)
    assert_complete(first)
    assert first["store"] == str(tmp_path / "tiny.sqlite")
    assert [(r["label"], r["tasks"], r["reused"]) for r in first["runs"]] == [("4x4", 6, False)]
    assert "## Design" in first["text"] and "`dlx`" in first["text"]
    second = run_quick("tiny", tmp_path, capsys)
    assert second["runs"] == [{**first["runs"][0], "reused": True}]
    assert_complete(second)


def test_a_changed_design_is_a_new_run(
    tiny: type[Tiny],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = run_quick("tiny", tmp_path, capsys)
    monkeypatch.setattr(Tiny, "puzzles", 2)
    second = run_quick("tiny", tmp_path, capsys)
    assert second["runs"][0]["run"] != first["runs"][0]["run"]
    assert (second["runs"][0]["tasks"], second["runs"][0]["reused"]) == (4, False)


def test_an_unfinished_run_is_resumed_not_redone(
    tiny: type[Tiny], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run_quick("tiny", tmp_path, capsys)
    store = tmp_path / "tiny.sqlite"
    with sqlite3.connect(store) as db:  # as if the run had been killed after two tasks
        kept = [row[0] for row in db.execute("SELECT task FROM results ORDER BY task LIMIT 2")]
        db.execute("DELETE FROM results WHERE task NOT IN (?, ?)", kept)
        db.execute("UPDATE runs SET finished = NULL")
    db.close()
    second = run_quick("tiny", tmp_path, capsys)
    assert second["runs"] == [{**first["runs"][0], "reused": False}]
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM results").fetchone() == (6,)
        assert db.execute("SELECT count(*) FROM resumes").fetchone() == (1,)
    db.close()


def test_db_puts_the_store_elsewhere(
    tiny: type[Tiny], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "elsewhere.sqlite"
    assert (
        main(["experiment", "tiny", "-o", str(tmp_path / "out"), "--db", str(store), "--quiet"])
        == 0
    )
    assert store.is_file() and (tmp_path / "out" / "tiny.md").is_file()
    assert "wrote" in capsys.readouterr().out


def test_propagation_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("propagation", tmp_path, capsys)
    assert_complete(record)
    text = record["text"]
    for level in (
        "propagating-singles",
        "propagating-alldiff",
        "propagating-sac-singles",
        "propagating-sac",
        "logic-easy",
        "logic-extreme",
    ):
        assert f"`{level}`" in text
    compared = text.split("## Compared with the paper")[1]
    # the prediction is checked puzzle by puzzle against PySAT's failed literals
    assert "Prediction held" in compared and "Verdict: the prediction held" in compared


def test_difficulty_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("difficulty", tmp_path, capsys)
    assert_complete(record)
    text = record["text"]
    assert "### Spearman correlations with the rating" in text
    assert "### Against Sudoku Explainer's ratings" in text
    for backend in ("`propagating`", "`dlx`", "`logic`"):
        assert backend in text
    assert len(record["plots"]) == 2
    compared = text.split("## Compared with the paper")[1]
    assert "Pelánek" in compared and "our rating follows Sudoku Explainer's" in compared


def test_a_stored_logic_result_rates_as_the_result_itself() -> None:
    from sudoku_bench.harness.generating.rating import rating_from, rating_of
    from sudoku_bench.puzzles.collections import load
    from sudoku_bench.solvers.engines.logic import LogicSolver

    solver = LogicSolver(explain=False)
    for entry in [*load("easy50")[:2], *load("hardest")[:3]]:
        result = solver.solve(entry.puzzle)
        stored = json.loads(json.dumps(result.counters))  # as the store gives it back
        assert rating_from(result.status.value, stored) == rating_of(result)


def test_an_interrupted_experiment_says_so_and_the_same_command_resumes_it(
    tiny: type[Tiny],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sudoku_bench.harness.experiments import conduct

    original = conduct.session.execute

    def stopped_after_two(store: Any, work: Any, on_done: Any, tick: Any = None) -> None:
        seen = []

        def done(outcome: Any) -> None:
            on_done(outcome)
            seen.append(outcome)
            if len(seen) == 2:
                raise KeyboardInterrupt

        original(store, work, done, tick)

    monkeypatch.setattr(conduct.session, "execute", stopped_after_two)
    argv = ["experiment", "tiny", "--quick", "-o", str(tmp_path), "-j", "1", "--quiet"]
    assert main(argv) == 130
    assert "the same command resumes it" in capsys.readouterr().err
    assert not (tmp_path / "tiny.md").exists()
    monkeypatch.setattr(conduct.session, "execute", original)
    record = run_quick("tiny", tmp_path, capsys)
    assert [(r["tasks"], r["reused"]) for r in record["runs"]] == [(6, False)]
    with sqlite3.connect(tmp_path / "tiny.sqlite") as db:
        assert db.execute("SELECT count(*) FROM resumes").fetchone() == (1,)
    db.close()


def test_quick_without_o_leaves_the_full_reports_alone(
    tiny: type[Tiny],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["experiment", "tiny", "--quick", "--quiet"]) == 0
    assert (tmp_path / "reports/experiments/quick/tiny.md").is_file()
    assert not (tmp_path / "reports/experiments/tiny.md").exists()
    assert main(["experiment", "tiny", "--quiet"]) == 0
    assert (tmp_path / "reports/experiments/tiny.md").is_file()


def test_sample_is_even_and_the_same_each_time() -> None:
    from sudoku_bench.harness.experiments.base import sample
    from sudoku_bench.puzzles.collections import load

    entries = load("17clue")
    chosen = sample(entries, 10)
    assert [e.id for e in chosen] == [entries[100 * i].id for i in range(10)]
    assert sample(entries, 10) == chosen
    assert sample(entries, None) == entries == sample(entries, 5000)


def test_a_fingerprint_changes_with_what_makes_a_different_run() -> None:
    from dataclasses import replace

    from sudoku_bench.harness.experiments.base import Batch
    from sudoku_bench.puzzles.collections import load
    from sudoku_bench.solvers.registry import Backend, get

    batch = Batch("x", tuple(load("4x4")[:2]), (get("dlx"),), 5.0, ("4x4",))
    same = Batch("x", tuple(load("4x4")[:2]), (get("dlx"),), 5.0, ("in other words",))
    assert batch.fingerprint("e") == same.fingerprint("e")  # the words are not the design
    optioned = Backend("dlx", get("dlx").target, "dlx with an option", options={"a": 1})
    for changed in (
        replace(batch, timeout=6.0),
        replace(batch, limit=2),
        replace(batch, label="y"),
        replace(batch, entries=tuple(load("4x4")[:3])),
        replace(batch, backends=(optioned,)),
    ):
        assert changed.fingerprint("e") != batch.fingerprint("e")
    assert batch.fingerprint("other") != batch.fingerprint("e")


def test_the_bundled_se_ratings_cover_the_design_and_agree_on_an_easy_puzzle() -> None:
    from sudoku_bench.harness.experiments.difficulty import se_ratings
    from sudoku_bench.harness.generating.rating import rate
    from sudoku_bench.puzzles.collections import load

    published = se_ratings()
    for name in ("easy50", "top95"):
        for entry in load(name):
            assert entry.puzzle.to_line().replace("0", ".") in published, entry.id
    assert all(1.0 <= value <= 12.0 for value in published.values())
    first = load("top95")[0].puzzle  # SE: 2.6, a pointing pair at most
    assert rate(first).estimate == published[first.to_line().replace("0", ".")] == 2.6
