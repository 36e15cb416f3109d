"""sudoku-bench: many ways of solving Sudoku behind one `Solver` interface, and a harness that
cross-checks, counts and times them.

The layers, each a sub-package; a lower one never imports a higher one:

- `sudoku_bench.puzzles`: the problem (rules = a shape plus constraints, grids, formats,
  bundled collections, the checker);
- `sudoku_bench.reductions`: puzzle -> model -> answer (exact cover, CP model, CSP, CNF, MILP,
  polynomials);
- `sudoku_bench.solvers`: the engines and library adapters behind one interface, the registry;
- `sudoku_bench.harness`: cross-check, timed runs, the results store, analysis, reports, the CLI.

The whole-comparison API is here at the top (`harness.api`, imported on first use so that
`import sudoku_bench` stays cheap):

    >>> import sudoku_bench
    >>> run = sudoku_bench.bench(["easy50"], solvers=["dlx", "cpsat"], timeout=2, repeat=1)
    >>> run.summary()

`bench`, `Run`, `Comparison`, `check`, `count`, `generate`, `minimum_clues`, `rate`,
`read_puzzles` and `load_results`; `__version__` is the installed distribution's version.
"""

from __future__ import annotations

from typing import Any

from sudoku_bench import _legacy

_API = (
    "Comparison",
    "Run",
    "bench",
    "check",
    "count",
    "generate",
    "minimum_clues",
    "rate",
    "read_puzzles",
)

__all__ = ["__version__", "load_results", *_API]

_legacy.install()  # the pre-namespace module names, for one release (see `_legacy`)


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
    raise AttributeError(f"module 'sudoku_bench' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
