"""Almost locked sets: n cells of one unit that hold n + 1 digits between them. Remove any
one digit and the rest is locked, so an ALS that loses a digit holds all of the others.

ALS-XZ: two sets share a restricted common digit x (every x of one sees every x of the
other, so at most one set holds x). The set without x is locked: a second common digit z is
then in one set or the other, and z leaves every cell that sees all z of both. ALS-XY-wing:
sets A and B each joined to a pivot set C by a different restricted digit (x, y); C cannot
lose both, so A or B is locked and a digit z common to A and B goes as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.links import bits
from sudoku_bench.solvers.engines.logic.state import Candidates, Move, Step, digits_of, digits_text
from sudoku_bench.solvers.engines.logic.structure import logic_tables
from sudoku_bench.solvers.tables import per_puzzle

MAX_CELLS = 4  # larger sets are rare in teachers' examples and make the pair search slow


@dataclass(frozen=True)
class Als:
    unit: int  # the unit it lies in (for the log)
    cells: tuple[int, ...]
    cell_bits: int  # the cells as a bit set
    digits: int  # the n + 1 digits, as a mask
    holders: tuple[int, ...]  # per digit - 1: the cells holding it, as a bit set
    seen: tuple[int, ...]  # per digit - 1: the cells that see every holder (bit set)


@per_puzzle
def peer_bits(rules: Rules) -> tuple[int, ...]:
    return tuple(sum(1 << peer for peer in peers) for peers in logic_tables(rules).peers)


def almost_locked_sets(state: Candidates, max_cells: int = MAX_CELLS) -> list[Als]:
    """Every ALS of up to `max_cells` cells, each set once (in the first unit it lies in)."""
    found: dict[int, Als] = {}
    for index in range(len(state.rules.units)):
        for als in _unit_sets(state, index, max_cells):
            found.setdefault(als.cell_bits, als)
    return list(found.values())


def _unit_sets(state: Candidates, index: int, max_cells: int) -> list[Als]:
    """The ALS of one unit. They depend only on its cells' candidates, so they are kept
    (in `state.derived`) for as long as those stay the same, across steps."""
    rules = state.rules
    masks = state.masks
    unit = rules.units[index]
    key = ("als", index, max_cells, tuple(masks[cell] for cell in unit))
    kept: list[Als] | None = state.derived.get(key)
    if kept is not None:
        return kept
    peers = peer_bits(rules)
    everyone = (1 << rules.cell_count) - 1
    sets: list[Als] = []
    open_cells = [cell for cell in unit if masks[cell]]
    for count in range(1, min(max_cells, len(open_cells) - 1) + 1):
        for cells in combinations(open_cells, count):
            union = 0
            for cell in cells:
                union |= masks[cell]
            if union.bit_count() != count + 1:
                continue
            holders = []
            seen = []
            for digit in range(1, rules.size + 1):
                held = seen_all = 0
                if union >> (digit - 1) & 1:
                    seen_all = everyone
                    for cell in cells:
                        if masks[cell] >> (digit - 1) & 1:
                            held |= 1 << cell
                            seen_all &= peers[cell]
                holders.append(held)
                seen.append(seen_all if held else 0)
            cell_bits = sum(1 << cell for cell in cells)
            sets.append(Als(index, cells, cell_bits, union, tuple(holders), tuple(seen)))
    state.derived[key] = sets
    return sets


def _removals(state: Candidates, a: Als, b: Als, z_digits: int) -> tuple[Move, ...]:
    """Each digit z of `z_digits` from the cells outside both sets that see all its places."""
    removed = []
    outside = ~(a.cell_bits | b.cell_bits)
    for digit in digits_of(z_digits):
        d = digit - 1
        for cell in bits(a.seen[d] & b.seen[d] & outside & state.digit_board(digit)):
            removed.append((cell, digit))
    return tuple(removed)


def _describe(state: Candidates, als: Als) -> str:
    rules = state.rules
    cells = ", ".join(rules.cell_name(c) for c in als.cells)
    return f"{{{cells}}} ({digits_text(digits_of(als.digits))}, {rules.unit_names[als.unit]})"


def _links(state: Candidates) -> tuple[list[Als], dict[int, list[tuple[int, int]]]]:
    """The sets, and for each one the disjoint sets it shares restricted common digits with
    (and those digits, as a mask). Found through the cells that see all of a digit's
    places in a set, not by trying every pair; kept for the position."""
    if "als" in state.memo:
        found: tuple[list[Als], dict[int, list[tuple[int, int]]]] = state.memo["als"]
        return found
    sets = almost_locked_sets(state)
    n = state.rules.size
    by_first: list[dict[int, list[int]]] = [{} for _ in range(n)]
    for index, als in enumerate(sets):
        for d in range(n):
            held = als.holders[d]
            if held:
                lowest = (held & -held).bit_length() - 1
                by_first[d].setdefault(lowest, []).append(index)
    # per digit, the cells that are some set's lowest holder: only those can lead anywhere
    firsts = [sum(1 << cell for cell in by_first[d]) for d in range(n)]
    rcc: dict[tuple[int, int], int] = {}
    for i, a in enumerate(sets):
        for d in range(n):
            if not a.holders[d]:
                continue
            seen = a.seen[d]
            for cell in bits(seen & firsts[d]):
                for j in by_first[d].get(cell, ()):
                    if j <= i:
                        continue
                    b = sets[j]
                    if b.holders[d] & ~seen or a.holders[d] & ~b.seen[d]:
                        continue
                    if a.cell_bits & b.cell_bits:
                        continue
                    rcc[(i, j)] = rcc.get((i, j), 0) | 1 << d
    links: dict[int, list[tuple[int, int]]] = {i: [] for i in range(len(sets))}
    for (i, j), digits in sorted(rcc.items()):
        links[i].append((j, digits))
        links[j].append((i, digits))
    state.memo["als"] = (sets, links)
    return sets, links


def als_xz(state: Candidates) -> Step | None:
    sets, links = _links(state)
    for i, around in links.items():
        a = sets[i]
        for j, rcc in around:
            if j < i:
                continue
            b = sets[j]
            common = a.digits & b.digits
            if common.bit_count() < 2:
                continue
            for x in digits_of(rcc):
                removed = _removals(state, a, b, common & ~(1 << (x - 1)))
                if removed:
                    return Step(
                        "als_xz",
                        f"ALS-XZ with A = {_describe(state, a)}, B = {_describe(state, b)} "
                        f"(restricted common {x}: one set is locked, so each other common "
                        f"digit is in A or B)",
                        eliminations=removed,
                    )
    return None


def als_xy_wing(state: Candidates) -> Step | None:
    sets, links = _links(state)
    for c, around in links.items():
        for (i, x_mask), (j, y_mask) in combinations(around, 2):
            a, b = sets[i], sets[j]
            if a.cell_bits & b.cell_bits:
                continue
            # the common digits that some cell outside A and B could lose (then x and y)
            outside = ~(a.cell_bits | b.cell_bits)
            removable = 0
            for digit in digits_of(a.digits & b.digits):
                d = digit - 1
                if a.seen[d] & b.seen[d] & outside & state.digit_board(digit):
                    removable |= 1 << d
            if not removable:
                continue
            for x in digits_of(x_mask):
                for y in digits_of(y_mask & ~(1 << (x - 1))):
                    z_digits = removable & ~(1 << (x - 1)) & ~(1 << (y - 1))
                    if not z_digits:
                        continue
                    removed = _removals(state, a, b, z_digits)
                    removed = tuple(
                        move for move in removed if not sets[c].cell_bits >> move[0] & 1
                    )
                    if removed:
                        return Step(
                            "als_xy_wing",
                            f"ALS-XY-wing with pivot C = {_describe(state, sets[c])}, "
                            f"A = {_describe(state, a)} (restricted common {x} with C), "
                            f"B = {_describe(state, b)} (restricted common {y} with C) "
                            f"(A or B is locked)",
                            eliminations=removed,
                        )
    return None
