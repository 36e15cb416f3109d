"""What users run: cross-check, counting, timed runs, storage, reports, generator and the CLI.

`harness.load_results(db, run=None)` loads stored results as a pandas DataFrame (see
`harness.analysing.frame`); it is imported on first use, so the CLI does not pay for pandas.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "load_results":
        from harness.analysing.frame import load_results

        return load_results
    if name == "__version__":  # from the installed metadata, only when asked
        from puzzles.version import installed_version

        return installed_version()
    raise AttributeError(f"module 'harness' has no attribute {name!r}")
