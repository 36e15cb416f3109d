"""`compare`: paired comparisons of back-ends, within a run or across runs, puzzle by puzzle.

The rule for failures (timeouts, memouts, errors, give-ups) is stated once, here and in the
README: each task's time is its measured time if it answered, else the run's cut-off (its
time limit), a censored observation that is a lower bound of the true time. A puzzle's time
is the median over its repeats. A pair of puzzles where both sides failed says nothing about
their order and is left out; where one side failed, the cut-off stands for its time, which
understates the difference (the test is conservative there). Puzzles a back-end does not
accept (`unsupported`) are left out of its comparisons.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations
from typing import Any

from sudoku_bench.harness.analysing import paired
from sudoku_bench.harness.analysing.stats import TIME_FLOOR_S
from sudoku_bench.harness.storing.store import HostInfo, RunInfo, Store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.solvers.base import Status

METRICS = ("total_s", "wall_s", "cpu_s")
# Loads (1-minute averages) this far apart mean the two runs shared the machine with
# different amounts of other work: about one core's worth.
LOAD_GAP = 1.0
PuzzleKey = tuple[str, str]  # (rules spec, puzzle line): the same puzzle in any run


class CompareError(SudokuBenchError):
    """A comparison that cannot be made (a back-end not in the run, nothing in common)."""


@dataclass(frozen=True)
class RunSide:
    """What a sample's run was like, as far as it can move timings: the machine's load, the
    parallelism, the other back-ends sharing the run and the library version (the hosts are
    the sample's own: `mixed_hosts`)."""

    run: int
    load_start: float | None = None
    load_max: float | None = None
    jobs: int = 1
    solvers: tuple[str, ...] = ()
    library: str = ""  # the compared back-end's library and version
    python: str = ""
    aa_reference: str = ""  # `bench --aa NAME`: the reference back-end the run carries

    @property
    def load(self) -> float | None:
        """The highest load seen while the run ran, else its load at the start."""
        return self.load_max if self.load_max is not None else self.load_start


@dataclass(frozen=True)
class Sample:
    """One back-end's times in one run: per puzzle, the median over repeats, and whether
    that median stands for failures (censored at the cut-off)."""

    label: str
    run: int
    solver: str
    cutoff: float
    times: dict[PuzzleKey, float]
    censored: frozenset[PuzzleKey]
    hosts: frozenset[str] = frozenset()
    side: RunSide | None = None


@dataclass
class Comparison:
    """A against B on the puzzles both have: B's time over A's, per puzzle."""

    a: str
    b: str
    puzzles: int  # pairs compared
    ratio: float  # geometric mean of b/a: above 1, B is slower
    ci_low: float
    ci_high: float
    p_value: float
    statistic: float
    method: str
    a_faster: int  # pairs where A took less time
    b_faster: int
    censored: int  # pairs where exactly one side failed (its cut-off stands for its time)
    dropped: int  # pairs where both failed: left out
    p_holm: float | None = None  # with three or more back-ends: Holm-adjusted
    extra: dict[str, Any] = field(default_factory=dict)

    def significant(self, alpha: float) -> bool:
        p = self.p_value if self.p_holm is None else self.p_holm
        return p < alpha

    def record(self) -> dict[str, Any]:
        record = asdict(self)
        extra = record.pop("extra")
        return {**record, **extra}


@dataclass
class Ranking:
    """Three or more back-ends on the puzzles all of them have: the Friedman test."""

    labels: list[str]
    puzzles: int
    statistic: float
    p_value: float
    average_ranks: list[float]  # 1 = fastest
    critical_difference: float | None  # Nemenyi, alpha 0.05 (None past 10 back-ends)


def load_sample(
    store: Store,
    spec: str,
    metric: str = "total_s",
    *,
    repeats: Callable[[int], bool] | None = None,
) -> Sample:
    """`NAME` (a back-end in the latest run) or `RUN:NAME`, read from the store; `repeats`
    keeps only the repeats (numbered from 0, as stored) it accepts."""
    run_text, _, solver = spec.rpartition(":")
    if run_text and not run_text.isdigit():
        raise CompareError(f"{spec!r}: expected a back-end name or RUN:NAME, e.g. 3:dlx")
    info = store.run(int(run_text) if run_text else None)
    every = store.results(info.id)
    rows = [row for row in every if row["solver"] == solver]
    if not rows:
        names = sorted({row["solver"] for row in every})
        raise CompareError(
            f"run {info.id} has no results of {solver!r} (it has: {', '.join(names) or 'none'})"
        )
    if repeats is not None:
        rows = [row for row in rows if repeats(int(row["repeat"]))]
    label = spec if run_text else solver
    sample = sample_of(label, info.id, solver, rows, float(info.settings["timeout"]), metric)
    # rows of an older store name no host: the run's own machine ran them
    hosts = sample.hosts or frozenset({str(info.machine.get("host", ""))}) - {""}
    return replace(sample, hosts=hosts, side=run_side(info, solver, store.hosts(info.id)))


def run_side(info: RunInfo, solver: str, nodes: Sequence[HostInfo] = ()) -> RunSide:
    """What the run of `info` was like for the back-end `solver` (see `RunSide`); `nodes`,
    the machines of a cluster run, add the loads sampled on them."""
    load_start = info.machine.get("load")
    loads = [info.conditions.get("load_max")] + [n.conditions.get("load_max") for n in nodes]
    load_max = max((float(load) for load in loads if load is not None), default=None)
    return RunSide(
        run=info.id,
        load_start=None if load_start is None else float(load_start),
        load_max=load_max,
        jobs=int(info.settings.get("jobs", 1)),
        solvers=tuple(info.settings.get("solvers", ())),
        library=str(info.versions.get(solver, "")),
        python=str(info.machine.get("python", "")),
        aa_reference=str(info.settings.get("aa_reference", "")),
    )


def sample_of(
    label: str,
    run: int,
    solver: str,
    rows: Sequence[dict[str, Any]],
    cutoff: float,
    metric: str = "total_s",
) -> Sample:
    """One back-end's sample from its result rows, by the module's rule for failures."""
    per_puzzle: defaultdict[PuzzleKey, list[float]] = defaultdict(list)
    failed: defaultdict[PuzzleKey, int] = defaultdict(int)
    for row in rows:
        if row["solver"] != solver or row["status"] == Status.UNSUPPORTED:
            continue
        key = (row["rules"], row["puzzle"])
        value = row.get(metric)
        if Status(row["status"]).answered and value is not None:
            per_puzzle[key].append(max(float(value), TIME_FLOOR_S))
        else:
            per_puzzle[key].append(cutoff)
            failed[key] += 1
    times = {key: statistics.median(values) for key, values in per_puzzle.items()}
    censored = frozenset(key for key, values in per_puzzle.items() if 2 * failed[key] > len(values))
    hosts = frozenset(str(row["host"]) for row in rows if row.get("host"))
    return Sample(label, run, solver, cutoff, times, censored, hosts)


def compare_pair(a: Sample, b: Sample, *, resamples: int = 2000, seed: int = 0) -> Comparison:
    """The paired comparison of B against A (see the module's rule for failures)."""
    common = sorted(a.times.keys() & b.times.keys())
    if not common:
        raise CompareError(f"{a.label} and {b.label} have no puzzle in common")
    kept = [key for key in common if not (key in a.censored and key in b.censored)]
    ratios = [b.times[key] / a.times[key] for key in kept]
    logs = [math.log(ratio) for ratio in ratios]
    test = paired.wilcoxon(logs)
    low, high = paired.bootstrap_interval(ratios, resamples=resamples, seed=seed)
    return Comparison(
        a=a.label,
        b=b.label,
        puzzles=len(kept),
        ratio=paired.geometric_mean(ratios),
        ci_low=low,
        ci_high=high,
        p_value=test.p_value,
        statistic=test.statistic,
        method=test.method,
        a_faster=sum(1 for r in ratios if r > 1),
        b_faster=sum(1 for r in ratios if r < 1),
        censored=sum(1 for key in kept if (key in a.censored) != (key in b.censored)),
        dropped=len(common) - len(kept),
    )


def compare_all(
    samples: Sequence[Sample], *, resamples: int = 2000, seed: int = 0
) -> tuple[list[Comparison], Ranking | None]:
    """Every pair (in the order given); with three or more, Holm-adjusted p-values and the
    Friedman test on the puzzles all have."""
    if len(samples) < 2:
        raise CompareError("compare needs two back-ends or more (A B [C ...])")
    pairs = [
        compare_pair(a, b, resamples=resamples, seed=seed) for a, b in combinations(samples, 2)
    ]
    if len(samples) == 2:
        return pairs, None
    for comparison, adjusted in zip(pairs, paired.holm([c.p_value for c in pairs]), strict=True):
        comparison.p_holm = adjusted
    return pairs, rank(samples)


def rank(samples: Sequence[Sample]) -> Ranking:
    common = set.intersection(*(set(sample.times) for sample in samples))
    kept = sorted(key for key in common if not all(key in s.censored for s in samples))
    if not kept:
        raise CompareError("the back-ends have no puzzle in common that one of them solved")
    blocks = [[sample.times[key] for sample in samples] for key in kept]
    test = paired.friedman(blocks)
    try:
        cd: float | None = paired.critical_difference(len(samples), len(kept))
    except ValueError:
        cd = None
    return Ranking(
        [sample.label for sample in samples],
        len(kept),
        test.statistic,
        test.p_value,
        list(test.average_ranks),
        cd,
    )


def verdict(comparison: Comparison, alpha: float) -> str:
    """`B 2.31x slower`, `B 1.8x faster`, or `no significant difference`, in words."""
    if not comparison.significant(alpha):
        return "no significant difference"
    if comparison.ratio >= 1:
        return f"{comparison.b} {factor(comparison.ratio)}x slower"
    return f"{comparison.b} {factor(1 / comparison.ratio)}x faster"


def factor(value: float) -> str:
    """Three significant digits without an exponent: 2.31, 47.5, 1110."""
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def mixed_hosts(samples: Sequence[Sample]) -> list[str]:
    """The hosts the compared samples ran on, when more than one (timings then mix machines)."""
    hosts = sorted(set().union(*(sample.hosts for sample in samples)))
    return hosts if len(hosts) > 1 else []


def noise_warnings(samples: Sequence[Sample]) -> list[str]:
    """What differs between the runs the samples come from, beyond the code compared: each
    such difference moves timings by itself, so a ratio across the runs mixes it in. Samples
    of one run share its conditions and give no warning (`mixed_hosts` covers a run spread
    over several machines)."""
    sides: dict[int, RunSide] = {}
    for sample in samples:
        if sample.side is not None:
            sides.setdefault(sample.run, sample.side)
    if len(sides) < 2:
        return []
    first, *others = sides.values()
    warnings = []
    for other in others:
        runs = f"run {first.run} and run {other.run}"
        low, high = first.load, other.load
        if low is not None and high is not None and abs(low - high) >= LOAD_GAP:
            warnings.append(
                f"{runs} ran at different loads ({low:g} and {high:g}: the highest 1-minute "
                "load average seen): other work on the machine slows a run"
            )
        if first.jobs != other.jobs:
            warnings.append(f"{runs} ran with different -j ({first.jobs} and {other.jobs})")
        if set(first.solvers) != set(other.solvers):
            warnings.append(
                f"{runs} ran different back-end mixes ({', '.join(first.solvers)}; "
                f"{', '.join(other.solvers)}): back-ends running side by side share the machine"
            )
        if first.python != other.python:
            warnings.append(f"{runs} ran on different Pythons ({first.python}; {other.python})")
    libraries = {sample.label: sample.side.library for sample in samples if sample.side}
    solvers = {sample.solver for sample in samples}
    if len(solvers) == 1 and len(set(libraries.values())) > 1:
        warnings.append(
            "the compared back-end's library differs: "
            + "; ".join(f"{label}: {library}" for label, library in libraries.items())
        )
    return warnings


@dataclass
class Baseline:
    """The A/A baseline: the same code compared with itself, so the spread the machine alone
    produces. Across runs it is a reference back-end in each run (the drift between them,
    which the comparison is then divided by); within a run, the reference's odd repeats
    against its even ones."""

    reference: str
    across_runs: bool
    comparison: Comparison

    @property
    def ceiling(self) -> float:
        """The largest ratio the baseline's interval allows: a slow-down below it is noise."""
        return max(self.comparison.ci_high, 1 / self.comparison.ci_low)

    def describe(self) -> str:
        c = self.comparison
        where = (
            f"{self.reference} in run {c.a.split(':')[0]} against run {c.b.split(':')[0]}"
            if self.across_runs
            else f"{self.reference}'s 1st, 3rd, ... repeats against its 2nd, 4th, ..."
        )
        return (
            f"A/A baseline ({where}, {c.puzzles} puzzles): {factor(c.ratio)}x, "
            f"95% CI {factor(c.ci_low)}-{factor(c.ci_high)}, p = {c.p_value:.2g}"
        )


def aa_baseline(
    store: Store,
    a: Sample,
    b: Sample,
    reference: str = "",
    metric: str = "total_s",
    *,
    resamples: int = 2000,
    seed: int = 0,
) -> tuple[Baseline, Sample]:
    """The A/A baseline for comparing B against A, and B's sample to compare with it: across
    runs, B's times divided per puzzle by the reference's drift between the runs."""
    if a.run != b.run:
        name = (
            reference
            or (a.side.aa_reference if a.side else "")
            or (b.side.aa_reference if b.side else "")
        )
        if not name or name in (a.solver, b.solver):
            raise CompareError(
                "--aa across runs needs a reference back-end that both runs ran and that is not "
                f"compared (`compare {a.label} {b.label} --aa NAME`, or `bench --aa NAME` when "
                "making the runs)"
            )
        ref_a = load_sample(store, f"{a.run}:{name}", metric)
        ref_b = load_sample(store, f"{b.run}:{name}", metric)
        drift = compare_pair(ref_a, ref_b, resamples=resamples, seed=seed)
        return Baseline(name, True, drift), normalised(b, ref_a, ref_b)
    name = reference or (a.side.aa_reference if a.side else "") or a.solver
    odd = load_sample(store, f"{a.run}:{name}", metric, repeats=lambda r: r % 2 == 0)
    even = load_sample(store, f"{a.run}:{name}", metric, repeats=lambda r: r % 2 == 1)
    if not (odd.times and even.times):
        raise CompareError(
            f"--aa within run {a.run} splits {name}'s repeats in two: it needs --repeat 2 or "
            "more (or compare across two runs with a reference back-end)"
        )
    odd = replace(odd, label=f"{a.run}:{name} odd repeats")
    even = replace(even, label=f"{a.run}:{name} even repeats")
    return Baseline(name, False, compare_pair(odd, even, resamples=resamples, seed=seed)), b


def normalised(b: Sample, ref_a: Sample, ref_b: Sample) -> Sample:
    """B's times, each divided by the reference's ratio (B's run over A's) on that puzzle:
    what B would have taken under A's run's conditions. Puzzles the reference failed in
    either run give no ratio and are left out."""
    times = {}
    for key, value in b.times.items():
        usable = key in ref_a.times and key in ref_b.times
        if usable and key not in ref_a.censored and key not in ref_b.censored:
            times[key] = value * ref_a.times[key] / ref_b.times[key]
    return replace(
        b,
        label=f"{b.label} (normalised by {ref_a.solver})",
        times=times,
        censored=b.censored & times.keys(),
    )


def holm_groups(
    labels: Sequence[str], pairs: Sequence[Comparison], alpha: float
) -> list[tuple[str, ...]]:
    """The cliques of a critical-difference diagram by the pairwise Wilcoxon tests with Holm's
    adjustment (the table's own test): the maximal runs of back-ends, in the order given (by
    average rank), whose every pair is not significantly different."""
    different = {frozenset((c.a, c.b)) for c in pairs if c.significant(alpha)}
    groups: list[tuple[str, ...]] = []
    for start in range(len(labels)):
        end = start
        while end + 1 < len(labels) and not any(
            frozenset((labels[i], labels[end + 1])) in different for i in range(start, end + 1)
        ):
            end += 1
        group = tuple(labels[start : end + 1])
        if len(group) > 1 and not any(set(group) <= set(g) for g in groups):
            groups.append(group)
    return groups
