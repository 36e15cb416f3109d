"""Native reference engines on the project's exact-cover matrix (optional extra `native`).

Both back-ends solve the matrix `sudoku_bench.reductions.exact_cover.SudokuExactCover.apply` gives (the
full matrix with the givens' rows selected: their columns and every row meeting one
removed), built here with numpy from the full matrix of the rules, so that the same
reduction can be timed on several engine implementations:
- `exact-cover-c`: the C `exact-cover` package (Algorithm X on a dense 0/1 matrix, primary
  columns only: a secondary column, the digit of an extra unit of fewer than N cells, gets
  a slack row with that one column, which keeps the solutions one to one);
- `xcover`: the `xcover` package (numba, Knuth's Algorithm C: exact cover with colours;
  secondary columns native).
Neither library can be interrupted: the harness enforces timeouts from outside.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache

import numpy as np

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.exact_cover import PLACEMENT_ENCODERS, full_matrix
from sudoku_bench.solvers.base import Deadline, SearchOutcome, Solver

Array = np.ndarray


def secondary_columns(rules: Rules) -> list[int]:
    """Columns of the full matrix to cover at most once (the digits of extra units of fewer
    than N cells: they hold distinct digits, not every digit); the reduction puts them last."""
    matrix = full_matrix(rules)
    return list(range(matrix.primary, len(matrix.columns)))


@dataclass(frozen=True)
class DenseCover:
    """The full matrix of a rules as a dense boolean array, and which columns are secondary."""

    matrix: Array  # rows x columns
    secondary: Array  # bool per column


@cache
def dense(rules: Rules) -> DenseCover:
    full = full_matrix(rules)
    matrix = np.zeros((len(full.rows), len(full.columns)), dtype=np.bool_)
    for number, row in enumerate(full.rows):
        matrix[number, list(row)] = True
    secondary = np.zeros(len(full.columns), dtype=np.bool_)
    secondary[secondary_columns(rules)] = True
    return DenseCover(matrix, secondary)


@dataclass
class CoverModel:
    """The matrix after the givens: `rows` are full-matrix row numbers of the kept rows."""

    matrix: Array  # kept rows x kept columns (bool)
    secondary: Array  # bool per kept column
    rows: Array
    clash: bool  # two givens cover one column: no solution


def reduced(puzzle: Grid) -> CoverModel:
    """`SudokuExactCover.apply`'s matrix (same rows and columns, same order), with numpy."""
    rules = puzzle.rules
    cover = dense(rules)
    values = np.array(puzzle.values, dtype=np.int64)
    cells = np.flatnonzero(values)
    given = cells * rules.size + values[cells] - 1
    times = cover.matrix[given].sum(axis=0)
    covered = times > 0
    keep_columns = times != 1  # a clashing column stays, with no row to cover it
    keep_rows = np.flatnonzero(~cover.matrix[:, covered].any(axis=1))
    matrix = cover.matrix[np.ix_(keep_rows, keep_columns)]
    return CoverModel(matrix, cover.secondary[keep_columns], keep_rows, bool((times > 1).any()))


def _grid(puzzle: Grid, model: CoverModel, chosen: list[int]) -> Grid:
    values = list(puzzle.values)
    size = puzzle.rules.size
    for index in chosen:
        if index < model.rows.shape[0]:  # slack rows of secondary columns place nothing
            cell, digit = divmod(int(model.rows[index]), size)
            values[cell] = digit + 1
    return Grid(puzzle.rules, tuple(values))


class _NativeCover(Solver[CoverModel]):
    # the matrix's encoders that keep every row one placement in the thesis's order
    encoders = PLACEMENT_ENCODERS

    def _build(self, puzzle: Grid, deadline: Deadline) -> CoverModel:
        return reduced(puzzle)

    def _search(
        self, model: CoverModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        if model.clash:
            found: list[list[int]] = []
        elif model.matrix.shape[1] == 0:
            found = [[]]  # every cell given: the empty cover
        else:
            found = self._covers(model, limit)
        solutions = [_grid(puzzle, model, chosen) for chosen in found[:limit]]
        counters = {"rows": model.matrix.shape[0], "columns": model.matrix.shape[1]}
        return SearchOutcome(solutions, exhausted=len(found) < limit, counters=counters)

    def _covers(self, model: CoverModel, limit: int) -> list[list[int]]:
        raise NotImplementedError


class ExactCoverCSolver(_NativeCover):
    """The exact-cover matrix solved by the C `exact-cover` package."""

    name = "exact-cover-c"

    def _covers(self, model: CoverModel, limit: int) -> list[list[int]]:
        # The C function itself: the package's wrapper strips the -1 padding of each
        # solution row with a loop that returns () when a solution takes every row of the
        # matrix (no padding), which loses such a solution's placements.
        from exact_cover_impl import get_all_solutions

        matrix = model.matrix
        slack = np.flatnonzero(model.secondary)
        if slack.size:  # one row per secondary column, covering only it
            extra = np.zeros((slack.size, matrix.shape[1]), dtype=np.bool_)
            extra[np.arange(slack.size), slack] = True
            matrix = np.vstack([matrix, extra])
        if matrix.shape[0] == 0:
            return []
        found: Array = get_all_solutions(np.ascontiguousarray(matrix, dtype=np.bool_), limit)
        return [[int(row) for row in chosen if row >= 0] for chosen in found.tolist()]


class XcoverSolver(_NativeCover):
    """The exact-cover matrix solved by the `xcover` package (numba, Algorithm C)."""

    name = "xcover"

    def __init__(self) -> None:
        # compile xcover's numba code here, outside every timed solve
        self._covers(CoverModel(np.ones((1, 1), dtype=np.bool_), np.zeros(1, np.bool_),
                                np.zeros(1, np.int64), False), 1)  # fmt: skip

    def _covers(self, model: CoverModel, limit: int) -> list[list[int]]:
        # xcover's own numba code warns of a uint64 -> uint32 cast when it compiles (a
        # cold cache): the library's business, not the user's, so it stays out of stderr
        with warnings.catch_warnings():
            from numba.core.errors import NumbaTypeSafetyWarning

            warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
            return self._covers_quietly(model, limit)

    def _covers_quietly(self, model: CoverModel, limit: int) -> list[list[int]]:
        import xcover

        columns = np.arange(model.matrix.shape[1])
        options = [columns[row].tolist() for row in model.matrix]
        primary = columns[~model.secondary].tolist()
        secondary = columns[model.secondary].tolist()
        found = []
        for chosen in xcover.covers(options, primary=primary, secondary=secondary):
            found.append([int(row) for row in chosen])
            if len(found) >= limit:
                break
        return found
