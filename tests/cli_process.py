"""Running `sudoku-bench` as its own process, for what only a real process shows: file
descriptors, resource limits, signals."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": ""}
COMMAND = [sys.executable, "-m", "sudoku_bench.harness"]


def run_cli(
    args: Sequence[str],
    *,
    stdin: Any = subprocess.DEVNULL,
    stdout: Any = subprocess.PIPE,
    input_text: str | None = None,
    preexec: Callable[[], None] | None = None,
    timeout: float = 60,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a fresh interpreter with this checkout first on the path."""
    return subprocess.run(
        [*COMMAND, *args],
        stdin=None if input_text is not None else stdin,
        input=input_text,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=preexec,
        timeout=timeout,
        cwd=cwd,
        check=False,
    )


def start_cli(args: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    """Start the CLI without waiting (to signal it)."""
    return subprocess.Popen(
        [*COMMAND, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        **kwargs,
    )
