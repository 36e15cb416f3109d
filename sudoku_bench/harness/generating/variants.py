"""The rules of generated variant puzzles: each variant says how one puzzle's rules are drawn.

Some rules are fixed before the full grid is searched (anti-knight, windoku's windows, a jigsaw's
random regions), others are read off the full grid once it exists (killer cages and their
sums, the odd and even cells), so that the grid is a solution by construction. Everything
random comes from the generator's one `random.Random`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from sudoku_bench.puzzles.constraints import (
    AntiKing,
    AntiKnight,
    Constraint,
    ExtraRegion,
    NonConsecutive,
    Parity,
)
from sudoku_bench.puzzles.constraints.killer_cage import partition
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules


@dataclass(frozen=True)
class Variant:
    """How to draw the rules of one puzzle: `before` the grid, then `after` it (from it)."""

    name: str
    summary: str
    before: Callable[[Rules, random.Random], Rules]
    after: Callable[[Rules, Grid, random.Random], Rules] = lambda rules, grid, rng: rules
    givens: bool = True  # False: every given is removed where the puzzle stays unique


def _adding(constraint: Constraint) -> Callable[[Rules, random.Random], Rules]:
    """A variant that adds one constraint the same on every grid (anti-knight, ...)."""
    return lambda rules, rng: rules.with_constraints(constraint)


def windows(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Windoku's extra regions: the box-sized windows one cell in from the boxes' corners
    (four on a 9x9: rows and columns 2-4 and 6-8)."""
    found = tuple(window.members for window in ExtraRegion.windoku(rules.shape))
    if not found:
        raise SudokuBenchError(f"windoku needs room for a window one cell in: {rules} has none")
    return found


def random_layout(rules: Rules, rng: random.Random, moves: int = 0) -> tuple[int, ...]:
    """Random jigsaw regions: the boxes, then many exchanges between two neighbouring regions
    A and B (a cell of A that touches B joins B, a cell of B that touches A joins A), each
    kept only if both regions stay connected; every region keeps N cells."""
    n = rules.size
    layout = [rules.region_of(cell) for cell in rules.cells]
    for _ in range(moves or 40 * n * n):
        a = rng.randrange(n * n)
        others = [o for o in _orthogonal(n, a) if layout[o] != layout[a]]
        if not others:
            continue
        region_a, region_b = layout[a], layout[rng.choice(others)]
        touching = [
            c
            for c in rules.cells
            if layout[c] == region_b and any(layout[o] == region_a for o in _orthogonal(n, c))
        ]
        if not touching:
            continue
        b = rng.choice(touching)
        layout[a], layout[b] = region_b, region_a
        if not (_connected(layout, n, region_a) and _connected(layout, n, region_b)):
            layout[a], layout[b] = region_a, region_b
    return tuple(layout)


def _orthogonal(n: int, cell: int) -> list[int]:
    row, col = divmod(cell, n)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    return [
        (row + dr) * n + col + dc for dr, dc in steps if 0 <= row + dr < n and 0 <= col + dc < n
    ]


def _connected(layout: list[int], n: int, region: int) -> bool:
    cells = [cell for cell, r in enumerate(layout) if r == region]
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for other in _orthogonal(n, todo.pop()):
            if layout[other] == region and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def random_cages(solution: Grid, rng: random.Random, largest: int = 5) -> tuple[Cage, ...]:
    """A random partition of the grid into connected cages of 1 to `largest` cells whose
    digits differ, with their sums from `solution` (the killer cage kind's own)."""
    return partition(solution.values, solution.rules.shape, rng, largest)


def _killer(rules: Rules, solution: Grid, rng: random.Random) -> Rules:
    return rules.with_constraints(*random_cages(solution, rng))


def _odd_even(rules: Rules, solution: Grid, rng: random.Random) -> Rules:
    cells = rng.sample(list(rules.cells), rules.size * 2)
    odd = frozenset(c for c in cells if solution[c] % 2)
    return rules.with_constraints(Parity(odd, frozenset(cells) - odd))


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("classic", "rows, columns and boxes (or the given geometry)", lambda r, g: r),
        Variant(
            "jigsaw",
            "random connected regions instead of boxes",
            lambda rules, rng: rules.with_rules(layout=random_layout(rules, rng)),
        ),
        Variant(
            "windoku",
            "four extra windows (9x9) that also hold every digit",
            lambda rules, rng: rules.with_constraints(*map(ExtraRegion, windows(rules))),
        ),
        Variant("anti-knight", "cells a knight's move apart differ", _adding(AntiKnight())),
        Variant("anti-king", "cells a king's move apart differ", _adding(AntiKing())),
        Variant(
            "non-consecutive",
            "orthogonal neighbours never hold consecutive digits",
            _adding(NonConsecutive()),
        ),
        Variant(
            "odd-even",
            "2N cells marked odd or even",
            lambda rules, rng: rules,
            _odd_even,
        ),
        Variant(
            "killer",
            "cages of 1-5 cells with their sums; givens removed while unique",
            lambda rules, rng: rules,
            _killer,
            givens=False,
        ),
    )
}
