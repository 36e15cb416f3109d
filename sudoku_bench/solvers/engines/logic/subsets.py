"""Naked and hidden subsets: k cells of a unit holding only k digits, or k digits with only
k places in a unit (pairs, triples, quads)."""

from __future__ import annotations

from itertools import combinations

from sudoku_bench.solvers.engines.logic.state import (
    GROUP_NAMES,
    Candidates,
    Move,
    Step,
    bit,
    cells_text,
    digits_of,
    digits_text,
)


def naked_subset(state: Candidates, size: int) -> Step | None:
    """`size` cells of one unit whose candidates together are `size` digits: those digits
    leave every other cell that sees all of them."""
    rules = state.rules
    masks = state.masks
    for index, unit in enumerate(rules.units):
        open_cells = [c for c in unit if masks[c] and masks[c].bit_count() <= size]
        for group in combinations(open_cells, size):
            union = 0
            for cell in group:
                union |= masks[cell]
            if union.bit_count() != size:
                continue
            digits = digits_of(union)
            eliminations = tuple(
                (cell, digit)
                for cell in _seen_by_all(state, group)
                for digit in digits
                if masks[cell] & bit(digit)
            )
            if eliminations:
                name = f"naked {GROUP_NAMES[size]}"
                return Step(
                    name.replace(" ", "_"),
                    f"{name} {digits_text(digits)} in {cells_text(rules, group)} "
                    f"({rules.unit_names[index]})",
                    eliminations=eliminations,
                )
    return None


def hidden_subset(state: Candidates, size: int) -> Step | None:
    """`size` digits that have only the same `size` places in a unit: those cells drop
    every other candidate."""
    rules = state.rules
    masks = state.masks
    for index in rules.houses:  # only a house must hold every digit
        unit = rules.units[index]
        placed = state.unit_placed[index]
        # the search reads only this house's candidates and placed digits
        key = ("hidden_subset", size, index, placed, tuple(masks[cell] for cell in unit))
        if key in state.barren:
            continue
        places = {
            digit: frozenset(state.places(unit, digit))
            for digit in rules.digits
            if not placed & bit(digit)
        }
        few = [digit for digit, cells in places.items() if 2 <= len(cells) <= size]
        for digits in combinations(few, size):
            cells = frozenset().union(*(places[d] for d in digits))
            if len(cells) != size:
                continue
            keep = sum(bit(d) for d in digits)
            eliminations: tuple[Move, ...] = tuple(
                (cell, digit) for cell in sorted(cells) for digit in digits_of(masks[cell] & ~keep)
            )
            if eliminations:
                name = f"hidden {GROUP_NAMES[size]}"
                return Step(
                    name.replace(" ", "_"),
                    f"{name} {digits_text(digits)} in {cells_text(rules, cells)} "
                    f"({rules.unit_names[index]})",
                    eliminations=eliminations,
                )
        state.barren.add(key)
    return None


def _seen_by_all(state: Candidates, group: tuple[int, ...]) -> list[int]:
    """Empty cells outside `group` that share a unit with every cell of it."""
    peers = state.tables.peers
    common = set(peers[group[0]])
    for cell in group[1:]:
        common &= set(peers[cell])
    return sorted(cell for cell in common if state.masks[cell])


def naked_pair(state: Candidates) -> Step | None:
    return naked_subset(state, 2)


def naked_triple(state: Candidates) -> Step | None:
    return naked_subset(state, 3)


def naked_quad(state: Candidates) -> Step | None:
    return naked_subset(state, 4)


def hidden_pair(state: Candidates) -> Step | None:
    return hidden_subset(state, 2)


def hidden_triple(state: Candidates) -> Step | None:
    return hidden_subset(state, 3)


def hidden_quad(state: Candidates) -> Step | None:
    return hidden_subset(state, 4)
