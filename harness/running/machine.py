"""What a run records about where it ran: machine, Python, library versions, git commit."""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from solvers.registry import Backend


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), else what `platform` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe() -> dict[str, Any]:
    return {
        "host": platform.node(),
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 1,
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load": load_average(),
    }


def load_average() -> float | None:
    """The 1-minute load average when the run starts: other work sharing the machine."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def versions(backends: Iterable[Backend]) -> dict[str, str]:
    """Each back-end's library and version, e.g. {"cpsat": "ortools 9.12.4544"}."""
    return {b.name: f"{b.distribution} {b.version() or '(not installed)'}" for b in backends}


def git_commit() -> str:
    """The commit of the sudoku-bench checkout in use (`+dirty` with local changes), or ""."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = _git(root, "rev-parse", "HEAD")
        dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return ""
    return commit + ("+dirty" if dirty else "")


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=True
    )
    return done.stdout.strip()
