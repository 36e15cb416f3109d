"""Pair rules as eliminations a person writes down: a placed digit leaves the cells a
knight's or king's move away (anti-knight, anti-king), and its neighbours lose the digits
one above and one below (non-consecutive). Parity is in the starting candidates."""

from __future__ import annotations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import Candidates, Move, Step, bit, cells_text
from sudoku_bench.solvers.engines.logic.structure import logic_tables


def distinct_pairs(state: Candidates) -> Step | None:
    """Anti-knight / anti-king: a placed digit leaves its partners that still hold it."""
    rules = state.rules
    partners = state.tables.partners
    for cell, value in enumerate(state.values):
        if not value or not partners[cell]:
            continue
        b = bit(value)
        hit = [(p, move) for p, move in partners[cell] if state.masks[p] & b]
        if hit:
            moves = sorted({move for _, move in hit})
            return Step(
                "distinct_pairs",
                f"{rules.cell_name(cell)} = {value}: {cells_text(rules, [p for p, _ in hit])} "
                f"{'is' if len(hit) == 1 else 'are'} {' or '.join(moves)} away",
                eliminations=tuple((p, value) for p, _ in hit),
            )
    return None


def non_consecutive(state: Candidates) -> Step | None:
    """Non-consecutive: a placed digit d leaves d - 1 and d + 1 out of its neighbours."""
    rules = state.rules
    for cell, value in enumerate(state.values):
        if not value or not state.tables.neighbours[cell]:
            continue
        removed: list[Move] = []
        for p in state.tables.neighbours[cell]:
            for other in (value - 1, value + 1):
                if 1 <= other <= rules.size and state.masks[p] & bit(other):
                    removed.append((p, other))
        if removed:
            return Step(
                "non_consecutive",
                f"{rules.cell_name(cell)} = {value}: its neighbours cannot hold a digit next "
                f"to {value}",
                eliminations=tuple(removed),
            )
    return None


def has_distinct_pairs(rules: Rules) -> bool:
    return "distinct_pairs" in logic_tables(rules).techniques


def has_nonconsecutive(rules: Rules) -> bool:
    return "non_consecutive" in logic_tables(rules).techniques
