"""Singles: the cell with one candidate left, and the digit with one place left in a unit."""

from __future__ import annotations

from sudoku_bench.solvers.engines.logic.state import Candidates, Step, boxes_first, digits_of


def naked_single(state: Candidates) -> Step | None:
    """A cell with one candidate left takes it."""
    for cell, mask in enumerate(state.masks):
        if mask and not mask & (mask - 1):
            (digit,) = digits_of(mask)
            return Step("naked_single", "naked single", placements=((cell, digit),))
    return None


def hidden_single(state: Candidates) -> Step | None:
    """A digit with one place left in a unit goes there (boxes first, as people look)."""
    rules = state.rules
    masks = state.masks
    for index in boxes_first(rules):
        unit = rules.units[index]
        once = twice = 0  # digits seen in at least one / at least two cells of the unit
        for cell in unit:
            twice |= once & masks[cell]
            once |= masks[cell]
        single = once & ~twice & ~state.unit_placed[index]
        if single:
            digit = digits_of(single)[0]
            (cell,) = state.places(unit, digit)
            return Step(
                "hidden_single",
                f"hidden single in {rules.unit_names[index]}",
                placements=((cell, digit),),
            )
    return None
