"""`sudoku-bench compare`: paired statistics of back-ends within a run or across runs."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from tabulate import tabulate

from harness.analysing import plots
from harness.analysing.compare import (
    METRICS,
    Comparison,
    Ranking,
    compare_all,
    factor,
    load_sample,
    mixed_hosts,
    verdict,
)
from harness.cli.arguments import add_db_argument, int64, positive_float
from harness.cli.output import print_json
from harness.storing.store import open_store

DESCRIPTION = """\
Compare back-ends puzzle by puzzle. Each of A, B, ... is a back-end of the latest run
(`dlx`) or of a given run (`3:dlx`), so two back-ends of one run, or one back-end across two
runs (two commits, library versions or machines) can be compared. Per pair: the geometric
mean of B's time over A's on the puzzles both have, a bootstrap 95% confidence interval, and
the Wilcoxon signed-rank test. With three or more: the Friedman test, Holm-corrected
pairwise p-values and (--plot) a critical-difference diagram.

Failures (timeout, memout, error, gave up) count at the run's time limit, a censored time;
puzzles where both sides failed are left out; unsupported puzzles are left out.
"""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="paired statistics: is B faster or slower than A, and is it significant?",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("backends", nargs="+", metavar="A", help="NAME or RUN:NAME (2 or more)")
    add_db_argument(parser)
    parser.add_argument(
        "--metric",
        choices=METRICS,
        default="total_s",
        help="the time compared: total_s (build + search, the back-end's own; default), "
        "wall_s or cpu_s (measured by the worker)",
    )
    parser.add_argument(
        "--alpha", type=positive_float, default=0.05, help="significance level (default 0.05)"
    )
    parser.add_argument(
        "--fail-if-slower",
        type=positive_float,
        metavar="PCT",
        help="exit 1 when a B is slower than its A by more than PCT percent, significantly",
    )
    parser.add_argument(
        "--format", choices=("table", "md", "json"), default="table", help="(default table)"
    )
    parser.add_argument("--json", action="store_true", help="the same as --format json")
    parser.add_argument(
        "--plot", type=Path, metavar="FILE", help="write the critical-difference diagram (3+)"
    )
    parser.add_argument(
        "--resamples", type=int64, default=2000, metavar="N", help="bootstrap resamples (2000)"
    )
    parser.add_argument("--seed", type=int64, default=0, help="bootstrap seed (default 0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args.db, read_only=True)  # comparing never writes to the store
    try:
        samples = [load_sample(store, spec, args.metric) for spec in args.backends]
    finally:
        store.close()
    pairs, ranking = compare_all(samples, resamples=args.resamples, seed=args.seed)
    hosts = mixed_hosts(samples)
    if hosts:
        print(
            f"warning: the timings come from {len(hosts)} hosts: {', '.join(hosts)}",
            file=sys.stderr,
        )
    fmt = "json" if args.json else args.format
    if fmt == "json":
        for comparison in pairs:
            print_json(_record(comparison, ranking, args.alpha))
    else:
        sys.stdout.write(_tables(pairs, ranking, args.alpha, "github" if fmt == "md" else "simple"))
    if args.plot is not None and ranking is not None and ranking.critical_difference is not None:
        plots.critical_difference(
            ranking.labels, ranking.average_ranks, ranking.critical_difference, args.plot
        )
        print(f"wrote {args.plot}", file=sys.stderr)
    if args.fail_if_slower is not None:
        limit = 1 + args.fail_if_slower / 100
        slower = [c for c in pairs if c.ratio > limit and c.significant(args.alpha)]
        for comparison in slower:
            print(
                f"{comparison.b} is {comparison.ratio:.3g}x {comparison.a}'s time "
                f"(more than {args.fail_if_slower:g}% slower, p = {comparison.p_value:.2g})",
                file=sys.stderr,
            )
        return 1 if slower else 0
    return 0


def _record(comparison: Comparison, ranking: Ranking | None, alpha: float) -> dict[str, Any]:
    record = comparison.record()
    record["significant"] = comparison.significant(alpha)
    if ranking is not None:
        ranks = dict(zip(ranking.labels, ranking.average_ranks, strict=True))
        record.update(
            friedman_p=ranking.p_value,
            rank_a=ranks[comparison.a],
            rank_b=ranks[comparison.b],
        )
    return {key: _finite(value) for key, value in record.items()}


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _tables(pairs: list[Comparison], ranking: Ranking | None, alpha: float, style: str) -> str:
    headers = ["A", "B", "puzzles", "B/A", "95% CI", "p", *(["Holm p"] if ranking else []),
               "A faster", "B faster", "censored", "verdict"]  # fmt: skip
    rows = [
        [
            c.a,
            c.b,
            c.puzzles,
            factor(c.ratio),
            f"{factor(c.ci_low)}-{factor(c.ci_high)}",
            f"{c.p_value:.2g}",
            *([f"{c.p_holm:.2g}"] if ranking else []),
            c.a_faster,
            c.b_faster,
            c.censored,
            verdict(c, alpha),
        ]
        for c in pairs
    ]
    text = tabulate(rows, headers=headers, tablefmt=style)
    if ranking is not None:
        ranks = sorted(zip(ranking.average_ranks, ranking.labels, strict=True))
        cd = ranking.critical_difference
        text += (
            f"\n\nFriedman test on {ranking.puzzles} puzzles: chi2 = {ranking.statistic:.3g}, "
            f"p = {ranking.p_value:.2g}; average ranks (1 = fastest): "
            + ", ".join(f"{label} {rank:.2f}" for rank, label in ranks)
            + ("" if cd is None else f"; Nemenyi critical difference {cd:.2f}")
        )
    return text + "\n"
