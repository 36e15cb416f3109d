"""Hypothesis strategies for the format and grid tests: random valid grids without a solver.

A solution grid is built from a base pattern by the moves that keep a Sudoku a Sudoku:
relabelling digits, permuting rows within a band, bands, columns within a stack, stacks,
and transposing when the boxes are square. Sudoku-X grids start from a known X solution and
use only the moves that keep both diagonals (relabelling, mirrors, transposition).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from sudoku_bench.puzzles import Grid, Rules
from sudoku_bench.puzzles.formats import PlayerState, PuzzleEntry
from sudoku_bench.puzzles.symbols import DEFAULT, HEX, LETTERS, Alphabet

GEOMETRIES = (
    Rules.of_size(4),
    Rules.of_size(6),
    Rules(6, 3, 2),
    Rules.of_size(8),
    Rules.of_size(9),
    Rules.of_size(12),
    Rules.of_size(16),
    Rules.of_size(25),
    Rules.of_size(4, diagonals=True),
    Rules.of_size(9, diagonals=True),
)

# Sudoku-X solutions to start from (the 9x9 one was found by a plain backtracker, and the
# tests check both with the rule checker).
X_BASES = {
    4: "1234341243212143",
    9: "683295417421867359795341862572189634946532781138674295854716923319428576267953148",
}


def pattern(rules: Rules) -> list[list[int]]:
    """The textbook solution: row r is the first row shifted by the box pattern."""
    n, rows, cols = rules.size, rules.box_rows, rules.box_cols
    return [[(cols * (r % rows) + r // rows + c) % n + 1 for c in range(n)] for r in range(n)]


def _grouped_permutation(rng: random.Random, groups: int, size: int) -> list[int]:
    """A permutation of groups*size indices that keeps each group of `size` together."""
    order = rng.sample(range(groups), groups)
    return [g * size + i for g in order for i in rng.sample(range(size), size)]


def random_solution(rules: Rules, rng: random.Random) -> Grid:
    n = rules.size
    if rules.diagonals:
        rows = Grid.from_string(X_BASES[n]).to_rows()
        if rng.random() < 0.5:
            rows = [row[::-1] for row in rows]
        if rng.random() < 0.5:
            rows = rows[::-1]
    else:
        base = pattern(rules)
        row_order = _grouped_permutation(rng, n // rules.box_rows, rules.box_rows)
        col_order = _grouped_permutation(rng, n // rules.box_cols, rules.box_cols)
        rows = [[base[r][c] for c in col_order] for r in row_order]
    if rules.box_rows == rules.box_cols and rng.random() < 0.5:
        rows = [list(column) for column in zip(*rows, strict=True)]
    relabel = [0, *rng.sample(range(1, n + 1), n)]
    return Grid(rules, tuple(relabel[v] for row in rows for v in row))


def remove_cells(solution: Grid, rng: random.Random, fraction: float) -> Grid:
    cells = rng.sample(range(len(solution)), round(fraction * len(solution)))
    return solution.with_values(dict.fromkeys(cells, 0))


@st.composite
def puzzles_with_solutions(draw: Any, rules: Rules, fraction: Any = None) -> tuple[Grid, Grid]:
    """(puzzle, solution): a random solution grid with a random share of its cells emptied."""
    rng = random.Random(draw(SEEDS))
    solution = random_solution(rules, rng)
    share = draw(st.floats(0.0, 1.0)) if fraction is None else fraction
    return remove_cells(solution, rng, share), solution


# A seed rather than `st.randoms()`: hypothesis records every call of its own Random, which
# makes a 625-cell grid take seconds; a plain Random from a drawn seed is reproducible too.
SEEDS = st.integers(0, 2**32 - 1)

TEXT = (
    st.text(
        st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters="\\"),
        min_size=1,
        max_size=20,
    )
    .map(str.strip)
    .filter(bool)
)


@st.composite
def entries(
    draw: Any, rules: Rules, *, solutions: bool, metadata: bool, state: bool
) -> PuzzleEntry:
    """A puzzle entry with whatever of solution, metadata and player state is asked for."""
    puzzle, solution = draw(puzzles_with_solutions(rules))
    extra: dict[str, Any] = {}
    if metadata:
        extra = {"author": draw(TEXT), "level": draw(st.sampled_from(["Easy", "Hard", "7"]))}
    player = None
    if state:
        rng = random.Random(draw(SEEDS))
        filled = {c: solution[c] for c in puzzle.empty_cells if rng.random() < 0.3}
        marks = [
            frozenset(rng.sample(rules.digits, rng.randint(1, 3)))
            if puzzle[c] == 0 and rng.random() < 0.2
            else frozenset()
            for c in rules.cells
        ]
        player = PlayerState(puzzle.with_values(filled), tuple(marks))
    return PuzzleEntry("t:1", puzzle, solution if solutions else None, extra, player)


def alphabets_for(rules: Rules) -> list[Alphabet]:
    return [a for a in (DEFAULT, HEX, LETTERS) if len(a.symbols) >= rules.size]
