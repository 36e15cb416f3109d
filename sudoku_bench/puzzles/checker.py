"""The independent rule checker: trusts no solver, asks only the rules.

Every rule is checked here, apart from every solver: the units (rows, columns, regions and
the unit constraints' units: diagonals, extra regions) by one loop, then every other
constraint by its own check (`Constraint.violations`, in its kind's module: anti-knight and
anti-king pairs, non-consecutive neighbours, parity cells, killer cages, ...). A broken rule
is a `Conflict` that says in words which cells break which rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import compress
from operator import itemgetter

from sudoku_bench.puzzles.constraints.base import Conflict, repeats
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules

__all__ = [
    "Conflict",
    "cage_name",
    "conflicts",
    "has_conflicts",
    "is_solution",
    "is_valid_puzzle",
    "solution_problems",
]


def conflicts(grid: Grid) -> list[Conflict]:
    """Every broken rule of the filled cells (empty cells break nothing, except that a
    cage's sum is checked only once the cage is full, or as soon as it is exceeded): the
    units' repeats, then each constraint's own check, in the rules' order."""
    rules = grid.rules
    found = list(_unit_repeats(grid))
    if not rules.is_classic:
        values = grid.values
        for constraint in rules.constraints:
            found += constraint.violations(rules, values)
    return found


@lru_cache(maxsize=64)  # bounded: a file of jigsaws has as many rules as puzzles
def _unit_getters(rules: Rules) -> tuple[Callable[[tuple[int, ...]], tuple[int, ...]], ...]:
    """Per unit, a C-speed getter of its cells' values, as a tuple."""
    return tuple(
        itemgetter(*unit) if len(unit) > 1 else itemgetter(slice(unit[0], unit[0] + 1))
        for unit in rules.units
    )


def _unit_repeats(grid: Grid) -> Iterator[Conflict]:
    """Repeats in every unit: the shape's and the unit constraints' (`Rules.units`)."""
    rules = grid.rules
    values = grid.values
    for name, unit, getter in zip(rules.unit_names, rules.units, _unit_getters(rules), strict=True):
        if len(set(getter(values))) == len(unit):  # all different, blanks too: nothing repeats
            continue
        yield from repeats(name, unit, values)


def cage_name(rules: Rules, cage: Cage) -> str:
    """`cage r1c1+r1c2 = 3` (or without the sum), as the checker and the logs name it."""
    return cage.name(rules)


def has_conflicts(grid: Grid) -> bool:
    """Whether any rule is broken: `bool(conflicts(grid))`, fast enough for big files: the
    houses by one sum over the filled cells (`HouseSum`), the rest by `conflicts`."""
    house_sum = _house_sum(grid.rules)
    values = grid.values
    total = sum(map(tuple.__getitem__, compress(house_sum.shares, values), filter(None, values)))
    if house_sum.repeats(total):
        return True
    return not grid.rules.is_classic and bool(conflicts(grid))


def solution_problems(puzzle: Grid, grid: Grid) -> list[str]:
    """Why `grid` is not a solution of `puzzle`, in words; empty when it is one."""
    if grid.rules is not puzzle.rules and grid.rules != puzzle.rules:
        return [f"the grid is {grid.rules}, the puzzle {puzzle.rules}"]
    if _keeps_givens(puzzle, grid) and _fills_every_house(grid):
        # the common case, at C speed (`solve` and `count` check every grid of big files):
        # complete, no house repeats; the smaller extra regions and the variant rules remain
        rules = puzzle.rules
        if rules.is_classic or not has_conflicts(grid):
            return []
    problems = []
    rules = puzzle.rules
    empty = []
    if 0 in grid.values:  # C-speed test first: most grids checked are complete
        empty = [rules.cell_name(cell) for cell, value in enumerate(grid.values) if value == 0]
    if empty:
        more = ", ..." if len(empty) > 5 else ""
        cells = "1 cell is" if len(empty) == 1 else f"{len(empty)} cells are"
        problems.append(f"{cells} empty ({', '.join(empty[:5])}{more})")
    givens = list(compress(range(len(puzzle.values)), puzzle.values))
    # a quick test over the givens first: most grids checked keep every one
    kept = [grid.values[c] for c in givens] == [puzzle.values[c] for c in givens]
    if not kept:
        problems += [
            f"{rules.cell_name(cell)} is {got}, given {given}"
            for cell, (given, got) in enumerate(zip(puzzle.values, grid.values, strict=True))
            if given and got and given != got  # an emptied given is counted as empty
        ]
    problems += [conflict.describe(grid) for conflict in conflicts(grid)]
    return problems


def _keeps_givens(puzzle: Grid, grid: Grid) -> bool:
    given = puzzle.values
    # lists, not tuples: made from iterators, they are built faster
    return list(compress(grid.values, given)) == list(filter(None, given))


def _fills_every_house(grid: Grid) -> bool:
    """Every house holds every digit once, at C speed: the rows, columns and boxes alone by
    shifted additions (`BoxHouses`), other houses by one sum (`HouseSum`)."""
    rules = grid.rules
    if rules.layout is None and not rules.extra_units:
        return _box_houses(rules.size, rules.box_rows, rules.box_cols).full(grid.values)
    house_sum = _house_sum(rules)
    return sum(map(tuple.__getitem__, house_sum.shares, grid.values)) == house_sum.full


@dataclass(frozen=True)
class BoxHouses:
    """The rows, columns and boxes of a grid checked by a few big-integer additions.

    Digit d of a cell becomes 2^(d-1) in a field of a few bytes (`tables`: one per byte),
    and the grid one number of those fields in cell order. Adding copies of it shifted by a house's cell offsets
    adds up, in every field, the window of cells that ends there: at each house's last
    cell, the house (a box shape of R x C makes rows C then R windows, columns R then C).
    N powers of two add up to N set bits only when no two are equal (else they carry), so
    a house holds every digit once exactly when its field is 2^N - 1. The fields are wide
    enough never to carry into each other.
    """

    tables: tuple[bytes, ...]  # per byte of a field: value -> that byte of 2^(value-1)
    # the shifts (besides 0) of the windows: a box's row, a box's column, then the windows
    # of those that make rows, boxes and columns
    shifts: tuple[tuple[int, ...], ...]
    # (mask, expected) of the rows, the columns and the boxes
    rows: tuple[int, int]
    columns: tuple[int, int]
    boxes: tuple[int, int]

    def full(self, values: tuple[int, ...]) -> bool:
        """Whether every row, column and box holds every digit once."""
        digits = bytes(values)
        width = len(self.tables)
        fields = bytearray(len(digits) * width)
        for byte, table in enumerate(self.tables):
            fields[byte::width] = digits.translate(table)
        grid = int.from_bytes(fields, "little")
        in_box_row = _windowed(grid, self.shifts[0])
        in_box_column = _windowed(grid, self.shifts[1])
        # each kind of house checked as soon as it is summed: a wrong grid stops early
        for windows, shifts, (mask, expected) in (
            (in_box_row, self.shifts[2], self.rows),
            (in_box_row, self.shifts[3], self.boxes),
            (in_box_column, self.shifts[4], self.columns),
        ):
            if _windowed(windows, shifts) & mask != expected:
                return False
        return True


def _windowed(number: int, shifts: tuple[int, ...]) -> int:
    """`number` plus its copies shifted by `shifts`: in each field, the window ending there."""
    total = number
    for shift in shifts:
        total += number << shift
    return total


@cache
def _box_houses(size: int, box_rows: int, box_cols: int) -> BoxHouses:
    width = (size - 1 + size.bit_length() + 7) // 8  # a field holds N * 2^(N-1)
    bits = 8 * width
    ones = [0, *(1 << (value - 1) for value in range(1, size + 1))]
    tables = tuple(
        bytes((one >> (8 * byte)) & 255 for one in ones).ljust(256, b"\0") for byte in range(width)
    )

    def check(last_cells: list[int]) -> tuple[int, int]:
        mask = sum(((1 << bits) - 1) << (bits * cell) for cell in last_cells)
        return mask, sum(((1 << size) - 1) << (bits * cell) for cell in last_cells)

    n = size
    rows = check([row * n + n - 1 for row in range(n)])
    columns = check([(n - 1) * n + column for column in range(n)])
    boxes = check(
        [
            (top + box_rows - 1) * n + left + box_cols - 1
            for top in range(0, n, box_rows)
            for left in range(0, n, box_cols)
        ]
    )
    row = bits * n
    shifts = (
        [bits * cell for cell in range(1, box_cols)],
        [row * line for line in range(1, box_rows)],
        [bits * box_cols * box for box in range(1, box_rows)],
        [row * line for line in range(1, box_rows)],
        [row * box_rows * box for box in range(1, box_cols)],
    )
    return BoxHouses(tables, tuple(map(tuple, shifts)), rows, columns, boxes)


@dataclass(frozen=True)
class HouseSum:
    """The houses (units of N cells) of a grid checked by adding one number per cell.

    Digit d of a cell adds 2^(d-1) in the field of each house the cell is in, and the
    number of those houses in a low counting field; the fields are wide enough never to
    carry into each other. Adding powers of two loses a set bit exactly when two are equal
    (the carry), so the houses hold no digit twice when the sum's house fields have as many
    bits set as the counting field says; and every house holds every digit once when every
    house field is 2^N - 1 (N bits) and the count is complete: the sum is `full`.
    """

    shares: tuple[tuple[int, ...], ...]  # per cell, per value (0: empty, adds nothing)
    low: int  # the counting field's width
    full: int  # the sum of a solution

    def repeats(self, total: int) -> bool:
        """Whether a sum over filled cells has a digit twice in a house."""
        return (total >> self.low).bit_count() != total & ((1 << self.low) - 1)


def _house_sum(rules: Rules) -> HouseSum:
    # by the fields that make the units: a file of killers (each with its own cages) has one
    key: tuple[object, ...] = (rules.shape, rules.extra_units)
    found = _HOUSE_SUMS.get(key)
    if found is None:
        if len(_HOUSE_SUMS) >= 64:  # a file of jigsaws, each its own: keep a few
            _HOUSE_SUMS.clear()
        found = _HOUSE_SUMS[key] = _house_sum_of(rules)
    return found


_HOUSE_SUMS: dict[tuple[object, ...], HouseSum] = {}


def _house_sum_of(rules: Rules) -> HouseSum:
    n = rules.size
    low = (len(rules.houses) * n).bit_length()  # the count of a full grid fits
    width = n + n.bit_length()  # a house field's largest sum, N * 2^(N-1), fits
    field = {unit: low + number * width for number, unit in enumerate(rules.houses)}
    shares = []
    for units in rules.units_of:
        houses = [field[unit] for unit in units if unit in field]
        ones = sum(1 << offset for offset in houses)  # digit 1 in each of the cell's houses
        shares.append((0, *((ones << digit) + len(houses) for digit in range(n))))
    full = sum(((1 << n) - 1) << offset for offset in field.values()) + len(rules.houses) * n
    return HouseSum(tuple(shares), low, full)


def is_solution(puzzle: Grid, grid: Grid) -> bool:
    """True when `grid` is complete, keeps every given and breaks no rule."""
    return not solution_problems(puzzle, grid)


def is_valid_puzzle(puzzle: Grid) -> bool:
    """True when the givens break no rule (the puzzle may still have no solution)."""
    return not has_conflicts(puzzle)
