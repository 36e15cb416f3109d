"""The clue generator's uniqueness question ("a solution other than the known grid?"), asked of
one incremental SAT formula whose clues are switched on by assumptions: its answers agree with
counting, and the core it names is itself unique."""

from __future__ import annotations

import random

import pytest

from sudoku_bench.harness.generating.clues import generatable_kinds, imposed
from sudoku_bench.harness.generating.generator import random_full_grid
from sudoku_bench.harness.generating.uniqueness import Group, Undecided, UniquenessOracle
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import KINDS
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from tests.solving_support import brute_force_solutions

pytest.importorskip("pysat")

CLUE_KINDS = [
    # the brute force is slow on region-sum lines (seconds per question)
    pytest.param(name, marks=pytest.mark.slow) if name == "region_sum_line" else name
    for name in generatable_kinds()
    if not imposed(KINDS[name])
]


def _puzzle(rules: Rules, groups: list[Group], chosen: list[int], givens: list[int]) -> Grid:
    return Grid(rules.with_constraints(*(c for i in chosen for c in groups[i])), tuple(givens))


def test_a_puzzle_with_two_solutions_is_not_unique_and_the_other_is_a_solution() -> None:
    # r1c1, r1c2, r3c1, r3c2 hold 1 2 / 2 1 or 2 1 / 1 2: two solutions
    known = Grid.from_string("1234341221434321")
    puzzle = Grid.from_string("..343412..434321")
    assert len(brute_force_solutions(puzzle)) == 2
    with UniquenessOracle(known.rules, known.values, []) as oracle:
        other = oracle.other([], puzzle.values)
        assert other is not None and other != known.values
        assert is_solution(puzzle, Grid(known.rules, other))
        assert oracle.core() is None
        found = oracle.others([], puzzle.values, most=5)
        assert len(found) == 1  # there is exactly one other
        full = list(puzzle.values)
        full[0] = known.values[0]
        assert oracle.other([], full) is None  # unique once the 1 and 2 are given
        groups, cells = oracle.core() or (set(), set())
        assert not groups and cells <= {c for c, v in enumerate(full) if v}
        core_puzzle = [v if c in cells else 0 for c, v in enumerate(full)]
        assert brute_force_solutions(Grid(known.rules, tuple(core_puzzle))) == [known]


@pytest.mark.parametrize("kind", CLUE_KINDS)
def test_the_answers_agree_with_counting_on_4x4_for_every_kind(kind: str) -> None:
    rng = random.Random(kind)
    rules = Rules.of_size(4)
    for _ in range(2):
        solution = random_full_grid(rules, rng)
        groups: list[Group] = [
            (c,) for c in KINDS[kind].candidates(solution.values, rules.shape, rng)
        ]
        if not groups:
            continue
        with UniquenessOracle(rules, solution.values, groups, budget=None) as oracle:
            for _ in range(5):
                chosen = sorted(rng.sample(range(len(groups)), rng.randint(0, len(groups))))
                cells = rng.sample(list(rules.cells), rng.randint(0, 6))
                givens = [solution[c] if c in cells else 0 for c in rules.cells]
                puzzle = _puzzle(rules, groups, chosen, givens)
                counted = brute_force_solutions(puzzle, limit=2)
                other = oracle.other(chosen, givens)
                assert (other is None) == ([g.values for g in counted] == [solution.values]), (
                    kind,
                    puzzle,
                )
                if other is not None:
                    assert is_solution(puzzle, Grid(puzzle.rules, other))
                    continue
                used_groups, used_cells = oracle.core() or (set(), set())
                assert used_groups <= set(chosen)
                core = _puzzle(
                    rules,
                    groups,
                    sorted(used_groups),
                    [v if c in used_cells else 0 for c, v in enumerate(givens)],
                )
                assert [g.values for g in brute_force_solutions(core, limit=2)] == [
                    solution.values
                ], core


def test_the_answers_agree_with_cpsat_counting_on_6x6_mixes() -> None:
    pytest.importorskip("ortools")
    from sudoku_bench.solvers.registry import create

    cpsat = create("cpsat")
    rng = random.Random(6)
    rules = Rules.of_size(6)
    for mix in (("thermometer", "difference"), ("little_killer", "xv"), ("arrow", "renban")):
        solution = random_full_grid(rules, rng)
        groups: list[Group] = [
            (c,) for kind in mix for c in KINDS[kind].candidates(solution.values, rules.shape, rng)
        ]
        with UniquenessOracle(rules, solution.values, groups, budget=None) as oracle:
            for _ in range(8):
                chosen = sorted(rng.sample(range(len(groups)), rng.randint(0, len(groups))))
                cells = rng.sample(list(rules.cells), rng.randint(0, 8))
                givens = [solution[c] if c in cells else 0 for c in rules.cells]
                puzzle = _puzzle(rules, groups, chosen, givens)
                counted = cpsat.solve(puzzle, limit=2)
                assert (oracle.other(chosen, givens) is None) == (counted.count == 1), mix


def test_a_question_past_the_budget_is_undecided_not_answered() -> None:
    from sudoku_bench.puzzles.collections import load
    from sudoku_bench.solvers.registry import create

    puzzle = load("hardest")[0].puzzle  # unique, and no proof of it without conflicts
    (solution,) = create("sat").solve(puzzle, limit=2).solutions
    with (
        UniquenessOracle(puzzle.rules, solution.values, [], budget=1) as oracle,
        pytest.raises(Undecided),
    ):
        oracle.other([], puzzle.values)
    with UniquenessOracle(puzzle.rules, solution.values, [], budget=None) as oracle:
        assert oracle.other([], puzzle.values) is None
