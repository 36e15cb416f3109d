"""Issue 17, first-use friction of reports: a compact terminal table with the full one behind
`--full`, back-ends and collections chosen, plots that say where they come from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.analysing import plots
from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.testing import registered
from sudoku_bench.harness.storing.store import open_store

FOURS = "...3..4114..3...\n1..4..1..3..4..3\n3....21..34....1\n"


@pytest.fixture(scope="module")
def run_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    db = folder / "runs.sqlite"
    puzzles = folder / "fours.txt"
    puzzles.write_text(FOURS)
    args = ["bench", str(puzzles), "seeds", "-s", "dlx,propagating,backtracking", "--db", str(db)]
    assert main([*args, "--quiet", "--seed", "1", "--timeout", "5"]) == 0
    return db


def test_the_terminal_table_is_a_compact_pivot(
    run_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # output to a pipe: one table, whole
    assert main(["report", "--db", str(run_db)]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[-1].splitlines()
    assert table[0].split() == [
        "solver",
        str(run_db.parent / "fours.txt"),
        "seeds",
        "all",
        "x",
        "best",
    ]
    assert [line.split()[0] for line in table[2:]] == ["dlx", "propagating", "backtracking"]
    assert sum(line.split()[-1] == "best" for line in table[2:]) == 1
    name = len(str(run_db.parent / "fours.txt"))  # a collection read from a file is its path
    assert max(len(line) for line in out.splitlines()[-5:]) < 70 + name
    assert main(["report", "--db", str(run_db), "--full"]) == 0
    assert "PAR-2 ms" in capsys.readouterr().out


def test_the_terminal_table_is_split_to_fit_the_terminal(
    run_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default suite's table was 428 columns wide: it comes in parts that fit, each with
    the back-ends down, and says where the whole table is."""
    monkeypatch.setenv("COLUMNS", "40")
    assert main(["report", "--db", str(run_db)]) == 0
    out = capsys.readouterr().out
    title, *parts = out.split("\nshifted geometric mean", 1)[1].strip().split("\n\n")
    stated = title.split("; in ", 1)[1]
    assert stated.endswith("parts to fit 40 columns (`report --format md` or `csv` gives it whole)")
    assert len(parts) == int(stated.split()[0]) >= 2
    for part in parts:
        lines = part.splitlines()
        assert lines[0].split()[0] == "solver"
        assert [line.split()[0] for line in lines[2:]] == ["dlx", "propagating", "backtracking"]
        assert max(map(len, lines)) <= 40 or len(lines[0].split()) == 2  # one column too wide
    assert sum(part.count("best") for part in parts) >= 2  # the x best column, and its winner


def test_report_chooses_back_ends_collections_and_metric(
    run_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", "--db", str(run_db), "-s", "dlx,backtracking", "--collections", "seeds"]
    assert main([*argv, "--metric", "par2"]) == 0
    table = capsys.readouterr().out.split("\n\n")[-2:]
    assert table[0].startswith("PAR-2")
    assert [line.split()[0] for line in table[1].splitlines()[2:]] == ["dlx", "backtracking"]
    assert main([*argv, "--format", "csv"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")][1:]
    assert rows and all(
        ",seeds," in row and (",dlx," in row or ",backtracking," in row) for row in rows
    )
    assert main(["report", "--db", str(run_db), "--collections", "top95"]) == 2
    assert "the run has no collection top95 (it has " in capsys.readouterr().err


def test_plots_carry_the_run_and_pick_the_fastest_pair(
    run_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    save = plots._save

    def recording(fig: Any, plt: Any, path: Path, caption: str = "") -> Path:
        ax = fig.axes[0]
        legend = ax.get_legend()
        seen[path.stem] = {
            "caption": caption,
            "labels": [t.get_text() for t in legend.get_texts()] if legend else [],
            "ylim": ax.get_ylim(),
            "title": ax.get_title(),
        }
        return save(fig, plt, path, caption)

    monkeypatch.setattr(plots, "_save", recording)
    assert main(["report", "--db", str(run_db), "--plots", str(tmp_path)]) == 0
    store = open_store(run_db, read_only=True)
    report = Report(store)
    assert seen["cactus"]["caption"].startswith(f"sudoku-bench run {report.run.id} of ")
    assert "cores; time limit 5 s" in seen["cactus"]["caption"]
    assert seen["scatter"]["title"].startswith(" vs ".join(report.fastest(2)))
    assert "backtracking" not in report.fastest(2)  # the slowest is not in the default pair
    assert seen["scatter"]["ylim"][1] < 5  # nothing failed: the axes end near the data
    assert "no failures" in seen["scatter"]["title"]
    assert all(label.endswith("/8 solved)") for label in seen["profile"]["labels"])


def test_the_cutoff_is_drawn_when_something_failed(tmp_path: Path) -> None:
    times = {"a": {1: 0.001, 2: None}, "b": {1: 0.002, 2: 0.003}}
    path = plots.scatter(times, ["a", "b"], tmp_path / "s.png", cutoff=1.0)
    assert path.exists()


def test_bench_ends_with_the_compact_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with registered("reference"):
        args = ["bench", "...3..4114..3...", "-s", "reference", "--db", str(tmp_path / "r.sqlite")]
        assert main([*args, "--quiet"]) == 0
    assert "x best" in capsys.readouterr().out
