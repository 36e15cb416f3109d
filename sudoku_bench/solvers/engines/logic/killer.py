"""Killer cages, reasoned as a person does: the combinations a cage's sum allows, the digits
a cage must hold and where that leaves the rest of a house, and the 45 rule (a house holds
1 + 2 + ... + N, so the cells a set of houses has beyond its whole cages, the innies, or the
cells its cages have beyond it, the outies, add up to a known sum)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from sudoku_bench.puzzles.checker import cage_name
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Move,
    Step,
    bit,
    cells_text,
    digits_of,
)
from sudoku_bench.solvers.engines.logic.structure import logic_tables
from sudoku_bench.solvers.tables import by_shape

MAX_VIRTUAL = 4  # innies / outies of at most this many open cells are worked out


def has_cages(rules: Rules) -> bool:
    return "cage_combinations" in logic_tables(rules).techniques


def cage_options(
    state: Candidates, cage: Cage, required: int = 0
) -> tuple[list[int], list[int]] | None:
    """(per open cell of the cage, the digits some filling allows; the fillings' digit sets)
    for the fillings that keep the digits distinct, use each cell's candidates, add up to the
    sum and hold every digit of `required`. None when the cage has no open cell."""
    values, masks = state.values, state.masks
    open_cells = [c for c in cage.cells if not values[c]]
    if not open_cells:
        return None
    fixed = 0
    fixed_sum = 0
    for c in cage.cells:
        if values[c]:
            fixed |= bit(values[c])
            fixed_sum += values[c]
    remaining = None if cage.total is None else cage.total - fixed_sum
    count = len(open_cells)
    memo: dict[tuple[int, int, int], bool] = {}

    def good(i: int, used: int, total: int) -> bool:
        """Whether cells i.. can be filled from here."""
        if i == count:
            return (remaining is None or total == remaining) and used & required == required
        key = (i, used, total)
        if key not in memo:
            memo[key] = any(
                good(i + 1, used | bit(d), total + d)
                for d in digits_of(masks[open_cells[i]] & ~used)
                if remaining is None or total + d <= remaining
            )
        return memo[key]

    allowed = [0] * count
    fillings: set[int] = set()
    frontier = {(fixed, 0)}
    for i in range(count):
        following = set()
        for used, total in frontier:
            for d in digits_of(masks[open_cells[i]] & ~used):
                nxt = (used | bit(d), total + d)
                if (remaining is None or nxt[1] <= remaining) and good(i + 1, *nxt):
                    allowed[i] |= bit(d)
                    following.add(nxt)
        frontier = following
    fillings = {used & ~fixed for used, _ in frontier}
    return allowed, sorted(fillings)


def _fillings_text(fillings: list[int]) -> str:
    if len(fillings) == 1:
        digits = digits_of(fillings[0])
        if len(digits) == 1:
            return f"only {digits[0]}"
        return "only " + ", ".join(str(d) for d in digits[:-1]) + f" and {digits[-1]}"
    return "combinations " + ", ".join("+".join(str(d) for d in digits_of(f)) for f in fillings)


def cage_combinations(state: Candidates) -> Step | None:
    """A cage's cells keep only the digits of the fillings its sum (and the digits already in
    it) allow: `cage r1c1+r1c2 = 3: only 1 and 2`."""
    rules = state.rules
    for cage in state.tables.cages:
        found = cage_options(state, cage)
        if found is None:
            continue
        allowed, fillings = found
        open_cells = [c for c in cage.cells if not state.values[c]]
        removed = _outside(state, open_cells, allowed)
        if removed or not fillings:
            words = _fillings_text(fillings) if fillings else "no filling is left"
            return Step(
                "cage_combinations",
                f"{cage_name(rules, cage)}: {words}",
                eliminations=removed
                or tuple((c, d) for c in open_cells for d in state.candidates(c)),
            )
    return None


def _outside(state: Candidates, cells: Sequence[int], allowed: Sequence[int]) -> tuple[Move, ...]:
    return tuple(
        (cell, d)
        for cell, keep in zip(cells, allowed, strict=True)
        for d in digits_of(state.masks[cell] & ~keep)
    )


def cage_unit(state: Candidates) -> Step | None:
    """Cage and house together: a digit every filling of a cage holds leaves each cell that
    sees all its places in the cage; and a digit whose places in a house all lie in one cage
    must be in that cage, which keeps only the fillings that hold it."""
    rules = state.rules
    peers = [frozenset(p) for p in state.tables.peers]
    for cage in state.tables.cages:
        found = cage_options(state, cage)
        if found is None:
            continue
        _, fillings = found
        if not fillings:
            continue
        must = fillings[0]
        for f in fillings[1:]:
            must &= f
        for digit in digits_of(must):
            places = [c for c in cage.cells if state.masks[c] & bit(digit)]
            if not places:
                continue
            seen = peers[places[0]].intersection(*(peers[c] for c in places[1:]))
            removed = tuple(
                (c, digit) for c in sorted(seen - set(cage.cells)) if state.masks[c] & bit(digit)
            )
            if removed:
                return Step(
                    "cage_unit",
                    f"{cage_name(rules, cage)} must hold {digit} ({_fillings_text(fillings)}), "
                    f"in {cells_text(rules, places)}",
                    eliminations=removed,
                )
    for index in rules.houses:
        for digit in rules.digits:
            if state.unit_placed[index] & bit(digit):
                continue
            places = state.places(rules.units[index], digit)
            if not places:
                continue
            owners = set(state.tables.cages_of[places[0]])
            for c in places[1:]:
                owners &= set(state.tables.cages_of[c])
            for owner in sorted(owners):
                cage = state.tables.cages[owner]
                found = cage_options(state, cage, required=bit(digit))
                if found is None:
                    continue
                allowed, fillings = found
                open_cells = [c for c in cage.cells if not state.values[c]]
                removed = _outside(state, open_cells, allowed)
                if removed:
                    return Step(
                        "cage_unit",
                        f"the {digit}s of {rules.unit_names[index]} all lie in "
                        f"{cage_name(rules, cage)}, so it holds {digit}: "
                        f"{_fillings_text(fillings) if fillings else 'no filling is left'}",
                        eliminations=removed,
                    )
    return None


@by_shape
def _house_groups(rules: Rules) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """(name, cells, houses) for the 45 rule: every house, then 2 and 3 adjacent rows and
    columns."""
    n = rules.size
    groups: list[tuple[str, tuple[int, ...], int]] = []
    for index in rules.houses:
        groups.append((rules.unit_names[index], rules.units[index], 1))
    for kind, lines in (("rows", rules.rows), ("columns", rules.columns)):
        for width in (2, 3):
            for first in range(n - width + 1):
                cells = tuple(c for line in lines[first : first + width] for c in line)
                groups.append((f"{kind} {first + 1}-{first + width}", cells, width))
    return tuple(groups)


def _overlapping(state: Candidates) -> bool:
    return any(len(owners) > 1 for owners in state.tables.cages_of)


def innies_outies(state: Candidates) -> Step | None:
    """The 45 rule: houses add up to N(N+1)/2 each. Take away the cages wholly inside and the
    rest (the innies) add up to what is left; take away the houses from the cages that cross
    them and the rest (the outies) add up to the difference. A few open cells with a known
    sum keep only the digits that can make it."""
    rules = state.rules
    if _overlapping(state) or not all(cage.total is not None for cage in state.tables.cages):
        return None
    house_sum = rules.size * (rules.size + 1) // 2
    cage_of = [owners[0] if owners else -1 for owners in state.tables.cages_of]
    for name, cells, houses in _house_groups(rules):
        inside = set(cells)
        touching = {cage_of[c] for c in cells if cage_of[c] >= 0}
        whole = [k for k in touching if set(state.tables.cages[k].cells) <= inside]
        whole_sum = sum(state.tables.cages[k].total or 0 for k in whole)
        covered = {c for k in whole for c in state.tables.cages[k].cells}
        innies = [c for c in cells if c not in covered]
        step = _virtual(state, name, "innie", innies, houses * house_sum - whole_sum)
        if step:
            return step
        if all(cage_of[c] >= 0 for c in cells):
            crossing = touching - set(whole)
            outies = sorted(
                c for k in crossing for c in state.tables.cages[k].cells if c not in inside
            )
            total = sum(state.tables.cages[k].total or 0 for k in touching) - houses * house_sum
            step = _virtual(state, name, "outie", outies, total)
            if step:
                return step
    return None


def _virtual(state: Candidates, name: str, kind: str, cells: list[int], total: int) -> Step | None:
    """A known sum over `cells`: place a lone open cell, or keep the digits that can add up."""
    rules = state.rules
    values, masks = state.values, state.masks
    open_cells = [c for c in cells if not values[c]]
    if not open_cells or len(open_cells) > MAX_VIRTUAL:
        return None
    total -= sum(values[c] for c in cells if values[c])
    plural = "s" if len(open_cells) > 1 else ""
    words = (
        f"45 rule on {name}: the {kind}{plural} {'+'.join(rules.cell_name(c) for c in open_cells)}"
    )
    if len(open_cells) == 1:
        (cell,) = open_cells
        if 1 <= total <= rules.size and masks[cell] & bit(total):
            if masks[cell] == bit(total):
                return None  # a naked single will say it
            return Step("innies_outies", f"{words} = {total}", placements=((cell, total),))
        if masks[cell]:
            return Step(
                "innies_outies",
                f"{words} would have to be {total}",
                eliminations=tuple((cell, d) for d in digits_of(masks[cell])),
            )
        return None
    peers = state.tables.peers
    allowed = [0] * len(open_cells)
    for choice in product(*(digits_of(masks[c]) for c in open_cells)):
        if sum(choice) != total:
            continue
        if any(
            choice[i] == choice[j] and open_cells[j] in peers[open_cells[i]]
            for i in range(len(choice))
            for j in range(i + 1, len(choice))
        ):
            continue
        for i, d in enumerate(choice):
            allowed[i] |= bit(d)
    removed = _outside(state, open_cells, allowed)
    if not removed:
        return None
    return Step("innies_outies", f"{words} add up to {total}", eliminations=removed)
