"""Almost locked sets: n cells of one unit that hold n + 1 digits between them. Remove any
one digit and the rest is locked, so an ALS that loses a digit holds all of the others.

ALS-XZ: two sets share a restricted common digit x (every x of one sees every x of the
other, so at most one set holds x). The set without x is locked: a second common digit z is
then in one set or the other, and z leaves every cell that sees all z of both. ALS-XY-wing:
sets A and B each joined to a pivot set C by a different restricted digit (x, y); C cannot
lose both, so A or B is locked and a digit z common to A and B goes as before.
Doubly linked ALS-XZ: two restricted common digits x and y; each set then lacks exactly one
of them, so every other digit of a set is in it, and x and y are each in one set or the other.
ALS-XY-chain: sets A1 - A2 - ... - Ak, each joined to the next by a restricted common digit
that differs from the one before: if A1 lacks z it is locked, holds x1, so A2 lacks x1, is
locked and holds x2, ... and Ak holds z; so z is in A1 or in Ak.

Sets have up to eight cells, as HoDoKu collects them (every ALS of a unit).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.links import bits
from sudoku_bench.solvers.engines.logic.state import Candidates, Move, Step, digits_of, digits_text
from sudoku_bench.solvers.engines.logic.structure import logic_tables
from sudoku_bench.solvers.tables import per_puzzle

MAX_CELLS = 8  # every ALS of a 9-cell unit, as HoDoKu collects them
LARGE_GRID_CELLS = 4  # past 9x9 the subsets of a unit are too many to list them all
MAX_CHAIN_LINKS = 8  # ALS-XY-chains of up to nine sets: the search is breadth first


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


def almost_locked_sets(state: Candidates, max_cells: int | None = None) -> list[Als]:
    """Every ALS of up to `max_cells` cells (by default every one of a 9x9 grid, four cells
    at most on larger grids), each set once (in the first unit it lies in)."""
    if max_cells is None:
        max_cells = MAX_CELLS if state.rules.size <= 9 else LARGE_GRID_CELLS
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
    return _doubly_linked(state, sets, links)


def _doubly_linked(
    state: Candidates, sets: list[Als], links: dict[int, list[tuple[int, int]]]
) -> Step | None:
    """Two sets joined by two restricted common digits x and y: each lacks one of them (it
    cannot lack both, nor can both hold the same one), so each set holds all its other
    digits, and x and y are each in A or in B."""
    for i, around in links.items():
        a = sets[i]
        for j, rcc in around:
            if j < i or rcc.bit_count() < 2:
                continue
            b = sets[j]
            outside = ~(a.cell_bits | b.cell_bits)
            removed: list[Move] = list(_removals(state, a, b, rcc))
            for als in (a, b):
                for digit in digits_of(als.digits & ~rcc):
                    seen = als.seen[digit - 1] & outside & state.digit_board(digit)
                    removed.extend((cell, digit) for cell in bits(seen))
            if removed:
                return Step(
                    "als_xz",
                    f"doubly linked ALS-XZ with A = {_describe(state, a)}, "
                    f"B = {_describe(state, b)} (restricted commons "
                    f"{digits_text(digits_of(rcc))}: each set lacks one of them and holds all "
                    f"its other digits)",
                    eliminations=tuple(sorted(set(removed))),
                )
    return None


def als_xy_chain(state: Candidates) -> Step | None:
    """The shortest ALS chain that removes something (see the module's docstring): breadth
    first from each set A1 that lacks a digit z, over (set, the restricted digit it lost),
    until a set Ak holding z is reached through a digit other than z and some cell outside
    both sees every z of A1 and of Ak."""
    sets, links = _links(state)
    best: tuple[list[tuple[int, int]], int, tuple[Move, ...]] | None = None
    for start, a in enumerate(sets):
        for z in digits_of(a.digits):
            d = z - 1
            reach = a.seen[d] & ~a.cell_bits & state.digit_board(z)
            if not reach:
                continue
            limit = len(best[0]) - 2 if best else MAX_CHAIN_LINKS
            found = _chain_from(sets, links, start, z, reach, limit)
            if found is not None:
                path, removed = found
                best = (path, z, removed)
    if best is None:
        return None
    path, z, removed = best
    text = _describe(state, sets[path[0][0]])
    for index, lost in path[1:]:
        text += f" -{lost}- {_describe(state, sets[index])}"
    return Step(
        "als_xy_chain",
        f"ALS-XY-chain {text} (if the first set lacks {z} each set is locked in turn and the "
        f"last holds {z})",
        eliminations=removed,
    )


def _chain_from(
    sets: list[Als],
    links: dict[int, list[tuple[int, int]]],
    start: int,
    z: int,
    reach: int,
    limit: int,
) -> tuple[list[tuple[int, int]], tuple[Move, ...]] | None:
    """The shortest chain of at least two links and at most `limit` from `start` (which
    lacks `z`) to a set that must then hold z, whose sets are disjoint, with the cells
    outside the two ends that see every z of both (a subset of `reach`)."""
    d = z - 1
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, z): None}
    frontier = [(start, z)]
    for depth in range(1, limit + 1):
        following: list[tuple[int, int]] = []
        for node in frontier:
            index, lost = node
            for j, rcc in links[index]:
                for x in digits_of(rcc & ~(1 << (lost - 1))):
                    step = (j, x)
                    if step in parent:
                        continue
                    parent[step] = node
                    following.append(step)
                    b = sets[j]
                    if depth < 2 or x == z or not b.holders[d]:
                        continue
                    hit = reach & b.seen[d] & ~b.cell_bits
                    if not hit:
                        continue
                    path = [step]
                    back = parent[step]
                    while back is not None:
                        path.append(back)
                        back = parent[back]
                    path.reverse()
                    used = 0
                    disjoint = True
                    for member, _ in path:
                        if used & sets[member].cell_bits:
                            disjoint = False
                            break
                        used |= sets[member].cell_bits
                    if disjoint:
                        return path, tuple((cell, z) for cell in bits(hit))
        frontier = following
        if not frontier:
            break
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
