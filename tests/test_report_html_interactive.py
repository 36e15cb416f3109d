"""The interactive HTML report: self-contained (uPlot embedded), and in headless Chromium with
the network off its charts render and hovering the scatter names a puzzle."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from tests.chromium import BROWSER, offline_page
from tests.cli_contract import REPORT_DIFF, REPORT_DIFF_ROW


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("interactive")
    db = folder / "runs.sqlite"
    bench = [
        "bench",
        "--db",
        str(db),
        "--quiet",
        "seeds",
        "hardest",
        "-s",
        "propagating,dlx,backtracking",
    ]
    assert main([*bench, "--timeout", "0.3", "--seed", "1"]) == 0
    out = folder / "report.html"
    assert main(["report", "--db", str(db), "--format", "html", "-o", str(out)]) == 0
    return out


def test_the_chart_library_and_data_are_in_the_page(page: Path) -> None:
    text = page.read_text()
    assert "uPlot" in text and 'id="chart-data"' in text
    assert not re.search(r'(src|href)="(http|//)', text)  # nothing fetched from elsewhere
    for section in ("95% bootstrap intervals", "Per-puzzle times", "p (Holm)", "Friedman test"):
        assert section in text
    assert 'class="clique"' in text or "Joined below" in text  # the CD diagram's groups


@pytest.mark.skipif(BROWSER is None, reason="no chromium here (Debian package 'chromium')")
def test_offline_chromium_draws_the_charts_and_hover_names_a_puzzle(page: Path) -> None:
    pytest.importorskip("websocket", reason="websocket-client (dev extra) drives Chromium")
    with offline_page(page) as tab:
        tab.wait_for("document.body.dataset.charts === 'ready'")
        for chart in ("scatter", "cactus"):  # a canvas with something drawn on it
            inked = tab.evaluate(
                f"(function(){{var c=document.querySelector('#{chart} canvas');"
                "var d=c.getContext('2d').getImageData(0,0,c.width,c.height).data;"
                "var n=0; for (var i=3;i<d.length;i+=4){ if(d[i]>0){n++;} } return n;})()"
            )
            assert inked > 1000, chart
        tab.evaluate("document.querySelector('.controls').scrollIntoView()")
        x, y = tab.evaluate(
            "(function(){var r=document.querySelector('#scatter .u-over').getBoundingClientRect();"
            "return [r.left + r.width * 0.5, r.top + r.height * 0.5];})()"
        )
        tab.move_mouse(x, y)
        puzzle = tab.wait_for("document.getElementById('hovered').dataset.puzzle", 20)
        ids = tab.evaluate("JSON.parse(document.getElementById('chart-data').textContent).puzzles")
        assert puzzle in ids
        assert puzzle in tab.evaluate("document.getElementById('hovered').textContent")
        # choosing another pair re-draws the scatter with its names
        tab.evaluate(
            "(function(){var s=document.getElementById('pair-b'); s.value='backtracking';"
            "s.dispatchEvent(new Event('change'));})()"
        )
        assert "backtracking" in tab.evaluate(
            "document.querySelector('#scatter .u-title').textContent"
        )
        assert not tab.exceptions, tab.exceptions
        assert not [u for u in tab.requests if not u.startswith(("file:", "data:", "about:"))]


def test_diff_of_two_runs_gives_each_ratio_with_its_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "diff.sqlite"
    for seed in ("1", "2"):
        assert (
            main(
                [
                    "bench",
                    "--db",
                    str(db),
                    "--quiet",
                    "seeds",
                    "-s",
                    "dlx,propagating",
                    "--seed",
                    seed,
                ]
            )
            == 0
        )
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--diff", "1", "2", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found) == REPORT_DIFF and (found["run_a"], found["run_b"]) == (1, 2)
    assert {(r["solver"], r["collection"]) for r in found["diff"]} == {
        ("dlx", "seeds"),
        ("propagating", "seeds"),
    }
    for row in found["diff"]:
        assert set(row) == REPORT_DIFF_ROW
        assert row["ci_low"] <= row["ratio"] <= row["ci_high"]
    out = tmp_path / "diff.html"
    assert (
        main(["report", "--db", str(db), "--diff", "1", "2", "--format", "html", "-o", str(out)])
        == 0
    )
    assert "Run 2 against run 1" in out.read_text()
    assert main(["report", "--db", str(db), "--diff", "1", "7"]) != 0  # one line, no traceback


def test_the_page_is_made_without_matplotlib(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_bench.harness.analysing import plots

    monkeypatch.setattr(plots, "available", lambda: False)  # as without matplotlib
    db = page.parent / "runs.sqlite"
    out = tmp_path / "plain.html"
    assert main(["report", "--db", str(db), "--format", "html", "-o", str(out)]) == 0
    assert "matplotlib is not installed" in capsys.readouterr().err
    text = out.read_text()
    assert "data:image/png" not in text
    assert 'id="chart-data"' in text and "Per-puzzle times" in text
