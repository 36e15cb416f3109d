"""`backtracking`: the source documents' algorithm, kept faithful as the teaching baseline.

The seeds (000, Hungarian; 002, Polish) solve Sudoku like this: the board is a list of
lists, `board[row][col]`, 0 for an empty cell; find the first empty cell in row-major
order; try the digits 1..9 in order; a digit is valid if it is not already in the cell's
row, column or 3x3 block (found by scanning the board); place it and recurse; if the
recursion fails, empty the cell again (backtrack) and try the next digit.

This module does exactly that, with three changes that keep it honest rather than faster:
- every geometry: N digits, boxes of `box_rows` x `box_cols`, and the extra units of the
  geometry (the diagonals of Sudoku-X) scanned like the row and the column;
- counting: after a solution is recorded the search goes on (the seeds return True), until
  `limit` solutions are found or the whole tree is explored;
- a deadline, checked every `CHECK_EVERY` placements.

Nothing is precomputed beyond the board itself and, per cell, the extra units it lies on.
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.grid import Grid
from solvers.base import Deadline, SearchOutcome, Solver

Board = list[list[int]]
Position = tuple[int, int]

CHECK_EVERY = 1000  # placements between two reads of the clock


@dataclass
class BacktrackingModel:
    """The seeds' data structure: the board as a list of rows, plus the geometry's shape."""

    board: Board
    size: int
    box_rows: int
    box_cols: int
    # extra_units_at[row][col]: the extra units (Sudoku-X diagonals) through that cell
    extra_units_at: list[list[list[list[Position]]]]


class _Stop(Exception):
    """Ends the search early: the limit was reached or the deadline passed."""


class BacktrackingSolver(Solver[BacktrackingModel]):
    """First empty cell, digits in order, validity by scanning row, column and box."""

    name = "backtracking"

    def _build(self, puzzle: Grid, deadline: Deadline) -> BacktrackingModel:
        rules = puzzle.rules
        n = rules.size
        extra_units_at: list[list[list[list[Position]]]] = [
            [[] for _ in range(n)] for _ in range(n)
        ]
        for unit in rules.extra_units:
            positions = [divmod(cell, n) for cell in unit]
            for row, col in positions:
                extra_units_at[row][col].append(positions)
        return BacktrackingModel(
            board=puzzle.to_rows(),
            size=n,
            box_rows=rules.box_rows,
            box_cols=rules.box_cols,
            extra_units_at=extra_units_at,
        )

    def _search(
        self, model: BacktrackingModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        search = _Search(model, puzzle, limit, deadline)
        if not search.givens_are_valid():
            return SearchOutcome([], exhausted=True, counters=search.counters())
        try:
            search.solve()
            exhausted = True
        except _Stop:
            exhausted = False
        return SearchOutcome(
            search.solutions,
            exhausted=exhausted,
            timed_out=search.timed_out,
            counters=search.counters(),
        )


class _Search:
    """One run of the seeds' recursive `solve(board)`, counting instead of stopping."""

    def __init__(self, model: BacktrackingModel, puzzle: Grid, limit: int, deadline: Deadline):
        self.board = model.board
        self.size = model.size
        self.box_rows, self.box_cols = model.box_rows, model.box_cols
        self.extra_units_at = model.extra_units_at
        self.puzzle = puzzle
        self.limit = limit
        self.deadline = deadline
        self.solutions: list[Grid] = []
        self.timed_out = False
        self.nodes = 0  # digits placed on the board
        self.guesses = 0  # cells where more than one digit was placed in turn

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "guesses": self.guesses}

    def find_empty_cell(self) -> Position | None:
        """The first empty cell in row-major order, as in the seeds."""
        board, n = self.board, self.size
        for row in range(n):
            for col in range(n):
                if board[row][col] == 0:
                    return row, col
        return None

    def is_valid(self, row: int, col: int, num: int) -> bool:
        """May `num` go at (row, col)? Scan its row, its column, its box and extra units."""
        board, n = self.board, self.size
        if num in board[row]:
            return False
        if num in [board[i][col] for i in range(n)]:
            return False
        box_rows, box_cols = self.box_rows, self.box_cols
        block_row = row // box_rows * box_rows
        block_col = col // box_cols * box_cols
        for i in range(block_row, block_row + box_rows):
            for j in range(block_col, block_col + box_cols):
                if board[i][j] == num:
                    return False
        for unit in self.extra_units_at[row][col]:
            if any(board[i][j] == num for i, j in unit):
                return False
        return True

    def givens_are_valid(self) -> bool:
        """The seeds assume legal givens; check each with the same scan, lifted off the board."""
        for row in range(self.size):
            for col in range(self.size):
                num = self.board[row][col]
                if num:
                    self.board[row][col] = 0
                    valid = self.is_valid(row, col, num)
                    self.board[row][col] = num
                    if not valid:
                        return False
        return True

    def solve(self) -> None:
        """The seeds' `solve(board)`; a full board is recorded and the search goes on."""
        empty_cell = self.find_empty_cell()
        if empty_cell is None:
            self.record_solution()
            return
        row, col = empty_cell
        placed = 0
        for num in range(1, self.size + 1):
            if self.is_valid(row, col, num):
                self.place(row, col, num)
                placed += 1
                if placed == 2:
                    self.guesses += 1
                self.solve()
                self.board[row][col] = 0  # backtrack

    def place(self, row: int, col: int, num: int) -> None:
        self.board[row][col] = num
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and self.deadline.expired():
            self.timed_out = True
            raise _Stop

    def record_solution(self) -> None:
        self.solutions.append(Grid.from_rows(self.board, self.puzzle.rules))
        if len(self.solutions) >= self.limit:
            raise _Stop
