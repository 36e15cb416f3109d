"""The interactive parts of the HTML report: charts drawn in the page by uPlot (vendored under
`assets/`, embedded whole: the page needs no network), the summary's confidence intervals,
the per-puzzle times, `compare`'s full output with its critical-difference diagram, and the
diff of two runs.

The charts read one JSON object embedded in the page: per back-end, per puzzle, the median
time over the repeats (null where it failed), the puzzles' ids and collections, the cut-off.
"""

from __future__ import annotations

import html
import json
import math
import random
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from sudoku_bench.harness.analysing import compare, stats
from sudoku_bench.harness.analysing.report import Report
from sudoku_bench.harness.analysing.summary import ALL, puzzle_times
from sudoku_bench.puzzles.errors import SudokuBenchError

# Bootstrap resamples of the summary measures' intervals, and their seed (fixed: the same
# page for the same run).
RESAMPLES = 1000
SEED = 0
# Values drawn per measure at most (resamples x puzzles), and the fewest resamples taken.
DRAWS_BUDGET = 5_000_000
MIN_RESAMPLES = 100
# The per-puzzle table lists at most this many puzzles; the charts draw them all.
MAX_TABLE_PUZZLES = 5000
# The significance level of the page's comparisons (as `compare`'s default).
ALPHA = 0.05


def asset(name: str) -> str:
    """A vendored file of `assets/` as text (see `assets/update.sh`)."""
    try:
        return resources.files("sudoku_bench.harness.analysing").joinpath("assets", name).read_text("utf-8")
    except OSError:
        raise SudokuBenchError(
            f"the HTML report's chart library is missing ({name}): run "
            "`sh sudoku_bench/harness/analysing/assets/update.sh` in the source tree"
        ) from None


def chart_data(report: Report) -> dict[str, Any]:
    """What the charts draw: per back-end the per-puzzle times in one puzzle order."""
    times = puzzle_times(report.rows)
    order = [s for s in report.run.settings.get("solvers", []) if s in times]
    solvers = [*order, *sorted(set(times) - set(order))]
    keys = sorted({key for per in times.values() for key in per})
    return {
        "cutoff": report.cutoff,
        "solvers": solvers,
        "fastest": report.fastest(2),
        "collections": sorted({key[0] for key in keys}),
        "puzzles": [key[1] for key in keys],
        "puzzle_collections": [key[0] for key in keys],
        "times": {
            solver: [_rounded(times[solver].get(key, math.nan)) for key in keys]
            for solver in solvers
        },
        # a puzzle the back-end did not attempt (unsupported) is absent, not failed
        "attempted": {solver: [key in times[solver] for key in keys] for solver in solvers},
    }


def _rounded(value: float | None) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return float(f"{value:.6g}")


def charts(report: Report) -> str:
    """The chart section: the controls, the two charts, uPlot and the page's script."""
    data = json.dumps(chart_data(report)).replace("</", "<\\/")
    return f"""
<style>{asset("uPlot.min.css")}{CHART_STYLE}</style>
<div class="controls">
 <label>collection <select id="collection"></select></label>
 <label>scatter: x <select id="pair-a"></select></label>
 <label>y <select id="pair-b"></select></label>
 <span class="hint">drag to zoom, double-click to reset; hover a dot for its puzzle</span>
</div>
<div class="charts">
 <div><h3>Scatter: one dot per puzzle</h3><div id="scatter"></div>
  <p id="hovered" class="hovered">puzzle: (hover a dot)</p></div>
 <div><h3>Cactus: puzzles solved within a time</h3><div id="cactus"></div></div>
</div>
<script id="chart-data" type="application/json">{data}</script>
<script>{asset("uPlot.iife.min.js")}</script>
<script>{CHART_SCRIPT}</script>
"""


CHART_STYLE = """
.controls { margin: 0.5em 0; font-size: 1em; } .controls label { margin-right: 1em; }
.hint { color: #666; font-size: 0.9em; }
.charts { display: flex; flex-wrap: wrap; gap: 2em; }
.charts h3 { font-size: 1.05em; margin: 0.3em 0; }
.hovered { font-family: monospace; font-size: 1em; min-height: 1.3em; }
.uplot { font-size: 14px; } .u-legend { font-size: 14px; }
"""

# The charts: log-log scatter of two back-ends (failures at twice the cut-off) with the puzzle
# under the cursor named, and the cactus plot; both re-drawn when a choice changes.
CHART_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById('chart-data').textContent);
  var palette = ['#1f77b4','#ff7f0e','#2ca02c','#d62728','#9467bd','#8c564b','#e377c2',
                 '#7f7f7f','#bcbd22','#17becf'];
  var pickCollection = document.getElementById('collection');
  var pickA = document.getElementById('pair-a'), pickB = document.getElementById('pair-b');
  function fill(select, values, chosen) {
    values.forEach(function (v) {
      var o = document.createElement('option'); o.value = v; o.textContent = v;
      if (v === chosen) { o.selected = true; } select.appendChild(o);
    });
  }
  fill(pickCollection, ['(all)'].concat(data.collections), '(all)');
  var a0 = data.fastest[0] || data.solvers[0], b0 = data.fastest[1] || data.solvers[1];
  fill(pickA, data.solvers, a0); fill(pickB, data.solvers, b0 || a0);
  var failedAt = 2 * data.cutoff, floor = 1e-6;
  var charts = {};
  // log-axis ticks: 1e-4, 0.002, 0.5, 2 (uPlot's default rounds small seconds to 0)
  function ticks(u, splits) {
    return splits.map(function (v) {
      return v === null ? '' : v < 0.001 ? v.toExponential(0) : String(+v.toPrecision(2));
    });
  }
  function inCollection(i) {
    var c = pickCollection.value; return c === '(all)' || data.puzzle_collections[i] === c;
  }
  function place(t) { return t === null ? failedAt : Math.max(t, floor); }
  function scatter() {
    var a = pickA.value, b = pickB.value, points = [];
    for (var i = 0; i < data.puzzles.length; i++) {
      if (!inCollection(i) || !data.attempted[a][i] || !data.attempted[b][i]) { continue; }
      points.push([place(data.times[a][i]), place(data.times[b][i]), i]);
    }
    points.sort(function (p, q) { return p[0] - q[0]; });
    var xs = points.map(function (p) { return p[0]; });
    var ys = points.map(function (p) { return p[1]; });
    var ids = points.map(function (p) { return p[2]; });
    var all = xs.concat(ys), low = Math.min.apply(null, all.concat([data.cutoff])) / 2;
    var high = Math.max.apply(null, all.concat([floor])) * 2;
    var hovered = document.getElementById('hovered');
    var opts = {
      width: 520, height: 480, title: a + ' (x) vs ' + b + ' (y), seconds, log-log',
      mode: 1,
      scales: { x: { time: false, distr: 3, range: [low, high] },
                y: { distr: 3, range: [low, high] } },
      axes: [{ label: a + ' (s)', size: 50, values: ticks, font: '13px sans-serif', labelFont: 'bold 14px sans-serif' },
             { label: b + ' (s)', size: 70, values: ticks, font: '13px sans-serif', labelFont: 'bold 14px sans-serif' }],
      cursor: { drag: { x: true, y: true, uni: 30 }, points: { size: 10 },
        // the dot nearest the pointer in both directions, not only along x
        dataIdx: function (u, series, closest) {
          var left = u.cursor.left, top = u.cursor.top;
          if (left === undefined || left === null || left < 0) { return closest; }
          var best = closest, nearest = Infinity;
          for (var j = 0; j < xs.length; j++) {
            var dx = u.valToPos(xs[j], 'x') - left, dy = u.valToPos(ys[j], 'y') - top;
            if (dx * dx + dy * dy < nearest) { nearest = dx * dx + dy * dy; best = j; }
          }
          return best;
        } },
      legend: { show: false },
      series: [{}, { label: b, stroke: palette[0], paths: function () { return null; },
                     points: { show: true, size: 6, fill: palette[0] } }],
      hooks: { setCursor: [function (u) {
        var i = u.cursor.idx;
        if (i === null || i === undefined) { return; }
        var p = ids[i];
        var name = data.puzzles[p] + ' (' + data.puzzle_collections[p] + ')';
        var show = function (t) { return t === null ? 'failed' : (t * 1000).toPrecision(3) + ' ms'; };
        hovered.textContent = 'puzzle: ' + name + '  ' + a + ' ' + show(data.times[a][p]) +
          ', ' + b + ' ' + show(data.times[b][p]);
        hovered.dataset.puzzle = data.puzzles[p];
      }] }
    };
    draw('scatter', opts, [xs, ys]);
  }
  function cactus() {
    var series = [{}], columns = [], longest = 0;
    data.solvers.forEach(function (s, k) {
      var solved = [];
      for (var i = 0; i < data.puzzles.length; i++) {
        if (inCollection(i) && data.attempted[s][i] && data.times[s][i] !== null) {
          solved.push(Math.max(data.times[s][i], floor));
        }
      }
      solved.sort(function (p, q) { return p - q; });
      longest = Math.max(longest, solved.length); columns.push(solved);
      series.push({ label: s + ' (' + solved.length + ')', stroke: palette[k % 10], width: 2 });
    });
    var x = []; for (var n = 1; n <= longest; n++) { x.push(n); }
    var rows = [x].concat(columns.map(function (c) {
      return x.map(function (_, i) { return i < c.length ? c[i] : null; });
    }));
    draw('cactus', {
      width: 620, height: 480, title: 'time limit ' + data.cutoff + ' s',
      scales: { x: { time: false }, y: { distr: 3 } },
      axes: [{ label: 'puzzles solved', font: '13px sans-serif', labelFont: 'bold 14px sans-serif' },
             { label: 'time per puzzle (s, log)', size: 70, values: ticks, font: '13px sans-serif',
               labelFont: 'bold 14px sans-serif' }],
      cursor: { drag: { x: true, y: true, uni: 30 } },
      series: series
    }, rows);
  }
  function draw(id, opts, rows) {
    if (charts[id]) { charts[id].destroy(); }
    charts[id] = new uPlot(opts, rows, document.getElementById(id));
  }
  function redraw() { scatter(); cactus(); }
  [pickCollection, pickA, pickB].forEach(function (s) { s.addEventListener('change', redraw); });
  redraw();
  document.body.dataset.charts = 'ready';
})();
"""


# ----- the summary's confidence intervals ---------------------------------------------------


def resamples_for(puzzles: int) -> int:
    """Bootstrap resamples for a sample of this many puzzles: `RESAMPLES`, fewer for very large
    samples (at least `MIN_RESAMPLES`), so that a page of a million-task run is made in seconds."""
    return max(MIN_RESAMPLES, min(RESAMPLES, DRAWS_BUDGET // max(puzzles, 1)))


def _bootstrap(
    values: Sequence[float | None], measure: Callable[[Sequence[float | None]], float]
) -> tuple[float, float]:
    """The 95% percentile interval of `measure` over puzzles resampled with replacement."""
    if len(values) < 2:
        return math.nan, math.nan
    draw = random.Random(SEED)
    found = [
        measure(draw.choices(values, k=len(values))) for _ in range(resamples_for(len(values)))
    ]
    finite = sorted(v for v in found if math.isfinite(v))
    if not finite:
        return math.nan, math.nan
    return finite[int(0.025 * (len(finite) - 1))], finite[int(0.975 * (len(finite) - 1))]


def interval_rows(report: Report) -> list[list[str]]:
    """Per back-end and collection: sgm, PAR-2 and median (ms) over the puzzles (each the
    median of its repeats, failures at the cut-off), each with its bootstrap 95% CI."""
    times = puzzle_times(report.rows)
    cutoff = report.cutoff

    def sgm(values: Sequence[float | None]) -> float:
        return stats.shifted_geometric_mean(stats.penalised(values, cutoff, 1))

    def par2(values: Sequence[float | None]) -> float:
        return stats.par(values, cutoff)

    def median(values: Sequence[float | None]) -> float:
        solved = [v for v in values if v is not None]
        return stats.median(solved) if solved else math.nan

    rows = []
    collections = sorted({key[0] for per in times.values() for key in per})
    for collection in [*collections, *([ALL] if len(collections) > 1 else [])]:
        for solver, per in times.items():
            values = [t for key, t in sorted(per.items()) if collection in (ALL, key[0])]
            if not values:
                continue
            row = [solver, collection, str(len(values))]
            for measure in (sgm, par2, median):
                low, high = _bootstrap(values, measure)
                row.append(f"{_ms(measure(values))} [{_ms(low)}, {_ms(high)}]")
            rows.append(row)
    return rows


def _ms(seconds: float) -> str:
    return "-" if not math.isfinite(seconds) else f"{seconds * 1000:.3g}"


# ----- the per-puzzle times -----------------------------------------------------------------


def puzzle_table(report: Report) -> tuple[list[str], list[list[str]]]:
    """One row per puzzle: its id, collection and each back-end's time (ms, median over the
    repeats; `failed`, or `-` where it was not attempted)."""
    data = chart_data(report)
    headers = ["puzzle", "collection", *(f"{s} ms" for s in data["solvers"])]
    rows = []
    for i, puzzle in enumerate(data["puzzles"][:MAX_TABLE_PUZZLES]):
        cells = [puzzle, data["puzzle_collections"][i]]
        for solver in data["solvers"]:
            t = data["times"][solver][i]
            attempted = data["attempted"][solver][i]
            cells.append("-" if not attempted else "failed" if t is None else f"{t * 1000:.3g}")
        rows.append(cells)
    return headers, rows


# ----- compare's full output ----------------------------------------------------------------


def comparison_section(
    report: Report, table: Callable[[Sequence[str], Sequence[Sequence[Any]]], str]
) -> str:
    """Every pair with Holm-adjusted p-values, the Friedman test and the critical-difference
    diagram from the Holm cliques, as `sudoku-bench compare A B C ...` prints them."""
    solvers = [
        s
        for s in report.run.settings.get("solvers", [])
        if any(r["solver"] == s for r in report.rows)
    ]
    if len(solvers) < 2:
        return ""
    samples = [compare.sample_of(s, report.run.id, s, report.rows, report.cutoff) for s in solvers]
    try:
        pairs, ranking = compare.compare_all(samples)
    except compare.CompareError as error:
        return f"<p>{html.escape(str(error))}</p>"
    headers = ["A", "B", "puzzles", "B/A", "95% CI", "p", "p (Holm)", "verdict"]
    rows = [
        [
            c.a,
            c.b,
            c.puzzles,
            compare.factor(c.ratio),
            f"{compare.factor(c.ci_low)}-{compare.factor(c.ci_high)}",
            f"{c.p_value:.2g}",
            "-" if c.p_holm is None else f"{c.p_holm:.2g}",
            compare.verdict(c, ALPHA),
        ]
        for c in pairs
    ]
    parts = [table(headers, rows)]
    if ranking is not None:
        by_rank = sorted(
            ranking.labels, key=lambda s: ranking.average_ranks[ranking.labels.index(s)]
        )
        groups = compare.holm_groups(by_rank, pairs, ALPHA)
        cd = "-" if ranking.critical_difference is None else f"{ranking.critical_difference:.2f}"
        parts.append(
            f'<p class="friedman">Friedman test on {ranking.puzzles} puzzles: chi-square '
            f"{ranking.statistic:.4g}, p {ranking.p_value:.3g}; Nemenyi critical difference "
            f"{cd}. Joined below: no significant difference by the Holm-adjusted Wilcoxon "
            f"tests (alpha {ALPHA:g}).</p>"
        )
        parts.append(cd_diagram(ranking.labels, ranking.average_ranks, groups))
    return "".join(parts)


def cd_diagram(
    labels: Sequence[str], ranks: Sequence[float], groups: Sequence[Sequence[str]]
) -> str:
    """Demšar's critical-difference diagram as inline SVG: average ranks on an axis (1 =
    fastest), a thick bar joining each group not significantly different."""
    k = len(labels)
    width, left, right = 640, 40, 40
    scale = (width - left - right) / max(k - 1, 1)
    x = lambda rank: left + (rank - 1) * scale  # noqa: E731
    order = sorted(range(k), key=lambda i: ranks[i])
    height = 70 + 24 * k + 14 * len(groups)
    parts = [f'<line x1="{left}" y1="30" x2="{width - right}" y2="30" stroke="black"/>']
    for tick in range(1, k + 1):
        parts.append(f'<line x1="{x(tick)}" y1="24" x2="{x(tick)}" y2="30" stroke="black"/>')
        parts.append(
            f'<text x="{x(tick)}" y="18" font-size="14" text-anchor="middle">{tick}</text>'
        )
    for number, group in enumerate(groups):
        spots = [ranks[labels.index(label)] for label in group]
        y = 40 + 12 * number
        parts.append(
            f'<line x1="{x(min(spots)) - 3}" y1="{y}" x2="{x(max(spots)) + 3}" y2="{y}" '
            'stroke="#d62728" stroke-width="5" class="clique"/>'
        )
    base = 50 + 12 * len(groups)
    for row, index in enumerate(order):
        y = base + 24 * row
        px = x(ranks[index])
        parts.append(f'<line x1="{px}" y1="30" x2="{px}" y2="{y}" stroke="#888"/>')
        parts.append(
            f'<text x="{px + 6}" y="{y + 5}" font-size="14">'
            f"{html.escape(labels[index])} ({ranks[index]:.2f})</text>"
        )
    return (
        f'<svg class="cd" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
        + "".join(parts)
        + "</svg>"
    )


# ----- the diff of two runs ------------------------------------------------------------------

DIFF_KEYS = ("solver", "collection", "puzzles", "ratio", "ci_low", "ci_high", "p_value", "verdict")


def diff_records(store: Any, run_a: int, run_b: int) -> list[dict[str, Any]]:
    """Per back-end the two runs share and per collection (and `(all)`): run B's time over
    run A's on the puzzles both ran, as `compare A:NAME B:NAME` computes it (the geometric
    mean ratio, its bootstrap 95% CI, the Wilcoxon p-value)."""
    info_a, info_b = store.run(run_a), store.run(run_b)
    rows_a, rows_b = store.results(info_a.id), store.results(info_b.id)
    solvers = [
        s for s in info_a.settings.get("solvers", []) if s in info_b.settings.get("solvers", [])
    ]
    if not solvers:
        raise compare.CompareError(f"runs {info_a.id} and {info_b.id} share no back-end")
    collections = sorted({r["collection"] for r in rows_a} & {r["collection"] for r in rows_b})
    found = []
    for solver in solvers:
        for collection in [*collections, *([ALL] if len(collections) > 1 else [])]:

            def kept(rows: list[dict[str, Any]], c: str = collection) -> list[dict[str, Any]]:
                return [r for r in rows if c in (ALL, r["collection"])]

            a = compare.sample_of(
                f"{info_a.id}:{solver}",
                info_a.id,
                solver,
                kept(rows_a),
                float(info_a.settings["timeout"]),
            )
            b = compare.sample_of(
                f"{info_b.id}:{solver}",
                info_b.id,
                solver,
                kept(rows_b),
                float(info_b.settings["timeout"]),
            )
            try:
                c = compare.compare_pair(a, b)
            except compare.CompareError:
                continue  # no puzzle in common
            found.append(
                {
                    "solver": solver,
                    "collection": collection,
                    "puzzles": c.puzzles,
                    "ratio": c.ratio,
                    "ci_low": c.ci_low,
                    "ci_high": c.ci_high,
                    "p_value": c.p_value,
                    "verdict": compare.verdict(c, ALPHA),
                }
            )
    if not found:
        raise compare.CompareError(f"runs {info_a.id} and {info_b.id} have no puzzle in common")
    return found


def diff_page(run_a: int, run_b: int, records: Sequence[dict[str, Any]], style: str) -> str:
    """The diff as a small self-contained HTML page (`style`: the report's CSS)."""
    head = "".join(f"<th>{html.escape(k)}</th>" for k in DIFF_KEYS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_shown(r[k]))}</td>" for k in DIFF_KEYS) + "</tr>"
        for r in records
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>sudoku-bench: run {run_b} against run {run_a}</title><style>{style}</style>"
        f"</head><body><h1>Run {run_b} against run {run_a}</h1>"
        f"<p>ratio: run {run_b}'s time over run {run_a}'s, geometric mean over the puzzles both "
        "ran (above 1: slower in the second run), with its bootstrap 95% CI and the Wilcoxon "
        f'signed-rank p-value.</p><table class="data"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></body></html>\n"
    )


def _shown(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)
