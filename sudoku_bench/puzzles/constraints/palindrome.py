"""Palindrome: the line reads the same from either end (cell i and cell k-1-i are equal)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_bench.puzzles.constraints.base import Checked, Conflict, PairConstraint, Shape
from sudoku_bench.puzzles.constraints.lines import WALK_TRIES, LineRule, king_neighbours

if TYPE_CHECKING:
    from random import Random

    from sudoku_bench.puzzles.constraints.base import Constraint
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True)
class Palindrome(LineRule, PairConstraint):
    cells: tuple[int, ...]

    kind = "palindrome"
    title = "palindrome"
    word = "palindrome"
    json_keys = ("palindrome",)
    fpuzzles_keys = ("palindrome",)
    colour = "#b0b0b0"
    symbol = "palindromes"

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        k = len(self.cells)
        return tuple(
            sorted(
                (min(a, b), max(a, b))
                for a, b in zip(self.cells[: k // 2], self.cells[::-1], strict=False)
            )
        )

    def allows(self, first: int, second: int) -> bool:
        return first == second

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = self.name(rules)
        text = (
            f"{name}: {rules.cell_name(a)}={values[a]} and {rules.cell_name(b)}={values[b]} "
            "stand at the same place from either end and differ"
        )
        return Conflict(name, 0, (a, b), text)

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """Palindromes grown from a centre cell outwards, a pair of equal digits at a time."""
        found: dict[tuple[int, ...], Constraint] = {}
        for _ in range(WALK_TRIES):
            path = [rng.randrange(shape.cell_count)]
            for _ in range(rng.randint(1, shape.size // 2)):
                lefts = [c for c in king_neighbours(shape, path[0]) if c not in path]
                rights = [c for c in king_neighbours(shape, path[-1]) if c not in path]
                pairs = [
                    (a, b) for a in lefts for b in rights if a != b and solution[a] == solution[b]
                ]
                if not pairs:
                    break
                a, b = rng.choice(pairs)
                path = [a, *path, b]
            if len(path) >= 3:
                found.setdefault(tuple(path), cls(tuple(path)))
        rules = list(found.values())
        rng.shuffle(rules)
        return rules
