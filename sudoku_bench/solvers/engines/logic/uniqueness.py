"""Uniqueness techniques: they assume the puzzle has exactly one solution, so they are off
by default (`LogicSolver(uniqueness=True)`, `--uniqueness`).

A deadly pattern is four cells at the corners of a rectangle on two rows, two columns and two
boxes, all holding the pair a/b: the two ways of filling it would both be solutions, so a
unique puzzle must break it. Unique rectangles types 1-6 and hidden rectangles read which
way it breaks (HoDoKu's catalogue); BUG+1
(bivalue universal grave) says the one cell with three candidates must hold the digit that
would otherwise leave a deadly grid of pairs. Both are sound only for classic rules (rows,
columns and boxes): a variant rule may itself tell the two fillings apart.
"""

from __future__ import annotations

from itertools import combinations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Move,
    Step,
    bit,
    cells_text,
    digits_of,
    digits_text,
)


def applies(rules: Rules) -> bool:
    """Only rows, columns and boxes: a diagonal or any variant rule may break the symmetry
    a deadly pattern relies on."""
    return rules.layout is None and not rules.constraints


def _rectangles(state: Candidates) -> list[tuple[tuple[int, int, int, int], int]]:
    """(corners r1c1, r1c2, r2c1, r2c2; pair) for every rectangle on two boxes whose four
    empty cells all hold the pair."""
    rules = state.rules
    masks = state.masks
    n = rules.size
    found = []
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            corners = (
                rules.cell(r1, c1),
                rules.cell(r1, c2),
                rules.cell(r2, c1),
                rules.cell(r2, c2),
            )
            if len({rules.region_of(c) for c in corners}) != 2:
                continue
            common = masks[corners[0]] & masks[corners[1]] & masks[corners[2]] & masks[corners[3]]
            if common.bit_count() < 2:
                continue
            for pair in combinations(digits_of(common), 2):
                found.append((corners, bit(pair[0]) | bit(pair[1])))
    return found


def _name(state: Candidates, corners: tuple[int, ...], pair: int) -> str:
    return f"unique rectangle {digits_text(digits_of(pair))} in {cells_text(state.rules, corners)}"


def unique_rectangle(state: Candidates) -> Step | None:
    """Types 1-6, in that order, on the first rectangle that gives something."""
    rectangles = _rectangles(state)
    for finder in (_type1, _type2, _type3, _type4, _type5, _type6):
        for corners, pair in rectangles:
            step = finder(state, corners, pair)
            if step:
                return step
    return None


def _type1(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> Step | None:
    """Three corners hold only the pair: the fourth must not be either digit of it."""
    masks = state.masks
    extra = [c for c in corners if masks[c] != pair]
    if len(extra) != 1:
        return None
    (cell,) = extra
    return Step(
        "unique_rectangle",
        f"{_name(state, corners, pair)} (type 1: only {state.rules.cell_name(cell)} has more)",
        eliminations=tuple((cell, d) for d in digits_of(pair)),
    )


def _roof(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> list[int] | None:
    """The two corners with candidates beyond the pair, when they share a row or column and
    the other two hold the pair only."""
    masks = state.masks
    rules = state.rules
    roof = [c for c in corners if masks[c] != pair]
    if len(roof) != 2:
        return None
    a, b = roof
    if rules.row_of(a) != rules.row_of(b) and rules.col_of(a) != rules.col_of(b):
        return None
    return roof


def _type2(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> Step | None:
    """The two roof corners have the same one extra digit c: one of them is c, so c leaves
    every cell that sees both."""
    roof = _roof(state, corners, pair)
    if roof is None:
        return None
    masks = state.masks
    a, b = roof
    extra = masks[a] & ~pair
    if masks[b] & ~pair != extra or extra.bit_count() != 1:
        return None
    (c,) = digits_of(extra)
    seen = set(state.tables.peers[a]) & set(state.tables.peers[b])
    removed = tuple((cell, c) for cell in sorted(seen) if masks[cell] & extra)
    if not removed:
        return None
    return Step(
        "unique_rectangle",
        f"{_name(state, corners, pair)} (type 2: {cells_text(state.rules, roof)} hold extra {c}, "
        f"so one of them is {c})",
        eliminations=removed,
    )


def _type3(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> Step | None:
    """The roof's extra digits act as one cell: with k - 1 other cells of a shared unit whose
    candidates lie within k digits, they form a naked subset there."""
    roof = _roof(state, corners, pair)
    if roof is None:
        return None
    rules = state.rules
    masks = state.masks
    a, b = roof
    extra = (masks[a] | masks[b]) & ~pair
    shared_units = [u for u in rules.units_of[a] if u in rules.units_of[b]]
    for index in shared_units:
        others = [c for c in rules.units[index] if masks[c] and c not in roof]
        for size in range(1, 4):
            for group in combinations(others, size):
                union = extra
                for cell in group:
                    union |= masks[cell]
                if union.bit_count() != size + 1:
                    continue
                removed: tuple[Move, ...] = tuple(
                    (cell, d)
                    for cell in others
                    if cell not in group
                    for d in digits_of(masks[cell] & union)
                )
                if removed:
                    return Step(
                        "unique_rectangle",
                        f"{_name(state, corners, pair)} (type 3: the extra digits of "
                        f"{cells_text(rules, roof)} with {cells_text(rules, group)} form a naked "
                        f"subset {digits_text(digits_of(union))} in {rules.unit_names[index]})",
                        eliminations=removed,
                    )
    return None


def _type4(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> Step | None:
    """In a unit the roof shares, one digit of the pair has only the roof's two places: the
    roof holds it once, so the other digit of the pair leaves both roof cells."""
    roof = _roof(state, corners, pair)
    if roof is None:
        return None
    rules = state.rules
    a, b = roof
    for index in rules.units_of[a]:
        if index not in rules.units_of[b] or index not in rules.houses:
            continue
        for digit in digits_of(pair):
            if sorted(state.places(rules.units[index], digit)) == sorted(roof):
                (other,) = digits_of(pair & ~bit(digit))
                return Step(
                    "unique_rectangle",
                    f"{_name(state, corners, pair)} (type 4: {digit} has only "
                    f"{cells_text(rules, roof)} in {rules.unit_names[index]})",
                    eliminations=((a, other), (b, other)),
                )
    return None


def _type5(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> Step | None:
    """Two diagonal corners or three corners hold the pair and the same one extra digit c,
    the others the pair only: one of them is c, so c leaves every cell that sees them all.
    (Two such corners on one row or column are type 2.)"""
    masks = state.masks
    extra_corners = [c for c in corners if masks[c] != pair]
    if len(extra_corners) not in (2, 3):
        return None
    extra = masks[extra_corners[0]] & ~pair
    if extra.bit_count() != 1 or any(masks[c] & ~pair != extra for c in extra_corners):
        return None
    if len(extra_corners) == 2 and _roof(state, corners, pair) is not None:
        return None
    (c,) = digits_of(extra)
    seen = set(state.tables.peers[extra_corners[0]])
    for corner in extra_corners[1:]:
        seen &= set(state.tables.peers[corner])
    removed = tuple((cell, c) for cell in sorted(seen) if masks[cell] & extra)
    if not removed:
        return None
    return Step(
        "unique_rectangle",
        f"{_name(state, corners, pair)} (type 5: {cells_text(state.rules, extra_corners)} hold "
        f"extra {c}, so one of them is {c})",
        eliminations=removed,
    )


def _row(rules: Rules, cell: int) -> list[int]:
    return [rules.cell(rules.row_of(cell), col) for col in range(rules.size)]


def _col(rules: Rules, cell: int) -> list[int]:
    return [rules.cell(row, rules.col_of(cell)) for row in range(rules.size)]


def _confined(state: Candidates, unit_cells: list[int], digit: int, cells: list[int]) -> bool:
    """`digit` has exactly `cells` as its places in the unit (a conjugate pair)."""
    return sorted(state.places(unit_cells, digit)) == sorted(cells)


def _type6(state: Candidates, corners: tuple[int, int, int, int], pair: int) -> Step | None:
    """Two diagonal corners hold the pair only, the other two have more; one digit u of the
    pair has only the corners as places in both rows (or in both columns). Were u in the two
    other corners, the pair-only corners would both be the other digit: a deadly pattern. So
    u leaves those two corners."""
    rules = state.rules
    masks = state.masks
    a, b, c, d = corners  # r1c1, r1c2, r2c1, r2c2
    for floor, roof in (((a, d), (b, c)), ((b, c), (a, d))):
        if masks[floor[0]] != pair or masks[floor[1]] != pair:
            continue
        if masks[roof[0]] == pair or masks[roof[1]] == pair:
            continue
        row_units = [_row(rules, x) for x in (a, c)]
        col_units = [_col(rules, x) for x in (a, b)]
        for digit in digits_of(pair):
            rows = all(
                _confined(state, unit, digit, [x for x in corners if x in unit])
                for unit in row_units
            )
            cols = all(
                _confined(state, unit, digit, [x for x in corners if x in unit])
                for unit in col_units
            )
            if rows or cols:
                lines = "rows" if rows else "columns"
                return Step(
                    "unique_rectangle",
                    f"{_name(state, corners, pair)} (type 6: {digit} has only the corners in "
                    f"both {lines}, so it is not in {cells_text(rules, roof)})",
                    eliminations=((roof[0], digit), (roof[1], digit)),
                )
    return None


def hidden_rectangle(state: Candidates) -> Step | None:
    """A rectangle whose corners all hold the pair a/b, one of them (the floor) nothing else.
    When a has only the corners as places in the row and in the column of the opposite
    corner, that corner is not b: were it b, the two corners beside it would be a and the
    floor b, a deadly pattern."""
    rules = state.rules
    masks = state.masks
    for corners, pair in _rectangles(state):
        a, b, c, d = corners
        for floor, opposite in ((a, d), (d, a), (b, c), (c, b)):
            if masks[floor] != pair:
                continue
            row = _row(rules, opposite)
            col = _col(rules, opposite)
            for digit in digits_of(pair):
                (other,) = digits_of(pair & ~bit(digit))
                in_row = [x for x in corners if x in row]
                in_col = [x for x in corners if x in col]
                if _confined(state, row, digit, in_row) and _confined(state, col, digit, in_col):
                    return Step(
                        "hidden_rectangle",
                        f"hidden rectangle {digits_text(digits_of(pair))} in "
                        f"{cells_text(rules, corners)} ({rules.cell_name(floor)} holds the pair "
                        f"only; {digit} has only the corners in the row and column of "
                        f"{rules.cell_name(opposite)})",
                        eliminations=((opposite, other),),
                    )
    return None


def bug_plus_one(state: Candidates) -> Step | None:
    """Every empty cell has two candidates but one, which has three: without its extra digit
    the grid would be a deadly pattern of pairs, so that cell takes the digit that appears
    three times in its row, column and box."""
    rules = state.rules
    masks = state.masks
    empty = state.empty_cells()
    triple = [c for c in empty if masks[c].bit_count() == 3]
    if len(triple) != 1 or any(masks[c].bit_count() != 2 for c in empty if c != triple[0]):
        return None
    (cell,) = triple
    for digit in digits_of(masks[cell]):
        counts = [len(state.places(rules.units[u], digit)) for u in rules.units_of[cell]]
        if all(count == 3 for count in counts):
            return Step(
                "bug_plus_one",
                f"BUG+1: every other empty cell holds two candidates, and {digit} appears three "
                f"times in each unit of {rules.cell_name(cell)}",
                placements=((cell, digit),),
            )
    return None
