"""Built-in experiments: published comparisons reproduced with one command.

`EXPERIMENTS` names each experiment's class (`module:Class`, like `sudoku_bench.reductions.REDUCTIONS`),
so listing them imports nothing heavy; `get(name)` builds one. See `base.Experiment` for what
an experiment declares, `conduct.perform` for how it runs, `document` for its report.
"""

from __future__ import annotations

import importlib

from sudoku_bench.harness.experiments.base import Experiment
from sudoku_bench.puzzles.errors import SudokuBenchError

# name -> module:Class, in the order `experiment --list` shows them.
EXPERIMENTS: dict[str, str] = {
    "propagation": "sudoku_bench.harness.experiments.propagation:Propagation",
    "encodings": "sudoku_bench.harness.experiments.encodings:Encodings",
    "models": "sudoku_bench.harness.experiments.models:Models",
    "difficulty": "sudoku_bench.harness.experiments.difficulty:Difficulty",
    "clues": "sudoku_bench.harness.experiments.clues:Clues",
    "weber": "sudoku_bench.harness.experiments.weber:Weber",
    "groebner": "sudoku_bench.harness.experiments.groebner:Groebner",
    "variants": "sudoku_bench.harness.experiments.variants:Variants",
}


# The libraries beyond the core that some experiment imports; the `experiments` extra
# installs every one of them.
OPTIONAL_LIBRARIES: dict[str, str] = {
    "numpy": "numpy",
    "ortools": "ortools",
    "sympy": "sympy",
    "pysat": "python-sat",
    "constraint": "python-constraint2",
    "matplotlib": "matplotlib",
    "exact_cover": "exact-cover",
    "xcover": "xcover",
}


class UnknownExperimentError(SudokuBenchError):
    """An experiment name that is not registered."""


class MissingLibraryError(SudokuBenchError):
    """An experiment needs a library that is not installed."""


def missing_library(name: str, error: ModuleNotFoundError) -> MissingLibraryError | None:
    """The one-line error for experiment `name` stopped by `error`, when what is missing is
    an optional library (None for any other module: that is a bug, not a missing extra)."""
    library = OPTIONAL_LIBRARIES.get((error.name or "").partition(".")[0])
    if library is None:
        return None
    return MissingLibraryError(
        f"experiment {name} needs {library}, which is not installed: "
        "pip install 'sudoku-bench[experiments]'"
    )


def experiment_class(name: str) -> type[Experiment]:
    try:
        target = EXPERIMENTS[name]
    except KeyError:
        raise UnknownExperimentError(
            f"unknown experiment {name!r}; known experiments: {', '.join(EXPERIMENTS)}"
        ) from None
    module_name, _, class_name = target.partition(":")
    found: type[Experiment] = getattr(importlib.import_module(module_name), class_name)
    return found


def get(name: str) -> Experiment:
    """A new instance of the experiment called `name`."""
    return experiment_class(name)()
