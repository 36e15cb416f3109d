"""The `dlx` back-end: the exact-cover reduction, solved by the Dancing Links engine."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.grid import Grid
from reductions.exact_cover import SudokuCover, SudokuExactCover
from solvers.base import Counters, Deadline, SearchOutcome, SearchTimeout, Solver
from solvers.dlx.engine import DancingLinks


@dataclass
class LinkedCover:
    """The model: the linked matrix after givens and what maps its rows back to cells."""

    links: DancingLinks
    data: SudokuCover


class DlxSolver(Solver[LinkedCover]):
    """Sudoku as exact cover (any geometry, extra units as more columns), solved by DLX."""

    name = "dlx"

    def __init__(self) -> None:
        self.reduction = SudokuExactCover()

    def _build(self, puzzle: Grid, deadline: Deadline) -> LinkedCover:
        matrix, data = self.reduction.apply(puzzle)
        return LinkedCover(DancingLinks(matrix.rows, matrix.primary, matrix.secondary), data)

    def _search(
        self, model: LinkedCover, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        links = model.links
        solutions = []
        timed_out = False
        try:
            for rows in links.solutions(limit, deadline):
                solutions.append(self.reduction.invert(rows, model.data))
        except SearchTimeout:
            timed_out = True
        counters: Counters = {
            "nodes": links.nodes,
            "guesses": links.guesses,
            "updates": links.updates,
            "columns": links.primary + links.secondary,
            "rows": links.row_count,
        }
        message = ""
        if model.data.clashes:
            message = "givens clash on " + ", ".join(model.data.clashes)
        return SearchOutcome(
            solutions, links.exhausted, timed_out=timed_out, counters=counters, message=message
        )
