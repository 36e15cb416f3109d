"""Isomorphs: the same puzzle with its cells moved and its digits relabelled.

A transformation that keeps the rules maps every solution of a puzzle to a solution of the
isomorph and back, so a solver must do the same work up to the order it meets things in. That
is what `bench --permute` uses to make repeats differ: each repeat solves a random isomorph.

Which transformations are allowed depends on the rules:
- classic boxes: rows within a band, bands, columns within a stack, stacks, and (square
  boxes) transposition; any relabelling of the digits;
- anything else (Sudoku-X diagonals, jigsaw, extra regions, pair rules, cages): the
  symmetries of the square (rotations and reflections; for boxes that are not square only
  those that keep their shape), with the rules' cells moved along;
- digits: any relabelling, unless a rule reads the digits' values (non-consecutive, parity,
  cage sums): then only d -> N + 1 - d (which keeps differences, maps sums to k(N+1) - sum,
  and swaps odd and even cells when N is even), or none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from puzzles.grid import Grid
from puzzles.rules import Cage, RuleKind, Rules

# Kinds whose meaning depends on the digits' values, not only on their being different.
_VALUED = frozenset({RuleKind.NONCONSECUTIVE, RuleKind.PARITY, RuleKind.CAGES})
# Kinds tied to the square's geometry beyond rows, columns and boxes.
_GEOMETRIC = frozenset(
    {RuleKind.REGIONS, RuleKind.EXTRA_UNITS, RuleKind.DISTINCT_PAIRS, RuleKind.NONCONSECUTIVE}
)


@dataclass(frozen=True)
class Isomorph:
    """Cell i of the isomorph holds `digits[v]` where the original's cell `source[i]` holds v."""

    original: Rules
    rules: Rules  # the isomorph's rules
    source: tuple[int, ...]
    digits: tuple[int, ...]  # index 0 (empty) maps to 0

    def apply(self, grid: Grid) -> Grid:
        """The isomorph of `grid` (a puzzle or a solution of the original rules)."""
        values, digits = grid.values, self.digits
        return Grid(self.rules, tuple(digits[values[cell]] for cell in self.source))

    def invert(self, grid: Grid) -> Grid:
        """The original-rules grid whose isomorph is `grid` (a solution maps back to one)."""
        back = [0] * (self.original.size + 1)
        for old, new in enumerate(self.digits):
            back[new] = old
        values = [0] * self.original.cell_count
        for cell, value in zip(self.source, grid.values, strict=True):
            values[cell] = back[value]
        return Grid(self.original, tuple(values))


def random_isomorph(rules: Rules, seed: int) -> Isomorph:
    """A random transformation that keeps `rules` (see the module's list), fixed by `seed`."""
    rng = random.Random(seed)
    n = rules.size
    if rules.is_classic and not rules.diagonals:
        rows = _shuffled_lines(n, rules.box_rows, rng)
        cols = _shuffled_lines(n, rules.box_cols, rng)
        transpose = rules.box_rows == rules.box_cols and rng.random() < 0.5
    else:
        rows, cols, transpose = _square_symmetry(rules, rng)
    # cell (r, c) of the isomorph is (rows[r], cols[c]) of the original, or (rows[c], cols[r])
    source = tuple(
        rows[c] * n + cols[r] if transpose else rows[r] * n + cols[c]
        for r in range(n)
        for c in range(n)
    )
    reverse = False
    if rules.kinds & _VALUED:
        reverse = rng.random() < 0.5
        digits = (
            tuple([0, *(n + 1 - d for d in range(1, n + 1))]) if reverse else tuple(range(n + 1))
        )
    else:
        labels = list(range(1, n + 1))
        rng.shuffle(labels)
        digits = (0, *labels)
    return Isomorph(rules, _moved_rules(rules, source, reverse), source, digits)


def _shuffled_lines(n: int, group: int, rng: random.Random) -> list[int]:
    """Lines 0..n-1 reordered: groups of `group` lines shuffled, and lines within each group."""
    groups = list(range(n // group))
    rng.shuffle(groups)
    lines = []
    for g in groups:
        inside = list(range(g * group, (g + 1) * group))
        rng.shuffle(inside)
        lines += inside
    return lines


def _square_symmetry(rules: Rules, rng: random.Random) -> tuple[list[int], list[int], bool]:
    """A rotation or reflection of the square, as row order, column order and a transposition;
    boxes that are not square keep their shape (no transposition)."""
    n = rules.size
    forward, backward = list(range(n)), list(range(n - 1, -1, -1))
    rows = rng.choice([forward, backward])
    cols = rng.choice([forward, backward])
    square_boxes = rules.layout is not None or rules.box_rows == rules.box_cols
    return rows, cols, square_boxes and rng.random() < 0.5


def _moved_rules(rules: Rules, source: tuple[int, ...], reverse: bool) -> Rules:
    """The rules with their cells moved: the isomorph's cell i is the original's source[i]."""
    if rules.is_classic and not rules.diagonals:
        return rules  # rows, columns and boxes map onto themselves
    target = [0] * len(source)
    for new, old in enumerate(source):
        target[old] = new
    n = rules.size

    def moved(cells: tuple[int, ...] | frozenset[int]) -> tuple[int, ...]:
        return tuple(sorted(target[cell] for cell in cells))

    changes: dict[str, object] = {}  # a transposition comes only with square boxes: kept
    if rules.layout is not None:
        changes["layout"] = tuple(rules.layout[source[cell]] for cell in range(n * n))
    changes["extra_regions"] = tuple(moved(region) for region in rules.extra_regions)
    odd, even = frozenset(moved(rules.odd)), frozenset(moved(rules.even))
    if reverse and n % 2 == 0:  # d -> N+1-d turns odd digits into even ones when N is even
        odd, even = even, odd
    changes["odd"], changes["even"] = odd, even
    changes["cages"] = tuple(
        Cage(
            moved(cage.cells),
            None
            if cage.total is None
            else (len(cage.cells) * (n + 1) - cage.total if reverse else cage.total),
        )
        for cage in rules.cages
    )
    return rules.with_rules(**changes)
