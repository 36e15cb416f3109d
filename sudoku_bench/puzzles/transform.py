"""Isomorphs: the same puzzle with its cells moved and its digits relabelled.

A transformation that keeps the rules maps every solution of a puzzle to a solution of the
isomorph and back, so a solver must do the same work up to the order it meets things in. That
is what `bench --permute` uses to make repeats differ: each repeat solves a random isomorph.
A puzzle whose digits name places (`Constraint.movable`: the indexers) is its own only
isomorph: no cell moves and no digit is relabelled.

Which transformations are allowed depends on the rules:
- classic boxes: rows within a band, bands, columns within a stack, stacks, and (square
  boxes) transposition; any relabelling of the digits;
- a jigsaw, or any constraint: the symmetries of the square (rotations and reflections; for
  boxes that are not square only those that keep their shape); each constraint says where it
  goes (`Constraint.moved`: its cells moved along, a diagonal onto a diagonal);
- digits: any relabelling, unless a constraint reads the digits' values
  (`Constraint.reads_digit_values`: non-consecutive, parity, cage sums): then only
  d -> N + 1 - d, or none; the constraint moves with it (a cage's sum s of k cells becomes
  k(N+1) - s; odd and even cells swap when N is even; a thermometer runs the other way);
  a rule that no relabelling keeps (`Constraint.digits_reversible`: an arrow's sum) keeps
  the digits as they are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sudoku_bench.puzzles.constraints.base import Move
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules


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
    if not all(constraint.movable for constraint in rules.constraints):
        rows, cols, transpose = list(range(n)), list(range(n)), False
    elif _boxes_only(rules):
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
    if any(constraint.reads_digit_values for constraint in rules.constraints):
        # the coin is drawn either way, so that a seed moves the cells the same
        coin = rng.random() < 0.5
        reverse = coin and all(c.digits_reversible for c in rules.constraints)
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


def _boxes_only(rules: Rules) -> bool:
    """Rows, columns and boxes, nothing else: they map onto themselves under band, stack
    and line shuffles."""
    return rules.layout is None and not rules.constraints


def _moved_rules(rules: Rules, source: tuple[int, ...], reverse: bool) -> Rules:
    """The rules with their cells moved: the isomorph's cell i is the original's source[i]."""
    if _boxes_only(rules):
        return rules  # rows, columns and boxes map onto themselves
    target = [0] * len(source)
    for new, old in enumerate(source):
        target[old] = new
    shape = rules.shape  # a transposition comes only with square boxes: kept
    if shape.layout is not None:
        layout = shape.layout
        shape = shape.with_layout(tuple(layout[source[cell]] for cell in range(len(source))))
    move = Move(rules.shape, source, tuple(target), reverse)
    return Rules.from_constraints(shape, [c.moved(move) for c in rules.constraints])
