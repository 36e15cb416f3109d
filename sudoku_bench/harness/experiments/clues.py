"""`clues`: hardness against the number of givens, and where uniqueness is lost.

The ensemble: a random full grid (the generator's randomised search, seeded) with k random
cells kept, nothing else (`sudoku_bench.harness.generating.givens`). Every such puzzle keeps its grid as a
solution, so none has 0 solutions; the share with exactly one grows with k. Three batches:

- `9x9-count`: for each k, a sample counted with `limit=2` by two independent fast back-ends
  (the propagating backtracker and the C exact-cover engine): the share with 0, 1 and 2+
  solutions, the two back-ends' verdicts cross-checked;
- `9x9-effort`: the first puzzles of each k's sample on every back-end of `-s all`, with
  `limit=2` (so a back-end must also prove uniqueness or find a second solution): nodes and
  time against k;
- `4x4-effort`: a sample of 4x4 puzzles for each k = 0..16 on every back-end, beside the
  exhaustive count of every 4x4 puzzle (`sudoku_bench.harness.generating.exhaustive4x4`: all 288 grids and
  all 2^16 cell sets each), which the sample's verdicts are checked against.

The samples are written to `DIR/clues-9x9.txt` and `DIR/clues-4x4.txt` (one puzzle a line;
the stored ids are their `file:line`), so `sudoku-bench bench DIR/clues-9x9.txt` reruns them.

Timeouts are censored at the time limit: a task that timed out counts as taking the limit in
the median time (so a median is exact while fewer than half the tasks time out, and is shown
as `>limit` otherwise), and is left out of the median nodes (its node count is unknown); the
tables say how many timed out. The logic back-end never guesses: a puzzle with two solutions
makes it give up, which is counted apart, not as effort.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from sudoku_bench.harness.experiments.base import (
    Batch,
    BatchResults,
    Design,
    Experiment,
    Results,
    answered,
    timed_out,
)
from sudoku_bench.harness.experiments.document import Document, number, percent
from sudoku_bench.harness.experiments.paper import PaperRow, agrees, paper_vs_us
from sudoku_bench.harness.generating.exhaustive4x4 import Exhaustive, exhaustive
from sudoku_bench.harness.generating.facts4x4 import FOUR, all_grids
from sudoku_bench.harness.generating.givens import GivensPuzzle, givens_puzzles
from sudoku_bench.harness.running.session import choose_backends, importable
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import Backend, select

SEED = 16  # the number: every sample is drawn from it
LIMIT = 2  # count 0, 1 or "2 or more"
HUMP = 1.5  # a peak this many times the larger end's median time is an easy-hard-easy curve
COUNTERS = "propagating,exact-cover-c,dlx"  # the first two usable count the 9x9 sample


@dataclass(frozen=True)
class Plan:
    """The sizes of the design: full or quick."""

    nine_givens: tuple[int, ...]
    nine_counted: int  # puzzles per k counted by the fast back-ends
    nine_effort: int  # of which the first ones run on every back-end
    four_givens: tuple[int, ...]
    four_effort: int
    backends: str  # `-s` of the effort batches
    count_timeout: float
    effort_timeout: float
    min_class: int  # puzzles of each verdict at a k before their efforts are compared


FULL = Plan(
    nine_givens=(0, 5, 10, 15, 20, 22, 24, 26, 28, 30, 32, 35, 38, 41, 44, 47, 50, 55, 60, 70),
    nine_counted=150,
    nine_effort=30,
    four_givens=tuple(range(17)),
    four_effort=20,
    backends="all",
    count_timeout=10.0,
    effort_timeout=3.0,
    min_class=3,
)
QUICK = Plan(
    nine_givens=(20, 30, 40, 50),
    nine_counted=4,
    nine_effort=2,
    four_givens=(2, 4, 6, 8, 12),
    four_effort=2,
    backends="propagating,dlx,backtracking",
    count_timeout=10.0,
    effort_timeout=2.0,
    min_class=1,
)
NINE_FILE = "clues-9x9.txt"
FOUR_FILE = "clues-4x4.txt"


def entries_of(puzzles: Sequence[GivensPuzzle], file: str) -> list[PuzzleEntry]:
    """The puzzles as the entries of `file` (ids `file:line`, lines from 1, as a reader of
    the written file numbers them)."""
    return [
        PuzzleEntry(f"{file}:{line}", p.puzzle, metadata={"givens": p.givens})
        for line, p in enumerate(puzzles, start=1)
    ]


def first_per_k(entries: Sequence[PuzzleEntry], count: int) -> list[PuzzleEntry]:
    """The first `count` entries of each number of givens."""
    taken: Counter[int] = Counter()
    chosen = []
    for entry in entries:
        k = entry.puzzle.givens
        if taken[k] < count:
            taken[k] += 1
            chosen.append(entry)
    return chosen


def effort_backends(spec: str) -> tuple[Backend, ...]:
    """The effort batches' back-ends: `-s all` (the available ones whose code is there)."""
    return tuple(choose_backends(spec, lambda text: None))


def counting_backends() -> tuple[Backend, ...]:
    """The first two usable of COUNTERS: two unrelated methods (the pure-Python exact cover
    stands in when the C engine is not installed)."""
    usable = [b for b in select(COUNTERS) if b.available() and importable(b)]
    return tuple(usable[:2])


class Clues(Experiment):
    name = "clues"
    summary = "hardness against the number of givens; where uniqueness is lost (with every 4x4)"
    paper = (
        "the phase-transition view of hard instances: P. Cheeseman, B. Kanefsky, W. Taylor, "
        "Where the really hard problems are, IJCAI 1991; for Latin squares with holes: "
        "D. Achlioptas, C. Gomes, H. Kautz, B. Selman, Generating satisfiable problem "
        "instances, AAAI 2000"
    )
    question = (
        "Take a random full grid and keep k random cells. For each k, what share of the "
        "puzzles has 0, 1 and 2 or more solutions, and how much effort does each back-end "
        "spend to count them (up to 2)? Does the effort peak where uniqueness is lost?"
    )

    def __init__(self) -> None:
        self.plan = FULL
        self.samples: dict[str, list[PuzzleEntry]] = {}

    def design(self, quick: bool) -> Design:
        plan = self.plan = QUICK if quick else FULL
        nine = entries_of(
            givens_puzzles(Rules.of_size(9), plan.nine_givens, plan.nine_counted, SEED), NINE_FILE
        )
        four = entries_of(givens_puzzles(FOUR, plan.four_givens, plan.four_effort, SEED), FOUR_FILE)
        self.samples = {NINE_FILE: nine, FOUR_FILE: four}
        backends = effort_backends(plan.backends)
        batches = (
            Batch(
                "9x9-count",
                tuple(nine),
                counting_backends(),
                plan.count_timeout,
                (f"{NINE_FILE}: {plan.nine_counted} puzzles for each k",),
                limit=LIMIT,
            ),
            Batch(
                "9x9-effort",
                tuple(first_per_k(nine, plan.nine_effort)),
                backends,
                plan.effort_timeout,
                (f"{NINE_FILE}: the first {plan.nine_effort} puzzles of each k",),
                limit=LIMIT,
            ),
            Batch(
                "4x4-effort",
                tuple(four),
                backends,
                plan.effort_timeout,
                (f"{FOUR_FILE}: {plan.four_effort} puzzles for each k",),
                limit=LIMIT,
            ),
        )
        notes = (
            f"Puzzles: a random full grid (seed {SEED}, its own random stream per k) with k "
            "random cells kept; k counts the givens left (k = 0 is the empty grid, the same "
            "puzzle each time). 9x9: k = "
            f"{', '.join(map(str, plan.nine_givens))}; 4x4: k = "
            f"{', '.join(map(str, plan.four_givens))}.",
            f"Every task asks for {LIMIT} solutions, so a back-end must prove uniqueness or "
            "find a second solution: the verdict is 0, 1 or 2+ solutions.",
            "Timeouts are censored at the time limit: counted at the limit in the median "
            "time (shown as >limit when half or more timed out), left out of the median "
            "nodes; the logic back-end gives up on puzzles with two solutions (counted "
            "apart). Node counts mean different things per back-end: compare a back-end "
            "across k, not back-ends with each other.",
            "The 4x4 counts are exhaustive: every one of the 288 grids with every subset of "
            "its 16 cells (288 x 2^16 pairs), by a superset-sum transform; the 4x4 sample's "
            "verdicts are checked against them.",
        )
        return Design(batches, notes)

    # ----- analysis -------------------------------------------------------------------------

    def analyse(self, results: Results, doc: Document) -> None:
        self._write_samples(doc.folder)
        found = findings(results, self.plan.min_class)
        table, nine_counts = found.table, found.nine_counts
        counters = " and ".join(b.name for b in results["9x9-count"].batch.backends)
        doc.heading("9x9: solutions by number of givens")
        doc.table(
            ["k", "puzzles", "0 solutions", "1", "2+", "unknown", "unique", "disagree"],
            [
                [
                    k,
                    row.puzzles,
                    row.none,
                    row.unique,
                    row.multiple,
                    row.unknown,
                    percent(row.unique_share),
                    row.disagree,
                ]
                for k, row in sorted(nine_counts.items())
            ],
            caption=(
                f"Counted with limit {LIMIT} by {counters} (and the "
                "effort batch's back-ends on its puzzles); `disagree`: puzzles on which two "
                "answers differ. No puzzle can have 0 solutions: its grid solves it."
            ),
        )
        doc.heading("4x4, exhaustively: every grid and every subset of givens")
        doc.table(
            [
                "k",
                "(grid, cells) pairs",
                "1 solution",
                "2+",
                "unique",
                "distinct puzzles",
                "distinct unique",
                "mean solutions",
            ],
            [
                [
                    row.givens,
                    row.pairs,
                    row.unique,
                    row.multiple,
                    percent(row.unique_share),
                    row.distinct,
                    row.unique,
                    row.mean_count,
                ]
                for row in table.rows
            ],
            caption=(
                f"All {table.grids} grids x 2^16 cell sets. A pair (grid g, cells S) is the "
                "puzzle g shows on S, drawn as the 9x9 sample is; a distinct puzzle with c "
                "solutions is c pairs. The first k with a unique puzzle: "
                f"{table.first_unique}. No pair has 0 solutions."
            ),
        )
        checked, wrong = check_four(results.rows("4x4-effort"))
        doc.paragraph(
            f"The 4x4 sample's stored verdicts against the exhaustive counts: {checked} "
            f"answers checked, {wrong} wrong."
        )
        cutoff9, cutoff4 = found.cutoffs
        nine, four = found.nine, found.four
        for title, data, cutoff in (
            ("9x9: effort by number of givens", nine, cutoff9),
            ("4x4: effort by number of givens", four, cutoff4),
        ):
            doc.heading(title)
            solvers = list(data)
            ks = sorted({k for cells in data.values() for k in cells})
            doc.table(
                ["k", *solvers],
                [[k, *(data[s][k].time_cell(cutoff) for s in solvers)] for k in ks],
                caption=(
                    "Median time per task (ms; build + search); `(n t/o)`: tasks that timed "
                    f"out, counted at the {cutoff:g} s limit; `gave up`: the logic back-end "
                    "on a puzzle it cannot finish without guessing."
                ),
            )
            doc.table(
                ["k", *solvers],
                [[k, *(data[s][k].nodes_cell() for s in solvers)] for k in ks],
                caption="Median search nodes of the answered tasks (each back-end's own count).",
            )
        doc.heading("9x9: unique against 2+ puzzles with the same number of givens")
        solvers = list(found.unique)
        if not found.mixed_ks:
            doc.paragraph(
                f"No k of the effort sample holds at least {found.min_class} unique puzzles "
                "and as many with 2+ solutions: nothing to compare."
            )
        else:
            self._pair_table(doc, found, solvers)
        peaks = found.peaks
        fours = four_counts(table)
        doc.heading("Where does the effort peak?")
        doc.table(
            [
                "size",
                "back-end",
                "time peaks at k",
                "peak / larger end",
                "unique there",
                "vs 50% unique",
                "vs first unique",
                "nodes peak at k",
                "nodes vs 50% unique",
            ],
            [
                [
                    p.size,
                    p.solver,
                    p.time_peak,
                    p.rise,
                    percent(p.unique_at_peak),
                    p.time_verdict,
                    p.onset_verdict,
                    p.nodes_peak,
                    p.nodes_verdict,
                ]
                for p in peaks
            ],
            caption=(
                "Two marks of where uniqueness is lost: the k at which the share of unique "
                "puzzles crosses 50% (linear interpolation between the design's k; 9x9: "
                f"{number(transition(nine_counts))}, 4x4: {number(transition(fours))}) and "
                "the first k with a unique puzzle (9x9 sample: "
                f"{number(onset(nine_counts))}, 4x4: {number(onset(fours))}). A peak is *at* "
                "a mark when it lies within one design step of the k around it, *below* when "
                "at fewer givens, *above* at more. `peak / larger end`: the highest median "
                "time over the larger of those at the fewest and the most givens (1: the "
                f"curve falls or rises throughout; {HUMP:g} or more: an easy-hard-easy "
                "curve); `unique there`: the share of unique puzzles at the time peak's k. A "
                "k where half or more of the tasks timed out counts as the highest time. "
                "Back-ends that gave up on some puzzle (logic) are not placed: their effort "
                "is that of the puzzles they could finish."
            ),
        )
        doc.plot(
            "unique",
            "Share of unique puzzles against the number of givens",
            lambda figure: draw_shares(figure, nine_counts, table),
            size=(10.0, 4.0),
        )
        doc.plot(
            "effort",
            "Median time and nodes per back-end against the number of givens (log scale; "
            "dotted: where 50% are unique)",
            lambda figure: draw_effort(figure, nine, four, nine_counts, table, (cutoff9, cutoff4)),
            size=(11.0, 8.0),
        )
        paper_vs_us(
            doc,
            paper_rows(found),
            caption="The phase-transition view publishes no Sudoku figure: the first row sets "
            "our effort peaks against its prediction; the other two set the fewest givens of a "
            "unique puzzle against the proven minima, which a sample can only stay above.",
        )

    def compare(self, results: Results) -> str:
        return comparison_text(findings(results, self.plan.min_class))

    def _pair_table(self, doc: Document, found: Findings, solvers: list[str]) -> None:
        doc.table(
            ["k", "unique / 2+", *solvers],
            [
                [
                    k,
                    f"{found.class_sizes[k][0]} / {found.class_sizes[k][1]}",
                    *(
                        pair_cell(
                            found.unique[s].get(k), found.multiple[s].get(k), found.cutoffs[0]
                        )
                        for s in solvers
                    ),
                ]
                for k in found.mixed_ks
            ],
            caption=(
                "Median time (ms) on the unique puzzles / on those with 2+ solutions, at each "
                f"k where the effort sample holds at least {found.min_class} of each (timeouts "
                "censored as above): does proving uniqueness cost more than finding a second "
                "solution?"
            ),
        )

    def _write_samples(self, folder: Path) -> None:
        for file, entries in self.samples.items():
            lines = [entry.puzzle.to_line() for entry in entries]
            (folder / file).write_text("\n".join(lines) + "\n", encoding="utf-8")


# ----- what the analysis and the paragraph share ---------------------------------------------


@dataclass(frozen=True)
class Findings:
    table: Exhaustive
    nine_counts: dict[int, CountRow]
    nine: dict[str, dict[int, Effort]]
    four: dict[str, dict[int, Effort]]
    cutoffs: tuple[float, float]  # the 9x9 and 4x4 effort batches' time limits
    unique: dict[str, dict[int, Effort]]  # the 9x9 effort on the unique puzzles only
    multiple: dict[str, dict[int, Effort]]  # ... on those with 2+ solutions
    class_sizes: dict[int, tuple[int, int]]  # k -> unique, 2+ puzzles of the effort sample
    peaks: list[Peak]
    min_class: int
    full_bases: dict[int, float]  # k -> share of groebner's 9x9 tasks with one whole basis

    @property
    def mixed_ks(self) -> list[int]:
        """The ks where the effort sample has enough puzzles of both verdicts."""
        return [k for k, (u, m) in sorted(self.class_sizes.items()) if min(u, m) >= self.min_class]

    def unique_ratios(self) -> dict[str, float]:
        """Per back-end (that never gave up), the geometric mean over `mixed_ks` of its median
        time on unique puzzles over that on 2+ puzzles."""
        ratios = {}
        for solver, cells in self.unique.items():
            logs = []
            for k in self.mixed_ks:
                u = cells.get(k)
                m = self.multiple[solver].get(k)
                if u is None or m is None or u.gave_up or m.gave_up:
                    continue
                tu, tm = u.median_time(self.cutoffs[0]), m.median_time(self.cutoffs[0])
                if tu and tm:
                    logs.append(math.log(tu / tm))
            if logs:
                ratios[solver] = math.exp(statistics.fmean(logs))
        return ratios


def findings(results: Results, min_class: int) -> Findings:
    table = exhaustive()
    nine_rows = results.rows("9x9-count") + results.rows("9x9-effort")
    nine_counts = solution_shares(nine_rows)
    verdicts = puzzle_verdicts(nine_rows)
    batch9, batch4 = results["9x9-effort"], results["4x4-effort"]
    cutoffs = (batch9.batch.timeout, batch4.batch.timeout)
    nine, four = effort(batch9), effort(batch4)
    sizes: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for entry in batch9.batch.entries:
        verdict = verdicts.get(entry.id)
        if verdict in ("unique", "multiple"):
            sizes[entry.puzzle.givens][verdict == "multiple"] += 1
    peaks = peak_rows(nine, nine_counts, cutoffs[0]) + peak_rows(
        four, four_counts(table), cutoffs[1], size="4x4"
    )
    return Findings(
        table,
        nine_counts,
        nine,
        four,
        cutoffs,
        effort(batch9, lambda row: verdicts.get(row["puzzle_id"]) == "unique"),
        effort(batch9, lambda row: verdicts.get(row["puzzle_id"]) == "multiple"),
        {k: (u, m) for k, (u, m) in sizes.items()},
        peaks,
        min_class,
        full_basis_shares(batch9.by_solver().get("groebner", [])),
    )


def full_basis_shares(rows: Sequence[dict[str, Any]]) -> dict[int, float]:
    """Per k, the share of the groebner back-end's tasks that computed one basis of the whole
    system (its `full_bases` counter) rather than propagate-and-split: its own strategy switch,
    taken when little freedom is left (see its `basis_freedom` option)."""
    tasks: Counter[int] = Counter()
    whole: Counter[int] = Counter()
    for row in rows:
        k = givens_of(row["puzzle"])
        tasks[k] += 1
        whole[k] += bool((row["counters"] or {}).get("full_bases"))
    return {k: whole[k] / tasks[k] for k in sorted(tasks)}


def pair_cell(unique: Effort | None, multiple: Effort | None, cutoff: float) -> str:
    def ms(cell: Effort | None) -> str:
        if cell is None or cell.gave_up:
            return "–"
        median = cell.median_time(cutoff)
        return (
            f">{cutoff * 1000:g}"
            if median is None and cell.timeouts
            else ("–" if median is None else f"{median * 1000:.3g}")
        )

    return f"{ms(unique)} / {ms(multiple)}"


# ----- the solution counts --------------------------------------------------------------------


@dataclass
class CountRow:
    """The verdicts of one k's puzzles."""

    puzzles: int = 0
    none: int = 0
    unique: int = 0
    multiple: int = 0
    unknown: int = 0
    disagree: int = 0

    @property
    def unique_share(self) -> float | None:
        known = self.none + self.unique + self.multiple
        return self.unique / known if known else None


def solution_shares(rows: Sequence[dict[str, Any]]) -> dict[int, CountRow]:
    """Per k, how many puzzles have 0, 1 or 2+ solutions by the stored verdicts (a verdict
    settled by any answer; `unknown` when none settled it; `disagree` when two differ)."""
    said: dict[str, set[str]] = defaultdict(set)
    givens: dict[str, int] = {}
    for row in rows:
        givens[row["puzzle_id"]] = givens_of(row["puzzle"])
        if row["verdict"] in ("none", "unique", "multiple"):
            said[row["puzzle_id"]].add(str(row["verdict"]))
    table: dict[int, CountRow] = defaultdict(CountRow)
    for puzzle, k in givens.items():
        count = table[k]
        count.puzzles += 1
        verdicts = said.get(puzzle, set())
        if len(verdicts) > 1:
            count.disagree += 1
            count.unknown += 1
        elif not verdicts:
            count.unknown += 1
        else:
            (verdict,) = verdicts
            if verdict == "none":
                count.none += 1
            elif verdict == "unique":
                count.unique += 1
            else:
                count.multiple += 1
    return dict(table)


def four_counts(table: Exhaustive) -> dict[int, CountRow]:
    """The exhaustive 4x4 table as count rows (pairs as puzzles)."""
    return {row.givens: CountRow(row.pairs, 0, row.unique, row.multiple) for row in table.rows}


def givens_of(line: str) -> int:
    return sum(1 for char in line if char not in ".0")


def check_four(rows: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """Settled 4x4 verdicts checked against the true count (the grids that agree with the
    puzzle's givens): (answers checked, answers wrong)."""
    grids = all_grids(FOUR)
    truth: dict[str, str] = {}
    checked = wrong = 0
    for row in rows:
        if row["verdict"] not in ("none", "unique", "multiple"):
            continue
        line = str(row["puzzle"])
        if line not in truth:
            puzzle = Grid.from_string(line, FOUR)
            count = sum(
                all(v == 0 or v == g for v, g in zip(puzzle.values, grid.values, strict=True))
                for grid in grids
            )
            truth[line] = {0: "none", 1: "unique"}.get(count, "multiple")
        checked += 1
        wrong += row["verdict"] != truth[line]
    return checked, wrong


# ----- the effort -----------------------------------------------------------------------------


@dataclass
class Effort:
    """One back-end's tasks at one k."""

    times: list[float]  # seconds of answered tasks
    nodes: list[float]  # nodes of answered tasks
    timeouts: int = 0
    gave_up: int = 0
    errors: int = 0

    @property
    def tasks(self) -> int:
        return len(self.times) + self.timeouts + self.gave_up + self.errors

    def median_time(self, cutoff: float) -> float | None:
        """The median time with timeouts at the cut-off; None when half or more timed out
        (the median is then only known to be at least the cut-off) or nothing was timed."""
        timed = self.times + [cutoff] * self.timeouts
        if not timed or self.timeouts * 2 >= len(timed):
            return None
        return statistics.median(timed)

    def median_nodes(self) -> float | None:
        return statistics.median(self.nodes) if self.nodes else None

    def time_cell(self, cutoff: float) -> str:
        median = self.median_time(cutoff)
        if median is None:
            text = f">{cutoff * 1000:g}" if self.timeouts else "–"
        else:
            text = f"{median * 1000:.3g}"
        notes = []
        if self.timeouts:
            notes.append(f"{self.timeouts} t/o")
        if self.gave_up:
            notes.append(f"{self.gave_up} gave up")
        if self.errors:
            notes.append(f"{self.errors} errors")
        return f"{text} ({', '.join(notes)})" if notes else text

    def nodes_cell(self) -> str:
        median = self.median_nodes()
        return "–" if median is None else f"{median:.4g}"


def puzzle_verdicts(rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Each puzzle's settled verdict (`unique` or `multiple`, ...), where the answers that
    settled it agree."""
    said: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row["verdict"] in ("none", "unique", "multiple"):
            said[row["puzzle_id"]].add(str(row["verdict"]))
    return {puzzle: next(iter(v)) for puzzle, v in said.items() if len(v) == 1}


def effort(
    batch: BatchResults, keep: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, dict[int, Effort]]:
    """Per back-end (in the batch's order) and k, the effort of its tasks (those `keep`
    accepts)."""
    found: dict[str, dict[int, Effort]] = {}
    for solver, rows in batch.by_solver().items():
        cells: dict[int, Effort] = defaultdict(lambda: Effort([], []))
        for row in rows:
            if keep is not None and not keep(row):
                continue
            cell = cells[givens_of(row["puzzle"])]
            if answered(row):
                cell.times.append(float(row["total_s"]))
                cell.nodes.append(float(row["nodes"]))
            elif timed_out(row):
                cell.timeouts += 1
            elif row["status"] == Status.GAVE_UP:
                cell.gave_up += 1
            elif row["status"] != Status.UNSUPPORTED:
                cell.errors += 1
        if cells:
            found[solver] = dict(sorted(cells.items()))
    return found


def transition(counts: dict[int, CountRow]) -> float | None:
    """The k at which the share of unique puzzles first reaches 50%, interpolated linearly
    between the design's ks; None when it never does."""
    points = [(k, row.unique_share) for k, row in sorted(counts.items())]
    known = [(k, s) for k, s in points if s is not None]
    for (k0, s0), (k1, s1) in pairwise(known):
        if s0 < 0.5 <= s1:
            return k0 + (0.5 - s0) * (k1 - k0) / (s1 - s0)
    if known and known[0][1] >= 0.5:
        return float(known[0][0])
    return None


@dataclass(frozen=True)
class Peak:
    size: str
    solver: str
    time_peak: int | None
    nodes_peak: int | None
    transition: float | None
    time_verdict: str  # where the time peak lies: at, below or above the transition
    nodes_verdict: str
    unique_at_peak: float | None  # the share of unique puzzles at the time peak's k
    rise: float | None  # the peak median time over the larger of the two ends' (1 = no hump)
    onset: int | None  # the fewest givens with a unique puzzle
    onset_verdict: str  # where the time peak lies from the onset: at, below or above

    @property
    def humped(self) -> bool:
        """An easy-hard-easy curve: the peak stands out from both ends."""
        return self.rise is not None and self.rise >= HUMP


def argmax(values: dict[int, float | None]) -> int | None:
    """The k of the largest value (the smallest such k on a tie)."""
    known = {k: v for k, v in values.items() if v is not None}
    return max(known, key=lambda k: (known[k], -k)) if known else None


def peak_rows(
    data: dict[str, dict[int, Effort]],
    counts: dict[int, CountRow],
    cutoff: float,
    size: str = "9x9",
) -> list[Peak]:
    """For each back-end, the k of its highest median time (timeouts censored: a k where half
    or more timed out counts as the highest) and of its highest median nodes, and where those
    lie from the transition."""
    middle = transition(counts)
    first = onset(counts)
    ks = sorted(counts)
    peaks = []
    for solver, cells in data.items():
        if any(cell.gave_up for cell in cells.values()):
            continue  # its effort is that of the puzzles it could finish: not comparable
        if all(not cell.times and not cell.timeouts for cell in cells.values()):
            continue  # only failed: no effort to place
        times: dict[int, float | None] = {}
        for k, cell in cells.items():
            median = cell.median_time(cutoff)
            times[k] = median if median is not None else (cutoff * 2 if cell.timeouts else None)
        time_peak = argmax(times)
        nodes = {k: cell.median_nodes() for k, cell in cells.items()}
        counted = any(n for n in nodes.values())  # some back-ends report no nodes (all 0)
        nodes_peak = argmax(nodes) if counted else None
        unique = counts[time_peak].unique_share if time_peak in counts else None
        known = [t for _, t in sorted(times.items()) if t is not None]
        ends = max(known[0], known[-1]) if known else None
        rise = max(known) / ends if known and ends else None
        peaks.append(
            Peak(
                size,
                solver,
                time_peak,
                nodes_peak,
                middle,
                where(time_peak, middle, ks),
                where(nodes_peak, middle, ks),
                unique,
                rise,
                first,
                where(time_peak, None if first is None else float(first), ks),
            )
        )
    return peaks


def onset(counts: dict[int, CountRow]) -> int | None:
    """The fewest givens at which some puzzle is unique: below it, uniqueness is lost for
    every puzzle."""
    return next((k for k, row in sorted(counts.items()) if row.unique), None)


def where(peak: int | None, middle: float | None, ks: Sequence[int]) -> str:
    """`at` the transition (between the design's k just below the k that brackets it and
    the k just above the other), else `below` (fewer givens) or `above` it."""
    if peak is None or middle is None:
        return "–"
    below = [k for k in ks if k <= middle]
    above = [k for k in ks if k >= middle]
    low = below[-1] if below else ks[0]
    high = above[0] if above else ks[-1]
    lowest = max((k for k in ks if k < low), default=low)
    highest = min((k for k in ks if k > high), default=high)
    if lowest <= peak <= highest:
        return "at"
    return "below" if peak < middle else "above"


def comparison_text(found: Findings) -> str:
    """The paragraph: the transition, where each back-end's effort peaks, the verdict (agree
    when most back-ends' time peaks lie at the transition, partly when some do), and why."""
    table, peaks = found.table, found.peaks
    nine_middle = transition(found.nine_counts)
    four_middle = transition(four_counts(table))
    nine = [p for p in peaks if p.size == "9x9"]
    four = [p for p in peaks if p.size == "4x4"]
    smallest = min(found.nine_counts) if found.nine_counts else None

    def names(chosen: Sequence[Peak], verdict: str) -> list[str]:
        return [p.solver for p in chosen if p.time_verdict == verdict]

    def listed(items: Sequence[str]) -> str:
        return f"{len(items)} ({', '.join(items)})" if items else "none"

    at_nine, above_nine = names(nine, "at"), names(nine, "above")
    at_start = [p.solver for p in nine if p.time_verdict == "below" and p.time_peak == smallest]
    inside = [p for p in nine if p.time_verdict == "below" and p.time_peak != smallest]
    nodes_at = [p.solver for p in nine if p.nodes_verdict == "at"]
    placed = [p for p in nine + four if p.time_verdict in ("at", "below", "above")]
    at_all = sum(p.time_verdict == "at" for p in placed)
    humped = [p for p in placed if p.humped]
    humped_at_onset = [p for p in humped if p.onset_verdict == "at"]
    # agree: most back-ends peak where half the puzzles are unique; partly: some do, or the
    # easy-hard-easy curves peak where the first unique puzzles appear (the transition's edge)
    verdict = (
        "agree"
        if placed and at_all * 2 > len(placed)
        else "partly agree"
        if at_all or (humped and len(humped_at_onset) * 2 > len(humped))
        else "do not agree"
    )
    middle9 = "never" if nine_middle is None else f"at about k = {nine_middle:.1f}"
    middle4 = "never" if four_middle is None else f"at about k = {four_middle:.1f}"
    inside_text = (
        ", ".join(
            f"{p.solver} at k = {p.time_peak} ({percent(p.unique_at_peak)} unique)" for p in inside
        )
        if inside
        else "none"
    )
    text = (
        "The phase-transition view (Cheeseman, Kanefsky and Taylor 1991; for Latin squares "
        "with holes, Achlioptas, Gomes, Kautz and Selman 2000) expects the hardest instances "
        "where the ensemble turns from under- to over-constrained: here, where a random "
        "puzzle stops having two or more solutions and becomes unique. The share of unique "
        f"9x9 puzzles crosses 50% {middle9} givens, and the 4x4's (exhaustively) {middle4} "
        f"(its first unique puzzle has {table.first_unique} givens). Of the {len(nine)} 9x9 "
        "back-ends placed (those that never gave up), the median time peaks at the "
        f"transition for {listed(at_nine)}; at the fewest givens of the design (k = "
        f"{smallest}), falling from there as k grows, for {listed(at_start)}; inside the "
        f"range but below the transition for {len(inside)}: {inside_text}; above it for "
        f"{listed(above_nine)}. The median nodes peak at the transition for "
        f"{listed(nodes_at)}. On the 4x4 the time peaks at the transition for "
        f"{listed(names(four, 'at'))} of {len(four)}. "
    )
    onset9, onset4 = onset(found.nine_counts), onset(four_counts(table))
    if humped:
        text += (
            f"An easy-hard-easy curve (a peak at least {HUMP:g} times the larger end) shows "
            f"for {len(humped)} of the {len(placed)} placements: "
            + ", ".join(
                f"{p.solver} ({p.size}) at k = {p.time_peak}, {p.rise:.3g}x" for p in humped
            )
            + f"; {len(humped_at_onset)} of them peak within a design step of the first k "
            f"with a unique puzzle (9x9: {number(onset9)}, 4x4: {number(onset4)}), the "
            "under-constrained edge of the transition where nearly every puzzle still has "
            "2+ solutions, rather than at its middle. "
        )
    else:
        text += f"No curve has a peak {HUMP:g} times its larger end (no easy-hard-easy shape). "
    text += f"So our figures {verdict} with the view that effort peaks where uniqueness is lost."
    if verdict != "agree":
        text += (
            " Why, as far as the data show: every task asks for 2 solutions, so a puzzle with "
            "many solutions is settled by building two full grids, and that work grows with "
            "the cells left empty; a back-end that propagates well builds them almost without "
            "dead ends, so its effort falls steadily with k. A back-end that meets many dead "
            "ends (weak propagation) has its hard region where the givens already contradict "
            "many partial fillings but do not yet force the rest."
        )
    groebner = next((p for p in nine if p.solver == "groebner"), None)
    if groebner and groebner.time_verdict == "above" and groebner.time_peak is not None:
        peak_k = groebner.time_peak
        cells = found.nine["groebner"]

        def milliseconds(k: int) -> str:
            median = cells[k].median_time(found.cutoffs[0]) if k in cells else None
            return "–" if median is None else f"{median * 1000:.3g} ms"

        before = [k for k in found.full_bases if k <= (nine_middle or 0)]
        text += (
            f" The groebner back-end's peak above the transition (k = {peak_k}) is its own "
            f"strategy switch: {percent(found.full_bases.get(peak_k))} of its tasks there "
            "computed one Groebner basis of the whole system (its `full_bases` counter), "
            + (
                f"against {percent(found.full_bases[before[-1]])} at k = {before[-1]} "
                f"(median {milliseconds(before[-1])} there, {milliseconds(peak_k)} at "
                f"k = {peak_k}), "
                if before
                else ""
            )
            + "where it propagates and splits instead; a choice of the back-end, not a "
            "hardness of the puzzles."
        )
    ratios = found.unique_ratios()
    if ratios:
        costlier = [name for name, ratio in ratios.items() if ratio > 1]
        text += (
            f" At the same k, near the transition (k = {', '.join(map(str, found.mixed_ks))}), "
            f"the unique puzzles took longer than the 2+ ones for {len(costlier)} of "
            f"{len(ratios)} back-ends (geometric-mean ratio of the medians from "
            f"{min(ratios.values()):.2g} to {max(ratios.values()):.2g}): "
            + (
                "proving uniqueness is the costlier answer there."
                if len(costlier) * 2 > len(ratios)
                else "proving uniqueness is not the costlier answer for most of them."
            )
        )
    return text


PHASE_SOURCE = (
    "none published for Sudoku: the prediction of the phase-transition view (Cheeseman, "
    "Kanefsky, Taylor, IJCAI 1991; Achlioptas, Gomes, Kautz, Selman, AAAI 2000, Latin squares)"
)
NINE_MINIMUM = 17  # McGuire, Tugemann, Civario 2012: no 16-clue 9x9 puzzle
FOUR_MINIMUM = 4  # the fewest givens of a unique 4x4 puzzle


def paper_rows(found: Findings) -> list[PaperRow]:
    """The prediction (effort peaks at the transition, for most back-ends) and the two proven
    minima beside the fewest givens of a unique puzzle here."""
    placed = [p for p in found.peaks if p.time_verdict in ("at", "below", "above")]
    at = sum(p.time_verdict == "at" for p in placed)
    nine_onset = onset(found.nine_counts)
    four_onset = onset(four_counts(found.table))
    return [
        PaperRow(
            "back-ends whose median time peaks at the transition",
            "most of them",
            PHASE_SOURCE,
            f"{at} of {len(placed)}",
            agrees(bool(placed) and at * 2 > len(placed)),
        ),
        PaperRow(
            "9x9: fewest givens of a unique puzzle in the sample",
            f"at least {NINE_MINIMUM}",
            "McGuire, Tugemann, Civario, arXiv:1201.0749 (2012), abstract: no 16-clue puzzle",
            number(nine_onset),
            agrees(nine_onset is not None and nine_onset >= NINE_MINIMUM),
        ),
        PaperRow(
            "4x4: fewest givens of a unique puzzle (every puzzle counted)",
            str(FOUR_MINIMUM),
            "the thesis's 4x4 fact (the project's `facts4x4`; no paper read here)",
            number(four_onset),
            agrees(four_onset == FOUR_MINIMUM),
        ),
    ]


# ----- plots ----------------------------------------------------------------------------------


def draw_shares(figure: Any, nine: dict[int, CountRow], table: Exhaustive) -> None:
    axes = figure.subplots(1, 2)
    ks = sorted(nine)
    axes[0].plot(ks, [nine[k].unique_share for k in ks], marker="o")
    axes[0].set_title("9x9 (sample)")
    axes[1].plot(
        [row.givens for row in table.rows], [row.unique_share for row in table.rows], marker="o"
    )
    axes[1].set_title("4x4 (every grid, every subset)")
    for ax in axes:
        ax.set_xlabel("givens k")
        ax.set_ylabel("share with exactly 1 solution")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)


def draw_effort(
    figure: Any,
    nine: dict[str, dict[int, Effort]],
    four: dict[str, dict[int, Effort]],
    nine_counts: dict[int, CountRow],
    table: Exhaustive,
    cutoffs: tuple[float, float],
) -> None:
    grid = figure.add_gridspec(3, 2, height_ratios=[1, 1, 0.22])
    axes = [[figure.add_subplot(grid[row, column]) for column in (0, 1)] for row in (0, 1)]
    solvers = list(dict.fromkeys([*nine, *four]))
    palette = plot_colours(len(solvers))
    style = {
        solver: {"color": palette[i], "marker": "osd^v<>"[i % 7]}
        for i, solver in enumerate(solvers)
    }
    for column, (title, data, middle, cutoff) in enumerate(
        (
            ("9x9", nine, transition(nine_counts), cutoffs[0]),
            ("4x4", four, transition(four_counts(table)), cutoffs[1]),
        )
    ):
        time_ax, nodes_ax = axes[0][column], axes[1][column]
        for solver, cells in data.items():
            ks = list(cells)
            # a median censored by timeouts is drawn at its lower bound, the cut-off
            times = [
                cells[k].median_time(cutoff) or (cutoff if cells[k].timeouts else None) for k in ks
            ]
            nodes = [cells[k].median_nodes() for k in ks]
            time_points = [(k, t * 1000) for k, t in zip(ks, times, strict=True) if t and t > 0]
            node_points = [(k, n) for k, n in zip(ks, nodes, strict=True) if n and n > 0]
            if time_points:
                time_ax.plot(*zip(*time_points, strict=True), label=solver, **style[solver])
            if node_points:
                nodes_ax.plot(*zip(*node_points, strict=True), label=solver, **style[solver])
        for ax, label in ((time_ax, "median time (ms)"), (nodes_ax, "median nodes")):
            ax.set_yscale("log")
            ax.set_xlabel("givens k")
            ax.set_ylabel(label)
            ax.set_title(title)
            ax.grid(alpha=0.3)
            if middle is not None:
                ax.axvline(middle, linestyle=":", color="black")
    handles, labels = axes[0][0].get_legend_handles_labels()
    legend = figure.add_subplot(grid[2, :])  # a row of its own, so no curve is hidden
    legend.axis("off")
    legend.legend(handles, labels, loc="center", ncol=min(7, len(labels) or 1), fontsize=7)


def plot_colours(count: int) -> list[Any]:
    """`count` distinct colours (tab20 holds enough for every back-end of `-s all`)."""
    import matplotlib

    colours = matplotlib.colormaps["tab20"]  # a listed map: colours(i) is its i-th colour
    return [colours(i % colours.N) for i in range(count)]
