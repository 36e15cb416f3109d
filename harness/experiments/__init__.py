"""Built-in experiments: published comparisons reproduced with one command.

`EXPERIMENTS` names each experiment's class (`module:Class`, like `reductions.REDUCTIONS`),
so listing them imports nothing heavy; `get(name)` builds one. See `base.Experiment` for what
an experiment declares, `conduct.perform` for how it runs, `document` for its report.
"""

from __future__ import annotations

import importlib

from harness.experiments.base import Experiment
from puzzles.errors import SudokuBenchError

# name -> module:Class, in the order `experiment --list` shows them.
EXPERIMENTS: dict[str, str] = {
    "propagation": "harness.experiments.propagation:Propagation",
    "encodings": "harness.experiments.encodings:Encodings",
    "models": "harness.experiments.models:Models",
    "difficulty": "harness.experiments.difficulty:Difficulty",
    "clues": "harness.experiments.clues:Clues",
}


class UnknownExperimentError(SudokuBenchError):
    """An experiment name that is not registered."""


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
