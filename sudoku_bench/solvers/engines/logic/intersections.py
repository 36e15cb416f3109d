"""Intersections: a digit confined to where a box meets a line (pointing pairs and triples),
or to where a line meets a box (box/line reduction). Boxes are the regions (jigsaw pieces
too); diagonals and extra regions count as lines, but only a house (a unit of N cells) must
hold a digit, so only a house confines one."""

from __future__ import annotations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import GROUP_NAMES, Candidates, Move, Step, digits_of
from sudoku_bench.solvers.engines.logic.structure import families
from sudoku_bench.solvers.tables import by_shape


@by_shape
def _crossings(rules: Rules) -> tuple[tuple[int, int, frozenset[int]], ...]:
    """(region, line, shared cells) for every region and other unit sharing two or more
    cells: rows, columns, diagonals and extra regions, against the boxes or jigsaw pieces."""
    shape = families(rules)
    units = shape.units
    lines = [*shape.rows, *shape.columns, *shape.extras]
    found = []
    for region in shape.regions:
        for line in lines:
            shared = frozenset(units[region]) & frozenset(units[line])
            if len(shared) >= 2:
                found.append((region, line, shared))
    return tuple(found)


@by_shape
def _house_set(rules: Rules) -> frozenset[int]:
    return frozenset(families(rules).houses)


def _confined(state: Candidates, inside: int, outside: int, shared: frozenset[int]) -> int:
    """The digits whose places in unit `inside` all lie in `shared` and which unit `outside`
    still holds beyond `shared`: the digits the intersection removes, as a mask."""
    units = state.families.units
    in_shared = state.union(shared)
    rest_inside = state.union(c for c in units[inside] if c not in shared)
    rest_outside = state.union(c for c in units[outside] if c not in shared)
    return in_shared & ~rest_inside & rest_outside


def _removed(
    state: Candidates, outside: int, shared: frozenset[int], digit: int
) -> tuple[Move, ...]:
    cells = state.places(state.families.units[outside], digit)
    return tuple((cell, digit) for cell in cells if cell not in shared)


def pointing(state: Candidates) -> Step | None:
    """A digit whose places in a box lie on one line leaves the rest of that line (any unit
    the box crosses: a digit the box must hold, the line may hold only once)."""
    shape = state.families
    for box, line, shared in _crossings(state.rules):
        digits = _confined(state, box, line, shared)
        if digits:
            digit = digits_of(digits)[0]
            count = len(state.places(shape.units[box], digit))
            group = GROUP_NAMES.get(count, f"group of {count}")
            return Step(
                "pointing",
                f"pointing {group} of {digit}s in {shape.names[box]} ({shape.names[line]})",
                eliminations=_removed(state, line, shared, digit),
            )
    return None


def box_line_reduction(state: Candidates) -> Step | None:
    """A digit whose places in a line lie in one box leaves the rest of that box. The line
    must be a house (N cells): a smaller extra region need not hold the digit at all."""
    names = state.families.names
    houses = _house_set(state.rules)
    for box, line, shared in _crossings(state.rules):
        if line not in houses:
            continue
        digits = _confined(state, line, box, shared)
        if digits:
            digit = digits_of(digits)[0]
            return Step(
                "box_line_reduction",
                f"box/line reduction of {digit}s in {names[line]} ({names[box]})",
                eliminations=_removed(state, box, shared, digit),
            )
    return None
