"""`variants`: which method generalises, each method's cost per rule kind.

The same variant puzzle is a different problem to each method: a thermometer is an order chain
to CP, a ladder of clauses to SAT, a set of admissible fillings to exact cover, an interpolation
polynomial to Groebner bases, a propagator to the propagating engine and a technique (or none)
to human logic. Here one back-end per method solves the bundled variant collections (every
collection `sudoku_bench.puzzles.collections.variant_collections` lists, of any size, so new
ones are picked up) and, as its yardstick, classic puzzles of the same size; each kind's cost is
then set against the method's classic cost (the generalisation ratio).

There is no paper with these figures. The report sets the measurements against predictions
made from the way each method writes a rule (the variant issue's "Why"): CP-SAT generalises
best, exact cover is worst on sums (its fillings multiply), Groebner bases have no encoding of
table rules. Each prediction has a verdict computed from the stored results.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.harness.experiments.base import (
    Batch,
    Design,
    Experiment,
    Results,
    sample,
)
from sudoku_bench.harness.experiments.document import Document, percent
from sudoku_bench.harness.experiments.paper import PaperRow, agrees, paper_vs_us
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load, variant_collections
from sudoku_bench.puzzles.constraints.base import (
    CellDigits,
    Constraint,
    LinearConstraint,
    PairConstraint,
    SumConstraint,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import get

Row = dict[str, Any]

# One back-end per method, in the tables' column order.
METHODS: dict[str, str] = {
    "cpsat": "CP (CP-SAT)",
    "sat": "SAT (CaDiCaL)",
    "milp": "MILP (SCIP)",
    "dlx": "exact cover (Dancing Links)",
    "groebner": "Groebner bases",
    "propagating": "propagation and search",
    "python-constraint": "CSP library",
    "logic": "human techniques",
    "backtracking": "plain backtracking",
}
QUICK_METHODS = ("cpsat", "sat", "dlx", "groebner")
# the quick run: one collection of pair relations, one of sums, one of tables (6x6)
QUICK_COLLECTIONS = ("thermometer", "arrow", "box-indexer")
# The classic yardstick of each size: bundled classic puzzles with about as many givens as the
# variant collections of that size (6x6: minimal puzzles, as the generated 6x6 variants are;
# 9x9: published puzzles of 25-30 givens, as the hand-listed 9x9 variants have 21-31).
CLASSIC = {4: "4x4", 6: "6x6", 9: "easy50", 12: "12x12", 16: "16x16"}
# puzzles of each collection by size, evenly spread (the classic yardstick too); other sizes:
# the 9x9 count. Fewer at 9x9, where the slow methods run to the time limit.
PUZZLES = {6: 10, 9: 6}
QUICK_PUZZLES = 2
TIMEOUT = {6: 5.0, 9: 10.0}  # seconds per task by size; other sizes: the 9x9 one
QUICK_TIMEOUT = 1.0
# the node budget of the engines that count nodes (backtracking, propagating, dlx, logic):
# the same stopping point on any machine at any load
NODE_LIMIT = 50_000
# a method "stays within a factor of its classic cost" when no kind costs it more than this
WITHIN = 10.0
# two medians over so few puzzles on a shared machine closer than this factor are no ranking
NOISE = 1.5

# Families of rules, by the constraint's base class (the order decides a class with two bases)
FAMILIES: tuple[tuple[type[Constraint], str], ...] = (
    (TableConstraint, "tables"),
    (LinearConstraint, "sums"),
    (SumConstraint, "sums"),
    (CellDigits, "cell digits"),
    (PairConstraint, "pairs"),
    (UnitConstraint, "units"),
)
SUMS = "sums"
TABLES = "tables"

SOURCE = "none published: a prediction from how each method writes a rule (issue 30's Why)"


def family_of(constraint: Constraint) -> str:
    for base, name in FAMILIES:
        if isinstance(constraint, base):
            return name
    return "other"


def family(entries: Iterable[PuzzleEntry]) -> str:
    """The family of rules a collection adds to the classic ones: one of `FAMILIES`' names,
    `regions` (a jigsaw layout, no extra constraint), `mixed` (more than one family beyond
    extra units), or `classic`."""
    found: set[str] = set()
    layout = False
    for entry in entries:
        rules = entry.puzzle.rules
        found.update(family_of(c) for c in rules.constraints)
        layout = layout or rules.shape.layout is not None
    beyond_units = found - {"units"}
    if len(beyond_units) > 1:
        return "mixed"
    if beyond_units:
        return beyond_units.pop()
    if found:
        return "units"
    return "regions" if layout else "classic"


@dataclass(frozen=True)
class Kind:
    """A collection of the design: its name, size, family and whether it is the yardstick."""

    collection: str
    size: int
    family: str
    classic: bool = False

    @property
    def label(self) -> str:
        return f"classic ({self.collection})" if self.classic else self.collection


def timeout_for(size: int, quick: bool) -> float:
    return QUICK_TIMEOUT if quick else TIMEOUT.get(size, TIMEOUT[9])


def puzzles_for(size: int, quick: bool) -> int:
    return QUICK_PUZZLES if quick else PUZZLES.get(size, PUZZLES[9])


def chosen_collections(quick: bool) -> list[str]:
    every = variant_collections()
    return [name for name in every if name in QUICK_COLLECTIONS] if quick else list(every)


def by_size(names: Sequence[str]) -> dict[int, list[str]]:
    """The collections grouped by their puzzles' size (the first puzzle's), sizes ascending."""
    found: dict[int, list[str]] = defaultdict(list)
    for name in names:
        entries = load(name)
        if entries:
            found[entries[0].puzzle.rules.size].append(name)
    return dict(sorted(found.items()))


@dataclass(frozen=True)
class Cell:
    """One back-end on one kind: puzzles, how they ended, and the cost."""

    puzzles: int
    unsupported: int
    solved: int  # one solution, proven unique, checked by the rule checker (and the file's)
    wrong: int  # answered with a grid that fails the check or a count other than one
    cost: float | None  # median seconds over the supported tasks, unsolved ones at the limit
    censored: bool  # half or more of the supported tasks unsolved: the median is the limit

    @property
    def share(self) -> float:
        return self.solved / self.puzzles if self.puzzles else 0.0

    @property
    def accepted(self) -> bool:
        return self.unsupported < self.puzzles

    @property
    def takes_all(self) -> bool:
        return self.puzzles > 0 and self.solved == self.puzzles


def solved(row: Row, entry: PuzzleEntry) -> bool | None:
    """True: the one solution, proven unique and correct; False: a wrong answer; None: no
    answer (timeout, gave up, error, unsupported)."""
    status = str(row["status"])
    if status not in (Status.SOLVED, Status.LIMIT, Status.NO_SOLUTION):
        return None
    if status != Status.SOLVED or int(row["count"]) != 1 or not row["solution"]:
        return False  # every bundled puzzle has exactly one solution
    grid = Grid.from_string(str(row["solution"]), entry.puzzle.rules)
    if entry.solution is not None and grid.values != entry.solution.values:
        return False
    return is_solution(entry.puzzle, grid)


def cell_of(rows: Sequence[Row], entries: dict[str, PuzzleEntry], timeout: float) -> Cell:
    unsupported = sum(str(r["status"]) == Status.UNSUPPORTED for r in rows)
    verdicts = [(r, solved(r, entries[r["puzzle_id"]])) for r in rows]
    costs = [
        float(r["total_s"]) if verdict else timeout
        for r, verdict in verdicts
        if str(r["status"]) != Status.UNSUPPORTED
    ]
    unsolved = sum(
        1 for r, verdict in verdicts if not verdict and str(r["status"]) != Status.UNSUPPORTED
    )
    return Cell(
        puzzles=len(rows),
        unsupported=unsupported,
        solved=sum(verdict is True for _, verdict in verdicts),
        wrong=sum(verdict is False for _, verdict in verdicts),
        cost=statistics.median(costs) if costs else None,
        censored=bool(costs) and 2 * unsolved >= len(costs),
    )


@dataclass
class Findings:
    """Every (kind, back-end) cell, the kinds in design order, the back-ends in column order,
    and each batch's time limit by size."""

    kinds: list[Kind]
    methods: list[str]
    cells: dict[tuple[str, str], Cell]
    timeouts: dict[int, float]

    def cell(self, kind: Kind, method: str) -> Cell | None:
        return self.cells.get((kind.collection, method))

    @property
    def variants(self) -> list[Kind]:
        return [kind for kind in self.kinds if not kind.classic]

    def classic(self, size: int) -> Kind | None:
        return next((k for k in self.kinds if k.classic and k.size == size), None)

    def ratio(self, kind: Kind, method: str) -> float | None:
        """The kind's median cost over the classic one of its size, for this method (None
        where the method did not solve the classic yardstick: no cost to compare with)."""
        here, base = self.cell(kind, method), None
        classic = self.classic(kind.size)
        if classic is not None:
            base = self.cell(classic, method)
        if here is None or base is None or here.cost is None or not base.cost or base.censored:
            return None
        return here.cost / base.cost

    def ratios(self, method: str, kinds: Iterable[Kind] | None = None) -> dict[str, float]:
        chosen = self.variants if kinds is None else list(kinds)
        found = {kind.collection: self.ratio(kind, method) for kind in chosen}
        return {name: value for name, value in found.items() if value is not None}

    def takes_every_kind(self, method: str) -> bool:
        cells = [self.cell(kind, method) for kind in self.variants]
        return bool(cells) and all(c is not None and c.takes_all for c in cells)

    def worst(self, method: str) -> tuple[str, float] | None:
        found = self.ratios(method)
        if not found:
            return None
        name = max(found, key=found.__getitem__)
        return name, found[name]

    def winner(self, kind: Kind) -> str | None:
        """The back-end of least median cost among those that solved every puzzle."""
        full = {
            m: c.cost
            for m in self.methods
            if (c := self.cell(kind, m)) is not None and c.takes_all and c.cost is not None
        }
        return min(full, key=full.__getitem__) if full else None

    def family_kinds(self, name: str) -> list[Kind]:
        return [kind for kind in self.variants if kind.family == name]


def geometric_mean(values: Iterable[float]) -> float | None:
    logs = [math.log(v) for v in values if v > 0]
    return math.exp(statistics.fmean(logs)) if logs else None


def findings(results: Results) -> Findings:
    kinds: list[Kind] = []
    methods: list[str] = []
    cells: dict[tuple[str, str], Cell] = {}
    timeouts: dict[int, float] = {}
    for batch in results.batches.values():
        entries = {entry.id: entry for entry in batch.batch.entries}
        by_collection: dict[str, list[PuzzleEntry]] = defaultdict(list)
        for entry in batch.batch.entries:
            by_collection[entry.id.rpartition(":")[0]].append(entry)
        for name, chosen in by_collection.items():
            size = chosen[0].puzzle.rules.size
            timeouts[size] = batch.batch.timeout
            kinds.append(Kind(name, size, family(chosen), classic=CLASSIC.get(size) == name))
        for method in (b.name for b in batch.batch.backends):
            if method not in methods:
                methods.append(method)
        grouped: dict[tuple[str, str], list[Row]] = defaultdict(list)
        for row in batch.rows:
            grouped[(row["collection"], row["solver"])].append(row)
        for key, rows in grouped.items():
            cells[key] = cell_of(rows, entries, batch.batch.timeout)
    return Findings(kinds, methods, cells, timeouts)


ENDINGS = ("solved", "wrong", "unsupported", "gave up", "node budget", "time limit", "error")


def ending(row: Row, entry: PuzzleEntry) -> str:
    """How a task ended, one of `ENDINGS`: a stop by the node budget (the same on any
    machine) is told apart from a stop by the clock (which a loaded machine makes sooner)."""
    verdict = solved(row, entry)
    if verdict is not None:
        return "solved" if verdict else "wrong"
    status = str(row["status"])
    if status == Status.UNSUPPORTED:
        return "unsupported"
    if status == Status.GAVE_UP:
        return "gave up"
    if status in (Status.TIMEOUT, Status.SKIPPED, Status.MEMOUT):
        budget = row["counters"].get("node_budget") if isinstance(row["counters"], dict) else None
        return "node budget" if budget and int(row["nodes"]) >= int(budget) else "time limit"
    return "error"


def endings(results: Results) -> dict[str, dict[str, int]]:
    """Per back-end, how many of its variant tasks (not the classic yardstick's) ended how."""
    found: dict[str, dict[str, int]] = {}
    for batch in results.batches.values():
        entries = {entry.id: entry for entry in batch.batch.entries}
        for row in batch.rows:
            entry = entries[row["puzzle_id"]]
            if CLASSIC.get(entry.puzzle.rules.size) == row["collection"]:
                continue
            counts = found.setdefault(row["solver"], dict.fromkeys(ENDINGS, 0))
            counts[ending(row, entry)] += 1
    return found


def core_share(results: Results) -> float | None:
    """The median share of a core a task's worker got while it ran (CPU over wall seconds):
    below 1 the machine was shared, and a time limit was that share of CPU seconds."""
    shares = [
        float(row["cpu_s"]) / float(row["wall_s"])
        for row in results.rows()
        if row.get("cpu_s") is not None and row.get("wall_s") and float(row["wall_s"]) > 0.05
    ]
    return statistics.median(shares) if shares else None


class Variants(Experiment):
    name = "variants"
    summary = "which method generalises: each method's cost per rule kind, against its classic cost"
    paper = (
        "no paper: predictions from how each method writes a rule (sudoku-bench issue 30: a "
        "thermometer is an order chain to CP, a ladder of clauses to SAT, a set of admissible "
        "fillings to exact cover, an interpolation polynomial to Groebner bases)"
    )
    question = (
        "Which methods take every variant kind (thermometers, arrows, dots, outside clues, "
        "lines, cages, ...), which stay within a factor of their cost on classic puzzles of "
        "the same size, and where does each win? Predictions: CP-SAT generalises best (it "
        "takes every kind, with the smallest worst-kind ratio to its classic cost); exact "
        "cover (Dancing Links) is the worst method on sums, whose fillings multiply; "
        "Groebner bases have no encoding of table rules (indexers, sandwiches, skyscrapers, "
        "X-sums, between lines, quadruples) and answer `unsupported` on all of them."
    )

    def design(self, quick: bool) -> Design:
        backends = tuple(get(name) for name in (QUICK_METHODS if quick else METHODS))
        batches = []
        grouped = by_size(chosen_collections(quick))
        sizes = list(grouped)
        for size, names in grouped.items():
            classic = CLASSIC.get(size)
            entries: list[PuzzleEntry] = []
            inputs: list[str] = []
            count = puzzles_for(size, quick)
            for name in ([classic] if classic else []) + names:
                found = load(name)
                picked = sample(found, count)
                entries += picked
                inputs.append(f"{name} ({len(picked)} of {len(found)})")
            batches.append(
                Batch(
                    f"{size}x{size}",
                    tuple(entries),
                    backends,
                    timeout_for(size, quick),
                    tuple(inputs),
                    limit=2,
                    node_limit=NODE_LIMIT,
                )
            )
        notes = (
            "Every collection `variant_collections()` lists (the hand-listed variant rules "
            "and every generated collection under `sudoku_bench/puzzles/data/variants/`, any "
            "size), "
            + ", ".join(f"{puzzles_for(size, quick)} of each {size}x{size} one" for size in sizes)
            + ", evenly spread; with them, as the yardstick, "
            "classic puzzles of the same size: "
            + ", ".join(f"{size}x{size}: {name}" for size, name in CLASSIC.items())
            + ".",
            "One back-end per method: "
            + "; ".join(f"`{name}` ({words})" for name, words in METHODS.items())
            + ".",
            "Limit 2: a solution and the proof that there is no second. A task counts as "
            "solved when it found exactly one solution, the rule checker accepts it, and it is "
            "the collection's own solution where the file has one; any other answer is wrong.",
            f"The engines that count search nodes (backtracking, propagating, dlx, logic) stop "
            f"at a budget of {NODE_LIMIT:,} nodes, the same on any machine; the others at the "
            "time limit. `unsupported`: the back-end cannot express the kind (not attempted).",
            "Cost: the median total seconds (build + search) over the supported tasks of a "
            "kind, an unsolved task counted at the time limit (so a method that gives up or "
            "runs out is not cheap). The generalisation ratio of a method on a kind is that "
            "cost over its cost on the classic yardstick of the same size.",
        )
        return Design(tuple(batches), notes)

    def analyse(self, results: Results, doc: Document) -> None:
        found = findings(results)
        methods = found.methods
        headers = ["kind", "family", *(f"`{m}`" for m in methods)]

        def share_cell(cell: Cell | None) -> str:
            if cell is None:
                return "–"
            if not cell.accepted:
                return "unsupported"
            text = percent(cell.share)
            if cell.unsupported:
                text += f" ({cell.unsupported} unsupported)"
            if cell.wrong:
                text += f" ({cell.wrong} wrong)"
            return text

        def cost_cell(kind: Kind, cell: Cell | None) -> str:
            if cell is None:
                return "–"
            if cell.cost is None:
                return "unsupported"
            if cell.censored:
                return f">{found.timeouts[kind.size] * 1000:g}"
            return f"{cell.cost * 1000:.3g}"

        doc.heading("Solved share per kind")
        doc.table(
            headers,
            [
                [kind.label, kind.family, *(share_cell(found.cell(kind, m)) for m in methods)]
                for kind in found.kinds
            ],
            caption="The share of each kind's puzzles a back-end solved (one solution, "
            "proven unique, checked); `unsupported`: the back-end cannot express the kind. "
            "The classic yardstick of each size is the first row of its size.",
        )
        doc.heading("Median cost per kind (ms)")
        doc.table(
            [*headers, "winner"],
            [
                [
                    kind.label,
                    kind.family,
                    *(cost_cell(kind, found.cell(kind, m)) for m in methods),
                    f"`{w}`" if (w := found.winner(kind)) else "–",
                ]
                for kind in found.kinds
            ],
            caption="Median total milliseconds over the supported tasks, unsolved ones at the "
            "time limit (`>limit`: half or more unsolved); winner: the least median among the "
            "back-ends that solved every puzzle of the kind.",
        )
        doc.heading("Generalisation ratio per kind")
        doc.table(
            headers,
            [
                [
                    kind.label,
                    kind.family,
                    *(
                        "unsupported"
                        if (c := found.cell(kind, m)) is not None and c.cost is None
                        else found.ratio(kind, m)
                        for m in methods
                    ),
                ]
                for kind in found.variants
            ],
            caption="Each kind's median cost over the method's median cost on the classic "
            "puzzles of the same size (1: as cheap as classic Sudoku).",
        )
        doc.heading("Per method")
        rows = []
        for method in methods:
            cells = [c for kind in found.variants if (c := found.cell(kind, method))]
            worst = found.worst(method)
            middle = geometric_mean(found.ratios(method).values())
            wins = [kind.collection for kind in found.variants if found.winner(kind) == method]
            rows.append(
                [
                    f"`{method}`",
                    METHODS.get(method, method),
                    f"{sum(c.accepted for c in cells)}/{len(cells)}",
                    f"{sum(c.takes_all for c in cells)}/{len(cells)}",
                    percent(sum(c.solved for c in cells) / max(sum(c.puzzles for c in cells), 1)),
                    sum(c.wrong for c in cells),
                    middle,
                    "–" if worst is None else f"{worst[1]:.3g} ({worst[0]})",
                    len(wins),
                ]
            )
        doc.table(
            [
                "back-end",
                "method",
                "kinds accepted",
                "kinds solved whole",
                "puzzles solved",
                "wrong",
                "ratio geometric mean",
                "worst ratio (kind)",
                "kinds won",
            ],
            rows,
            caption="Over the variant kinds: kinds it accepts, kinds whose every puzzle it "
            "solved, the share of all variant puzzles solved, wrong answers, and its "
            "generalisation ratio (geometric mean over the kinds, and the worst kind).",
        )
        doc.heading("How the variant tasks ended")
        share = core_share(results)
        ended = endings(results)
        doc.table(
            ["back-end", *ENDINGS],
            [[f"`{m}`", *(ended.get(m, {}).get(e, 0) for e in ENDINGS)] for m in methods],
            caption="Tasks per back-end over the variant kinds: `node budget` stops are the "
            "same on any machine; `time limit` stops come sooner on a loaded one"
            + (
                f" (here a worker got a median {share:.0%} of a core while a task ran, so a "
                "time limit of T seconds was about that share of T in CPU seconds)."
                if share is not None
                else "."
            ),
        )
        doc.heading("Where each method wins, by family")
        winners = {kind.collection: found.winner(kind) for kind in found.variants}
        by_family: dict[str, list[str]] = defaultdict(list)
        for kind in found.variants:
            by_family[kind.family].append(kind.collection)
        doc.table(
            ["family", "kinds", *(f"`{m}`" for m in methods), "no winner"],
            [
                [
                    name,
                    len(chosen),
                    *(sum(winners[k] == m for k in chosen) for m in methods),
                    sum(winners[k] is None for k in chosen),
                ]
                for name, chosen in sorted(by_family.items())
            ],
            caption="Kinds of each family won by each back-end (least median cost among "
            "those that solved every puzzle of the kind).",
        )
        paper_vs_us(
            doc,
            prediction_rows(found),
            caption="No paper has these figures: each row is a prediction stated before the "
            "run, with its verdict.",
        )

    def compare(self, results: Results) -> str:
        return headline(findings(results), endings(results), core_share(results))


def _ratio_words(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}x"


def best_generaliser(found: Findings) -> tuple[list[str], dict[str, float]]:
    """The back-ends that solved every puzzle of every kind, and each one's worst ratio."""
    whole = [m for m in found.methods if found.takes_every_kind(m)]
    worst = {m: w[1] for m in whole if (w := found.worst(m)) is not None}
    return whole, worst


def sum_ratios(found: Findings) -> dict[str, float]:
    """Each back-end's geometric mean ratio over the sum kinds every back-end of the run
    accepts every puzzle of: the methods are ranked on the same kinds (a kind some method
    refuses a puzzle of, such as a 9x9 little killer whose fillings exact cover does not
    list, is left out for all)."""
    kinds = [
        k
        for k in found.family_kinds(SUMS)
        if all(
            (c := found.cell(k, method)) is not None and c.unsupported == 0
            for method in found.methods
        )
    ]
    found_ratios: dict[str, float] = {}
    if not kinds:
        return found_ratios
    for method in found.methods:
        mean = geometric_mean(found.ratios(method, kinds).values())
        if mean is not None:
            found_ratios[method] = mean
    return found_ratios


def groebner_tables(found: Findings) -> tuple[int, int, int, int] | None:
    """Table kinds groebner refused whole, table kinds, other kinds it accepted whole, other
    kinds (None: groebner not in the run)."""
    if "groebner" not in found.methods:
        return None
    tables = found.family_kinds(TABLES)
    others = [k for k in found.variants if k.family not in (TABLES, "mixed")]

    def refused(kind: Kind) -> bool:
        cell = found.cell(kind, "groebner")
        return cell is not None and cell.unsupported == cell.puzzles

    def accepted(kind: Kind) -> bool:
        cell = found.cell(kind, "groebner")
        return cell is not None and cell.unsupported == 0

    return (
        sum(refused(k) for k in tables),
        len(tables),
        sum(accepted(k) for k in others),
        len(others),
    )


def within_noise(first: float, second: float) -> bool:
    return max(first, second) < NOISE * min(first, second)


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def _share(part: int, whole: int) -> str:
    return "–" if not whole else f"{100 * part / whole:.0f}%"


@dataclass(frozen=True)
class Predictions:
    """The figures the three predictions rest on, and their verdicts."""

    cp_worst: float | None  # cpsat's worst-kind ratio (None: it does not solve every kind)
    cp_missed: list[str]  # the kinds cpsat did not solve whole
    rival: str | None  # of the others that solve every kind, the one of least worst ratio
    rival_worst: float | None
    generalises: str
    dlx_sums: float | None  # dlx's geometric mean ratio over the sum kinds
    worst_other: str | None  # the other back-end of the largest such ratio
    worst_other_sums: float | None
    on_sums: str
    above_dlx: list[str]  # the back-ends whose ratio over the sum kinds is larger than dlx's
    tables: tuple[int, int, int, int] | None  # `groebner_tables`
    no_tables: str


def predictions(found: Findings) -> Predictions:
    whole, worst = best_generaliser(found)
    others = {m: v for m, v in worst.items() if m != "cpsat"}
    rival = min(others, key=others.__getitem__) if others else None
    cp_worst = worst.get("cpsat") if "cpsat" in whole else None
    missed = [
        k.collection
        for k in found.variants
        if (c := found.cell(k, "cpsat")) is None or not c.takes_all
    ]
    if "cpsat" not in found.methods:
        generalises = "not measured (cpsat not in the run)"
    else:
        generalises = agrees(cp_worst is not None and (rival is None or cp_worst < others[rival]))
    sums = sum_ratios(found)
    dlx = sums.get("dlx")
    rest = {m: v for m, v in sums.items() if m != "dlx"}
    worst_other = max(rest, key=rest.__getitem__) if rest else None
    if dlx is None:
        on_sums = "not measured (no sum kind, or dlx not in the run)"
    else:
        on_sums = agrees(worst_other is None or dlx > rest[worst_other])
    tables = groebner_tables(found)
    if tables is None or tables[1] == 0:
        no_tables = "not measured (groebner not in the run, or no table kind)"
    else:
        no_tables = agrees(tables[0] == tables[1] and tables[2] == tables[3])
    return Predictions(
        cp_worst,
        missed if "cpsat" in found.methods else [],
        rival,
        others.get(rival) if rival else None,
        generalises,
        dlx,
        worst_other,
        rest.get(worst_other) if worst_other else None,
        on_sums,
        sorted((m for m, v in rest.items() if dlx is not None and v > dlx), key=rest.__getitem__)[
            ::-1
        ],
        tables,
        no_tables,
    )


def prediction_rows(found: Findings) -> list[PaperRow]:
    """Each prediction as the figure it rests on and, where it is a comparison, the figure
    it is compared with (two rows, one verdict)."""
    said = predictions(found)
    tables = said.tables
    return [
        PaperRow(
            "CP-SAT generalises best: worst-kind generalisation ratio of `cpsat`",
            "the smallest of the back-ends that solve every kind",
            SOURCE,
            _number(said.cp_worst) if not said.cp_missed else "– (does not solve every kind)",
            said.generalises,
        ),
        PaperRow(
            "the smallest worst-kind ratio of the other back-ends that solve every kind"
            + (f" (`{said.rival}`)" if said.rival else " (none solves every kind)"),
            "larger than `cpsat`'s",
            SOURCE,
            _number(said.rival_worst),
            said.generalises,
        ),
        PaperRow(
            "exact cover is worst on sums: `dlx`'s generalisation ratio, geometric mean over "
            "the sum kinds",
            "the largest of the other back-ends, over the sum kinds every back-end accepts",
            SOURCE,
            _number(said.dlx_sums),
            said.on_sums,
        ),
        PaperRow(
            "the largest such ratio of another back-end"
            + (f" (`{said.worst_other}`)" if said.worst_other else ""),
            "smaller than `dlx`'s",
            SOURCE,
            _number(said.worst_other_sums),
            said.on_sums,
        ),
        PaperRow(
            "Groebner bases have no encoding of tables: table kinds `groebner` answers "
            "`unsupported` on",
            "100%",
            SOURCE,
            "–" if tables is None else _share(tables[0], tables[1]),
            said.no_tables,
        ),
        PaperRow(
            "kinds of the other families (pairs, sums, cell digits, units, regions) "
            "`groebner` accepts",
            "100%",
            SOURCE,
            "–" if tables is None else _share(tables[2], tables[3]),
            said.no_tables,
        ),
    ]


def prediction_sentences(said: Predictions) -> list[str]:
    """The three predictions with their figures and verdicts, and where one fails, why."""
    first = "CP-SAT generalises best: " + (
        f"`cpsat` solves every kind, worst ratio {_ratio_words(said.cp_worst)}"
        if not said.cp_missed
        else f"`cpsat` does not solve every puzzle of {', '.join(said.cp_missed)}"
    )
    first += (
        f", against {_ratio_words(said.rival_worst)} for `{said.rival}`, the best of the "
        "other back-ends that solve every kind"
        if said.rival
        else ", and no other back-end solves every kind"
    )
    if said.cp_worst and said.rival_worst and within_noise(said.cp_worst, said.rival_worst):
        first += f" (a gap under {NOISE:g}x: no ranking on its own)"
    second = "exact cover is worst on sums: `dlx`'s ratio over the sum kinds " + (
        f"is {_ratio_words(said.dlx_sums)}" if said.dlx_sums is not None else "was not measured"
    )
    if said.worst_other:
        second += (
            f", against {_ratio_words(said.worst_other_sums)} for `{said.worst_other}`, the "
            "largest of the others"
        )
    if (
        said.dlx_sums
        and said.worst_other_sums
        and within_noise(said.dlx_sums, said.worst_other_sums)
    ):
        second += f" (a gap under {NOISE:g}x: no ranking on its own)"
    if said.above_dlx:
        second += " (larger than `dlx`'s: " + ", ".join(f"`{m}`" for m in said.above_dlx) + ")"
    third = "Groebner bases have no encoding of tables: " + (
        "not measured"
        if said.tables is None
        else f"`groebner` refused {said.tables[0]} of {said.tables[1]} table kinds and "
        f"accepted {said.tables[2]} of {said.tables[3]} kinds of the other families"
    )
    return [
        f"{first}: {said.generalises}",
        f"{second}: {said.on_sums}",
        f"{third}: {said.no_tables}",
    ]


def headline(found: Findings, ended: dict[str, dict[str, int]], share: float | None = None) -> str:
    whole, worst = best_generaliser(found)
    within = [m for m in whole if worst.get(m, math.inf) <= WITHIN]
    parts = [
        f"{len(found.variants)} variant kinds, {len(found.methods)} back-ends (one per "
        "method). Methods that solve every puzzle of every kind: "
        + (
            ", ".join(
                f"`{m}` (worst ratio {_ratio_words(worst.get(m))}"
                + (f", {w[0]}" if (w := found.worst(m)) else "")
                + f"; geometric mean {_ratio_words(geometric_mean(found.ratios(m).values()))})"
                for m in whole
            )
            or "none"
        )
        + ". "
        + (
            f"Of these, within {WITHIN:g}x of their classic cost on every kind: "
            + (", ".join(f"`{m}`" for m in within) or "none")
            + ". "
        )
    ]
    typical = {
        m: mean
        for m in found.methods
        if (mean := geometric_mean(found.ratios(m).values())) is not None and mean <= WITHIN
    }
    parts.append(
        f"Within {WITHIN:g}x of their classic cost on the geometric mean over the kinds "
        "(unsolved tasks at the limit): "
        + (
            ", ".join(f"`{m}` {v:.3g}x" for m, v in sorted(typical.items(), key=lambda i: i[1]))
            or "none"
        )
        + ". "
    )
    partial = [m for m in found.methods if m not in whole]
    if partial:
        words = []
        for method in partial:
            cells = [c for k in found.variants if (c := found.cell(k, method))]
            refused = sum(not c.accepted for c in cells)
            short = sum(c.accepted and not c.takes_all for c in cells)
            words.append(f"`{method}` ({refused} refused, {short} not solved whole)")
        parts.append("The others fall short on some kind: " + ", ".join(words) + ". ")
    wins: dict[str, list[str]] = defaultdict(list)
    for kind in found.variants:
        winner = found.winner(kind)
        if winner is not None:
            wins[winner].append(kind.collection)
    if wins:
        parts.append(
            "Where each wins (least median cost): "
            + "; ".join(
                f"`{m}` {len(names)} ({', '.join(names)})"
                for m, names in sorted(wins.items(), key=lambda i: -len(i[1]))
            )
            + ". "
        )
    parts.append(
        "The predictions, each with its verdict: "
        + "; ".join(prediction_sentences(predictions(found)))
        + ". "
    )
    budget = sum(counts["node budget"] for counts in ended.values())
    clock = sum(counts["time limit"] for counts in ended.values())
    parts.append(
        "No paper measures these methods on these kinds; the verdicts are against predictions "
        "stated before the run. Times are medians over few puzzles per kind on a shared "
        f"machine: a ratio below about {NOISE:g}x is no ranking. Of the unsolved variant tasks, "
        f"{budget} were stopped by the node budget (the same on any machine) and {clock} by "
        "the clock"
        + (
            f", while a worker got a median {share:.0%} of a core: on an idle machine some "
            "of those would have answered, so the solved shares of the slow methods are "
            "lower bounds and the verdicts that rest on them could move"
            if share is not None and share < 0.9
            else ""
        )
        + "."
    )
    return "".join(parts)
