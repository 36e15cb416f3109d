"""Every tutorial under docs/tutorials/ is executed (`make docs` runs these: they take 10-40 s
each, so they are `slow` for the default suite): its ```sh blocks by bash (`sudoku-bench`
is this checkout's command) and its ```python blocks in one namespace per page, in page order,
all in one fresh folder. A block that fails fails the test with the block's text; blocks in
other languages (```shell, ```text, ```toml, ...) are shown, not run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIALS = sorted(
    page for page in (ROOT / "docs" / "tutorials").glob("*.md") if page.name != "index.md"
)
BLOCK = re.compile(r"^```(sh|python)\n(.*?)^```$", re.M | re.S)


def blocks(page: Path) -> list[tuple[str, str]]:
    return BLOCK.findall(page.read_text(encoding="utf-8"))


def _environment(folder: Path) -> dict[str, str]:
    """PATH with a `sudoku-bench` that runs this checkout under this interpreter."""
    bin_folder = folder / ".bin"
    bin_folder.mkdir()
    command = bin_folder / "sudoku-bench"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudoku_bench.harness "$@"\n')
    command.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_folder}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["MPLBACKEND"] = "Agg"
    return env


def test_there_are_tutorials() -> None:
    assert len(TUTORIALS) >= 6 and all(blocks(page) for page in TUTORIALS)


@pytest.mark.slow
@pytest.mark.parametrize("page", TUTORIALS, ids=[page.stem for page in TUTORIALS])
def test_the_tutorial_runs(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _environment(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", env["PATH"])
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict[str, object] = {"__name__": f"tutorial_{page.stem}"}
    for number, (language, code) in enumerate(blocks(page), 1):
        where = f"{page.name}, block {number} ({language}):\n{code}"
        if language == "sh":
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", code],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == 0, f"{where}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
        else:
            exec(compile(code, f"<{where}>", "exec"), namespace)
