"""`dlx-jit`: the `dlx` back-end's Dancing Links compiled with numba.

The same matrix (`sudoku_bench.reductions.exact_cover.full_matrix`, linked once per rules by the
pure-Python `DancingLinks`), the same selection of the givens' rows, the same search: the
answers and the counters (nodes, guesses, updates, columns) are `dlx`'s. The columns of an
extra unit of fewer than N cells are secondary (at most once): such a unit need not hold
every digit; so are the pair relations' columns (anti-knight, anti-king, non-consecutive and
any other `PairConstraint`). Colours (tables, linear equations) are `dlx`'s only. Compilation is cached on disk (`cache=True`) and warmed up when the solver is
constructed, outside every timed solve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.exact_cover import PAIR_PLACEMENT_ENCODERS, full_matrix
from sudoku_bench.solvers.adapters.native import secondary_columns
from sudoku_bench.solvers.base import Counters, Deadline, SearchOutcome, Solver
from sudoku_bench.solvers.engines.dlx import kernel
from sudoku_bench.solvers.engines.dlx.engine import DancingLinks
from sudoku_bench.solvers.tables import per_puzzle

CHECK_EVERY = 4096  # search nodes between two returns to Python to read the clock
SOLUTION_BUFFER = 64

Array = np.ndarray


@dataclass(frozen=True)
class LinkedMatrix:
    """The linked full matrix of a rules as arrays; columns renumbered primary first."""

    links: Array  # L, R, U, D, S (int64, 5 x nodes)
    col: Array
    rowof: Array
    first: Array
    order: tuple[int, ...]  # linked column -> full-matrix column
    names: tuple[str, ...]


@per_puzzle  # by rules: pair relations make a matrix per puzzle, so a bounded cache
def linked(rules: Rules) -> LinkedMatrix:
    matrix = full_matrix(rules)
    secondary = set(secondary_columns(rules))
    order = [c for c in range(len(matrix.columns)) if c not in secondary] + sorted(secondary)
    position = {column: new for new, column in enumerate(order)}
    dl = DancingLinks(
        [[position[c] for c in row] for row in matrix.rows],
        len(order) - len(secondary),
        len(secondary),
    )
    links = np.array([dl.L, dl.R, dl.U, dl.D, dl.S + [0] * (len(dl.L) - len(dl.S))])
    return LinkedMatrix(
        links=links.astype(np.int64),
        col=np.array(dl.C, dtype=np.int64),
        rowof=np.array(dl.ROW, dtype=np.int64),
        first=np.array(dl.first, dtype=np.int64),
        order=tuple(order),
        names=matrix.columns,
    )


@dataclass
class DlxJitModel:
    matrix: LinkedMatrix
    links: Array  # this puzzle's copy of the links
    given_rows: Array
    values: Array


class DlxJitSolver(Solver[DlxJitModel]):
    """Sudoku as exact cover (any geometry, extra units as more columns), compiled DLX."""

    name = "dlx-jit"
    honours_node_limit = True
    # the matrix's encoders that keep every row one placement in the thesis's order: units
    # and pair relations (secondary columns); not parity (rows left out), cages, tables or
    # linear equations (rows of several placements, colours)
    encoders = PAIR_PLACEMENT_ENCODERS

    def __init__(self) -> None:
        warm_up()
        # the last rules' linked matrix: hashing a Rules costs more than an easy solve
        self._rules: Rules | None = None
        self._matrix: LinkedMatrix | None = None

    def _build(self, puzzle: Grid, deadline: Deadline) -> DlxJitModel:
        rules = puzzle.rules
        if rules is not self._rules or self._matrix is None:
            self._rules, self._matrix = rules, linked(rules)
        matrix = self._matrix
        values = np.array(puzzle.values, dtype=np.int64)
        cells = np.flatnonzero(values)
        given_rows = cells * rules.size + values[cells] - 1  # placement_row, vectorised
        return DlxJitModel(matrix, matrix.links.copy(), given_rows, values)

    def _search(
        self, model: DlxJitModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        found, exhausted, timed_out, st, clashes = run(model, puzzle.rules.size, limit, deadline)
        counters: Counters = {
            "nodes": int(st[kernel.NODES]),
            "guesses": int(st[kernel.GUESSES]),
            "updates": int(st[kernel.UPDATES]),
            "columns": int(st[kernel.COLUMNS]),
        }
        message = ""
        if clashes:
            names = model.matrix.names
            message = "givens clash on " + ", ".join(names[model.matrix.order[c]] for c in clashes)
        return SearchOutcome(
            [Grid(puzzle.rules, digits) for digits in found],
            exhausted,
            timed_out=timed_out,
            counters=counters,
            message=message,
        )


def run(
    model: DlxJitModel, size: int, limit: int, deadline: Deadline
) -> tuple[list[tuple[int, ...]], bool, bool, Array, list[int]]:
    """Search to the limit: (solutions' digits, exhausted, timed out, state, clashes)."""
    matrix = model.matrix
    headers = len(matrix.order) + 1
    chosen = np.zeros(model.values.shape[0] + 1, dtype=np.int64)
    taken = np.zeros(headers, dtype=np.int64)
    clashes = np.zeros(len(matrix.order) + 1, dtype=np.int64)
    st = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    buffer = np.zeros((min(limit, SOLUTION_BUFFER), model.values.shape[0]), dtype=np.int64)
    found: list[tuple[int, ...]] = []
    while True:
        code = kernel.search(
            model.links, matrix.col, matrix.rowof, matrix.first, model.given_rows,
            model.values, size, chosen, taken, clashes, st, buffer, limit, CHECK_EVERY,
        )  # fmt: skip
        if st[kernel.BUFFERED]:
            found.extend(map(tuple, buffer[: st[kernel.BUFFERED]].tolist()))
            st[kernel.BUFFERED] = 0
        clashed: list[int] = clashes[: st[kernel.CLASHES]].tolist()
        if code == kernel.EXHAUSTED:
            return found, True, False, st, clashed
        if code == kernel.AT_LIMIT:
            done = kernel.all_last(model.links, matrix.col, chosen, st[kernel.DEPTH])
            return found, bool(done), False, st, clashed
        if deadline.spent(int(st[kernel.NODES])):
            return found, False, True, st, clashed


_warm = False


def warm_up() -> None:
    """Load (or compile, the first time on this machine) the kernel: one empty 4x4 grid."""
    global _warm
    if _warm:
        return
    rules = Rules.of_size(4)
    matrix = linked(rules)
    empty = np.zeros(rules.cell_count, dtype=np.int64)
    model = DlxJitModel(matrix, matrix.links.copy(), np.zeros(0, dtype=np.int64), empty)
    run(model, rules.size, 2, Deadline(None))
    _warm = True
