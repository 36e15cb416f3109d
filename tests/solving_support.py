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
from typing import Any, ClassVar

from sudoku_bench.puzzles.checker import conflicts, is_solution
from sudoku_bench.puzzles.constraints import (
    Conflict,
    Constraint,
    Equation,
    LinearConstraint,
    PairConstraint,
    Shape,
    Table,
    TableConstraint,
)
from sudoku_bench.puzzles.constraints.base import Checked
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules


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


# ----- test-only kinds of the linear and table families --------------------------------------
# Frozen dataclasses with no `kind` name: they stay out of the registry other tests walk, and
# rules holding different ones compare (and cache) as different rules.


@dataclass(frozen=True)
class LinearRule(LinearConstraint, UnwrittenKind):
    """Linear equations given whole (`diagonal_sum`, `arrow` build them); the check reports an
    equation whose cells are all filled and whose sum is wrong."""

    given: tuple[Equation, ...]
    title: ClassVar[str] = "test linear rule"  # type: ignore[misc]

    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        return self.given

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        for equation in self.given:
            cells = tuple(cell for cell, _ in equation.terms)
            if all(values[cell] for cell in cells) and not equation.holds(values):
                yield Conflict(
                    self.title, 0, cells, f"{self.title}: the sum is not {equation.total}"
                )


def diagonal_sum(size: int, length: int, total: int) -> LinearRule:
    """The first `length` cells of the main diagonal add up to `total` (digits may repeat)."""
    terms = tuple((i * size + i, 1) for i in range(length))
    return LinearRule((Equation(terms, total),))


def arrow(bulb: Sequence[int], line: Sequence[int]) -> LinearRule:
    """The line's digits add up to the bulb read as a number (a pill of two cells: 10a + b)."""
    weights = [10 ** (len(bulb) - 1 - i) for i in range(len(bulb))]
    terms = tuple((cell, 1) for cell in line) + tuple(
        (cell, -w) for cell, w in zip(bulb, weights, strict=True)
    )
    return LinearRule((Equation(terms, 0),))


@dataclass(frozen=True)
class TableRule(TableConstraint, UnwrittenKind):
    """Tables given whole (`row_sum_table`, `after_one_table` build them); the check reports a
    table whose cells are all filled and which no row matches."""

    given: tuple[Table, ...]
    title: ClassVar[str] = "test table rule"  # type: ignore[misc]

    def tables(self, shape: Shape) -> tuple[Table, ...]:
        return self.given

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        for table in self.given:
            if all(values[cell] for cell in table.cells) and not table.matching(values):
                yield Conflict(self.title, 0, table.cells, f"{self.title}: no row matches")


def row_sum_table(size: int, row: int, wildcards: bool = True) -> TableRule:
    """In `row`, the first two cells add up to the third: rows (a, b, a + b), over the whole
    row with the other cells free (0) when `wildcards`, else over the three cells alone."""
    rest = (0,) * (size - 3) if wildcards else ()
    cells = tuple(row * size + c for c in range(3 + len(rest)))
    rows = tuple(
        (a, b, a + b, *rest)
        for a in range(1, size + 1)
        for b in range(1, size + 1)
        if a != b and a + b <= size
    )
    return TableRule((Table(cells, rows),))


def after_one_table(size: int, row: int, digit: int) -> TableRule:
    """In `row`, the cell right after the 1 holds `digit`: a row per place of the 1, every
    other cell free; exclusive, since a full row holds one 1."""
    cells = tuple(row * size + c for c in range(size))
    rows = []
    for place in range(size - 1):
        filling = [0] * size
        filling[place], filling[place + 1] = 1, digit
        rows.append(tuple(filling))
    return TableRule((Table(cells, tuple(rows)),))


@dataclass(frozen=True)
class Ascending(UnwrittenKind):
    """A kind of no family (no model has an encoder for it, save a generic one): the digits
    of `cells` strictly increase in that order (a thermometer not declared as pairs)."""

    cells: tuple[int, ...]
    title: ClassVar[str] = "ascending cells"  # type: ignore[misc]

    def scope(self, shape: Any) -> tuple[int, ...]:
        return tuple(sorted(self.cells))

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        filled = [cell for cell in self.cells if values[cell]]
        for a, b in itertools.pairwise(filled):
            # free cells between need room: b must exceed a by more than the cells between
            between = self.cells.index(b) - self.cells.index(a)
            if values[b] - values[a] < between:
                yield Conflict(self.title, values[b], (a, b), f"{self.title}: no room")


# ----- test-only kinds of the three families, for the engines' encoders ----------------------
# (No `kind` name: they stay out of the registry of kinds other tests walk.)


@dataclass(frozen=True)
class EngineLess(PairConstraint, UnwrittenKind):
    """A directed pair relation: each pair's first cell holds the smaller digit (a thermometer
    of two cells)."""

    title = "engine test: less than"
    links: tuple[tuple[int, int], ...]

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return self.links

    def allows(self, first: int, second: int) -> bool:
        return first < second

    def broken(self, rules: Any, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        return Conflict(self.title, values[a], (a, b), f"{name(a)} is not less than {name(b)}")


@dataclass(frozen=True)
class EngineWithin(PairConstraint, UnwrittenKind):
    """A symmetric pair relation that allows a digit twice: the two digits differ by at most
    `gap` (so its cells are not peers)."""

    title = "engine test: within"
    links: tuple[tuple[int, int], ...]
    gap: int

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return self.links

    def allows(self, first: int, second: int) -> bool:
        return abs(first - second) <= self.gap

    def broken(self, rules: Any, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        text = f"{name(a)} and {name(b)} differ by more than {self.gap}"
        return Conflict(self.title, values[a], (a, b), text)


@dataclass(frozen=True)
class EngineEquations(LinearConstraint, UnwrittenKind):
    """Linear equations over digits that may repeat (an arrow: line +1, bulb -1, total 0)."""

    title = "engine test: equations"
    given: tuple[Equation, ...]

    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        return self.given

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        for equation in self.given:
            cells = tuple(cell for cell, _ in equation.terms)
            if all(values[cell] for cell in cells) and not equation.holds(values):
                yield Conflict(self.title, 0, cells, f"{equation} does not hold")


@dataclass(frozen=True)
class EngineFillings(TableConstraint, UnwrittenKind):
    """Tables of admissible fillings (0: any digit; rows exclusive)."""

    title = "engine test: fillings"
    given: tuple[Table, ...]

    def tables(self, shape: Shape) -> tuple[Table, ...]:
        return self.given

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        for table in self.given:
            if all(values[cell] for cell in table.cells) and not table.matching(values):
                yield Conflict(self.title, 0, table.cells, f"no row of {table} matches")


def engine_family_rules(solution: Grid, rng: random.Random, *, honest: bool = True) -> Rules:
    """The rules of `solution` plus a few random constraints of the three families, drawn so
    that `solution` keeps them (with `honest=False` each may be off by one, so the rules may
    have no solution)."""
    rules = solution.rules
    n = rules.size
    values = solution.values

    def neighbours() -> list[tuple[int, int]]:
        found = []
        for cell in range(n * n):
            row, col = divmod(cell, n)
            for other in (cell + 1 if col + 1 < n else -1, cell + n if row + 1 < n else -1):
                if other >= 0:
                    found.append((cell, other))
        rng.shuffle(found)
        return found

    ordered = [(a, b) if values[a] < values[b] else (b, a) for a, b in neighbours()[: n // 2]]
    diagonal = [(c, c + n + 1) for c in range(n * (n - 1)) if (c + 1) % n]
    rng.shuffle(diagonal)
    near = tuple(diagonal[: n // 2])
    gap = max(abs(values[a] - values[b]) for a, b in near)
    constraints: list[Constraint] = [EngineLess(tuple(ordered)), EngineWithin(near, gap)]
    equations = []
    for _ in range(2):
        cells = rng.sample(range(n * n), rng.randint(2, 4))
        coefficients = [rng.choice((1, 1, -1, 2, -3)) for _ in cells]
        total = sum(k * values[c] for c, k in zip(cells, coefficients, strict=True))
        if not honest:
            total += rng.choice((-1, 0, 1))
        equations.append(Equation(tuple(zip(cells, coefficients, strict=True)), total))
    constraints.append(EngineEquations(tuple(equations)))
    cells = tuple(rng.sample(range(n * n), rng.randint(2, 3)))
    truth = tuple(values[c] for c in cells)
    rows = {truth if honest else tuple(rng.randint(1, n) for _ in cells)}
    for _ in range(rng.randint(0, 4)):
        rows.add(tuple(rng.randint(1, n) for _ in cells))
    # a row with a wildcard, its first digit used by no other row (rows stay exclusive)
    unused = [d for d in range(1, n + 1) if all(row[0] != d for row in rows)]
    if unused:
        rows.add((rng.choice(unused), *(0 for _ in cells[1:])))
    constraints.append(EngineFillings((Table(cells, tuple(sorted(rows))),)))
    return rules.with_constraints(*constraints)


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
