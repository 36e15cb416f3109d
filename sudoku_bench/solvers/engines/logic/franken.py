"""Franken fish: a fish whose base or cover units include boxes. Base units are n rows and
boxes (or n columns and boxes) that share no place of the digit; cover units are n columns
and boxes (or rows and boxes) that are not base units and hold every place of the digit in
the bases, except perhaps a few fins.

Why: each base unit must hold the digit, in n distinct cells (the bases share no place); each
cover unit holds it at most once, and each of those n cells lies in a cover unit, so every
cover unit holds exactly one of them: a place of a cover unit outside the bases cannot hold
the digit. With fins, either a fin holds the digit or the fish is real, so only the places
that also see every fin go.
"""

from __future__ import annotations

from itertools import combinations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic import clock
from sudoku_bench.solvers.engines.logic.als import peer_bits
from sudoku_bench.solvers.engines.logic.links import bits
from sudoku_bench.solvers.engines.logic.state import Candidates, Step, bit
from sudoku_bench.solvers.engines.logic.structure import families
from sudoku_bench.solvers.tables import by_shape

FRANKEN_NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}
MAX_FINS = 2
MAX_COVER_CHOICES = 10  # units that meet the bases' places: more make too many cover sets


@by_shape
def _unit_bits(rules: Rules) -> tuple[int, ...]:
    return tuple(sum(1 << cell for cell in unit) for unit in families(rules).units)


def franken_fish(state: Candidates, size: int) -> Step | None:
    """The first Franken fish of `size` base units (rows and boxes first, then columns and
    boxes) that removes a candidate."""
    rules = state.rules
    shape = state.families
    unit_bits = _unit_bits(rules)
    regions = [i for i in shape.regions if i in set(shape.houses)]
    for base_kind, lines, cover_lines in (
        ("row", shape.rows, shape.columns),
        ("column", shape.columns, shape.rows),
    ):
        for digit in rules.digits:
            key = ("franken", size, base_kind, digit, state.digit_board(digit),
                   state.placed_lines(digit))  # fmt: skip
            if key in state.barren:
                continue
            b = bit(digit)
            places = {
                index: sum(1 << c for c in shape.units[index] if state.masks[c] & b)
                for index in [*lines, *regions, *cover_lines]
                if not state.unit_placed[index] & b
            }
            bases = [i for i in [*lines, *regions] if places.get(i)]
            covers = [i for i in [*cover_lines, *regions] if places.get(i)]
            for chosen in combinations(bases, size):
                clock.check()  # thousands of base sets on a wide grid
                step = _with_bases(state, size, digit, chosen, places, covers, unit_bits)
                if step is not None:
                    return step
            state.barren.add(key)
    return None


def _with_bases(
    state: Candidates,
    size: int,
    digit: int,
    chosen: tuple[int, ...],
    places: dict[int, int],
    covers: list[int],
    unit_bits: tuple[int, ...],
) -> Step | None:
    shape = state.families
    regions = set(shape.regions)
    base_places = 0
    for index in chosen:
        if base_places & places[index]:
            return None  # the bases share a place
        base_places |= places[index]
    base_cells = 0
    for index in chosen:
        base_cells |= unit_bits[index]
    options = [i for i in covers if i not in chosen and places[i] & base_places]
    if len(options) > MAX_COVER_CHOICES:
        return None
    boxed = any(i in regions for i in chosen)
    peers = peer_bits(state.rules)
    for cover in combinations(options, size):
        if not boxed and not any(i in regions for i in cover):
            continue  # a plain fish: the fish techniques' business
        covered = 0
        for index in cover:
            covered |= places[index]
        fins = base_places & ~covered
        if fins.bit_count() > MAX_FINS:
            continue
        targets = covered & ~base_cells
        for fin in bits(fins):
            targets &= peers[fin]
        if not targets:
            continue
        names = shape.names
        kind = "finned Franken" if fins else "Franken"
        fins_text = (
            ", fin" + ("s " if fins.bit_count() > 1 else " ")
            + ", ".join(state.rules.cell_name(f) for f in bits(fins))
            if fins
            else ""
        )  # fmt: skip
        return Step(
            f"franken_{FRANKEN_NAMES[size].lower().replace('-', '_')}",
            f"{kind} {FRANKEN_NAMES[size]} of {digit}s in "
            + ", ".join(names[i] for i in chosen)
            + " ("
            + ", ".join(names[i] for i in cover)
            + fins_text
            + ")",
            eliminations=tuple((cell, digit) for cell in bits(targets)),
        )
    return None


def franken_x_wing(state: Candidates) -> Step | None:
    return franken_fish(state, 2)


def franken_swordfish(state: Candidates) -> Step | None:
    return franken_fish(state, 3)


def franken_jellyfish(state: Candidates) -> Step | None:
    return franken_fish(state, 4)
