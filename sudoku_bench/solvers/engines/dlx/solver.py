"""The `dlx` back-end: the exact-cover reduction, solved by the Dancing Links engine.

The reduction is `sudoku_bench.reductions.exact_cover.CoverReduction`: the rules' full matrix (rows are
placements and, for killer cages, fillings; columns the constraints, secondary ones for the
"at most once" rules), with the rows the givens select and remove. `_build` applies it and
links the result: it keeps one linked copy of each full matrix (per rules, so per size for
classic puzzles), copies it for each puzzle (list copies run in C), removes the rows the
givens rule out and selects the givens' rows, which covers exactly the columns and removes
exactly the rows that `SudokuExactCover` removes to get the smaller matrix. On an easy 9x9
puzzle, linking the smaller matrix row by row in Python cost more than the search itself.
`_search` hands every exact cover (full-matrix rows) to the reduction's `invert`. A matrix
with colours (tables, linear equations) is searched by Algorithm C; without, by Algorithm X.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.exact_cover import (
    MAX_FILLINGS,
    CoverData,
    CoverReduction,
    SudokuMatrix,
    TooManyOptionsError,
)
from sudoku_bench.solvers.base import (
    Counters,
    Deadline,
    SearchOutcome,
    SearchTimeout,
    Solver,
    UnsupportedPuzzleError,
)
from sudoku_bench.solvers.engines.dlx.engine import DancingLinks


@lru_cache(maxsize=16)
def linked_full_matrix(sudoku: SudokuMatrix) -> DancingLinks:
    """The linked matrix of a puzzle's rules (never searched itself: only copied)."""
    matrix = sudoku.matrix
    return DancingLinks(matrix.rows, matrix.primary, matrix.secondary, matrix.colours)


@dataclass
class DlxModel:
    """The linked matrix after the givens, and what `invert` needs."""

    links: DancingLinks
    data: CoverData


class DlxSolver(Solver[DlxModel]):
    """Sudoku as exact cover (any rules: regions, extra units and cages as columns, pair
    rules as secondary columns, parity by leaving rows out), solved by Dancing Links; tables
    and linear equations as items whose options colour the cells (exact cover with colours,
    Knuth's Algorithm C), refused as `unsupported` past `MAX_OPTIONS` options per item.

    `cages` is how killer cages are encoded: `fillings` (one option per allowed filling,
    Knuth's, for cages with at most `max_fillings` of them; digit sets for the others) or
    `combinations` (one option per digit set); see `sudoku_bench.reductions.exact_cover`.
    """

    name = "dlx"
    honours_node_limit = True
    encoders = CoverReduction.encoders  # the matrix's table (sudoku_bench/reductions/exact_cover.py)

    def __init__(self, cages: str = "fillings", max_fillings: int = MAX_FILLINGS) -> None:
        if cages == "distinct":  # leaves the sums out: not a model of a killer puzzle
            raise ValueError("the dlx back-end encodes cages as 'fillings' or 'combinations'")
        self.reduction = CoverReduction(cages, max_fillings)

    def _build(self, puzzle: Grid, deadline: Deadline) -> DlxModel:
        try:
            problem, data = self.reduction.apply(puzzle)
        except TooManyOptionsError as error:  # a table or equation past the bound
            raise UnsupportedPuzzleError(str(error)) from None
        links = linked_full_matrix(problem.sudoku).copy()
        if problem.removed:
            links.remove(problem.removed)
        links.select(problem.selected)
        return DlxModel(links, data)

    def _search(
        self, model: DlxModel, puzzle: Grid, limit: int, deadline: Deadline
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
            "columns": links.active_columns(),
        }
        message = ""
        if links.clashes:
            names = model.data.sudoku.matrix.columns
            message = "givens clash on " + ", ".join(names[c] for c in links.clashes)
        return SearchOutcome(
            solutions, links.exhausted, timed_out=timed_out, counters=counters, message=message
        )
