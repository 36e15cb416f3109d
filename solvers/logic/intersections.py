"""Intersections: a digit confined to where a box meets a line (pointing pairs and triples),
or to where a line meets a box (box/line reduction). Diagonals of Sudoku-X count as lines."""

from __future__ import annotations

from functools import cache

from puzzles.geometry import Geometry
from solvers.logic.state import Candidates, Step, bit

GROUP_NAMES = {2: "pair", 3: "triple", 4: "quad"}


@cache
def _crossings(geometry: Geometry) -> tuple[tuple[int, int, frozenset[int]], ...]:
    """(box, line, shared cells) for every box and line sharing two or more cells."""
    n = geometry.size
    boxes = range(2 * n, 3 * n)
    lines = [*range(2 * n), *range(3 * n, len(geometry.units))]
    found = []
    for box in boxes:
        for line in lines:
            shared = frozenset(geometry.units[box]) & frozenset(geometry.units[line])
            if len(shared) >= 2:
                found.append((box, line, shared))
    return tuple(found)


def _confined(
    state: Candidates, inside: int, outside: int, shared: frozenset[int], digit: int
) -> list[int] | None:
    """If `digit`'s places in unit `inside` all lie in `shared`, the cells of unit `outside`
    beyond `shared` that still hold it (None when it is not confined or removes nothing)."""
    units = state.geometry.units
    if state.placed_in(units[inside]) & bit(digit):
        return None
    places = state.places(units[inside], digit)
    if not places or not shared.issuperset(places):
        return None
    return [cell for cell in state.places(units[outside], digit) if cell not in shared] or None


def pointing(state: Candidates) -> Step | None:
    """A digit whose places in a box lie on one line leaves the rest of that line."""
    geometry = state.geometry
    for box, line, shared in _crossings(geometry):
        for digit in geometry.digits:
            removed = _confined(state, box, line, shared, digit)
            if removed:
                count = len(state.places(geometry.units[box], digit))
                group = GROUP_NAMES.get(count, f"group of {count}")
                return Step(
                    "pointing",
                    f"pointing {group} of {digit}s in {geometry.unit_names[box]} "
                    f"({geometry.unit_names[line]})",
                    eliminations=tuple((cell, digit) for cell in removed),
                )
    return None


def box_line_reduction(state: Candidates) -> Step | None:
    """A digit whose places in a line lie in one box leaves the rest of that box."""
    geometry = state.geometry
    for box, line, shared in _crossings(geometry):
        for digit in geometry.digits:
            removed = _confined(state, line, box, shared, digit)
            if removed:
                return Step(
                    "box_line_reduction",
                    f"box/line reduction of {digit}s in {geometry.unit_names[line]} "
                    f"({geometry.unit_names[box]})",
                    eliminations=tuple((cell, digit) for cell in removed),
                )
    return None
