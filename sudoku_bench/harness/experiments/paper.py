"""The "paper vs us" table every experiment report carries: each measure beside the paper's
figure, where that figure comes from (paper, table or page; or "not found", said plainly), our
figure, and a verdict that could have gone the other way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_bench.harness.experiments.document import Document

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
