"""The `dlx` back-end: the exact-cover reduction, solved by the Dancing Links engine.

The reduction is `reductions.exact_cover`: rows are placements, columns the constraints,
and the givens select their rows up front. The back-end applies it inside the linked
matrix rather than linking `SudokuExactCover.apply`'s smaller matrix node by node: it keeps
one linked copy of the full matrix per geometry, copies it for each puzzle (list copies
run in C) and selects the givens' rows, which covers exactly the columns and removes
exactly the rows that `apply` removes. On an easy 9x9 puzzle, linking the rows in Python
cost more than the search itself.
"""

from __future__ import annotations

from functools import cache

from puzzles.grid import Grid
from puzzles.rules import Rules
from reductions.exact_cover import full_matrix, placement_of, placement_row
from solvers.base import Counters, Deadline, SearchOutcome, SearchTimeout, Solver
from solvers.dlx.engine import DancingLinks


@cache
def linked_full_matrix(rules: Rules) -> DancingLinks:
    """The linked matrix of the empty grid (never searched itself: only copied)."""
    matrix = full_matrix(rules)
    return DancingLinks(matrix.rows, matrix.primary, matrix.secondary)


class DlxSolver(Solver[DancingLinks]):
    """Sudoku as exact cover (any geometry, extra units as more columns), solved by DLX."""

    name = "dlx"

    def _build(self, puzzle: Grid, deadline: Deadline) -> DancingLinks:
        rules = puzzle.rules
        links = linked_full_matrix(rules).copy()
        links.select(
            placement_row(rules, cell, digit) for cell, digit in enumerate(puzzle.values) if digit
        )
        return links

    def _search(
        self, model: DancingLinks, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        rules = puzzle.rules
        solutions = []
        timed_out = False
        try:
            for rows in model.solutions(limit, deadline):
                solutions.append(grid_of(rules, rows))
        except SearchTimeout:
            timed_out = True
        counters: Counters = {
            "nodes": model.nodes,
            "guesses": model.guesses,
            "updates": model.updates,
            "columns": model.active_columns(),
        }
        message = ""
        if model.clashes:
            names = full_matrix(rules).columns
            message = "givens clash on " + ", ".join(names[c] for c in model.clashes)
        return SearchOutcome(
            solutions, model.exhausted, timed_out=timed_out, counters=counters, message=message
        )


def grid_of(rules: Rules, rows: list[int]) -> Grid:
    """The grid that a set of full-matrix rows (givens included) stands for."""
    values = [0] * rules.cell_count
    for row in rows:
        cell, digit = placement_of(rules, row)
        values[cell] = digit
    return Grid(rules, tuple(values))
