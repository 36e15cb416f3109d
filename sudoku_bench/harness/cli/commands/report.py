"""`sudoku-bench report`: a stored run as tables (terminal, Markdown, LaTeX), CSV, JSON, plots."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.analysing import plots
from sudoku_bench.harness.analysing.frame import results_frame
from sudoku_bench.harness.analysing.pivot import DEFAULT_METRIC, METRICS
from sudoku_bench.harness.analysing.report import FORMATS, Report
from sudoku_bench.harness.analysing.summary import puzzle_times
from sudoku_bench.harness.cli.arguments import add_db_argument, int64
from sudoku_bench.harness.cli.output import write_output
from sudoku_bench.harness.results import RECORD_SCHEMA_VERSION
from sudoku_bench.harness.storing.store import open_store
from sudoku_bench.puzzles.errors import SudokuBenchError

DESCRIPTION = """\
Report a run from the results store: per back-end and collection, solved / gave up / timed
out / errors, median, mean and max time of the solved tasks, shifted geometric mean (shift
10 ms) and PAR-2 (failures at twice the time limit), puzzles per second, guesses per puzzle,
and agreement with the other back-ends; the settings, machine and versions in the header.
Formats: table (terminal), md, latex: the summary (latex: a table float and a \\newcommand per
figure); csv: one row per task; json: both; html: one offline page with interactive charts
(hover names the puzzle), intervals, compare's output and the per-puzzle times.
--diff RUN_A RUN_B compares two runs per back-end and collection, with intervals.
--plots DIR writes cactus.png (with the virtual best), profile.png (Dolan–Moré performance
profile) and scatter.png (two back-ends, log-log).
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="tables, CSV, JSON and plots of a stored run",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db_argument(parser)
    parser.add_argument(
        "--run",
        dest="run_id",
        type=int64,
        metavar="ID",
        help="the run to report (default, or 0: the latest)",
    )
    parser.add_argument(
        "--format",
        choices=(*FORMATS, "parquet"),
        default="table",
        help="output format (default table; parquet: the csv rows as an Apache Parquet file, "
        "with -o, needs pandas and pyarrow)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write here instead of stdout"
    )
    parser.add_argument("--plots", type=Path, metavar="DIR", help="write the PNG plots into DIR")
    parser.add_argument(
        "--scatter",
        "--pair",
        dest="scatter",
        metavar="A,B",
        help="the two back-ends of the scatter plot (default: the two fastest of the run)",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="the terminal table with every measure (default: one measure, back-ends x "
        "collections)",
    )
    parser.add_argument(
        "--metric",
        choices=sorted(METRICS),
        default=DEFAULT_METRIC,
        help=f"the measure of the compact terminal table (default {DEFAULT_METRIC})",
    )
    parser.add_argument(
        "-s",
        "--solvers",
        "--solver",
        dest="solvers",
        metavar="NAMES",
        help="report only these back-ends of the run (comma-separated)",
    )
    parser.add_argument(
        "--collections",
        metavar="NAMES",
        help="report only these collections of the run (comma-separated)",
    )
    parser.add_argument("--runs", action="store_true", help="list the runs in the store and stop")
    parser.add_argument(
        "--diff",
        nargs=2,
        type=int64,
        metavar=("RUN_A", "RUN_B"),
        help="compare two runs instead: per back-end and collection, RUN_B's time over RUN_A's "
        "with its 95%% CI (formats table, md, csv, json, html)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.scatter and not args.plots and args.format != "html":  # it was silently ignored
        raise SudokuBenchError("--scatter chooses the back-ends of a plot: give --plots DIR too")
    if args.format == "parquet" and args.output is None:
        raise SudokuBenchError("parquet is a binary format: give -o FILE.parquet")
    store = open_store(args.db, read_only=True)  # a report never writes to the store
    try:
        if args.diff:
            _write(args, _diff(store, args))
            return 0
        if args.format == "parquet":
            frame = results_frame(store, args.run_id or None)
            metadata = Report(store, args.run_id or None).metadata()
            _write_parquet(frame, args.output, metadata)
            return 0
        if args.runs:
            for info in store.runs():
                print(f"{info.id}\t{info.started}\t{info.finished or 'unfinished'}\t{info.command}")
            return 0
        report = Report(
            store,
            args.run_id or None,  # 0: the latest, as `bench --resume 0`
            solvers=_names(args.solvers),
            collections=_names(args.collections),
        )
        report.made_by = _command(args, report.run.id)
    finally:
        store.close()
    if args.format == "html" and not args.plots:  # the page embeds them: made, then dropped
        with tempfile.TemporaryDirectory() as folder:
            page = report.render("html", _html_plots(report, Path(folder), args.scatter))
        _write(args, page)
        return 0
    images = _plots(report, args.plots, args.scatter) if args.plots else []
    if args.output is not None:
        base = args.output.parent
        links = [Path(os.path.relpath(image, base)) for image in images]
        write_output(args.output, report.render(args.format, links), make_folder=True)
        print(f"wrote {args.output}", file=sys.stderr)
    elif args.format == "table":
        sys.stdout.write(report.as_table(full=args.full, metric=args.metric))
    else:
        sys.stdout.write(report.render(args.format, images))
    return 0


def _names(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]


PARQUET_METADATA_KEY = b"sudoku_bench.run"


def _write_parquet(frame: Any, path: Path, metadata: dict[str, Any]) -> None:
    """The rows as Parquet, the run's metadata (`Report.metadata`, JSON) in the file's schema
    metadata under `sudoku_bench.run`, so a file shared alone still says what it measured."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise SudokuBenchError(
            "parquet needs pyarrow: pip install 'sudoku-bench[analysis]'"
        ) from None
    table = pyarrow.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata(
        {**(table.schema.metadata or {}), PARQUET_METADATA_KEY: json.dumps(metadata).encode()}
    )
    try:
        pyarrow.parquet.write_table(table, path)
    except OSError as error:
        raise SudokuBenchError(f"{path}: cannot write: {error.strerror or error}") from None
    print(f"wrote {path}", file=sys.stderr)


def _write(args: argparse.Namespace, text: str) -> None:
    if args.output is not None:
        write_output(args.output, text, make_folder=True)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)


def _plots(
    report: Report, directory: Path, scatter: str | None, *, quiet: bool = False
) -> list[Path]:
    times = puzzle_times(report.rows)
    if not times:
        raise SudokuBenchError(f"run {report.run.id} has no results to plot")
    order = [s for s in report.run.settings.get("solvers", []) if s in times]
    ordered = {name: times[name] for name in [*order, *sorted(set(times) - set(order))]}
    caption = report.caption()
    made = [
        plots.cactus(ordered, directory / "cactus.png", report.cutoff, caption=caption),
        plots.performance_profile(ordered, directory / "profile.png", caption=caption),
    ]
    pair = [name.strip() for name in scatter.split(",")] if scatter else report.fastest(2)
    if len(pair) != 2 or any(name not in ordered for name in pair):
        if scatter:
            raise SudokuBenchError(
                f"--scatter needs two back-ends of the run ({', '.join(ordered)})"
            )
    else:
        made.append(
            plots.scatter(ordered, pair, directory / "scatter.png", report.cutoff, caption=caption)
        )
    for image in made if not quiet else ():
        print(f"wrote {image}", file=sys.stderr)
    return made


def _diff(store: Any, args: argparse.Namespace) -> str:
    """`--diff RUN_A RUN_B` in the chosen format."""
    from sudoku_bench.harness.analysing import html, interactive

    run_a, run_b = args.diff
    records = interactive.diff_records(store, run_a, run_b)
    if args.format == "html":
        return interactive.diff_page(run_a, run_b, records, html.STYLE)
    if args.format == "json":
        document = {"schema_version": RECORD_SCHEMA_VERSION, "run_a": run_a, "run_b": run_b}
        return json.dumps({**document, "diff": records}, indent=2) + "\n"
    if args.format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=interactive.DIFF_KEYS)
        writer.writeheader()
        writer.writerows(records)
        return out.getvalue()
    if args.format not in ("table", "md"):
        raise SudokuBenchError("--diff writes table, md, csv, json or html")
    rows = [[r[k] for k in interactive.DIFF_KEYS] for r in records]
    style = "github" if args.format == "md" else "simple"
    return tabulate(rows, headers=list(interactive.DIFF_KEYS), tablefmt=style, floatfmt=".4g") + "\n"


def _html_plots(report: Report, directory: Path, scatter: str | None) -> list[Path]:
    """The PNGs the page embeds beside its interactive charts; without matplotlib the page
    has the charts and tables only (said in one line)."""
    if not plots.available():
        print(
            "note: the page has no PNG plots, as matplotlib is not installed: pip install "
            "'sudoku-bench[report]' (its interactive charts and tables need none)",
            file=sys.stderr,
        )
        return []
    if not report.rows:
        return []
    return _plots(report, directory, scatter, quiet=True)


def _command(args: argparse.Namespace, run_id: int) -> str:
    """The report command that reproduces this output (shown in the Markdown header)."""
    words = ["sudoku-bench report --db", args.db, "--run", str(run_id), "--format", args.format]
    if args.output is not None:
        words += ["-o", str(args.output)]
    if args.plots is not None:
        words += ["--plots", str(args.plots)]
    if args.scatter:
        words += ["--scatter", args.scatter]
    return " ".join(words)
