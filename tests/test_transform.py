"""Isomorphs (`bench --permute`): every allowed transformation maps solutions to solutions."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from variant_support import puzzle_with_known_solution

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.transform import random_isomorph
from sudoku_bench.solvers.registry import create
from tests.solving_support import kinds_of

SEED_PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SEED_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


@pytest.mark.parametrize("rules", ["9x9", "9x9-x", "6x6", "12x12", "16x16", "4x4-x"])
def test_classic_isomorphs_map_solutions_both_ways(rules: str) -> None:
    parsed = Rules.parse(rules)
    solution = create("propagating").solve(Grid.empty(parsed)).solutions[0]
    for seed in range(20):
        iso = random_isomorph(parsed, seed)
        moved = iso.apply(solution)
        assert is_solution(iso.apply(Grid.empty(parsed)), moved)
        assert iso.invert(moved) == solution


def test_isomorphs_of_a_seed_puzzle_differ_and_solve_back() -> None:
    puzzle, solution = Grid.from_string(SEED_PUZZLE), Grid.from_string(SEED_SOLUTION)
    lines = set()
    for seed in range(10):
        iso = random_isomorph(puzzle.rules, seed)
        moved = iso.apply(puzzle)
        lines.add(moved.to_line())
        (found,) = create("propagating").solve(moved).solutions
        assert iso.invert(found) == solution
    assert len(lines) == 10


@settings(max_examples=30, deadline=None)
@given(rng=st.randoms(use_true_random=False), seed=st.integers(0, 2**32))
def test_variant_isomorphs_keep_their_rules(rng: random.Random, seed: int) -> None:
    size = rng.choice([4, 6])
    puzzle = puzzle_with_known_solution(size, rng, 0.0)  # full: it is its own solution
    iso = random_isomorph(puzzle.rules, seed)
    moved = iso.apply(puzzle)
    # reversing the digits (d -> N + 1 - d) turns a minimum mark into a maximum and back
    extremes = {"minimum": "extremum", "maximum": "extremum"}
    assert {extremes.get(k, k) for k in kinds_of(iso.rules)} == {
        extremes.get(k, k) for k in kinds_of(puzzle.rules)
    }
    assert is_solution(moved, moved), iso.rules.to_json()
    assert iso.invert(moved) == puzzle
