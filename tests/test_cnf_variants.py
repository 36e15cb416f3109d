"""Variant rules in the CNF reduction and the `sat` back-end: clause counts by formula per rule
kind, and the complete solution sets against the brute force."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions
from variant_support import puzzle_with_known_solution, random_4x4_puzzle

from sudoku_bench.puzzles.constraints import KINDS
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions.cages import digit_sets
from sudoku_bench.reductions.cnf import CageSums, CnfReduction, variable
from sudoku_bench.solvers.adapters.sat import SatSolver
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create

R4 = Rules.of_size(4)
R6 = Rules.of_size(6)
SOLVERS = {"simplify": SatSolver(), "units": SatSolver(givens="units")}


def sizes(rules: Rules) -> dict[str, int]:
    reduction = CnfReduction()
    model, _ = reduction.apply(Grid.empty(rules))
    return reduction.size(model)


def assert_same_solutions(puzzle: Grid) -> None:
    truth = set(brute_force_solutions(puzzle))
    for name, solver in SOLVERS.items():
        result = solver.solve(puzzle, limit=len(truth) + 1)
        assert result.exact, (name, result.status, result.message)
        assert set(result.solutions) == truth, name


def test_sat_declares_every_rule_kind() -> None:
    assert all(SatSolver.encoders.encodes(kind) for kind in KINDS.values())
    assert create("sat-glucose").accepts(R4.with_rules(cages=(Cage((0, 1), 3),)))


def test_classic_formulas_have_no_variant_clauses() -> None:
    size = sizes(Rules.of_size(9))
    assert size["clauses"] == 11988 and size["variables"] == 729
    for family in ("pair-distinct", "nonconsecutive", "parity", "cage-at-most", "cage-sum"):
        assert size[f"clauses_{family}"] == 0


def test_a_smaller_unit_gets_at_most_one_but_no_at_least_one() -> None:
    classic = sizes(R6)
    size = sizes(R6.with_rules(extra_regions=((0, 7, 14), (5, 10, 15, 20, 25, 30))))
    assert size["clauses_unit-at-least"] == classic["clauses_unit-at-least"] + 6  # the house
    assert size["clauses_unit-at-most"] == classic["clauses_unit-at-most"] + 6 * (3 + 15)


@pytest.mark.parametrize("flag", ["anti_knight", "anti_king"])
def test_pair_rules_are_one_binary_clause_per_pair_and_digit(flag: str) -> None:
    rules = R6.with_rules(**{flag: True})
    assert sizes(rules)["clauses_pair-distinct"] == len(rules.distinct_pairs) * 6
    model, _ = CnfReduction().apply(Grid.empty(rules))
    a, b = rules.distinct_pairs[0]
    assert (-variable(rules, a, 4), -variable(rules, b, 4)) in model.clauses


def test_non_consecutive_forbids_both_orders_of_each_neighbouring_pair() -> None:
    rules = R6.with_rules(non_consecutive=True)
    assert sizes(rules)["clauses_nonconsecutive"] == len(rules.nonconsecutive_pairs) * 2 * 5
    model, _ = CnfReduction().apply(Grid.empty(rules))
    assert (-variable(rules, 0, 3), -variable(rules, 1, 4)) in model.clauses
    assert (-variable(rules, 1, 3), -variable(rules, 0, 4)) in model.clauses


def test_parity_is_unit_clauses_or_missing_candidates() -> None:
    rules = R6.with_rules(odd=frozenset({0, 1}), even=frozenset({7}))
    assert sizes(rules)["clauses_parity"] == 3 * 3
    model, data = CnfReduction("simplify").apply(Grid.empty(rules))
    assert variable(rules, 0, 2) not in data.used and variable(rules, 7, 2) in data.used
    assert dict(model.families)["parity"] == 0


def test_cage_sums_cost_kn_plus_n_plus_1_plus_mn_clauses() -> None:
    cages = (Cage((0, 1), 5), Cage((2, 3, 8), 9), Cage((4, 10), None))
    rules = R6.with_rules(cages=cages)
    size = sizes(rules)
    expected = 0
    for cage in cages[:2]:
        k, m = len(cage.cells), len(digit_sets(rules, cage))
        expected += k * 6 + 6 + 1 + m * 6
    assert size["clauses_cage-sum"] == expected
    # only cage mates that share no unit need cage-at-most clauses: here r1c4 and r2c3
    unshared = [
        (a, b)
        for cage in cages
        for a, b in itertools.combinations(cage.cells, 2)
        if b not in rules.unit_peers[a]
    ]
    assert unshared == [(3, 8)]
    assert size["clauses_cage-at-most"] == len(unshared) * 6
    sums = CageSums.of(rules)
    assert size["variables"] == 216 + 2 * 6 + sum(len(s) for s in sums.sets.values())
    assert size["variables"] == sums.variables


@pytest.mark.parametrize("givens", ["simplify", "units"])
def test_an_impossible_sum_is_the_empty_clause(givens: str) -> None:
    puzzle = Grid.empty(R4.with_rules(cages=(Cage((0, 1), 8),)))
    model, _ = CnfReduction(givens).apply(puzzle)
    assert model.has_empty_clause
    result = SatSolver(givens=givens).solve(puzzle, limit=2)
    assert result.status is Status.NO_SOLUTION and result.exact


def test_per_rule_kind_the_solutions_are_the_brute_force_ones() -> None:
    jigsaw = R4.with_rules(layout=(0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3))
    for rules in (
        jigsaw,
        R4.with_rules(extra_regions=((0, 5, 10, 15), (3, 6))),
        R4.with_rules(anti_knight=True),
        R4.with_rules(non_consecutive=True),
        R4.with_rules(odd=frozenset({0, 5}), even=frozenset({15})),
        R4.with_rules(cages=(Cage((0, 1, 4), 6), Cage((1, 2), 5), Cage((5, 6), 5))),
        R4.with_rules(cages=(Cage((2, 7), None),), odd=frozenset({2})),
    ):
        assert_same_solutions(Grid.empty(rules))
    assert_same_solutions(Grid(R4.with_rules(cages=(Cage((0, 1), 3),)), (1,) + (0,) * 15))
    assert_same_solutions(Grid(R4.with_rules(odd=frozenset({0})), (2,) + (0,) * 15))


def test_a_killer_without_givens_is_solved() -> None:
    solution = Grid.from_string("1234341221434321")
    pairs = [(0, 1), (2, 3), (4, 8), (5, 6), (7, 11), (9, 10), (12, 13), (14, 15)]
    rules = solution.rules.with_rules(
        cages=tuple(Cage(cells, sum(solution[c] for c in cells)) for cells in pairs)
    )
    assert_same_solutions(Grid.empty(rules))


@settings(max_examples=25, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_random_4x4_variants_get_the_brute_force_solutions(rng: random.Random) -> None:
    assert_same_solutions(random_4x4_puzzle(rng))


@settings(max_examples=10, deadline=None)
@given(rng=st.randoms(use_true_random=False), empty=st.floats(0.3, 0.5), simplify=st.booleans())
def test_random_6x6_variants_satisfy_and_invert(
    rng: random.Random, empty: float, simplify: bool
) -> None:
    """A solution of a random 6x6 variant, with its auxiliaries, satisfies the formula; the
    formula with its blocking clause does not; and the model inverts to the solution. The
    cages' auxiliaries are set by hand; those of the other families (partial sums, table
    rows) are found by a SAT solver with the solution's placements assumed."""
    from pysat.solvers import Solver as PysatSolver

    puzzle = puzzle_with_known_solution(6, rng, empty)
    solution = brute_force_solutions(puzzle, limit=1)[0]
    reduction = CnfReduction("simplify" if simplify else "units")
    model, data = reduction.apply(puzzle)
    rules = puzzle.rules
    true = {variable(rules, c, d) for c, d in enumerate(solution.values)}
    sums = CageSums.of(rules)
    for j, has in sums.has.items():
        digits = {solution[c] for c in rules.cages[j].cells}
        true |= {has[d - 1] for d in digits}
        true |= {selector for held, selector in sums.sets[j] if held == digits}
    placements = [
        v if v in true else -v
        for v in (variable(rules, c, d) for c in rules.cells for d in rules.digits)
        if v <= model.variables
    ]
    with PysatSolver(name="minisat22", bootstrap_with=model.clauses) as sat:
        assert sat.solve(assumptions=placements)
        answer = sat.get_model()
    answer += [-v for v in range(len(answer) + 1, model.variables + 1)]
    assert all(literal > 0 for literal in answer if abs(literal) in true)
    assert reduction.invert(answer, data) == solution
