"""The compact view of a report: back-ends down, collections across, one metric, and how far
each back-end is from the best one over all collections ("x best").

The full table (every metric for every back-end and collection) is about 190 characters wide
and 110 rows for the default suite; this one fits a terminal and answers the first question,
who is fastest where.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from tabulate import tabulate

from sudoku_bench.harness.analysing.summary import ALL, Summary


@dataclass(frozen=True)
class Metric:
    key: str  # the `Summary` field
    title: str
    lower_is_better: bool = True
    seconds: bool = True  # shown in milliseconds


METRICS: dict[str, Metric] = {
    metric.key.removesuffix("_s"): metric
    for metric in (
        Metric("sgm_s", "shifted geometric mean (ms; failures at the cut-off)"),
        Metric("par2_s", "PAR-2 (ms; failures at twice the cut-off)"),
        Metric("median_s", "median time of the solved tasks (ms)"),
        Metric("mean_s", "mean time of the solved tasks (ms)"),
        Metric("max_s", "longest solved task (ms)"),
        Metric("per_second", "puzzles solved per second", lower_is_better=False, seconds=False),
        Metric("solved", "tasks solved", lower_is_better=False, seconds=False),
    )
}
DEFAULT_METRIC = "sgm"


def terminal_width() -> int | None:
    """The width to fit: `COLUMNS` where set, else the terminal's when standard output is
    one; None (no limit) when the output goes to a file or a pipe."""
    if os.environ.get("COLUMNS", "").isdigit() or sys.stdout.isatty():
        return shutil.get_terminal_size((100, 24)).columns
    return None


def pivot(
    summaries: Sequence[Summary], metric: str = DEFAULT_METRIC, width: int | None = None
) -> str:
    """The table, with a line above it saying what it shows, split by columns into parts
    that each fit `width` characters (default: the terminal's), the back-ends down each."""
    chosen = METRICS[metric]
    solvers = list(dict.fromkeys(s.solver for s in summaries))
    collections = list(dict.fromkeys(s.collection for s in summaries if s.collection != ALL))
    cell = {(s.solver, s.collection): float(getattr(s, chosen.key)) for s in summaries}
    overall_key = ALL if len(collections) > 1 else collections[0] if collections else ALL
    overall = {name: cell.get((name, overall_key), math.nan) for name in solvers}
    finite = [value for value in overall.values() if math.isfinite(value) and value > 0]
    best = (min if chosen.lower_is_better else max)(finite, default=math.nan)
    headers = ["solver", *collections, *(["all"] if len(collections) > 1 else []), "x best"]
    rows = []
    for name in solvers:
        values = [cell.get((name, c), math.nan) for c in collections]
        if len(collections) > 1:
            values.append(overall[name])
        rows.append(
            [name, *(_shown(v, chosen) for v in values), _ratio(overall[name], best, chosen)]
        )
    title = (
        f"{chosen.title} per back-end and collection; x best: over all collections, against "
        f"the best back-end (`--full` for every measure)"
    )
    fit = terminal_width() if width is None else width
    parts = _fitted(headers, rows, fit)
    if len(parts) > 1:
        title += (
            f"; in {len(parts)} parts to fit {fit} columns "
            "(`report --format md` or `csv` gives it whole)"
        )
    return title + "".join(f"\n\n{part}" for part in parts)


def _fitted(headers: list[str], rows: list[list[str]], width: int | None) -> list[str]:
    """The table as one or more tables of consecutive columns, each no wider than `width`
    (a column wider than that alone gets a part of its own), the first column in every part."""
    whole = tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
    if width is None or max(map(len, whole.splitlines()), default=0) <= width:
        return [whole]
    widths = [max(len(str(v)) for v in [headers[i], *(row[i] for row in rows)]) for i in
              range(len(headers))]  # fmt: skip
    groups: list[list[int]] = [[]]
    used = widths[0]
    for column in range(1, len(headers)):
        if groups[-1] and used + 2 + widths[column] > width:
            groups.append([])
            used = widths[0]
        groups[-1].append(column)
        used += 2 + widths[column]
    return [
        tabulate(
            [[row[0], *(row[i] for i in group)] for row in rows],
            headers=[headers[0], *(headers[i] for i in group)],
            tablefmt="simple",
            disable_numparse=True,
        )
        for group in groups
    ]


def _shown(value: float, metric: Metric) -> str:
    if not math.isfinite(value):
        return "-"
    if metric.seconds:
        value *= 1000
    if metric.key == "solved":
        return str(int(value))
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _ratio(value: float, best: float, metric: Metric) -> str:
    if not (math.isfinite(value) and math.isfinite(best)) or value <= 0:
        return "-"
    ratio = value / best if metric.lower_is_better else best / value
    return "best" if ratio == 1 else f"{ratio:.2g}x" if ratio < 10 else f"{ratio:.0f}x"
