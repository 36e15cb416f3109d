"""Sum constraints (killer cages): the digit sets and the fillings a sum allows (shared by the
reductions).

A cage of k cells with sum s can hold the sets of k distinct digits that add up to s; a
filling is one order of such a set on the cage's cells. Both keep the cells' domains (the
digits the cell-digit constraints, such as parity, allow).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from sudoku_bench.puzzles.constraints import SumConstraint
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.encoding import constraint_domains


def digit_sets(rules: Rules, cage: SumConstraint) -> list[frozenset[int]]:
    """The sets of distinct digits that can fill `cage`: the right size and sum, and each
    cell given a digit of the set its domain allows (a matching of cells to digits). Empty
    for a cage without a sum."""
    if cage.target is None:
        return []
    domains = constraint_domains(rules)
    cell_domains = [domains[cell] for cell in cage.summed]
    return [
        frozenset(digits)
        for digits in itertools.combinations(rules.digits, len(cage.summed))
        if sum(digits) == cage.target and _matchable(cell_domains, digits)
    ]


def _matchable(cell_domains: Sequence[Sequence[int]], digits: Sequence[int]) -> bool:
    """Whether each cell can take its own digit of `digits`, every digit used once (Kuhn's
    augmenting paths; a cage has at most N cells)."""
    owner: dict[int, int] = {}  # digit -> the cell that takes it

    def place(cell: int, tried: set[int]) -> bool:
        for digit in digits:
            if digit in cell_domains[cell] and digit not in tried:
                tried.add(digit)
                if digit not in owner or place(owner[digit], tried):
                    owner[digit] = cell
                    return True
        return False

    return all(place(cell, set()) for cell in range(len(cell_domains)))


def fillings(rules: Rules, cage: SumConstraint) -> Iterator[tuple[int, ...]]:
    """Every tuple of distinct digits, one per cell of `cage` in order, that adds up to its sum
    and that its cells' domains allow; set by set, each set's orders lexicographic."""
    domains = constraint_domains(rules)
    allowed = [domains[cell] for cell in cage.summed]
    for digits in digit_sets(rules, cage):
        for filling in itertools.permutations(sorted(digits)):
            if all(d in allowed[i] for i, d in enumerate(filling)):
                yield filling
