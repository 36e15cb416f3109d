"""Outcomes of worker tasks as the CLI's `--json` record: built by `sudoku_bench.harness.results`."""

from __future__ import annotations

from sudoku_bench.harness.results import outcome_json

# The name the commands have used for `sudoku_bench.harness.results.outcome_json`.
outcome_record = outcome_json

__all__ = ["outcome_record"]
