"""Test helpers for the backtracking back-ends: random valid grids and a brute-force counter.

Both are written to be obviously correct rather than fast, and share no code with the
solvers: grids come from a fixed pattern moved by the symmetries of Sudoku, counts from
enumerating every row as a permutation and asking the rule checker.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from puzzles.checker import conflicts, is_solution
from puzzles.constraints import Constraint, LinearConstraint, PairConstraint, TableConstraint
from puzzles.constraints.base import Conflict, Equation, Table
from puzzles.grid import Grid
from puzzles.rules import Rules


def pattern_grid(rules: Rules) -> Grid:
    """A valid full grid of any box shape: row r is the digits shifted by a row-dependent step."""
    n, box_rows, box_cols = rules.size, rules.box_rows, rules.box_cols
    values = [
        (box_cols * (row % box_rows) + row // box_rows + col) % n + 1
        for row in range(n)
        for col in range(n)
    ]
    return Grid(rules, tuple(values))


def shuffled_grid(rules: Rules, rng: random.Random) -> Grid:
    """A random valid full grid: relabel the digits, permute rows within bands, bands,
    columns within stacks and stacks of the pattern grid (each keeps every unit whole)."""
    n, box_rows, box_cols = rules.size, rules.box_rows, rules.box_cols
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    rows = _shuffled_lines(n // box_rows, box_rows, rng)  # bands of box_rows rows
    cols = _shuffled_lines(n // box_cols, box_cols, rng)  # stacks of box_cols columns
    base = pattern_grid(rules)
    values = [labels[base.at(row, col) - 1] for row in rows for col in cols]
    grid = Grid(rules, tuple(values))
    assert is_solution(Grid.empty(rules), grid)
    return grid


def _shuffled_lines(groups: int, per_group: int, rng: random.Random) -> list[int]:
    order = list(range(groups))
    rng.shuffle(order)
    lines = []
    for group in order:
        inside = list(range(group * per_group, (group + 1) * per_group))
        rng.shuffle(inside)
        lines += inside
    return lines


def brute_force_solutions(puzzle: Grid, limit: int = 10**9) -> list[Grid]:
    """Every solution (up to `limit`): each row any permutation agreeing with its givens,
    rows added one by one and the partial grid kept only while the checker finds no conflict."""
    rules = puzzle.rules
    n = rules.size
    givens = puzzle.to_rows()
    row_options = [
        [
            perm
            for perm in itertools.permutations(range(1, n + 1))
            if all(g in (0, v) for g, v in zip(givens[row], perm, strict=True))
        ]
        for row in range(n)
    ]
    found: list[Grid] = []

    def extend(rows: list[tuple[int, ...]]) -> None:
        if len(found) >= limit:
            return
        if len(rows) == n:
            found.append(Grid(rules, tuple(v for row in rows for v in row)))
            return
        for option in row_options[len(rows)]:
            filled = [*rows, option]
            partial = [v for row in filled for v in row] + [0] * (n * (n - len(filled)))
            if not conflicts(Grid(rules, tuple(partial))):
                extend(filled)

    extend([])
    return found


def remove_cells(grid: Grid, cells: list[int]) -> Grid:
    return grid.with_values(dict.fromkeys(cells, 0))


def kinds_of(rules: Rules) -> set[str]:
    """The kinds of rule a puzzle's rules use: its constraints' kinds, and `jigsaw` for
    regions that are not the boxes."""
    return {type(c).kind for c in rules.constraints} | ({"jigsaw"} if rules.layout else set())


class UnwrittenKind(Constraint):
    """What a kind owns besides its meaning (JSON, f-puzzles, isomorphs), for kinds that live
    only in tests: they have no written form and are never moved."""

    def moved(self, move: Any) -> Constraint:
        raise NotImplementedError("a test kind is never moved")

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: Any) -> dict[str, Any]:
        return {}

    @classmethod
    def from_json(cls, data: Any, shape: Any) -> list[Constraint]:
        return []

    @classmethod
    def from_fpuzzles(cls, reader: Any, shape: Any) -> list[Constraint]:
        return []

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: Any) -> dict[str, Any]:
        return {}


# ----- test-only kinds of the families (the `Xcc` ones: exact cover with colours, Groebner,
# the compiled pair tables); each checks itself from its definition, so a brute force over the
# completions of a grid can count their solutions without any model -----------------------


@dataclass(frozen=True)
class XccEquations(LinearConstraint, UnwrittenKind):
    """Given linear equations over digits (an arrow, a little killer, in the raw)."""

    title = "xcc equations"
    given: tuple[Equation, ...]

    def equations(self, shape: Any) -> tuple[Equation, ...]:
        return self.given

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        for equation in self.given:
            cells = tuple(cell for cell, _ in equation.terms)
            if all(values[cell] for cell in cells) and not equation.holds(values):
                yield Conflict(self.title, 0, cells, f"{equation} does not hold")

    def holds(self, values: Sequence[int]) -> bool:
        return all(equation.holds(values) for equation in self.given)


@dataclass(frozen=True)
class XccTable(TableConstraint, UnwrittenKind):
    """Given tables of admissible fillings (0: any digit)."""

    title = "xcc table"
    given: tuple[Table, ...]

    def tables(self, shape: Any) -> tuple[Table, ...]:
        return self.given

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        for table in self.given:
            if all(values[cell] for cell in table.cells) and table.matching(values) != 1:
                yield Conflict(self.title, 0, table.cells, "no row of the table matches")

    def holds(self, values: Sequence[int]) -> bool:
        return all(table.matching(values) == 1 for table in self.given)


XCC_RELATIONS: dict[str, Callable[[int, int], bool]] = {
    "less": lambda a, b: a < b,
    "apart_2": lambda a, b: abs(a - b) >= 2,
    "sum_not_5": lambda a, b: a + b != 5,
    "double_or_half": lambda a, b: a == 2 * b or b == 2 * a,
    "differ": lambda a, b: a != b,
}


@dataclass(frozen=True)
class XccRelation(PairConstraint, UnwrittenKind):
    """A named relation (`XCC_RELATIONS`) on given pairs of cells, read first cell first."""

    title = "xcc relation"
    relation: str
    given: tuple[tuple[int, int], ...]

    def pairs(self, shape: Any) -> tuple[tuple[int, int], ...]:
        return self.given

    def allows(self, first: int, second: int) -> bool:
        return XCC_RELATIONS[self.relation](first, second)

    def broken(self, rules: Any, a: int, b: int, values: Sequence[int]) -> Conflict:
        text = f"{values[a]} and {values[b]} break {self.relation}"
        return Conflict(self.title, values[a], (a, b), text)

    def holds(self, values: Sequence[int]) -> bool:
        return all(self.allows(values[a], values[b]) for a, b in self.given)


def xcc_cases(
    size: int, rng: random.Random, make: Callable[[Sequence[int], random.Random], Constraint]
) -> tuple[Grid, frozenset[tuple[int, ...]]]:
    """A puzzle of the classic `size` rules plus the constraint `make` draws around a random
    full grid (which keeps it), givens from that grid, and its solutions by brute force: every
    completion of the givens (rows, columns, boxes by hand) that keeps the constraint by its
    own definition (`holds`). At most 12 solutions, so counting back-ends stay quick."""
    rules = Rules.from_json({"size": size})
    while True:
        grid = shuffled_grid(rules, rng).values
        constraint = make(grid, rng)
        blanks = rng.randint(8, 12) if size == 4 else rng.randint(10, 16)
        open_cells = rng.sample(range(size * size), blanks)
        values = tuple(0 if cell in open_cells else v for cell, v in enumerate(grid))
        holds = constraint.holds  # type: ignore[attr-defined]
        truth = frozenset(g for g in xcc_completions(rules, values) if holds(g))
        if 1 <= len(truth) <= 12:
            return Grid(rules.with_constraints(constraint), values), truth


def xcc_completions(rules: Rules, values: Sequence[int]) -> Iterator[tuple[int, ...]]:
    n = rules.size
    grid = list(values)
    box_rows, box_cols = rules.box_rows, rules.box_cols

    def peers(cell: int) -> Iterator[int]:
        r, c = divmod(cell, n)
        for other in range(n * n):
            o_r, o_c = divmod(other, n)
            same_box = (o_r // box_rows, o_c // box_cols) == (r // box_rows, c // box_cols)
            if other != cell and (o_r == r or o_c == c or same_box):
                yield other

    blanks = [cell for cell, v in enumerate(grid) if not v]

    def fill(index: int) -> Iterator[tuple[int, ...]]:
        if index == len(blanks):
            yield tuple(grid)
            return
        cell = blanks[index]
        for digit in range(1, n + 1):
            if all(grid[other] != digit for other in peers(cell)):
                grid[cell] = digit
                yield from fill(index + 1)
                grid[cell] = 0

    yield from fill(0)
