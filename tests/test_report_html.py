"""`report --format html`: one self-contained file, rendered by a real headless browser."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main

BROWSER = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None
)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("html")
    db = folder / "runs.sqlite"
    bench = [
        "bench",
        "--db",
        str(db),
        "--quiet",
        "hardest",
        "4x4",
        "-s",
        "propagating,dlx,backtracking",
    ]
    assert main([*bench, "--timeout", "0.3"]) == 0
    out = folder / "report.html"
    assert main(["report", "--db", str(db), "--format", "html", "-o", str(out)]) == 0
    return out


def test_the_page_is_self_contained(page: Path) -> None:
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert text.count("data:image/png;base64,") == 3  # cactus, profile, scatter embedded
    assert not re.search(r'(src|href)="(http|//)', text)  # nothing fetched from elsewhere
    assert "Paired comparisons" in text and "Puzzles with failures" in text
    assert '<table class="grid">' in text  # a failed puzzle is drawn (backtracking times out)


@pytest.mark.skipif(BROWSER is None, reason="no chromium here (Debian package 'chromium')")
def test_chromium_renders_it_without_script_errors(page: Path, tmp_path: Path) -> None:
    command = [
        str(BROWSER),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--enable-logging=stderr",
    ]
    done = subprocess.run(
        [*command, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    )
    assert 'data-sortable="ready"' in done.stdout  # the script ran to its end
    assert "Uncaught" not in done.stderr and "CONSOLE" not in done.stderr, done.stderr[-2000:]
    shot = tmp_path / "report.png"
    subprocess.run(
        [*command, "--window-size=1280,2400", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert shot.stat().st_size > 20_000
