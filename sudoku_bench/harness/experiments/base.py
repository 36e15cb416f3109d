"""What an experiment is: a fixed design of bench runs, and an analysis of their results.

An experiment module defines one subclass of `Experiment`:

    class Propagation(Experiment):
        name = "propagation"
        summary = "propagation strength against search (Simonis 2005)"
        paper = "H. Simonis, Sudoku as a constraint problem, CP workshop ..., 2005"
        question = "How many puzzles does each level of propagation solve without search?"

        def design(self, quick: bool) -> Design: ...      # the bench runs (batches)
        def analyse(self, results: Results, doc: Document) -> None: ...  # tables, plots
        def compare(self, results: Results) -> str: ...   # our figures beside the paper's

`sudoku_bench.harness.experiments.conduct` runs the design's batches into a store (each batch is one
stored run, found again by its fingerprint, so a second start resumes or reuses it), and
`sudoku_bench.harness.experiments.document` writes the report.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import Backend

if TYPE_CHECKING:  # the document imports matplotlib lazily; only its type is needed here
    from sudoku_bench.harness.experiments.document import Document
    from sudoku_bench.harness.storing.store import RunInfo

# The statuses of a task that answered (found its solutions, or proved there were none).
ANSWERED = (Status.SOLVED, Status.LIMIT, Status.NO_SOLUTION)
# A task that ran out of time: a timeout, or a repeat not run after one.
TIMED_OUT = (Status.TIMEOUT, Status.SKIPPED, Status.MEMOUT)


@dataclass(frozen=True)
class Batch:
    """One bench run of an experiment: puzzles x back-ends, with one time limit and limit.

    `label` names it within the experiment ("levels", "9x9", ...); `inputs` says in words
    where the puzzles come from (for the report's design section).
    """

    label: str
    entries: tuple[PuzzleEntry, ...]
    backends: tuple[Backend, ...]
    timeout: float
    inputs: tuple[str, ...]
    limit: int = 1
    repeat: int = 1
    # the node budget of each solve (None: none): engines that count nodes stop there, the
    # same on any machine; the others run to `timeout`
    node_limit: int | None = None

    def fingerprint(self, experiment: str) -> str:
        """What makes two batches the same run: a stored run with this fingerprint is reused."""
        content = {
            "experiment": experiment,
            "label": self.label,
            "puzzles": [
                [entry.id, entry.puzzle.rules.spec, entry.puzzle.to_line()]
                for entry in self.entries
            ],
            "backends": [
                [b.name, b.target, json.loads(json.dumps(dict(b.options), default=str))]
                for b in self.backends
            ],
            "timeout": self.timeout,
            "limit": self.limit,
            "repeat": self.repeat,
            # only when set: batches without a budget keep the fingerprints of stored runs
            **({} if self.node_limit is None else {"node_limit": self.node_limit}),
        }
        text = json.dumps(content, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def tasks(self) -> int:
        return len(self.entries) * len(self.backends) * self.repeat


@dataclass(frozen=True)
class Design:
    """The bench runs of an experiment, and sentences for the report's design section."""

    batches: tuple[Batch, ...]
    notes: tuple[str, ...] = ()


@dataclass
class BatchResults:
    """The stored results of one batch: one record per task (the store's `results` row, with
    `counters` decoded), and the stored run's description."""

    batch: Batch
    run: RunInfo
    rows: list[dict[str, Any]]
    reused: bool = False  # the run was found finished in the store: nothing was run now

    def by_solver(self) -> dict[str, list[dict[str, Any]]]:
        """The records per back-end, in the batch's back-end order."""
        found: dict[str, list[dict[str, Any]]] = {b.name: [] for b in self.batch.backends}
        for row in self.rows:
            found.setdefault(row["solver"], []).append(row)
        return found

    def by_collection(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in self.rows:
            found[row["collection"]].append(row)
        return dict(found)


@dataclass
class Results:
    """Every batch's results, by label, in the design's order."""

    batches: dict[str, BatchResults] = field(default_factory=dict)

    def __getitem__(self, label: str) -> BatchResults:
        return self.batches[label]

    def rows(self, label: str | None = None) -> list[dict[str, Any]]:
        """The records of one batch, or of all of them."""
        chosen = [self.batches[label]] if label is not None else list(self.batches.values())
        return [row for batch in chosen for row in batch.rows]

    @property
    def runs(self) -> list[RunInfo]:
        return [batch.run for batch in self.batches.values()]


class Experiment(ABC):
    """A published comparison, reproduced: a fixed design and an analysis (see the module)."""

    name: ClassVar[str]  # the command's NAME, e.g. "propagation"
    summary: ClassVar[str]  # one line, for `experiment --list`
    paper: ClassVar[str]  # the publication it reproduces, as a reference
    question: ClassVar[str]  # what the experiment asks, in a sentence or two

    @abstractmethod
    def design(self, quick: bool) -> Design:
        """The bench runs: `quick` is a handful of puzzles (seconds), else the full design."""

    @abstractmethod
    def analyse(self, results: Results, doc: Document) -> None:
        """Add the results to the report: `doc.table`, `doc.plot`, `doc.paragraph`, ..."""

    @abstractmethod
    def compare(self, results: Results) -> str:
        """The paragraph that sets our figures beside the paper's finding: whether they agree
        qualitatively, and where not, why (figures derived from `results`)."""


# Helpers for analyses ------------------------------------------------------------------------


def sample(entries: Sequence[PuzzleEntry], count: int | None) -> list[PuzzleEntry]:
    """`count` puzzles spread evenly over `entries` (all of them for None or more): a sample
    that is the same every time, unlike a random one, and not just the file's first lines."""
    if count is None or count >= len(entries):
        return list(entries)
    step = len(entries) / count
    return [entries[int(i * step)] for i in range(count)]


def picked(
    counts: Iterable[tuple[str, int | None]],
) -> tuple[tuple[PuzzleEntry, ...], tuple[str, ...]]:
    """The puzzles of the named collections, `count` of each (`sample`; None: all of them, 0:
    the collection is left out), and each collection as a batch's `inputs` names it."""
    entries: list[PuzzleEntry] = []
    inputs: list[str] = []
    for name, count in counts:
        if count == 0:
            continue
        found = load(name)
        chosen = sample(found, count)
        entries += chosen
        inputs.append(
            name
            if len(chosen) == len(found)
            else f"{name} ({len(chosen)} of {len(found)}, evenly spread)"
        )
    return tuple(entries), tuple(inputs)


def answered(row: dict[str, Any]) -> bool:
    return str(row["status"]) in ANSWERED


def timed_out(row: dict[str, Any]) -> bool:
    return str(row["status"]) in TIMED_OUT


def counter(row: dict[str, Any], key: str, default: float = 0.0) -> float:
    """A back-end counter of a stored result (`nodes` and `guesses` are columns of their own)."""
    if key in ("nodes", "guesses"):
        return float(row[key])
    return float(row["counters"].get(key, default))


def share(flags: Iterable[bool]) -> float:
    """The share of true flags (0.0 of none)."""
    values = list(flags)
    return sum(values) / len(values) if values else 0.0


def median(values: Sequence[float]) -> float | None:
    """The median (None of no values: a table shows it as a dash)."""
    return statistics.median(values) if values else None


def spread(values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """Median, mean and maximum (None each, of no values): a time column of a table."""
    if not values:
        return None, None, None
    return statistics.median(values), statistics.fmean(values), max(values)
