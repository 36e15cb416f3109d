"""Without an optional library, a command that needs it ends in one line naming the extra to
install (never a ModuleNotFoundError traceback), and one that can do without it does.

A missing library is simulated by `sys.modules[name] = None` (its import then fails as if it
were not installed), with the modules that import it at load time dropped for the test."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.cli.commands import experiment as experiment_command


def _uninstall(monkeypatch: pytest.MonkeyPatch, library: str, *importers: str) -> None:
    monkeypatch.setitem(sys.modules, library, None)
    for module in importers:
        monkeypatch.delitem(sys.modules, module, raising=False)


def test_experiment_clues_without_numpy_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _uninstall(monkeypatch, "numpy", "sudoku_bench.harness.experiments.clues", "sudoku_bench.harness.generating.exhaustive4x4")
    code = main(["experiment", "clues", "--quick", "--quiet", "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        "sudoku-bench: error: experiment clues needs numpy, which is not installed: "
        "pip install 'sudoku-bench[experiments]'\n"
    )


def test_experiment_models_without_ortools_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The models experiment meets OR-Tools when it sizes the CP-SAT model (after its runs:
    their tasks record the back-end as unavailable): the same one line, wherever it meets it."""

    def sizes_the_cp_model(args: argparse.Namespace) -> None:
        raise ModuleNotFoundError("No module named 'ortools'", name="ortools.sat.python")

    monkeypatch.setattr(experiment_command, "_perform", sizes_the_cp_model)
    assert main(["experiment", "models", "--quick"]) == 2
    assert capsys.readouterr().err == (
        "sudoku-bench: error: experiment models needs ortools, which is not installed: "
        "pip install 'sudoku-bench[experiments]'\n"
    )


def test_a_missing_module_of_our_own_stays_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: argparse.Namespace) -> None:
        raise ModuleNotFoundError("No module named 'sudoku_bench.harness.gone'", name="sudoku_bench.harness.gone")

    monkeypatch.setattr(experiment_command, "_perform", broken)
    with pytest.raises(ModuleNotFoundError):
        main(["experiment", "models", "--quick"])


def test_html_report_without_matplotlib_has_its_tables_and_no_images(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "runs.sqlite"
    bench = ["bench", "--db", str(db), "--quiet", "seeds", "-s", "propagating,dlx"]
    assert main([*bench, "--timeout", "5"]) == 0
    capsys.readouterr()
    _uninstall(monkeypatch, "matplotlib", "matplotlib.pyplot")
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), "--format", "html", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "matplotlib is not installed: pip install 'sudoku-bench[report]'" in err
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Results per back-end and collection" in page
    assert "data:image/png" not in page
    # asking for the plot files themselves still says what to install
    code = main(["report", "--db", str(db), "--format", "md", "--plots", str(tmp_path / "p")])
    assert code == 2
    assert "pip install 'sudoku-bench[plots]'" in capsys.readouterr().err
