"""`propagating`'s automaton propagator (the REGULAR filtering, Pesant 2004, with the line's
digits kept distinct) and `backtracking`'s automaton check, on sandwich, X-sum and skyscraper
clues: exact on hand-checked and brute-forced lines, and the same solutions as a brute force
(4x4, 6x6) and as `cpsat` (12x12, where the clues' tables are not listed)."""

from __future__ import annotations

import itertools
import random

import pytest

from sudoku_bench.puzzles import GridShape, Rules
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import Constraint, Sandwich, Skyscraper, XSum
from sudoku_bench.puzzles.constraints.outside import LineClue
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.engines.automata import (
    TooManyNodes,
    compiled,
    distinct_support,
    regular_support,
)
from sudoku_bench.solvers.engines.propagating.solver import tables_for
from sudoku_bench.solvers.registry import backends, create
from tests.solving_support import brute_force_solutions, remove_cells, shuffled_grid

CLUE_KINDS = (Sandwich, XSum, Skyscraper)


def _bits(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def _line(clue: LineClue, size: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    (automaton,) = clue.automata(GridShape.of_size(size))
    return compiled(automaton, size)


def test_a_6_cell_sandwich_of_4_after_a_1_keeps_only_the_4_then_the_6() -> None:
    """Sandwich 4 on a 6x6 row whose first cell is 1 (the row rule leaves 2..6 elsewhere).
    With distinct digits the only filling is 1 4 6 then 2, 3, 5 in some order. Paths that
    may repeat a digit also read 1 2 2 6: the second cell keeps 2 and 4, the third 2 and 6,
    and the last three every digit but 1."""
    steps, accepting = _line(Sandwich((0, -1), 4), 6)
    rest = _bits(2, 3, 4, 5, 6)
    masks = (_bits(1), rest, rest, rest, rest, rest)
    assert distinct_support(steps, accepting, masks) == (
        _bits(1),
        _bits(4),
        _bits(6),
        _bits(2, 3, 5),
        _bits(2, 3, 5),
        _bits(2, 3, 5),
    )
    assert regular_support(steps, accepting, masks) == (
        _bits(1),
        _bits(2, 4),
        _bits(2, 6),
        rest,
        rest,
        rest,
    )
    # no 4 left for the second cell: no filling at all
    cut = (_bits(1), _bits(2, 3, 5), rest, rest, rest, rest)
    assert distinct_support(steps, accepting, cut) is None


def test_a_9_cell_skyscraper_seen_9_is_the_rising_line() -> None:
    steps, accepting = _line(Skyscraper((0, -1), 9), 9)
    full = _bits(*range(1, 10))
    assert distinct_support(steps, accepting, (full,) * 9) == tuple(_bits(d) for d in range(1, 10))


def test_distinct_support_gives_up_past_its_bound_of_nodes() -> None:
    steps, accepting = _line(Sandwich((0, -1), 10), 9)
    with pytest.raises(TooManyNodes):
        distinct_support(steps, accepting, (_bits(*range(1, 10)),) * 9, most=8)


def _brute_support(clue: LineClue, size: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """Per cell, the candidates some permutation of 1..size within the masks that gives the
    clue uses; None when none does."""
    supported = [0] * size
    found = False
    for digits in itertools.permutations(range(1, size + 1)):
        within = all(_bits(d) & mask for d, mask in zip(digits, masks, strict=True))
        if within and clue.value_of(digits) == clue.value:
            found = True
            for place, d in enumerate(digits):
                supported[place] |= _bits(d)
    return tuple(supported) if found else None


@pytest.mark.parametrize("kind", CLUE_KINDS)
def test_distinct_support_is_exactly_the_brute_force_support_on_6_cells(kind: type) -> None:
    """Random candidates on a 6-cell line: what the propagator keeps is what the permutations
    that give the clue use, and the repeating paths keep at least that."""
    rng = random.Random(kind.kind)
    size = 6
    for _ in range(40):
        clue = kind((0, -1), rng.randint(0, kind((0, -1), 0).most(size)))
        steps, accepting = _line(clue, size)
        masks = tuple(rng.randint(1, 63) | _bits(rng.randint(1, 6)) for _ in range(size))
        exact = _brute_support(clue, size, masks)
        assert distinct_support(steps, accepting, masks) == exact, (clue, masks)
        loose = regular_support(steps, accepting, masks)
        if exact is not None:
            assert loose is not None
            assert all(e & ~kept == 0 for e, kept in zip(exact, loose, strict=True))


def _clue_puzzle(kind: type, size: int, seed: int, clues: int, empty: float) -> tuple[Grid, Grid]:
    """A random full grid, `clues` of the kind's clues it keeps and a share `empty` of its
    cells emptied: the puzzle and the grid it came from."""
    rng = random.Random(f"{kind.kind}-{size}-{seed}")
    shape = GridShape.of_size(size)
    solution = shuffled_grid(Rules.from_constraints(shape, []), rng)
    found: list[Constraint] = kind.candidates(solution.values, shape, rng)[:clues]
    rules = Rules.from_constraints(shape, found)
    grid = Grid(rules, solution.values)
    cells = rng.sample(range(size * size), round(size * size * empty))
    return remove_cells(grid, cells), grid


@pytest.mark.parametrize("kind", CLUE_KINDS)
@pytest.mark.parametrize("size", [4, 6])
def test_propagating_and_backtracking_by_automata_find_the_brute_force_solutions(
    kind: type, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`backtracking` reads the clues as automata only where their tables are not listed:
    listed up to 3x3 here, so that its automaton check is what runs."""
    monkeypatch.setattr(LineClue, "table_largest", 3)
    for seed in range(4):
        puzzle, grid = _clue_puzzle(kind, size, seed, clues=3, empty=0.6)
        truth = {found.values for found in brute_force_solutions(puzzle, limit=50)}
        assert grid.values in truth
        for name in ("propagating", "propagating-singles", "backtracking"):
            result = create(name).solve(puzzle, limit=len(truth) + 1)
            assert result.exact, (name, seed)
            assert {found.values for found in result.solutions} == truth, (name, seed)
        assert tables_for(puzzle.rules).automata and not tables_for(puzzle.rules).fillings


def _agree_with_cpsat(puzzle: Grid, names: tuple[str, ...]) -> None:
    """The same verdict (none, unique, at least two) as `cpsat` at a limit of 2, the same
    grid when unique, and every grid returned keeps the rules."""
    reference = create("cpsat").solve(puzzle, limit=2, timeout=120)
    assert reference.exact or reference.count == 2
    for name in names:
        result = create(name).solve(puzzle, limit=2, timeout=120)
        assert result.status is not Status.UNSUPPORTED, result.message
        assert result.exact or result.count == 2, name
        assert all(is_solution(puzzle, found) for found in result.solutions), name
        assert result.verdict == reference.verdict, name
        if reference.count == 1:
            assert result.solutions == reference.solutions, name


def _cpsat_installed() -> bool:
    return next(b for b in backends() if b.name == "cpsat").available()


@pytest.mark.parametrize("kind", CLUE_KINDS)
def test_12x12_clues_propagating_and_backtracking_agree_with_cpsat(kind: type) -> None:
    if not _cpsat_installed():
        pytest.skip("cpsat is not installed")
    puzzle, grid = _clue_puzzle(kind, 12, 0, clues=8, empty=0.4)
    assert is_solution(puzzle, grid)
    _agree_with_cpsat(puzzle, ("propagating", "backtracking"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", CLUE_KINDS)
@pytest.mark.parametrize("size", [10, 12])
def test_sparser_10x10_and_12x12_clues_propagating_agrees_with_cpsat(kind: type, size: int) -> None:
    if not _cpsat_installed():
        pytest.skip("cpsat is not installed")
    for seed in range(3):
        puzzle, _ = _clue_puzzle(kind, size, seed, clues=16, empty=0.6)
        _agree_with_cpsat(puzzle, ("propagating",))
