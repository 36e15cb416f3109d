"""The independent rule checker: trusts no solver, asks only the geometry's units."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import compress

from puzzles.grid import Grid


@dataclass(frozen=True)
class Conflict:
    """`digit` appears more than once in the unit called `unit` (at `cells`)."""

    unit: str
    digit: int
    cells: tuple[int, ...]

    def describe(self, grid: Grid) -> str:
        where = ", ".join(grid.rules.cell_name(cell) for cell in self.cells)
        return f"{self.digit} appears {len(self.cells)} times in {self.unit} ({where})"


def conflicts(grid: Grid) -> list[Conflict]:
    """Every unit in which a digit appears twice or more (empty cells are ignored)."""
    rules = grid.rules
    found = []
    for name, unit in zip(rules.unit_names, rules.units, strict=True):
        seen: defaultdict[int, list[int]] = defaultdict(list)
        for cell in unit:
            if grid.values[cell]:
                seen[grid.values[cell]].append(cell)
        found += [
            Conflict(name, d, tuple(cells)) for d, cells in sorted(seen.items()) if len(cells) > 1
        ]
    return found


def has_conflicts(grid: Grid) -> bool:
    """Whether any unit holds a digit twice: `bool(conflicts(grid))`, fast enough for big files.

    Each filled cell contributes one key (unit, digit) per unit it is in; a repeat is a conflict.
    """
    bases, values = grid.rules.unit_keys, grid.values
    filled = compress(range(len(values)), values)  # at C speed: puzzles are mostly empty
    keys = [base + values[cell] for cell in filled for base in bases[cell]]
    return len(set(keys)) != len(keys)


def solution_problems(puzzle: Grid, grid: Grid) -> list[str]:
    """Why `grid` is not a solution of `puzzle`, in words; empty when it is one."""
    if grid.rules != puzzle.rules:
        return [f"the grid is {grid.rules}, the puzzle {puzzle.rules}"]
    problems = []
    rules = puzzle.rules
    empty = [rules.cell_name(cell) for cell, value in enumerate(grid.values) if value == 0]
    if empty:
        more = ", ..." if len(empty) > 5 else ""
        cells = "1 cell is" if len(empty) == 1 else f"{len(empty)} cells are"
        problems.append(f"{cells} empty ({', '.join(empty[:5])}{more})")
    changed = [
        f"{rules.cell_name(cell)} is {got}, given {given}"
        for cell, (given, got) in enumerate(zip(puzzle.values, grid.values, strict=True))
        if given and got and given != got  # an emptied given is counted as empty
    ]
    problems += changed
    problems += [conflict.describe(grid) for conflict in conflicts(grid)]
    return problems


def is_solution(puzzle: Grid, grid: Grid) -> bool:
    """True when `grid` is complete, keeps every given and every unit holds each digit once."""
    return not solution_problems(puzzle, grid)


def is_valid_puzzle(puzzle: Grid) -> bool:
    """True when no unit holds a given twice (it may still have no solution)."""
    return not has_conflicts(puzzle)
