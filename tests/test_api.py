"""The Python API gives the CLI's numbers on the same store, in both directions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.harness.api import Run, bench, check, count, generate, read_puzzles
from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.errors import SudokuBenchError

pandas = pytest.importorskip("pandas")

PUZZLES = "seeds"  # 5 small puzzles: a two-back-end run in a few seconds
SOLVERS = ["dlx", "backtracking"]


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def summary_records(frame: pandas.DataFrame) -> list[dict]:
    return [
        {k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
        for row in frame.to_dict("records")
    ]


def test_a_cli_run_read_from_python_has_the_cli_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cli.sqlite"
    command = ["bench", PUZZLES, "-s", ",".join(SOLVERS), "--repeat", "2", "--seed", "7"]
    assert main([*command, "--db", str(db), "--quiet"]) == 0
    report = cli_json(capsys, "report", "--db", str(db), "--format", "json")
    compared = cli_json(capsys, "compare", *SOLVERS, "--db", str(db), "--json")

    run = Run.open(db)
    assert run.id == report["run"]["id"]
    assert summary_records(run.summary()) == report["summary"]
    pair = run.compare(*SOLVERS).pairs.iloc[0]
    for key in ("puzzles", "ratio", "ci_low", "ci_high", "p_value", "a_faster", "b_faster"):
        assert pair[key] == pytest.approx(compared[key])
    assert len(run.frame()) == len(report["tasks"]) == 5 * 2 * 2


def test_a_python_run_reported_by_the_cli_has_the_same_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "api.sqlite"
    run = bench(PUZZLES, SOLVERS, timeout=5, repeat=2, seed=7, db=db)
    report = cli_json(capsys, "report", "--db", str(db), "--run", str(run.id), "--format", "json")
    compared = cli_json(capsys, "compare", *SOLVERS, "--db", str(db), "--json")

    assert summary_records(run.summary()) == report["summary"]
    assert report["run"]["settings"]["repeat"] == 2
    assert report["run"]["seed"] == 7
    pair = run.compare(*SOLVERS).pairs.iloc[0]
    assert pair["ratio"] == pytest.approx(compared["ratio"])
    assert pair["p_value"] == pytest.approx(compared["p_value"])
    # resuming a complete run changes nothing and returns it
    again = bench(db=db, resume=True)
    assert again.id == run.id
    assert summary_records(again.summary()) == report["summary"]


def test_a_temporary_store_lives_as_long_as_its_run() -> None:
    run = bench(PUZZLES, ["dlx"], timeout=5, repeat=1, seed=1)
    assert run.db.is_file()
    assert set(run.frame()["solver"]) == {"dlx"}
    assert "<table" in run._repr_html_()


def test_plots_draw_on_the_callers_axes(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    run = bench(PUZZLES, SOLVERS, timeout=5, repeat=1, seed=3, db=tmp_path / "p.sqlite")
    figure = Figure()
    ax = figure.add_subplot()
    assert run.cactus(ax=ax) is figure
    assert ax.get_lines()  # the back-ends' steps were drawn there
    assert run.profile().axes and run.scatter(*SOLVERS).axes


def test_count_and_reading_errors() -> None:
    found = count("." * 16, ["backtracking"], limit=1000)
    assert found["count"].tolist() == [288]
    assert found["exact"].tolist() == [True]
    with pytest.raises(SudokuBenchError, match=r"missing\.txt"):
        read_puzzles("missing.txt")
    with pytest.raises(SudokuBenchError, match="no puzzles"):
        read_puzzles([])


def test_generate_makes_the_clis_puzzles_from_the_same_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    made = generate(2, difficulty="easy", seed=11)
    capsys.readouterr()
    assert main(["generate", "--count", "2", "--seed", "11", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert made["puzzle"].tolist() == [json.loads(line)["puzzle"] for line in lines]
    assert made.loc[0, "grid"].to_line() == made.loc[0, "puzzle"]
    with pytest.raises(SudokuBenchError, match="difficulty 'silly'"):
        generate(1, difficulty="silly")


def test_check_flags_no_answer_of_agreeing_back_ends() -> None:
    found = check(PUZZLES, SOLVERS, timeout=5)
    assert len(found) == 5 * len(SOLVERS)
    assert found["agrees"].all()
    assert set(found["solver"]) == set(SOLVERS)
