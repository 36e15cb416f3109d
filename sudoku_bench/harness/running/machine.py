"""What a run records about where it ran: machine, Python, library versions, git commit."""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import re
import subprocess
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sudoku_bench.solvers.registry import Backend


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


def cpu_mhz() -> list[float]:
    """Each core's clock now (`cpu MHz` in /proc/cpuinfo); empty where it is not shown."""
    try:
        with open("/proc/cpuinfo") as info:
            return [float(line.split(":", 1)[1]) for line in info if line.startswith("cpu MHz")]
    except (OSError, ValueError):
        return []


@dataclass
class Conditions:
    """What the machine was like while a run ran, sampled now and then: the highest load
    average and the lowest and highest CPU clock seen (frequency scaling shows as a range)."""

    load_max: float | None = None
    mhz_min: float | None = None
    mhz_max: float | None = None
    samples: int = 0

    def sample(self) -> None:
        load = load_average()
        if load is not None:
            self.load_max = max(load, self.load_max or 0.0)
        clocks = cpu_mhz()
        if clocks:
            self.mhz_min = min([*clocks, *([self.mhz_min] if self.mhz_min else [])])
            self.mhz_max = max([*clocks, *([self.mhz_max] if self.mhz_max else [])])
        self.samples += 1

    def merged(self, earlier: dict[str, Any]) -> dict[str, Any]:
        """These conditions joined with those stored by an earlier part of the run."""
        joined = asdict(self)
        for key, pick in (("load_max", max), ("mhz_min", min), ("mhz_max", max)):
            values = [v for v in (joined[key], earlier.get(key)) if v is not None]
            joined[key] = pick(values) if values else None
        joined["samples"] += int(earlier.get("samples", 0))
        return joined


def versions(backends: Iterable[Backend]) -> dict[str, str]:
    """Each back-end's library and version, e.g. {"cpsat": "ortools 9.12.4544"}."""
    return {b.name: f"{b.distribution} {b.version() or '(not installed)'}" for b in backends}


DISTRIBUTION = "sudoku-bench"
# the folder that holds the `sudoku_bench` package: a checkout's top, or site-packages
SOURCE_ROOT = Path(__file__).resolve().parents[3]


def git_commit(root: Path = SOURCE_ROOT) -> str:
    """The commit of the sudoku-bench code in use, never another project's: asked of git
    only where `root` is this project's own source tree (the top of a git work tree whose
    pyproject.toml names the distribution: a checkout, an editable install), else read from
    the installed distribution's metadata (`commit_of_distribution`); "" where neither knows.
    A wheel installed in a virtual environment inside a user's repository therefore records
    the commit it was built from, not the user's."""
    if _is_own_source_tree(root):
        try:
            commit = _git(root, "rev-parse", "HEAD")
            dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
        except (OSError, subprocess.SubprocessError):
            return ""
        return commit + ("+dirty" if dirty else "")
    return commit_of_distribution()


def _is_own_source_tree(root: Path) -> bool:
    try:
        project = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return False
    if not re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', project, re.MULTILINE):
        return False
    try:
        top = _git(root, "rev-parse", "--show-toplevel")
    except (OSError, subprocess.SubprocessError):
        return False
    return Path(top).resolve() == root.resolve()


def commit_of_distribution(name: str = DISTRIBUTION) -> str:
    """The commit an installed distribution was built from, as its metadata records it: the
    `vcs_info` of an install from a repository (PEP 610's direct_url.json), else the `+g<hash>`
    part of a version written from git (setuptools-scm); "" where it records none."""
    try:
        distribution = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return ""
    direct = distribution.read_text("direct_url.json")
    if direct:
        try:
            commit = json.loads(direct).get("vcs_info", {}).get("commit_id", "")
        except (ValueError, AttributeError):
            commit = ""
        if commit:
            return str(commit)
    found = re.search(r"\+g([0-9a-f]{7,40})", distribution.version or "")
    return found.group(1) if found else ""


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=True
    )
    return done.stdout.strip()
