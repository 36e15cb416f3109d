"""Wings: a few cells that between them must hold a digit z, whichever way the others fall,
so z leaves every cell that sees all of them. W-wing (two equal bivalue cells joined by a
strong link), XYZ-wing (a three-digit pivot and two pincers), WXYZ-wing (four cells, four
digits, every digit but z confined to cells that see each other)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudoku_bench.solvers.engines.logic.links import peer_sets
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Step,
    bit,
    cells_text,
    digits_of,
    digits_text,
)


def _seen_by_all(state: Candidates, cells: list[int] | tuple[int, ...]) -> set[int]:
    peers = state.tables.peers
    common = set(peers[cells[0]])
    for cell in cells[1:]:
        common &= set(peers[cell])
    return common - set(cells)


def w_wing(state: Candidates) -> Step | None:
    """Two cells holding the same pair x/y that do not see each other, and a house where x
    has only two places, one seeing each cell: one of the two cells is y, so y leaves
    every cell that sees both."""
    rules = state.rules
    masks = state.masks
    name = rules.cell_name
    peers = peer_sets(rules)
    bivalue = [cell for cell in state.empty_cells() if masks[cell].bit_count() == 2]
    links = []
    for index in rules.houses:
        for digit in rules.digits:
            if not state.unit_placed[index] & bit(digit):
                places = state.places(rules.units[index], digit)
                if len(places) == 2:
                    links.append((index, digit, places[0], places[1]))
    for first, second in combinations(bivalue, 2):
        if masks[first] != masks[second] or second in peers[first]:
            continue
        for index, x, p, q in links:
            if not masks[first] & bit(x):
                continue
            for a, b in ((p, q), (q, p)):
                if a in (first, second) or b in (first, second):
                    continue
                if a in peers[first] and b in peers[second]:
                    (y,) = digits_of(masks[first] & ~bit(x))
                    seen = peers[first] & peers[second]
                    removed = tuple((cell, y) for cell in sorted(seen) if masks[cell] & bit(y))
                    if removed:
                        return Step(
                            "w_wing",
                            f"W-wing on {name(first)} and {name(second)} "
                            f"({digits_text(digits_of(masks[first]))}, joined by the only two "
                            f"{x}s of {rules.unit_names[index]} at {name(a)}, {name(b)}: one "
                            f"of them is {y})",
                            eliminations=removed,
                        )
    return None


def xyz_wing(state: Candidates) -> Step | None:
    """A pivot x/y/z seeing pincers x/z and y/z: one of the three is z, so z leaves every
    cell that sees all three."""
    rules = state.rules
    masks = state.masks
    name = rules.cell_name
    for pivot in state.empty_cells():
        if masks[pivot].bit_count() != 3:
            continue
        wings = [
            p
            for p in state.tables.peers[pivot]
            if masks[p].bit_count() == 2 and masks[p] & ~masks[pivot] == 0
        ]
        for first, second in combinations(wings, 2):
            shared = masks[first] & masks[second]
            if masks[first] == masks[second] or shared.bit_count() != 1:
                continue
            (z,) = digits_of(shared)
            seen = _seen_by_all(state, (pivot, first, second))
            removed = tuple((cell, z) for cell in sorted(seen) if masks[cell] & shared)
            if removed:
                return Step(
                    "xyz_wing",
                    f"XYZ-wing with pivot {name(pivot)} ({_marks(state, pivot)}) and pincers "
                    f"{name(first)} ({_marks(state, first)}), {name(second)} "
                    f"({_marks(state, second)}) (one of them is {z})",
                    eliminations=removed,
                )
    return None


def wxyz_wing(state: Candidates) -> Step | None:
    """Four cells holding four digits between them, each of three digits confined to cells
    that see each other (it can be there once at most): the four cells need four digits, so
    the fourth digit z is in one of them, and it leaves every cell that sees all its places
    in the wing."""
    rules = state.rules
    masks = state.masks
    peers = peer_sets(rules)
    for pivot in state.empty_cells():
        if not 2 <= masks[pivot].bit_count() <= 4:
            continue
        around = [
            p
            for p in state.tables.peers[pivot]
            if 2 <= masks[p].bit_count() <= 4 and (masks[p] | masks[pivot]).bit_count() <= 4
        ]
        for others in _triples_within_four(masks, masks[pivot], around):
            cells = (pivot, *others)
            union = masks[pivot] | masks[others[0]] | masks[others[1]] | masks[others[2]]
            loose = []
            for digit in digits_of(union):
                holders = [c for c in cells if masks[c] & bit(digit)]
                if any(b not in peers[a] for a, b in combinations(holders, 2)):
                    loose.append((digit, holders))
            if len(loose) != 1:
                continue
            z, holders = loose[0]
            seen = _seen_by_all(state, holders)
            removed = tuple((cell, z) for cell in sorted(seen - set(cells)) if masks[cell] & bit(z))
            if removed:
                marks = ", ".join(f"{rules.cell_name(c)} ({_marks(state, c)})" for c in cells)
                return Step(
                    "wxyz_wing",
                    f"WXYZ-wing {marks} (four cells, four digits, only {z} can repeat, so one "
                    f"of {cells_text(rules, holders)} is {z})",
                    eliminations=removed,
                )
    return None


def _triples_within_four(
    masks: list[int], start: int, cells: list[int]
) -> Iterator[tuple[int, int, int]]:
    """The triples of `cells` (in the order of `combinations`) whose candidates with `start`
    make exactly four digits; a pair already past four ends its branch early."""
    count = len(cells)
    for i in range(count):
        first = start | masks[cells[i]]
        for j in range(i + 1, count):
            second = first | masks[cells[j]]
            if second.bit_count() > 4:
                continue
            for k in range(j + 1, count):
                if (second | masks[cells[k]]).bit_count() == 4:
                    yield cells[i], cells[j], cells[k]


def _marks(state: Candidates, cell: int) -> str:
    return digits_text(state.candidates(cell))
