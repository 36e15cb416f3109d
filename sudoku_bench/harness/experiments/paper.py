"""The "paper vs us" table every experiment report carries: each measure beside the paper's
figure, where that figure comes from (paper, table or page; or "not found", said plainly), our
figure, and a verdict that could have gone the other way."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.harness.experiments.base import answered, spread, timed_out
from sudoku_bench.harness.experiments.document import Document

Row = dict[str, Any]

HEADERS = ["measure", "paper", "source of the paper's figure", "us", "verdict"]


@dataclass(frozen=True)
class PaperRow:
    measure: str
    paper: str
    source: str
    us: str
    verdict: str  # "agrees", "disagrees", or a short sentence of why neither


def agrees(holds: bool) -> str:
    return "agrees" if holds else "disagrees"


def paper_vs_us(doc: Document, rows: Sequence[PaperRow], caption: str = "") -> None:
    """The table, under its own heading, in the results section."""
    doc.heading("Paper vs us")
    doc.table(
        HEADERS,
        [[row.measure, row.paper, row.source, row.us, row.verdict] for row in rows],
        caption=caption,
    )


def time_table(
    doc: Document,
    by_solver: Iterable[tuple[str, list[Row]]],
    extra: tuple[str, Callable[[list[Row]], int]],
    caption: str,
) -> None:
    """Each back-end on each set: tasks, answered, timed out, median / mean / max ms over the
    answered ones, and one more column (`extra`: its header, and its count over the answered
    rows) that the experiment's paper asks for."""
    header, count = extra
    rows = []
    for solver, found in by_solver:
        by_collection: dict[str, list[Row]] = {}
        for row in found:
            by_collection.setdefault(row["collection"], []).append(row)
        for collection, chosen in by_collection.items():
            done = [r for r in chosen if answered(r)]
            median, mean, most = spread([float(r["total_s"]) for r in done])
            rows.append(
                [
                    f"`{solver}`",
                    collection,
                    len(chosen),
                    len(done),
                    sum(timed_out(r) for r in chosen),
                    *(None if v is None else v * 1000 for v in (median, mean, most)),
                    count(done),
                ]
            )
    headers = ["back-end", "set", "puzzles", "answered", "timed out"]
    doc.table([*headers, "median ms", "mean ms", "max ms", header], rows, caption=caption)
