"""Random puzzles with a fixed number of givens: a random full grid with k random cells kept.

Unlike the generator, nothing here keeps the puzzle unique: these puzzles sample the
ensemble "random grid, random k cells", in which the share of unique puzzles grows with k
(the `clues` experiment measures where). Every puzzle has its grid as a solution, so none
has zero solutions. Each k draws from its own `random.Random(f"{seed}:{k}")`, so adding or
dropping a k never changes the puzzles of another.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from sudoku_bench.harness.generating.generator import GeneratorError, random_full_grid
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules


@dataclass(frozen=True)
class GivensPuzzle:
    givens: int
    puzzle: Grid
    grid: Grid  # the full grid it was cut from (one of its solutions)


def keep_givens(grid: Grid, givens: int, rng: random.Random) -> Grid:
    """The grid with only `givens` random cells left filled."""
    cells = grid.rules.cell_count
    if not 0 <= givens <= cells:
        raise GeneratorError(f"cannot keep {givens} givens of a {grid.rules} grid ({cells} cells)")
    kept = set(rng.sample(range(cells), givens))
    return grid.with_values({cell: 0 for cell in range(cells) if cell not in kept})


def givens_puzzles(
    rules: Rules, givens: Iterable[int], per_k: int, seed: int
) -> list[GivensPuzzle]:
    """`per_k` puzzles for each number of givens, each from a fresh random full grid."""
    found = []
    for k in givens:
        rng = random.Random(f"{seed}:{k}")
        for _ in range(per_k):
            grid = random_full_grid(rules, rng)
            found.append(GivensPuzzle(k, keep_givens(grid, k, rng), grid))
    return found
