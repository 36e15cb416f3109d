"""Caches of the tables the engines derive from a puzzle's rules, in two bounded parts.

- The *shape's* part: what depends only on the cells that hold distinct digits as units
  (rows, columns, regions and the unit constraints: diagonals, extra regions). Every puzzle
  of a shape shares it, so a file of killer puzzles, each with its own cages, builds it once.
  It is keyed by `units_key`, not by the rules, and kept for `SHAPE_CACHE` shapes (a file of
  jigsaws has a shape per puzzle).
- The *puzzle's* part: what the other constraints add (pairs, cell digits, cages). It is
  keyed by the rules and kept for the last `PUZZLE_CACHE` rules only, so a worker that solves
  many distinct puzzles keeps a fixed amount of them.

A function cached `by_shape` must read only the rules' shape and unit constraints: it is
called with the first rules of each shape and its answer is given to every other.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Generic, TypeVar

from sudoku_bench.puzzles.constraints import UnitConstraint
from sudoku_bench.puzzles.rules import Rules

SHAPE_CACHE = 64  # shapes whose tables are kept
PUZZLE_CACHE = 16  # rules whose per-puzzle tables are kept (the most recently used)

T = TypeVar("T")


def units_key(rules: Rules) -> Hashable:
    """What fixes a rules' units: the side, the regions and the unit constraints."""
    unit_constraints = tuple(c for c in rules.constraints if isinstance(c, UnitConstraint))
    return (rules.size, rules.box_rows, rules.box_cols, rules.layout, unit_constraints)


class _ShapeCache(Generic[T]):
    """`build(rules)` kept per `units_key`, for the last SHAPE_CACHE keys."""

    def __init__(self, build: Callable[[Rules], T]) -> None:
        self.build = build
        self.found: OrderedDict[Hashable, T] = OrderedDict()

    def __call__(self, rules: Rules) -> T:
        key = units_key(rules)
        if key in self.found:
            self.found.move_to_end(key)
            return self.found[key]
        value = self.found[key] = self.build(rules)
        if len(self.found) > SHAPE_CACHE:
            self.found.popitem(last=False)
        return value

    def cache_clear(self) -> None:
        self.found.clear()


def by_shape(build: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """Cache `build` by the rules' units (see the module's note), with a per-rules cache in
    front so that the same rules asked again cost one lookup."""
    return per_puzzle(_ShapeCache(build))


def per_puzzle(build: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """Cache `build` by the rules, for the last PUZZLE_CACHE rules."""
    return lru_cache(maxsize=PUZZLE_CACHE)(build)
