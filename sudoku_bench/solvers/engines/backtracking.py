"""`backtracking`: the source documents' algorithm, kept faithful as the teaching baseline.

The seeds (000, Hungarian; 002, Polish) solve Sudoku like this: the board is a list of
lists, `board[row][col]`, 0 for an empty cell; find the first empty cell in row-major
order; try the digits 1..9 in order; a digit is valid if it is not already in the cell's
row, column or 3x3 block (found by scanning the board); place it and recurse; if the
recursion fails, empty the cell again (backtrack) and try the next digit.

This module does exactly that, with four changes that keep it honest rather than faster:
- every geometry: N digits, boxes of `box_rows` x `box_cols`, and the extra units of the
  geometry (the diagonals of Sudoku-X) scanned like the row and the column;
- every rule kind, in the same validity test (`is_valid_variant`, taken instead of the
  seeds' `is_valid` when the rules have more than boxes and extra units, so classic puzzles
  run the seeds' code), generalised per constraint family through the encoder table
  (`ENCODERS`): the cell's digit rules (parity) allow the digit; its row, column, region
  (box or jigsaw piece) and extra units do not hold it; the other cell of each of its pair
  rules (anti-knight, anti-king, non-consecutive) holds no digit the rule forbids beside
  it (thermometers, dots: any relation, read first cell first); each of its sums (killer
  cages) keeps its digits distinct and stays within its total (a partial cage may not
  exceed it, a full one must equal it); each of its linear
  equations (arrows, little killers) can still hold, its filled cells' terms plus what the
  empty cells' terms can reach with digits 1..N; each of its tables of admissible
  fillings (sandwich clues up to 9x9, between lines) keeps a row that its filled cells
  match; and each automaton read along its line (sandwich, X-sum and skyscraper clues past
  9x9, where their tables are not listed) does not reject the line's filled cells read
  from its start up to the first empty one, and accepts the whole line once it is full;
- counting: after a solution is recorded the search goes on (the seeds return True), until
  `limit` solutions are found or the whole tree is explored;
- a deadline, checked every `CHECK_EVERY` placements.

Nothing is precomputed beyond the board itself and, per cell, the cells of the rules through
it (extra units; for variants also its region, pair partners, sums, equations, tables and
automata),
as (row, col) positions the scan reads the board at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sudoku_bench.puzzles.constraints import (
    CellDigits,
    Constraint,
    EncoderTable,
    LinearConstraint,
    PairConstraint,
    RegularConstraint,
    SumConstraint,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.constraints.base import Automaton
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Deadline, SearchOutcome, Solver

Board = list[list[int]]
Position = tuple[int, int]

CHECK_EVERY = 1000  # placements between two reads of the clock


# per digit (indexed by the digit, 0 unused), the digits the other cell of a pair may not hold
Clashes = tuple[frozenset[int], ...]
# a linear equation through a cell: the cell's coefficient, the other terms, the total
EquationAt = tuple[int, list[tuple[Position, int]], int]
# a table through a cell: the cell's place in a row, the table's positions, its rows
TableAt = tuple[int, list[Position], tuple[tuple[int, ...], ...]]
# an automaton through a cell: its line's positions in reading order, the automaton
AutomatonAt = tuple[list[Position], Automaton]


@dataclass
class VariantRules:
    """Per cell (indexed [row][col]), what the variant rules through it ask of a digit."""

    allowed_at: list[list[frozenset[int]]]  # the digits its cell-digit rules (parity) allow
    # the units to scan besides its row and column: its region (box or jigsaw piece) and
    # its extra units
    units_at: list[list[list[list[Position]]]]
    # its pair rules (anti-knight, anti-king, non-consecutive): the other cell, and per
    # digit here the digits that cell may not hold
    pairs_at: list[list[list[tuple[Position, Clashes]]]]
    # its sums (killer cages): the other cells, the sum (None: any) and whether the digits
    # are distinct
    sums_at: list[list[list[tuple[list[Position], int | None, bool]]]]
    # its linear equations (arrows, little killers)
    equations_at: list[list[list[EquationAt]]]
    # its tables of admissible fillings (a digit per cell, 0 for any)
    tables_at: list[list[list[TableAt]]]
    # the automata read along lines through it (sandwich, X-sum and skyscraper clues)
    automata_at: list[list[list[AutomatonAt]]]


@dataclass
class BacktrackingModel:
    """The seeds' data structure: the board as a list of rows, plus the geometry's shape."""

    board: Board
    size: int
    box_rows: int
    box_cols: int
    # extra_units_at[row][col]: the extra units (Sudoku-X diagonals) through that cell
    extra_units_at: list[list[list[list[Position]]]]
    variant: VariantRules | None = None  # None for classic rules (Sudoku-X included)


def _scan_units(constraint: UnitConstraint, rules: Rules, found: VariantRules) -> None:
    n = rules.size
    for unit in constraint.units(rules):
        positions = [divmod(cell, n) for cell in unit]
        for row, col in positions:
            found.units_at[row][col].append(positions)


def _scan_pairs(constraint: PairConstraint, rules: Rules, found: VariantRules) -> None:
    n = rules.size
    digits = range(1, n + 1)
    # clashes[d]: the digits the pair's other cell may not hold when this one holds d
    first: Clashes = (
        frozenset(),
        *(frozenset(e for e in digits if not constraint.allows(d, e)) for d in digits),
    )
    second: Clashes = (
        frozenset(),
        *(frozenset(e for e in digits if not constraint.allows(e, d)) for d in digits),
    )
    for a, b in constraint.pairs(rules):
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        found.pairs_at[ra][ca].append(((rb, cb), first))
        found.pairs_at[rb][cb].append(((ra, ca), second))


def _scan_cell_digits(constraint: CellDigits, rules: Rules, found: VariantRules) -> None:
    for cell, digits in constraint.allowed(rules).items():
        row, col = divmod(cell, rules.size)
        found.allowed_at[row][col] &= digits


def _scan_sums(constraint: SumConstraint, rules: Rules, found: VariantRules) -> None:
    n = rules.size
    cells = constraint.summed
    for cell in cells:
        others = [divmod(c, n) for c in cells if c != cell]
        row, col = divmod(cell, n)
        found.sums_at[row][col].append((others, constraint.target, constraint.distinct))


def _scan_equations(constraint: LinearConstraint, rules: Rules, found: VariantRules) -> None:
    n = rules.size
    for equation in constraint.equations(rules):
        for cell, coefficient in equation.terms:
            others = [(divmod(c, n), k) for c, k in equation.terms if c != cell]
            row, col = divmod(cell, n)
            found.equations_at[row][col].append((coefficient, others, equation.total))


def _scan_tables(constraint: TableConstraint, rules: Rules, found: VariantRules) -> None:
    n = rules.size
    for table in constraint.tables(rules):
        positions = [divmod(c, n) for c in table.cells]
        for place, (row, col) in enumerate(positions):
            found.tables_at[row][col].append((place, positions, table.rows))


def _scan_automata(constraint: RegularConstraint, rules: Rules, found: VariantRules) -> None:
    """An outside clue is checked by its table where that is listed (up to 9x9): the table
    sees every filled cell of the line, the automaton only those from its start to the first
    empty one (a clue read from the right of a row waits for the row's last cell), so the
    table cuts more; past 9x9, by its automaton."""
    if isinstance(constraint, TableConstraint) and constraint.listed_on(rules.size):
        _scan_tables(constraint, rules, found)
        return
    n = rules.size
    for automaton in constraint.automata(rules):
        positions = [divmod(c, n) for c in automaton.cells]
        for row, col in positions:
            found.automata_at[row][col].append((positions, automaton))


Encoder = Callable[[Any, Rules, VariantRules], None]
# What implements each kind in the placement check: units are scanned like the row and the
# column, pair rules look at the other cell of each pair, cell digits narrow the digits
# tried, sums add up the other cells, equations add up their terms and the empty cells'
# range, tables look for a row the filled cells match, automata read the line's filled
# cells from their start (an outside clue, both, as its table where that is listed). (A
# tuple of pairs: mypy takes an abstract family as a key only there.)
_ENCODERS: tuple[tuple[type[Constraint], Encoder], ...] = (
    (UnitConstraint, _scan_units),
    (PairConstraint, _scan_pairs),
    (CellDigits, _scan_cell_digits),
    (SumConstraint, _scan_sums),
    (LinearConstraint, _scan_equations),
    (RegularConstraint, _scan_automata),
    (TableConstraint, _scan_tables),
)
ENCODERS: EncoderTable[Encoder] = EncoderTable(dict(_ENCODERS))


def variant_rules(rules: Rules) -> VariantRules:
    """The per-cell tables of `is_valid_variant`, filled by the constraints' encoders."""
    n = rules.size
    every = frozenset(rules.digits)
    found = VariantRules(
        allowed_at=[[every] * n for _ in range(n)],
        units_at=[[[] for _ in range(n)] for _ in range(n)],
        pairs_at=[[[] for _ in range(n)] for _ in range(n)],
        sums_at=[[[] for _ in range(n)] for _ in range(n)],
        equations_at=[[[] for _ in range(n)] for _ in range(n)],
        tables_at=[[[] for _ in range(n)] for _ in range(n)],
        automata_at=[[[] for _ in range(n)] for _ in range(n)],
    )
    for region in rules.regions:
        positions = [divmod(cell, n) for cell in region]
        for row, col in positions:
            found.units_at[row][col].append(positions)
    for constraint in rules.constraints:
        ENCODERS.encoder(constraint)(constraint, rules, found)
    return found


class _Stop(Exception):
    """Ends the search early: the limit was reached or the deadline passed."""


class BacktrackingSolver(Solver[BacktrackingModel]):
    """First empty cell, digits in order, validity by scanning row, column and box."""

    name = "backtracking"
    honours_node_limit = True
    frames_per_cell = 2  # it recurses per branch point (solvers.deep)
    encoders = ENCODERS

    def _build(self, puzzle: Grid, deadline: Deadline) -> BacktrackingModel:
        rules = puzzle.rules
        n = rules.size
        extra_units_at: list[list[list[list[Position]]]] = [
            [[] for _ in range(n)] for _ in range(n)
        ]
        # boxes and extra units only: the seeds' test, with the extra units scanned like a row
        classic = rules.layout is None and all(
            isinstance(constraint, UnitConstraint) for constraint in rules.constraints
        )
        if classic:
            units = VariantRules([], [[[] for _ in range(n)] for _ in range(n)], [], [], [], [], [])
            for constraint in rules.constraints:
                _scan_units(cast(UnitConstraint, constraint), rules, units)
            extra_units_at = units.units_at
        return BacktrackingModel(
            board=puzzle.to_rows(),
            size=n,
            box_rows=rules.box_rows,
            box_cols=rules.box_cols,
            extra_units_at=extra_units_at,
            variant=None if classic else variant_rules(rules),
        )

    def _search(
        self, model: BacktrackingModel, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        search = _Search(model, puzzle, limit, deadline)
        try:
            if not search.givens_are_valid():
                return SearchOutcome([], exhausted=True, counters=search.counters())
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
        self.variant = model.variant
        if model.variant is not None:  # chosen once: classic puzzles run the seeds' test
            self.is_valid = self.is_valid_variant  # type: ignore[method-assign]
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

    def is_valid_variant(self, row: int, col: int, num: int) -> bool:
        """`is_valid` for every rule kind: the same scans, over the cells the rules name."""
        board, n = self.board, self.size
        variant = self.variant
        assert variant is not None
        if num not in variant.allowed_at[row][col]:  # odd / even
            return False
        if num in board[row]:
            return False
        if num in [board[i][col] for i in range(n)]:
            return False
        for unit in variant.units_at[row][col]:  # its region and extra units
            if any(board[i][j] == num for i, j in unit):
                return False
        for (i, j), clashes in variant.pairs_at[row][col]:  # anti-knight, non-consecutive, ...
            if board[i][j] in clashes[num]:
                return False
        for others, total, distinct in variant.sums_at[row][col]:  # killer cages
            cage_sum, full = num, True
            for i, j in others:
                value = board[i][j]
                if distinct and value == num:
                    return False
                if value == 0:
                    full = False
                cage_sum += value
            if total is not None and (cage_sum > total or (full and cage_sum != total)):
                return False
        for coefficient, terms, total in variant.equations_at[row][col]:  # arrows, ...
            low = high = coefficient * num  # what the terms can add up to
            for (i, j), k in terms:
                value = board[i][j]
                if value:
                    low += k * value
                    high += k * value
                elif k > 0:
                    low += k
                    high += k * n
                else:
                    low += k * n
                    high += k
            if not low <= total <= high:
                return False
        for place, positions, rows in variant.tables_at[row][col]:  # sandwiches, ...
            # one scan of a table may take longer than the placements between two reads of
            # the clock, so the deadline is read before each
            if self.deadline.expired():
                self.timed_out = True
                raise _Stop
            if not any(
                fill[place] in (0, num)
                and all(
                    not d or board[i][j] in (0, d)
                    for (i, j), d in zip(positions, fill, strict=True)
                    if (i, j) != (row, col)
                )
                for fill in rows
            ):
                return False
        for positions, automaton in variant.automata_at[row][col]:  # sandwiches, ...
            state = automaton.start
            for i, j in positions:  # the filled cells from the line's start, `num` placed
                value = num if (i, j) == (row, col) else board[i][j]
                if not value:
                    break
                state = automaton.step(state, value)
                if state is None:
                    return False
            else:
                if not automaton.accepting(state):
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
        if self.nodes % CHECK_EVERY == 0 and self.deadline.spent(self.nodes):
            self.timed_out = True
            raise _Stop

    def record_solution(self) -> None:
        self.solutions.append(Grid.from_rows(self.board, self.puzzle.rules))
        if len(self.solutions) >= self.limit:
            raise _Stop
