"""`difficulty`: human difficulty against machine effort, after Pelánek (2014).

The logic back-end's rating (`sudoku_bench.harness.generating.rating`: the hardest technique's weight on a
Sudoku-Explainer-like scale, ties broken by the number of hard steps) stands for human
difficulty. Every back-end of `-s all` solves the same puzzles; Spearman's rank correlation
(`sudoku_bench.harness.analysing.correlation`) measures how well each one's search nodes and time follow
the rating. A search that did not finish is censored at the top: it ranks above every
finished puzzle of that back-end, tied with the other censored ones (its true effort is at
least the limit), which rank correlation takes without inventing a value.

The rating is set against ratings people publish: Sudoku Explainer's (SE, the forum's standard
rater) for every puzzle of the design, computed once with SE's `serate` and bundled as
`sudoku_bench/puzzles/data/se-ratings.csv` (its SOURCES.md says how), and the forum-hardest sample, which
tdoku gathered as puzzles SE rates above 11: Spearman's rho of our rating with SE's, and
whether our rating spreads the hardest puzzles apart rather than giving them one value.

Where the censoring comes from decides whether the result depends on the machine. The
back-ends that count search nodes run under a node budget (`Solver.honours_node_limit`): which
puzzles are censored is then the same on any machine at any load, and so is their nodes
correlation; the headline (the median nodes rho) is taken over them alone. The others run
under a time limit in a batch of their own: which of their puzzles time out depends on the
load, so they are reported beside the headline, never in it.
"""

from __future__ import annotations

import csv
import io
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from sudoku_bench.harness.analysing.correlation import Correlation, spearman
from sudoku_bench.harness.experiments.base import (
    Batch,
    Design,
    Experiment,
    Results,
    picked,
    share,
    timed_out,
)
from sudoku_bench.harness.experiments.document import Document, percent
from sudoku_bench.harness.generating.rating import LABELS, Rating, rating_from
from sudoku_bench.harness.running.session import choose_backends
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import get

LABEL = "all"
RATING_LABEL = "rating"  # the full design rates each puzzle in a run of its own
# The rater's budget is its steps (the nested forcing nets have a budget of inner nets of
# their own), so the ratings are the same on any machine; the time limit is a safety net.
RATING_STEP_BUDGET = 2_000
RATING_TIMEOUT_S = 600.0
RATER = "logic"
SETS = ("easy50", "top95", "hardest", "17clue")
FULL_COUNTS = {"easy50": None, "top95": None, "hardest": None, "17clue": 100}
# rated only (no back-end runs): the hardest puzzles the forum knows, SE 11 and above
HARDEST_SET = "forum-hardest"
HARDEST_COUNT = 100
HARDEST_SE = 11.0  # tdoku's selection: Sudoku Explainer rating above 11.0
SE_RATINGS = "se-ratings.csv"  # in sudoku_bench/puzzles/data: puzzle line -> SE's ER/EP/ED
# Pelánek's figures for ratings against human solving times (Pearson's r of his metrics)
PELANEK_BEST = 0.95
PELANEK_SIMPLE = 0.88
PELANEK_SOURCE = (
    'R. Pelánek, "Difficulty rating of Sudoku puzzles by a computational model", FLAIRS '
    "2011, abstract (readkong.com/page/dif-culty-rating-of-sudoku-puzzles-by-a-computational-"
    "model-6604579): 0.95 for the best metric, 0.88 for one with few Sudoku-specific details"
)
# The verdict on separating the hardest: our ratings of the forum-hardest sample take at least
# this many distinct values (one value for all of them is what the rating gave before).
SPREAD_VALUES = 5
QUICK_PER_SET = 2
FULL_TIMEOUT_S = 3.0  # the time limit of the back-ends without a node budget
QUICK_TIMEOUT_S = 0.5
TIMED_LABEL = "timed"  # the batch of the back-ends without a node budget
# The node budget of the back-ends that count nodes, and a time limit far above what the
# budget costs, only so that a broken engine cannot hang the run: a budgeted task that meets
# it makes the run depend on the machine, and the report says so.
FULL_NODE_BUDGET = 200_000
QUICK_NODE_BUDGET = 20_000
FULL_SAFETY_TIMEOUT_S = 120.0
QUICK_SAFETY_TIMEOUT_S = 60.0
# Measured efforts: a task that ended with an answer, or gave up after measured work.
MEASURED = (Status.SOLVED, Status.LIMIT, Status.NO_SOLUTION, Status.GAVE_UP)
# Pelánek's "weak" correlation, as a rule for the verdict: a median rho below this.
WEAK_RHO = 0.5
CENSORED = math.inf  # a timeout's effort: above every measured one
PANEL_COLUMNS = 4


@dataclass(frozen=True)
class Effort:
    """One back-end's correlations with the rating."""

    solver: str
    puzzles: int  # rated puzzles this back-end has a usable result for
    timeouts: int  # censored: over the node budget, or past the time limit
    nodes: Correlation | None  # None: the back-end reports no node count (all equal)
    time: Correlation
    budgeted: bool = False  # ran under the node budget (else under a time limit)
    clock_timeouts: int = 0  # budgeted tasks stopped by the clock, not by the budget


def by_budget(row: dict[str, Any]) -> bool:
    """Whether a censored result was stopped by its node budget (its `node_budget` counter,
    which `Solver.solve` sets under a budget, and more nodes than that)."""
    budget = row["counters"].get("node_budget")
    return timed_out(row) and budget is not None and float(row["nodes"]) > float(budget)


def budgeted_names(results: Results) -> set[str]:
    """The back-ends that ran under the node budget."""
    batch = results[LABEL].batch
    return {backend.name for backend in batch.backends} if batch.node_limit else set()


def effort_rows(results: Results) -> list[dict[str, Any]]:
    """The back-ends' rows: the budgeted batch's and the time-limited batch's."""
    labels = [label for label in (LABEL, TIMED_LABEL) if label in results.batches]
    return [row for label in labels for row in results.rows(label)]


def censored_by(results: Results, item: Effort) -> str:
    """What censors a back-end's searches, in words: its node budget or its time limit."""
    if item.budgeted:
        return f"{results[LABEL].batch.node_limit:,} nodes"
    timed = results[TIMED_LABEL] if TIMED_LABEL in results.batches else results[LABEL]
    return f"{timed.batch.timeout:g} s"


def rows_by_solver(results: Results) -> dict[str, list[dict[str, Any]]]:
    """Each back-end's rows: the budgeted batch's, then the time-limited batch's."""
    found = dict(results[LABEL].by_solver())
    if TIMED_LABEL in results.batches:
        found.update(results[TIMED_LABEL].by_solver())
    return found


def puzzle_key(row: dict[str, Any]) -> tuple[str, str]:
    return (str(row["collection"]), str(row["puzzle_id"]))


def ratings(results: Results) -> dict[tuple[str, str], Rating]:
    """Each puzzle's rating from the rater's stored result: the rating batch's (a longer time
    limit) when the design has one, else the rater's row among the back-ends. A rating that
    timed out is unknown."""
    source = RATING_LABEL if RATING_LABEL in results.batches else LABEL
    return {
        puzzle_key(row): rating_from(str(row["status"]), row["counters"])
        for row in results.rows(source)
        if row["solver"] == RATER and row["status"] in MEASURED
    }


@cache
def se_ratings() -> dict[str, float]:
    """Sudoku Explainer's rating (ER, the hardest step) of each bundled puzzle it rated, by the
    puzzle's line (`.` for empty)."""
    text = resources.files("sudoku_bench.puzzles").joinpath("data", SE_RATINGS).read_text("utf-8")
    return {row["puzzle"]: float(row["se_er"]) for row in csv.DictReader(io.StringIO(text))}


def se_pairs(results: Results) -> list[tuple[str, float, float]]:
    """(collection, our estimate, SE's rating) of every rated puzzle SE rated too."""
    published = se_ratings()
    lines = {
        entry.id: entry.puzzle.to_line().replace("0", ".")
        for label in results.batches
        for entry in results[label].batch.entries
    }
    found = []
    for (collection, puzzle_id), rating in ratings(results).items():
        line = lines.get(puzzle_id)
        if rating.estimate is not None and line in published:
            found.append((collection, rating.estimate, published[line]))
    return found


def hardest_estimates(results: Results) -> list[float]:
    """Our rating of each puzzle of the forum-hardest sample (rated, not run)."""
    return [
        rating.estimate
        for (collection, _), rating in ratings(results).items()
        if collection == HARDEST_SET and rating.estimate is not None
    ]


def rating_value(rating: Rating) -> float:
    """The rating as one number that orders puzzles as `Rating.order` does."""
    estimate, hard_steps = rating.order
    return estimate * 1000 + min(hard_steps, 999)


def effort(
    solver: str,
    rows: Sequence[dict[str, Any]],
    rated: dict[tuple[str, str], Rating],
    budgeted: bool = False,
) -> Effort:
    xs: list[float] = []
    nodes: list[float] = []
    times: list[float] = []
    timeouts = clock_timeouts = 0
    for row in rows:
        rating = rated.get(puzzle_key(row))
        if rating is None or rating.estimate is None:
            continue
        if timed_out(row):
            timeouts += 1
            if budgeted and not by_budget(row):
                clock_timeouts += 1
            xs.append(rating_value(rating))
            nodes.append(CENSORED)
            times.append(CENSORED)
        elif row["status"] in MEASURED:
            xs.append(rating_value(rating))
            nodes.append(float(row["nodes"]))
            times.append(float(row["total_s"]))
    finite_nodes = {value for value in nodes if value != CENSORED}
    node_correlation = spearman(xs, nodes) if len(finite_nodes) > 1 else None
    return Effort(
        solver,
        len(xs),
        timeouts,
        node_correlation,
        spearman(xs, times),
        budgeted=budgeted,
        clock_timeouts=clock_timeouts,
    )


def efforts(results: Results, collection: str | None = None) -> list[Effort]:
    """Each back-end's correlations, over every puzzle or over one set's."""
    rated = ratings(results)
    budgeted = budgeted_names(results)
    return [
        effort(
            name,
            [r for r in found if collection in (None, r["collection"])],
            rated,
            budgeted=name in budgeted,
        )
        for name, found in rows_by_solver(results).items()
    ]


def median_rho(found: Sequence[Effort], budgeted_only: bool = True) -> float | None:
    """The median nodes rho of the back-ends other than the rater (None: none defined); by
    default over the budgeted ones only, whose censoring does not depend on the machine."""
    values = [
        item.nodes.rho
        for item in found
        if item.solver != RATER
        and (item.budgeted or not budgeted_only)
        and item.nodes is not None
        and not math.isnan(item.nodes.rho)
    ]
    return statistics.median(values) if values else None


def headline(results: Results) -> float | None:
    """The experiment's headline: the median nodes rho over the back-ends with a node budget
    (the rater left out), over every puzzle. It depends on no clock."""
    return median_rho(efforts(results))


class Difficulty(Experiment):
    name = "difficulty"
    summary = "human difficulty (the logic rating) against machine effort, after Pelánek (2014)"
    paper = (
        'R. Pelánek, "Difficulty rating of Sudoku puzzles: an overview and evaluation", '
        "arXiv:1403.7373, 2014"
    )
    question = (
        "Does the effort of a machine solver follow human difficulty? Pelánek found that "
        "human difficulty (solving times) is predicted well by models built on the logic "
        "techniques a human needs and their steps, and only weakly by the nodes of a "
        "backtracking search. We rate each puzzle with the logic solver (our stand-in for "
        "human difficulty: we have no human solving times) and ask how each back-end's "
        "search nodes and time follow that rating."
    )

    def design(self, quick: bool) -> Design:
        entries, inputs = picked(
            (name, QUICK_PER_SET if quick else FULL_COUNTS[name]) for name in SETS
        )
        backends = choose_backends("all", lambda text: None)
        budget = QUICK_NODE_BUDGET if quick else FULL_NODE_BUDGET
        budgeted = tuple(b for b in backends if b.solver_class().honours_node_limit)
        batch = Batch(
            LABEL,
            entries,
            budgeted,
            QUICK_SAFETY_TIMEOUT_S if quick else FULL_SAFETY_TIMEOUT_S,
            inputs,
            node_limit=budget,
        )
        timed = Batch(
            TIMED_LABEL,
            entries,
            tuple(b for b in backends if b not in budgeted),
            QUICK_TIMEOUT_S if quick else FULL_TIMEOUT_S,
            inputs,
        )
        # quick mode rates from the back-ends' run: a second pool of workers costs seconds
        hardest, hardest_inputs = picked([(HARDEST_SET, HARDEST_COUNT)])
        rating = Batch(
            RATING_LABEL,
            entries + hardest,
            (get(RATER),),
            RATING_TIMEOUT_S,
            inputs + hardest_inputs,
            node_limit=RATING_STEP_BUDGET,
        )
        batches = (batch, timed) if timed.backends else (batch,)
        return Design(
            batches if quick else (*batches, rating),
            (
                "Every back-end that `-s all` chooses on this machine (the installed ones), "
                "limit 1 (the first solution), once per puzzle.",
                f"The back-ends that count search nodes (`{LABEL}`: "
                + ", ".join(f"`{b.name}`" for b in budgeted)
                + f") run under a node budget of {budget:,} nodes: a search that needs more "
                "is censored, the same puzzles on any machine at any load. Their time limit "
                "is a safety net far above what the budget costs. The others "
                f"(`{TIMED_LABEL}`) have no budget and run under the time limit.",
                f"The rating is the `{RATER}` back-end's result, rated as `sudoku-bench rate` "
                "does: the hardest step's weight (1.2 for a naked single up; forcing steps "
                "as Sudoku Explainer rates chains, by kind and size: 8.0 and up for forcing "
                "chains, 8.5 and up for forcing nets, 10.5 and up for nested nets; 13.0 when "
                "the solver gives up), ties broken by the number of steps at level hard or "
                f"above. The full design rates in a run of its own (`{RATING_LABEL}`, a budget "
                f"of {RATING_STEP_BUDGET:,} steps; its {RATING_TIMEOUT_S:g} s time limit is only "
                "a safety net), so that the rating depends on no clock, and rates a sample "
                f"of {HARDEST_SET} as well; quick mode takes the rater's row of the back-ends' "
                "run. A puzzle whose rating did not finish is left out.",
                "The ratings people publish: Sudoku Explainer's (`serate`, SukakuExplainer "
                "1.x; its ER, the hardest step) for every puzzle of the design, bundled in "
                f"`sudoku_bench/puzzles/data/{SE_RATINGS}`, and the {HARDEST_SET} sample, which tdoku "
                f"gathered as puzzles SE rates above {HARDEST_SE:g}. Spearman's rho of our "
                "rating with SE's, over every puzzle both rated; the verdict on the hardest "
                f"puzzles: our ratings of the {HARDEST_SET} sample take at least "
                f"{SPREAD_VALUES} distinct values (before SE-style forcing ratings every one "
                "was 9.5).",
                "Spearman's rho between the rating and each back-end's `nodes` counter and "
                "total time (build + search). A search that did not finish (over the node "
                "budget, or past the time limit) is censored at the top: it ranks above "
                "every finished puzzle, tied with the other censored ones. A back-end whose "
                "`nodes` are all equal (no node counter) has no nodes correlation.",
                "The headline is the median nodes rho over the back-ends with a node budget "
                f"(without `{RATER}`): it depends on no clock. The time-limited back-ends' "
                "censoring depends on the machine's speed and load, so they are reported "
                "beside it and kept out of it.",
                f"`{RATER}` is the rater itself: its nodes are its steps, so its row is a "
                "check, not a finding.",
                "The verdict on Pelánek's finding is read from the plain backtracker's nodes "
                f"(the paper's measure was a backtracking search's): \"weak\" is a rho above 0 "
                f"and below {WEAK_RHO}.",
            ),
        )

    def analyse(self, results: Results, doc: Document) -> None:
        rows = effort_rows(results)
        rated = ratings(results)
        found = efforts(results)
        sets = [name for name in SETS if any(r["collection"] == name for r in rows)]
        doc.heading("The ratings")
        counts = []
        for label in LABELS:
            line: list[Any] = [label]
            for name in sets:
                line.append(sum(1 for (c, _), r in rated.items() if c == name and r.label == label))
            line.append(sum(1 for r in rated.values() if r.label == label))
            counts.append(line)
        doc.table(
            ["level", *sets, "all"],
            counts,
            caption=f"Puzzles per logic level (from `{RATER}`); "
            f"{len({puzzle_key(r) for r in rows}) - len(rated)} puzzle(s) had no rating.",
        )
        doc.heading("Against Sudoku Explainer's ratings")
        pairs = se_pairs(results)
        groups = [name for name in (*SETS, HARDEST_SET) if any(c == name for c, _, _ in pairs)]
        published = []
        for name in [*groups, "all"]:
            chosen = [(o, e) for c, o, e in pairs if name in ("all", c)]
            ours, theirs = [o for o, _ in chosen], [e for _, e in chosen]
            published.append(
                [
                    name,
                    len(chosen),
                    statistics.median(theirs) if theirs else None,
                    statistics.median(ours) if ours else None,
                    len(set(ours)),
                    percent(share(abs(o - e) <= 0.05 for o, e in chosen)),
                    _rho(spearman(ours, theirs)) if len(chosen) > 2 else "–",
                ]
            )
        doc.table(
            [
                "set",
                "puzzles rated by both",
                "SE median",
                "ours median",
                "our distinct values",
                "same as SE",
                "rho with SE",
            ],
            published,
            caption="SE: Sudoku Explainer's rating (ER) from `serate`; ours: the logic "
            "rating's estimate; same as SE: within 0.05; rho: Spearman's rank correlation "
            f"within the set. {HARDEST_SET}: tdoku's sample of puzzles SE rates above "
            f"{HARDEST_SE:g}.",
        )
        hardest = sorted(hardest_estimates(results))
        if hardest:
            doc.paragraph(
                f"Our ratings of the {len(hardest)} {HARDEST_SET} puzzles (SE above "
                f"{HARDEST_SE:g}, by tdoku's selection) run from {hardest[0]:.1f} to "
                f"{hardest[-1]:.1f} (median {statistics.median(hardest):.1f}), take "
                f"{len(set(hardest))} distinct values, and "
                f"{percent(share(value > HARDEST_SE for value in hardest))} of them are above "
                f"{HARDEST_SE:g} too."
            )
        doc.heading("Paper vs us")
        plain = next((item for item in found if item.solver == "backtracking"), None)
        plain_rho = plain.nodes.rho if plain is not None and plain.nodes is not None else None
        overall = (
            spearman([o for _, o, _ in pairs], [e for _, _, e in pairs]) if len(pairs) > 2 else None
        )
        doc.table(
            ["finding", "paper", "source of the paper's figure", "us", "measured as", "agrees"],
            [
                [
                    "a backtracking search's effort follows human difficulty only weakly",
                    "weak (no figure read)",
                    "Pelánek 2014, arXiv:1403.7373, as this experiment's question states it "
                    "(its tables could not be read from the stored pages)",
                    _number(plain_rho),
                    "Spearman's rho of `backtracking`'s nodes with our rating",
                    "–" if plain_rho is None else ("yes" if 0 < plain_rho < WEAK_RHO else "no"),
                ],
                [
                    "a rating built on the techniques a human needs follows human difficulty",
                    f"{PELANEK_BEST} (best metric), {PELANEK_SIMPLE} (few Sudoku specifics)",
                    PELANEK_SOURCE,
                    _rho(overall),
                    f"Spearman's rho of our rating with Sudoku Explainer's over {len(pairs)} "
                    "puzzles (SE stands in for human times, which we do not have)",
                    "–"
                    if overall is None or math.isnan(overall.rho)
                    else ("yes" if overall.rho >= PELANEK_SIMPLE else "no"),
                ],
                [
                    f"the forum's hardest puzzles rate above {HARDEST_SE:g} with SE",
                    f"all above {HARDEST_SE:g}",
                    "tdoku's data notes: puzzles5_forum_hardest_1905_11+ is the subset of the "
                    "forum's hardest list with SE rating above 11.0",
                    len(set(hardest)),
                    f"distinct ratings of the {len(hardest)} {HARDEST_SET} puzzles rated, "
                    f"{percent(share(value > HARDEST_SE for value in hardest))} of them above "
                    f"{HARDEST_SE:g}"
                    if hardest
                    else f"not rated in this run (quick mode rates no {HARDEST_SET} puzzle)",
                    "–" if not hardest else ("yes" if len(set(hardest)) >= SPREAD_VALUES else "no"),
                ],
            ],
            caption="agrees: the row's verdict, which the figures could have turned the other "
            f"way (row 2: a rho of {PELANEK_SIMPLE} or more; row 3: at least {SPREAD_VALUES} "
            "distinct ratings of the hardest puzzles).",
        )
        doc.heading("Spearman correlations with the rating")
        table = []
        for item in found:
            table.append(
                [
                    f"`{item.solver}`",
                    censored_by(results, item),
                    item.puzzles,
                    item.timeouts,
                    _rho(item.nodes),
                    _p(item.nodes),
                    _rho(item.time),
                    _p(item.time),
                ]
            )
        doc.table(
            [
                "back-end",
                "censored at",
                "puzzles",
                "censored",
                "rho nodes",
                "p nodes",
                "rho time",
                "p time",
            ],
            table,
            caption="censored at: the node budget (the same censored puzzles on any machine) "
            "or the time limit (which depends on the machine and its load); censored: the "
            "puzzles over it, ranked at the top; rho: Spearman's rank correlation of the "
            "rating with the back-end's search nodes or total time; p: its two-sided p-value "
            "(t-distribution, as scipy's `spearmanr`); `–`: undefined (no node counter, or "
            "every value tied).",
        )
        clocked = [item for item in found if item.clock_timeouts]
        if clocked:
            doc.paragraph(
                "Warning: "
                + ", ".join(f"`{item.solver}` {item.clock_timeouts}" for item in clocked)
                + " budgeted search(es) met the safety time limit before the node budget, so "
                "this run's headline depends on the machine: run it again on a quieter one."
            )
        run = results[LABEL].run
        load, cores = run.conditions.get("load_max"), run.machine.get("cores")
        if load is not None and cores and float(load) > float(cores):
            doc.paragraph(
                f"The load average reached {float(load):g} on {cores} cores during the run: "
                "other work shared the machine, so the times are noisier than on a quiet one "
                "(which can weaken their correlations, and changes which puzzles the "
                "time-limited back-ends finish); the nodes of the budgeted back-ends, and the "
                "headline, do not depend on it."
            )
        doc.heading("Within each set")
        per_set = {name: efforts(results, name) for name in sets}
        within = []
        for number, item in enumerate(found):
            within.append(
                [f"`{item.solver}`", *(_rho(per_set[name][number].nodes) for name in sets)]
            )
        within.append(
            [
                "median (node budget, without the rater)",
                *(_number(median_rho(per_set[n])) for n in sets),
            ]
        )
        doc.table(
            ["back-end", *(f"rho nodes {name}" for name in sets)],
            within,
            caption="Spearman's rho of the rating with the search nodes within each set: the "
            "sets differ in difficulty as a whole, and a correlation across them partly "
            "measures that difference.",
        )
        doc.heading("Median effort per logic level")
        by_level = []
        for item in found:
            line = [f"`{item.solver}`"]
            for label in LABELS:
                times = [
                    1000 * float(r["total_s"])
                    for r in rows
                    if r["solver"] == item.solver
                    and r["status"] in MEASURED
                    and (rating := rated.get(puzzle_key(r))) is not None
                    and rating.label == label
                ]
                line.append(statistics.median(times) if times else None)
            by_level.append(line)
        doc.table(
            ["back-end", *(f"{label} ms" for label in LABELS)],
            by_level,
            caption="Median total time (ms) of the puzzles of each level that the back-end "
            "finished (timeouts left out here).",
        )
        timed = results[TIMED_LABEL] if TIMED_LABEL in results.batches else results[LABEL]
        timeout = timed.batch.timeout
        names = [item.solver for item in found]
        for what, words in (("time", "total time"), ("nodes", "search nodes")):
            doc.plot(
                f"scatter-{what}",
                f"{words.capitalize()} against the logic rating, one panel per back-end (log "
                f"scale; x jittered a little"
                + (
                    f"; censored searches as red crosses: a timeout at the {timeout:g} s limit, "
                    "a search over its node budget at the time it took)"
                    if what == "time"
                    else ")"
                ),
                _scatter_drawer(what, names, rows, rated, timeout),
                size=(3.0 * PANEL_COLUMNS, 2.4 * math.ceil(len(names) / PANEL_COLUMNS)),
            )

    def compare(self, results: Results) -> str:
        everyone = efforts(results)
        found = [item for item in everyone if item.solver != RATER]
        with_nodes = [
            item
            for item in found
            if item.budgeted and item.nodes is not None and not math.isnan(item.nodes.rho)
        ]
        timed_with_nodes = [
            item
            for item in found
            if not item.budgeted and item.nodes is not None and not math.isnan(item.nodes.rho)
        ]
        node_rhos = [item.nodes.rho for item in with_nodes if item.nodes is not None]
        time_rhos = [item.time.rho for item in found if not math.isnan(item.time.rho)]
        rater = next((item for item in everyone if item.solver == RATER), None)
        if not node_rhos:
            return (
                "No back-end with a node budget reported search nodes that vary, so the "
                "comparison with Pelánek's finding cannot be made from this run."
            )
        median_nodes = statistics.median(node_rhos)
        strongest = max(with_nodes, key=lambda item: item.nodes.rho if item.nodes else -2)
        weakest = min(with_nodes, key=lambda item: item.nodes.rho if item.nodes else 2)
        budget = results[LABEL].batch.node_limit
        sentences = [
            f"Headline: over the {len(with_nodes)} back-ends with a node budget ({budget:,} "
            f"nodes), Spearman's rho between the logic rating and the search nodes has median "
            f"{median_nodes:.2f} (from {_rho(weakest.nodes)} for `{weakest.solver}` to "
            f"{_rho(strongest.nodes)} for `{strongest.solver}`); which puzzles they censor, "
            "and so this number, is the same on a loaded and an idle machine.",
        ]
        if timed_with_nodes:
            timed_rhos = [item.nodes.rho for item in timed_with_nodes if item.nodes is not None]
            sentences.append(
                f"The {len(timed_with_nodes)} back-ends without a node budget (time-limited: "
                "their timeouts, censored at the top, depend on the load) have median nodes "
                f"rho {statistics.median(timed_rhos):.2f}, kept out of the headline."
            )
        if time_rhos:
            sentences.append(
                f"With the time, the median rho is {statistics.median(time_rhos):.2f} over "
                f"{len(time_rhos)} back-ends (times depend on the load)."
            )
        if rater is not None and rater.nodes is not None and not math.isnan(rater.nodes.rho):
            sentences.append(
                f"The logic solver's own step count follows its rating with rho "
                f"{rater.nodes.rho:.2f} (the rating is set by the hardest step, not by the "
                "number of steps)."
            )
        plain = next((item for item in found if item.solver == "backtracking"), None)
        if plain is not None and plain.nodes is not None and not math.isnan(plain.nodes.rho):
            sentences.append(
                f"The plain backtracker (`backtracking`, no propagation: the closest to the "
                f"backtracking measure in Pelánek's study) has rho {plain.nodes.rho:.2f} with "
                f"{plain.timeouts} of its {plain.puzzles} puzzles censored "
                f"(at {censored_by(results, plain)})."
            )
        rows = effort_rows(results)
        sets = [name for name in SETS if any(r["collection"] == name for r in rows)]
        within = {name: median_rho(efforts(results, name)) for name in sets}
        told = {name: value for name, value in within.items() if value is not None}
        if told:
            sentences.append(
                "Within one set the median rho (node budget) is "
                + ", ".join(f"{value:.2f} on {name}" for name, value in told.items())
                + "."
            )
        verdict = _verdict(plain, median_nodes, told) + " " + _published_verdict(results)
        share_censored = {
            item.solver: (item.timeouts / item.puzzles, censored_by(results, item))
            for item in found
            if item.puzzles and item.timeouts
        }
        if share_censored:
            sentences.append(
                "Censored at the top: "
                + ", ".join(
                    f"`{name}` {percent(share)} (at {at})"
                    for name, (share, at) in share_censored.items()
                )
                + "."
            )
        return " ".join([*sentences, verdict])


def _published_verdict(results: Results) -> str:
    """Our rating against Sudoku Explainer's: the rank correlation, and whether the hardest
    puzzles spread (the verdict that could have gone the other way)."""
    pairs = se_pairs(results)
    if len(pairs) < 3:
        return "No puzzle of this run has a Sudoku Explainer rating to compare with."
    overall = spearman([o for _, o, _ in pairs], [e for _, _, e in pairs])
    words = (
        f"Against ratings people publish: our rating follows Sudoku Explainer's with "
        f"Spearman's rho {overall.rho:.2f} over {len(pairs)} puzzles both rated"
    )
    hardest = hardest_estimates(results)
    if not hardest:
        return words + f" (no {HARDEST_SET} puzzle in this run: quick mode)."
    distinct = len(set(hardest))
    spread = (
        f"they spread over {distinct} distinct values from {min(hardest):.1f} to "
        f"{max(hardest):.1f}, so the rating separates the hardest puzzles"
        if distinct >= SPREAD_VALUES
        else f"they take only {distinct} distinct value(s), so the rating does not separate "
        "the hardest puzzles"
    )
    return (
        words + f". Of the {len(hardest)} {HARDEST_SET} puzzles (SE above {HARDEST_SE:g}), "
        f"{spread} (the verdict asked for at least {SPREAD_VALUES} values); "
        f"{percent(share(value > HARDEST_SE for value in hardest))} of them rate above "
        f"{HARDEST_SE:g} here too."
    )


def _verdict(plain: Effort | None, median_nodes: float, within: dict[str, float]) -> str:
    """Whether we agree with Pelánek: judged on the plain backtracker's nodes (the paper's
    measure was a backtracking search's), else on the median back-end; then what the
    propagating back-ends add beyond the paper."""
    p_value = math.nan
    if plain is not None and plain.nodes is not None and not math.isnan(plain.nodes.rho):
        measure, whose = plain.nodes.rho, "the plain backtracker's nodes"
        p_value = plain.nodes.p_value
    else:
        measure, whose = median_nodes, "the median back-end's nodes"
    if 0 < measure < WEAK_RHO:
        verdict = (
            f"This agrees qualitatively with Pelánek: {whose} rise with the difficulty "
            f"rating, but only weakly (rho {measure:.2f}, below {WEAK_RHO}"
            + (
                f"; p = {p_value:.2f}, so not even clearly above none)."
                if p_value >= 0.05
                else ")."
            )
        )
        if plain is not None and plain.puzzles and plain.timeouts / plain.puzzles > 0.5:
            verdict += (
                f" A caveat: {percent(plain.timeouts / plain.puzzles)} of the backtracker's "
                "puzzles went over its node budget and are censored, so its rho rests largely on which puzzles "
                "it finished at all."
            )
    elif measure >= WEAK_RHO:
        verdict = (
            f"This does not agree with Pelánek's weak relation: {whose} follow the rating "
            f"with rho {measure:.2f} ({WEAK_RHO} or more); his was measured against human "
            "solving times, ours against a logic rating, which a search effort may follow "
            "more closely."
        )
    else:
        verdict = (
            f"This does not agree with Pelánek: {whose} do not rise with the rating "
            f"(rho {measure:.2f})."
        )
    beyond = (
        f" Beyond the paper: the budgeted back-ends as a whole, most of which propagate before "
        f"they branch, follow the rating more closely (median rho {median_nodes:.2f} over "
        "those with a node budget): their nodes count what propagation could not settle, which is "
        "near what the rating measures."
        if median_nodes > measure
        else ""
    )
    if beyond and within and max(within.values()) < median_nodes:
        beyond += (
            " Part of that is the puzzle mix: within each set the relation is weaker, and "
            "across sets as far apart as easy50 and top95 the correlation also measures the "
            "difference between the sets."
        )
    return verdict + beyond


def _rho(found: Correlation | None) -> str:
    return "–" if found is None or math.isnan(found.rho) else f"{found.rho:.2f}"


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _p(found: Correlation | None) -> str:
    if found is None or math.isnan(found.p_value):
        return "–"
    return f"{found.p_value:.1e}" if found.p_value < 0.001 else f"{found.p_value:.3f}"


def _scatter_drawer(
    what: str,
    names: Sequence[str],
    rows: Sequence[dict[str, Any]],
    rated: dict[tuple[str, str], Rating],
    limit: float,
) -> Any:
    """Draws one panel per back-end: `what` ("time" or "nodes") against the rating."""

    def draw(figure: Any) -> None:
        from matplotlib import ticker  # in here: `Document.plot` has checked for matplotlib

        panels = figure.subplots(
            math.ceil(len(names) / PANEL_COLUMNS), PANEL_COLUMNS, squeeze=False
        )
        flat = [axes for line in panels for axes in line]
        for axes in flat[len(names) :]:
            axes.set_visible(False)
        for solver, axes in zip(names, flat, strict=False):
            jitter = random.Random(solver)  # spreads the discrete ratings, the same each time
            done: list[tuple[float, float]] = []
            censored: list[tuple[float, float]] = []
            for row in rows:
                rating = rated.get(puzzle_key(row))
                if row["solver"] != solver or rating is None or rating.estimate is None:
                    continue
                x = rating.estimate + jitter.uniform(-0.12, 0.12)
                if timed_out(row):
                    censored.append((x, float(row["total_s"]) if by_budget(row) else limit))
                elif row["status"] in MEASURED:
                    y = float(row["total_s"]) if what == "time" else float(row["nodes"]) + 1
                    done.append((x, max(y, 1e-5)))
            if done:
                axes.scatter([d[0] for d in done], [d[1] for d in done], s=6, alpha=0.5)
            if censored and what == "time":
                axes.scatter(
                    [c[0] for c in censored],
                    [max(c[1], 1e-5) for c in censored],
                    marker="x",
                    color="red",
                    s=12,
                )
            if done or (censored and what == "time"):
                axes.set_yscale("log")
                axes.yaxis.set_minor_formatter(ticker.NullFormatter())  # 10^k labels only
            axes.set_xlim(0.5, 13.5)  # the rating's scale: 1.2 (naked single) .. 13 (beyond)
            axes.set_title(solver, fontsize="small")
            axes.tick_params(labelsize="x-small")
        figure.supxlabel("logic rating (the hardest technique's weight)", fontsize="small")
        figure.supylabel("total time (s)" if what == "time" else "nodes + 1", fontsize="small")

    return draw
