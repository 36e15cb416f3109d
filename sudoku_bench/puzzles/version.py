"""The version of the installed distribution, for `__version__` in every package."""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "sudoku-bench"


def installed_version() -> str:
    """The version of the installed `sudoku-bench` (set from git tags when it was built);
    "unknown" when the source tree runs without being installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
