"""`sudoku-bench compare`: paired statistics of back-ends within a run or across runs."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.analysing import plots
from sudoku_bench.harness.analysing.compare import (
    METRICS,
    Baseline,
    CompareError,
    Comparison,
    Ranking,
    aa_baseline,
    compare_all,
    compare_pair,
    factor,
    holm_groups,
    load_sample,
    mixed_hosts,
    noise_warnings,
    verdict,
)
from sudoku_bench.harness.cli.arguments import add_db_argument, int64, positive_float
from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.storing.store import open_store

DESCRIPTION = """\
Compare back-ends puzzle by puzzle. Each of A, B, ... is a back-end of the latest run
(`dlx`) or of a given run (`3:dlx`), so two back-ends of one run, or one back-end across two
runs (two commits, library versions or machines) can be compared. Per pair: the geometric
mean of B's time over A's on the puzzles both have, a bootstrap 95% confidence interval, and
the Wilcoxon signed-rank test. With three or more: the Friedman test, Holm-corrected
pairwise p-values and (--plot) a critical-difference diagram.

Failures (timeout, memout, error, gave up) count at the run's time limit, a censored time;
puzzles where both sides failed are left out; unsupported puzzles are left out.

Across runs, a warning names what differs beyond the code: load, -j, the back-end mix, hosts,
Python, the library version. --aa gives the A/A baseline, the spread the machine alone makes:
across runs, a reference back-end that both runs ran (`bench --aa NAME` adds one) measures the
drift between them, and B's times are divided by it; within one run, the reference's odd
repeats against its even ones. With --aa, --fail-if-slower fails only beyond the baseline.
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
        "--aa",
        nargs="?",
        const="",
        default=None,
        metavar="NAME",
        help="the A/A baseline (two back-ends): NAME's drift between the two runs, or its odd "
        "against its even repeats within one run (default NAME: the run's `bench --aa` "
        "reference, within a run A itself)",
    )
    parser.add_argument(
        "--resamples", type=int64, default=2000, metavar="N", help="bootstrap resamples (2000)"
    )
    parser.add_argument("--seed", type=int64, default=0, help="bootstrap seed (default 0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if len(set(args.backends)) < len(args.backends):
        raise CompareError(
            f"compare names {', '.join(args.backends)}: a side given twice is compared with "
            "itself (for an A/A baseline across runs use RUN:NAME twice with two runs, or --aa)"
        )
    store = open_store(args.db, read_only=True)  # comparing never writes to the store
    try:
        samples = [load_sample(store, spec, args.metric) for spec in args.backends]
        baseline: Baseline | None = None
        if args.aa is not None:
            if len(samples) != 2:
                raise CompareError("--aa compares two sides (A B) against their A/A baseline")
            baseline, samples[1] = aa_baseline(
                store,
                samples[0],
                samples[1],
                args.aa,
                args.metric,
                resamples=args.resamples,
                seed=args.seed,
            )
    finally:
        store.close()
    if baseline is not None and baseline.across_runs:
        pairs = [compare_pair(samples[0], samples[1], resamples=args.resamples, seed=args.seed)]
        ranking = None
    else:
        pairs, ranking = compare_all(samples, resamples=args.resamples, seed=args.seed)
    warnings = noise_warnings(samples)
    hosts = mixed_hosts(samples)
    if hosts:
        warnings.append(f"the timings come from {len(hosts)} hosts: {', '.join(hosts)}")
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if warnings and baseline is None and len({s.run for s in samples}) > 1:
        print(
            "note: --aa NAME divides out the drift between the runs by a reference back-end "
            "both ran (see `sudoku-bench compare --help`)",
            file=sys.stderr,
        )
    for comparison in pairs:
        if comparison.dropped:
            print(
                f"note: {comparison.a} against {comparison.b}: {comparison.dropped} puzzles "
                "where both sides failed say nothing about their order and are left out",
                file=sys.stderr,
            )
    fmt = "json" if args.json else args.format
    if fmt == "json":
        for comparison in pairs:
            print_json(_record(comparison, ranking, args.alpha, baseline, warnings))
    else:
        text = _tables(pairs, ranking, args.alpha, "github" if fmt == "md" else "simple")
        if baseline is not None:
            text += f"\n{baseline.describe()}\n"
        sys.stdout.write(text)
    if args.plot is not None:
        if ranking is None:
            print(
                "compare: --plot draws the critical-difference diagram of three or more "
                "back-ends (their average ranks); with two, the table above is the whole answer: "
                "nothing drawn",
                file=sys.stderr,
            )
        else:
            by_rank = [
                label
                for _, label in sorted(zip(ranking.average_ranks, ranking.labels, strict=True))
            ]
            groups = holm_groups(by_rank, pairs, args.alpha)
            plots.critical_difference(
                ranking.labels,
                ranking.average_ranks,
                groups,
                args.plot,
                title=f"average rank per puzzle (1 = fastest); joined: Wilcoxon signed-rank, "
                f"Holm-adjusted p >= {args.alpha:g} (no significant difference)",
            )
            print(f"wrote {args.plot}", file=sys.stderr)
    if args.fail_if_slower is not None:
        limit = 1 + args.fail_if_slower / 100
        if baseline is not None:
            limit = max(limit, baseline.ceiling)
        slower = [
            c
            for c in pairs
            if c.ratio > limit
            and c.significant(args.alpha)
            and (baseline is None or c.ci_low > baseline.ceiling)
        ]
        for comparison in slower:
            beyond = (
                "" if baseline is None else f", beyond the A/A baseline's {baseline.ceiling:.3g}x"
            )
            print(
                f"{comparison.b} is {comparison.ratio:.3g}x {comparison.a}'s time "
                f"(more than {args.fail_if_slower:g}% slower, p = {comparison.p_value:.2g}{beyond})",
                file=sys.stderr,
            )
        return 1 if slower else 0
    return 0


def _record(
    comparison: Comparison,
    ranking: Ranking | None,
    alpha: float,
    baseline: Baseline | None,
    warnings: list[str],
) -> dict[str, Any]:
    record = comparison.record()
    record["significant"] = comparison.significant(alpha)
    record["warnings"] = warnings
    if baseline is not None:
        record.update(
            aa_reference=baseline.reference,
            aa_across_runs=baseline.across_runs,
            aa_ratio=baseline.comparison.ratio,
            aa_ci_low=baseline.comparison.ci_low,
            aa_ci_high=baseline.comparison.ci_high,
            aa_p_value=baseline.comparison.p_value,
        )
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
