"""The CNF encodings of Lynce and Ouaknine (minimal, efficient, extended) and the optimised one
(givens simplified away): clause counts by formula, the same solutions under every rule kind,
and the `sat` back-end's unit-propagation verdict."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions
from variant_support import random_4x4_puzzle

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.cnf import ENCODINGS, CnfReduction
from sudoku_bench.solvers.adapters.sat import SatSolver
from sudoku_bench.solvers.registry import create


def expected_counts(encoding: str, n: int, units: int) -> dict[str, int]:
    """Lynce and Ouaknine's family sizes for an N x N grid with `units` houses, no givens."""
    pairs = n * (n - 1) // 2
    full = {
        "clauses_cell-at-least": n * n,
        "clauses_cell-at-most": n * n * pairs,
        "clauses_unit-at-least": units * n,
        "clauses_unit-at-most": units * n * pairs,
    }
    return {key: count if key[8:] in ENCODINGS[encoding] else 0 for key, count in full.items()}


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("size", [4, 9])
def test_the_clause_counts_follow_the_formulas(encoding: str, size: int) -> None:
    rules = Rules.of_size(size)
    puzzle = load("seeds")[0].puzzle if size == 9 else load("4x4")[0].puzzle
    reduction = CnfReduction(encoding=encoding)
    model, _ = reduction.apply(puzzle)
    counts = reduction.size(model)
    expected = expected_counts(encoding, size, len(rules.units))
    assert {key: counts[key] for key in expected} == expected
    assert counts["clauses"] == sum(expected.values()) + puzzle.givens
    assert counts["clauses_givens"] == puzzle.givens


def test_the_9x9_totals_are_the_papers_families() -> None:
    empty = Grid.empty(Rules.of_size(9))
    totals = {name: len(CnfReduction(encoding=name).apply(empty)[0].clauses) for name in ENCODINGS}
    assert totals == {"minimal": 8829, "efficient": 11745, "extended": 11988}


def test_the_default_is_the_extended_encoding_unchanged() -> None:
    puzzle = load("top95")[0].puzzle
    default = CnfReduction().export(puzzle)
    assert default == CnfReduction("units", "extended").export(puzzle)
    assert "extended CNF encoding, givens as units" in default
    assert CnfReduction().label == "extended"
    assert CnfReduction("simplify").label == "optimised"
    assert CnfReduction("units", "minimal").label == "minimal"


def test_an_unknown_encoding_names_the_choices() -> None:
    with pytest.raises(ValueError, match="minimal, efficient, extended"):
        CnfReduction(encoding="optimised")


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("givens", ["units", "simplify"])
def test_every_encoding_counts_the_empty_4x4(encoding: str, givens: str) -> None:
    result = SatSolver(givens=givens, encoding=encoding).solve(
        Grid.empty(Rules.of_size(4)), limit=300
    )
    assert result.exact and result.count == 288


@settings(max_examples=15, deadline=None)
@given(rng=st.randoms(use_true_random=False), encoding=st.sampled_from(["minimal", "efficient"]))
def test_the_weak_encodings_keep_every_variant_rule(rng: random.Random, encoding: str) -> None:
    """Random 4x4 variants (jigsaw, extra regions, pair rules, parity, cages): the minimal and
    efficient encodings have exactly the brute-force solutions."""
    puzzle = random_4x4_puzzle(rng)
    truth = set(brute_force_solutions(puzzle))
    for givens in ("units", "simplify"):
        result = SatSolver(givens=givens, encoding=encoding).solve(puzzle, limit=len(truth) + 1)
        assert result.exact and set(result.solutions) == truth, (encoding, givens)


@pytest.mark.parametrize("collection", ["jigsaw", "killer", "anti-knight", "odd-even"])
def test_the_minimal_encoding_solves_bundled_variants(collection: str) -> None:
    entry = load(collection)[0]
    result = create("sat-minimal").solve(entry.puzzle, limit=2)
    assert result.exact and result.count == 1
    assert result.solutions[0] == entry.solution


def test_unit_propagation_alone_solves_an_easy_puzzle_but_not_a_hard_one() -> None:
    easy = load("easy50")[1].puzzle
    hard = load("top95")[0].puzzle
    verdicts = {}
    for name in ("sat", "sat-extended", "sat-efficient", "sat-minimal"):
        solver = create(name)
        easy_result, hard_result = solver.solve(easy), solver.solve(hard)
        assert easy_result.count == hard_result.count == 1
        assert hard_result.counters["unit_propagation_solved"] == 0
        assert hard_result.counters["unit_propagation_fixed"] < len(hard.empty_cells)
        verdicts[name] = easy_result.counters["unit_propagation_solved"]
        assert easy_result.counters["clauses"] > 0 and easy_result.counters["variables"] > 0
    # easy50's second puzzle needs hidden singles: only the encodings with unit-at-least do
    # them; its first needs naked singles only, which every encoding's propagation does
    assert verdicts == {"sat": 1, "sat-extended": 1, "sat-efficient": 0, "sat-minimal": 0}
    naked = create("sat-minimal").solve(load("easy50")[0].puzzle)
    assert naked.counters["unit_propagation_solved"] == 1


def test_the_optimised_formula_is_far_smaller() -> None:
    puzzle = load("17clue")[0].puzzle
    optimised = create("sat").solve(puzzle).counters
    extended = create("sat-extended").solve(puzzle).counters
    assert optimised["clauses"] < extended["clauses"] / 2
    assert optimised["variables"] < extended["variables"] == 729


def test_reduce_takes_the_encoding(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reduce", "top95:1", "--to", "cnf", "--encoding", "minimal", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"encoding": "minimal"' in out and '"clauses_unit-at-least": 0' in out
    assert main(["reduce", "top95:1", "--to", "milp", "--encoding", "minimal"]) == 2
    assert main(["reduce", "top95:1", "--to", "cnf", "--encoding", "optimised"]) == 2
    capsys.readouterr()
    assert main(["reduce", "top95:1", "--to", "cp-model", "--encoding", "onehot", "--json"]) == 0
    assert '"encoding": "onehot"' in capsys.readouterr().out


def test_a_solver_without_propagate_still_solves() -> None:
    result = SatSolver(solver="cadical103").solve(load("easy50")[1].puzzle)
    assert result.count == 1 and "unit_propagation_solved" not in result.counters
