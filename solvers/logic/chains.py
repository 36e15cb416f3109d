"""Chain techniques: XY-wing (three bivalue cells) and simple colouring (chains of
conjugate pairs of one digit, coloured alternately)."""

from __future__ import annotations

from collections import deque

from solvers.logic.state import Candidates, Step, bit, cells_text, digits_of, digits_text


def xy_wing(state: Candidates) -> Step | None:
    """A pivot {a,b} seeing pincers {a,c} and {b,c}: whichever the pivot takes, one pincer is
    c, so c leaves every cell that sees both pincers."""
    rules = state.rules
    masks = state.masks
    name = rules.cell_name
    bivalue = [cell for cell in state.empty_cells() if masks[cell].bit_count() == 2]
    for pivot in bivalue:
        wings = [p for p in rules.peers[pivot] if masks[p].bit_count() == 2]
        for first in wings:
            shared = masks[first] & masks[pivot]
            if shared.bit_count() != 1:
                continue
            c = masks[first] & ~shared
            wanted = (masks[pivot] & ~shared) | c
            for second in wings:
                if masks[second] != wanted:
                    continue
                (digit,) = digits_of(c)
                seen = set(rules.peers[first]) & set(rules.peers[second])
                removed = sorted(cell for cell in seen if masks[cell] & c and cell != pivot)
                if removed:
                    return Step(
                        "xy_wing",
                        f"XY-wing with pivot {name(pivot)} ({_marks(state, pivot)}) and pincers "
                        f"{name(first)} ({_marks(state, first)}), "
                        f"{name(second)} ({_marks(state, second)})",
                        eliminations=tuple((cell, digit) for cell in removed),
                    )
    return None


def _marks(state: Candidates, cell: int) -> str:
    return digits_text(state.candidates(cell))


def conjugate_links(state: Candidates, digit: int) -> dict[int, set[int]]:
    """Strong links of `digit`: pairs of cells that are its only two places in some unit."""
    links: dict[int, set[int]] = {}
    for index, unit in enumerate(state.rules.units):
        if state.unit_placed[index] & bit(digit):
            continue
        places = state.places(unit, digit)
        if len(places) == 2:
            a, b = places
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def _colour(links: dict[int, set[int]], start: int) -> dict[int, int]:
    """Colour 0/1 alternately along the links from `start` (breadth first)."""
    colours = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in sorted(links[cell]):
            if other not in colours:
                colours[other] = 1 - colours[cell]
                queue.append(other)
    return colours


def simple_colouring(state: Candidates) -> Step | None:
    """Along a chain of conjugate pairs of one digit, one colour holds the digit and the other
    does not. Colour wrap: two cells of one colour share a unit, so that colour is false.
    Colour trap: a cell that sees both colours cannot hold the digit."""
    rules = state.rules
    peers = [set(p) for p in rules.peers]
    for digit in rules.digits:
        links = conjugate_links(state, digit)
        done: set[int] = set()
        for start in sorted(links):
            if start in done:
                continue
            colours = _colour(links, start)
            done |= colours.keys()
            sides = [sorted(c for c, k in colours.items() if k == side) for side in (0, 1)]
            chain = f"{cells_text(rules, sides[0])} | {cells_text(rules, sides[1])}"
            for side in sides:
                clash = next(((a, b) for a in side for b in side if a < b and b in peers[a]), None)
                if clash:
                    return Step(
                        "simple_colouring",
                        f"simple colouring of {digit}s (colour wrap: {cells_text(rules, clash)} "
                        f"share a colour and a unit; chain {chain})",
                        eliminations=tuple((cell, digit) for cell in side),
                    )
            trapped = [
                cell
                for cell in state.empty_cells()
                if state.masks[cell] & bit(digit)
                and cell not in colours
                and peers[cell].intersection(sides[0])
                and peers[cell].intersection(sides[1])
            ]
            if trapped:
                return Step(
                    "simple_colouring",
                    f"simple colouring of {digit}s (colour trap: chain {chain})",
                    eliminations=tuple((cell, digit) for cell in trapped),
                )
    return None
