"""`report --format html`: one self-contained HTML file (no network, no files beside it).

It holds the report's header and stability warnings, the summary table (sortable: click a
column), the plots embedded as PNG data, the paired comparisons of the run's back-ends, and a
per-puzzle view: every puzzle on which some back-end failed or was blamed, drawn, with each
back-end's status on it.
"""

from __future__ import annotations

import base64
import html
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_bench.harness.analysing import interactive
from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.analysing.summary import blamed
from sudoku_bench.harness.results import puzzle_grid
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.symbols import DEFAULT
from sudoku_bench.solvers.base import Status

# The per-puzzle view lists at most this many puzzles (the worst first): a run of 50,000
# puzzles must still give a file a browser opens.
MAX_PUZZLES_SHOWN = 200

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
.plots img { max-width: 100%; }
table.data { border-collapse: collapse; font-size: 0.85em; }
table.data th, table.data td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
table.data th { background: #eee; cursor: pointer; user-select: none; }
table.data td:first-child, table.data td:nth-child(2) { text-align: left; }
dl.header dt { font-weight: bold; float: left; clear: left; width: 9em; }
dl.header dd { margin-left: 10em; }
.warning { color: #a40; }
.plots img { max-width: 48%; margin: 0.5em; border: 1px solid #ddd; }
table.grid { border-collapse: collapse; margin: 0.3em 0; }
table.grid td { width: 1.3em; height: 1.3em; text-align: center; font-size: 0.8em;
  border: 1px solid #ddd; padding: 0; }
.puzzle { display: inline-block; vertical-align: top; margin: 0 1.5em 1.5em 0; }
.bad { color: #b00; font-weight: bold; }
"""

# Click a header to sort by it; numbers sort as numbers, "-" last.
SCRIPT = """
document.querySelectorAll('table.data').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.from(body.rows);
      var ascending = th.dataset.order !== 'asc';
      th.dataset.order = ascending ? 'asc' : 'desc';
      var key = function (row) {
        var text = row.cells[column].textContent.trim();
        var number = parseFloat(text);
        return isNaN(number) ? text : number;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (typeof x !== typeof y) { return typeof x === 'number' ? -1 : 1; }
        return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.body.dataset.sortable = 'ready';
"""


def render(report: Report, images: Sequence[Path] = ()) -> str:
    """The whole page."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>sudoku-bench report: run {report.run.id}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>sudoku-bench report: run {report.run.id}</h1>",
        _header(report),
        "<h2>Results per back-end and collection</h2>",
        _table(report.headers(), report.table_rows()),
    ]
    if report.rows:
        parts += [
            "<h2>Summary measures with 95% bootstrap intervals</h2>",
            "<p>Over the puzzles (each the median of its repeats; failures at the time "
            "limit for sgm, at twice it for PAR-2; median of the solved), in ms; "
            f"{interactive.RESAMPLES} resamples (fewer, at least {interactive.MIN_RESAMPLES}, "
            f"past {interactive.DRAWS_BUDGET // interactive.RESAMPLES:,} puzzles).</p>",
            _table(
                ["solver", "collection", "puzzles", "sgm ms [CI]", "PAR-2 ms [CI]",
                 "median ms [CI]"],
                interactive.interval_rows(report),
            ),
            "<h2>Interactive charts</h2>",
            interactive.charts(report),
        ]  # fmt: skip
    if images:
        parts += ["<h2>Plots</h2>", '<div class="plots">', *map(_image, images), "</div>"]
    comparisons = interactive.comparison_section(report, _table)
    if comparisons:
        parts += ["<h2>Paired comparisons</h2>", comparisons]
    parts += ["<h2>Puzzles with failures or disagreements</h2>", _puzzles(report)]
    if report.rows:
        headers, rows = interactive.puzzle_table(report)
        parts += ["<h2>Per-puzzle times</h2>", _table(headers, rows)]
    parts += [f"<script>{SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _header(report: Report) -> str:
    items = []
    for key, value in report.header():
        css = ' class="warning"' if key == "warning" else ""
        items.append(f"<dt{css}>{html.escape(key)}</dt><dd{css}>{html.escape(str(value))}</dd>")
    return f'<dl class="header">{"".join(items)}</dl>'


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>"
        for row in rows
    )
    return f'<table class="data"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _image(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(path.stem)}" src="data:image/png;base64,{data}">'


def _puzzles(report: Report) -> str:
    wrong = blamed(report.rows)
    by_puzzle: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in report.rows:
        by_puzzle[(row["collection"], row["puzzle_id"])].append(row)
    flagged = []
    for key, rows in by_puzzle.items():
        failures = [
            r
            for r in rows
            if not Status(r["status"]).answered and r["status"] != Status.UNSUPPORTED
        ]
        if failures or wrong.get(key):
            flagged.append((len(wrong.get(key, ())) * 1000 + len(failures), key, rows))
    if not flagged:
        return "<p>Every back-end answered every puzzle it accepts, and all agree.</p>"
    flagged.sort(key=lambda item: -item[0])
    shown = flagged[:MAX_PUZZLES_SHOWN]
    parts = []
    if len(flagged) > len(shown):
        parts.append(f"<p>The {len(shown)} worst of {len(flagged)} puzzles are shown.</p>")
    for _, key, rows in shown:
        first = rows[0]
        puzzle = puzzle_grid(first["rules"], first["puzzle"])
        statuses = []
        for row in sorted(rows, key=lambda r: (r["solver"], r["repeat"])):
            bad = row["solver"] in wrong.get(key, ()) or not Status(row["status"]).answered
            text = f"{row['solver']}: {row['status']}" + (
                " (blamed: wrong or disproved)" if row["solver"] in wrong.get(key, ()) else ""
            )
            css = ' class="bad"' if bad and row["status"] != Status.UNSUPPORTED else ""
            statuses.append(f"<li{css}>{html.escape(text)}</li>")
        parts.append(
            f'<div class="puzzle"><b>{html.escape(key[1])}</b>{grid_html(puzzle)}'
            f"<ul>{''.join(statuses)}</ul></div>"
        )
    return "".join(parts)


def grid_html(grid: Grid) -> str:
    """The grid as an HTML table, thick borders between regions (boxes or jigsaw pieces)."""
    rules = grid.rules
    n = rules.size
    rows = []
    for r in range(n):
        cells = []
        for c in range(n):
            cell = rules.cell(r, c)
            value = grid.values[cell]
            borders = []
            if c + 1 < n and rules.region_of(cell) != rules.region_of(cell + 1):
                borders.append("border-right:2px solid #333")
            if r + 1 < n and rules.region_of(cell) != rules.region_of(cell + n):
                borders.append("border-bottom:2px solid #333")
            style = f' style="{";".join(borders)}"' if borders else ""
            symbol = DEFAULT.symbols[value - 1] if value else ""
            cells.append(f"<td{style}>{symbol}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f'<table class="grid">{"".join(rows)}</table>'
