"""Killer cages: the digit sets and the fillings a cage's sum allows (shared by the reductions).

A cage of k cells with sum s can hold the sets of k distinct digits that add up to s; a
filling is one order of such a set on the cage's cells. Both keep the cells' parity.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from puzzles.rules import Cage, Rules


def digit_sets(rules: Rules, cage: Cage) -> list[frozenset[int]]:
    """The sets of distinct digits that can fill `cage`: the right size and sum, and the
    cells' parity keepable (enough odd and even digits for the odd and even cells). Empty
    for a cage without a sum."""
    if cage.total is None:
        return []
    return [
        frozenset(digits)
        for digits in itertools.combinations(rules.digits, len(cage.cells))
        if sum(digits) == cage.total and _parity_keepable(rules, cage, digits)
    ]


def _parity_keepable(rules: Rules, cage: Cage, digits: Sequence[int]) -> bool:
    odd_cells = sum(1 for cell in cage.cells if cell in rules.odd)
    even_cells = sum(1 for cell in cage.cells if cell in rules.even)
    odd_digits = sum(1 for d in digits if d % 2)
    return odd_cells <= odd_digits and even_cells <= len(digits) - odd_digits


def fillings(rules: Rules, cage: Cage) -> Iterator[tuple[int, ...]]:
    """Every tuple of distinct digits, one per cell of `cage` in order, that adds up to its sum
    and that its cells' parity allows; set by set, each set's orders lexicographic."""
    allowed = [rules.allowed[cell] for cell in cage.cells]
    for digits in digit_sets(rules, cage):
        for filling in itertools.permutations(sorted(digits)):
            if all(d in allowed[i] for i, d in enumerate(filling)):
                yield filling
