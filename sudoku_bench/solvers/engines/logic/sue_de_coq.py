"""Sue de Coq: where a box meets a line, two or three empty cells C hold digits V, at least
|C| + 2 of them. Cells L of the rest of the line and cells B of the rest of the box, whose
digits Lc and Bc share none, complete them: when C, L and B together hold exactly as many
digits as they have cells, each of those digits is in exactly one of them.

Why: C and L lie in the line and C and B in the box, so no two of the cells repeat a digit
(an L cell and a B cell cannot either: Lc and Bc share none); so many cells with no more
digits than cells hold each digit once. A digit of Lc is then in C or L, both in the line;
one of V that is in neither Lc nor Bc is in C. So the rest of the line loses Lc and the
digits of V outside Bc, and the rest of the box loses Bc and the digits of V outside Lc.
The line and the box need only make their cells differ: any unit will do.
"""

from __future__ import annotations

from itertools import combinations

from sudoku_bench.solvers.engines.logic.intersections import _crossings
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Move,
    Step,
    cells_text,
    digits_of,
    digits_text,
)

MAX_SIDE = 3  # cells of L (and of B): more are rare in practice and slow the search


def _subsets(state: Candidates, cells: list[int], within: int) -> list[tuple[tuple[int, ...], int]]:
    """The sets of up to MAX_SIDE `cells` with their digits, each holding some digit of
    `within` (a set with none of V takes no part in the count), fewest cells first."""
    found = []
    for size in range(1, min(MAX_SIDE, len(cells)) + 1):
        for chosen in combinations(cells, size):
            digits = state.union(chosen)
            if digits & within:
                found.append((chosen, digits))
    return found


def sue_de_coq(state: Candidates) -> Step | None:
    """The first Sue de Coq that removes a candidate (box/line crossings in table order)."""
    rules = state.rules
    shape = state.families
    units = shape.units
    masks = state.masks
    for box, line, shared in _crossings(rules):
        empty = [cell for cell in sorted(shared) if masks[cell]]
        if len(empty) < 2:
            continue
        line_rest = [c for c in units[line] if c not in shared and masks[c]]
        box_rest = [c for c in units[box] if c not in shared and masks[c]]
        if not line_rest or not box_rest:
            continue
        for size in range(2, len(empty) + 1):
            for core in combinations(empty, size):
                within = state.union(core)
                if within.bit_count() < size + 2:
                    continue
                key = ("sue_de_coq", box, line, core, tuple(masks[c] for c in line_rest),
                       tuple(masks[c] for c in box_rest), within)  # fmt: skip
                if key in state.barren:
                    continue
                step = _complete(state, box, line, core, within, line_rest, box_rest)
                if step is not None:
                    return step
                state.barren.add(key)
    return None


def _complete(
    state: Candidates,
    box: int,
    line: int,
    core: tuple[int, ...],
    within: int,
    line_rest: list[int],
    box_rest: list[int],
) -> Step | None:
    """L and B that complete the core `core` (digits `within`), and what they remove."""
    masks = state.masks
    for line_cells, line_digits in _subsets(state, line_rest, within):
        for box_cells, box_digits in _subsets(state, box_rest, within):
            if line_digits & box_digits or set(line_cells) & set(box_cells):
                continue
            digits = within | line_digits | box_digits
            if digits.bit_count() != len(core) + len(line_cells) + len(box_cells):
                continue
            off_line = line_digits | (within & ~box_digits)
            off_box = box_digits | (within & ~line_digits)
            used = set(core) | set(line_cells) | set(box_cells)
            removed: list[Move] = []
            for cells, gone in ((line_rest, off_line), (box_rest, off_box)):
                for cell in cells:
                    if cell not in used:
                        removed += [(cell, d) for d in digits_of(masks[cell] & gone)]
            if removed:
                names = state.families.names
                return Step(
                    "sue_de_coq",
                    f"Sue de Coq in {names[box]} and {names[line]}: "
                    f"{cells_text(state.rules, core)} ({digits_text(digits_of(within))}) with "
                    f"{cells_text(state.rules, line_cells)} "
                    f"({digits_text(digits_of(line_digits))}) of the line and "
                    f"{cells_text(state.rules, box_cells)} "
                    f"({digits_text(digits_of(box_digits))}) of the box hold "
                    f"{digits.bit_count()} digits in as many cells",
                    eliminations=tuple(sorted(set(removed))),
                )
    return None
