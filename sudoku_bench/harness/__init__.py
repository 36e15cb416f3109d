"""What users run: cross-check, counting, timed runs, storage, reports, generator and the CLI.

From Python (`sudoku_bench.harness.api`, imported on first use, so the CLI does not pay for pandas):

- `bench(puzzles, solvers, timeout=2, repeat=3, db=None, ...)` times back-ends as
  `sudoku-bench bench` does and returns a `Run` (`.frame()`, `.summary()`, `.compare(a, b)`,
  `.report(format)`, `.cactus(ax=)`, `.profile(ax=)`, `.scatter(a, b, ax=)`);
  `Run.open(db, run=None)` reads a stored run;
- `check`, `count`, `rate`, `generate` do what their commands do and return DataFrames;
- `load_results(db, run=None)` loads stored results as a pandas DataFrame (see
  `sudoku_bench.harness.analysing.frame`).
"""

from typing import Any

_API = ("bench", "Run", "Comparison", "check", "count", "generate", "rate", "read_puzzles")

__all__ = ["load_results", *_API]


def __getattr__(name: str) -> Any:
    if name == "load_results":
        from sudoku_bench.harness.analysing.frame import load_results

        return load_results
    if name == "__version__":  # from the installed metadata, only when asked
        from sudoku_bench.puzzles.version import installed_version

        return installed_version()
    if name in _API:
        from sudoku_bench.harness import api

        return getattr(api, name)
    raise AttributeError(f"module 'sudoku_bench.harness' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
