"""The polynomial reduction: the thesis's ideal with the givens substituted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("sympy")

from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.polynomial import (
    Algebra,
    PolynomialOptionsError,
    PolynomialReduction,
    PolynomialSystem,
    describe,
    export,
    format_polynomial,
    pair_polynomial,
    raw_size,
    system_of,
)

THESIS_PUZZLE = "0000302004010000"  # section 2.3.2: x5 = 3, x7 = 2, x10 = 4, x12 = 1
THESIS_SOLUTION = "4213312424311342"


def test_thesis_pair_polynomials_with_a_known_side() -> None:
    algebra = Algebra.of(4)
    assert algebra.text(algebra.F) == "t^4 - 10*t^3 + 35*t^2 - 50*t + 24"
    assert algebra.text(algebra.G[3]) == "t^3 - 7*t^2 + 14*t - 8"  # G(3, x6)
    assert algebra.text(algebra.G[2]) == "t^3 - 8*t^2 + 19*t - 12"  # G(2, x6)
    assert algebra.text(algebra.G[4]) == "t^3 - 6*t^2 + 11*t - 6"  # G(4, x6)
    assert algebra.text(algebra.G[1]) == "t^3 - 9*t^2 + 26*t - 24"  # G(1, x9)


def test_thesis_first_deduction_x6_is_1() -> None:
    """LNKO(G(3,x6), G(2,x6)) = x6^2 - 5x6 + 4; LNKO(G(4,x6), that) = x6 - 1."""
    algebra = Algebra.of(4)
    first = algebra.gcd(algebra.G[3], algebra.G[2])
    assert algebra.text(first, "x6") == "x6^2 - 5*x6 + 4"
    assert algebra.text(algebra.gcd(algebra.G[4], first), "x6") == "x6 - 1"
    # and the reduction, which substitutes the givens, has exactly that for x6 = r2c2
    system = system_of(Grid.from_string(THESIS_PUZZLE))
    assert format_polynomial(system.candidates[5], system.algebra) == "x6 - 1"


def test_thesis_second_deduction_x8_is_4() -> None:
    """With x5 = 3, x6 = 1, x7 = 2 in row 2, x8 = 4: by the gcd of the G(v, x8) and by the
    thesis's linear row sum x5 + x6 + x7 + x8 = 10."""
    rules = Rules.of_size(4)
    algebra = Algebra.of(4)
    row = {4: 3, 5: 1, 6: 2}  # x5, x6, x7 (cells 4, 5, 6)
    system = PolynomialSystem(rules, algebra, {7: algebra.F}, row, unit_sums=True)
    assert algebra.text(system.univariate[7], "x8") == "x8 - 4"
    row_sum = system.sums[0]  # row 2 is the first unit with an open cell
    assert format_polynomial(row_sum, algebra) == "x8 - 4"


def test_substituted_system_of_the_thesis_example() -> None:
    system = system_of(Grid.from_string(THESIS_PUZZLE))
    assert len(system.cells) == 12  # the 12 empty cells
    assert system.size()["candidate_polynomials"] == 12
    # many candidates first: x1 (r1c1) has three, x6 (r2c2) one
    assert system.cells[0] == 0 and system.cells[-1] in (5, 7, 8, 10)
    solution = Grid.from_string(THESIS_SOLUTION)
    point = [solution[c] for c in system.cells]
    assert all(not p(*point) for p in system.polynomials())


@pytest.mark.parametrize("modulus", [None, 13])
def test_reduced_pair_is_the_remainder_of_the_thesis_g(modulus: int | None) -> None:
    system = system_of(Grid.from_string("1200340000000000"), modulus=modulus)
    assert system.pairs
    for (a, b), reduced in system.pairs.items():
        xa, xb = system.variable(a), system.variable(b)
        full = pair_polynomial(system.algebra, system.ring, xa, xb)
        assert full.rem([system.candidates[a], system.candidates[b]]) == reduced


def test_pair_polynomial_vanishes_off_the_diagonal_only() -> None:
    from sympy.polys.domains import QQ
    from sympy.polys.orderings import lex
    from sympy.polys.rings import ring

    algebra = Algebra.of(4)
    R, a, b = ring("a,b", QQ, lex)
    g = pair_polynomial(algebra, R, a, b)
    for u in range(1, 5):
        for w in range(1, 5):
            assert (g(u, w) == 0) == (u != w)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 99), st.sampled_from([None, 7]))
def test_every_solution_is_a_point_of_the_ideal(index: int, modulus: int | None) -> None:
    entry = load("4x4")[index]
    system = system_of(entry.puzzle, modulus=modulus, unit_sums=True)
    solution = entry.solution
    if solution is None:
        from sudoku_bench.solvers import create

        solution = create("propagating").solve(entry.puzzle).solutions[0]
    point = [solution[c] for c in system.cells]
    assert all(not p(*point) for p in system.polynomials())


def test_clashing_givens_give_a_nonzero_constant() -> None:
    system = system_of(Grid.from_string("1100000000000000"))
    assert system.clashing_pairs == [(0, 1)]
    (constant,) = system.clashes
    assert constant.is_ground and constant  # G(1, 1) = F'(1) = -6


def test_modulus_must_be_a_prime_above_the_size() -> None:
    with pytest.raises(PolynomialOptionsError):
        Algebra.of(9, 7)
    with pytest.raises(PolynomialOptionsError):
        Algebra.of(4, 15)
    assert Algebra.of(4, 5).field_name == "GF(5)"


def test_reduction_round_trip() -> None:
    reduction = PolynomialReduction()
    puzzle = Grid.from_string(THESIS_PUZZLE)
    system, data = reduction.apply(puzzle)
    solution = Grid.from_string(THESIS_SOLUTION)
    answer = {c: solution[c] for c in system.cells}
    assert reduction.invert(answer, data).to_line() == THESIS_SOLUTION
    assert reduction.size(system)["variables"] == 12


def test_describe_and_raw_size() -> None:
    summary = describe(Grid.from_string(THESIS_PUZZLE))
    assert summary["variables"] == 12
    assert summary["field"] == "QQ"
    # the thesis ideal as is: 16 F's, 56 G's (16 cells x 7 peers / 2), 4 givens
    assert summary["raw_polynomials"] == 16 + 56 + 4
    assert raw_size(Rules.of_size(9), 30)["raw_polynomials"] == 81 + 810 + 30


def test_export_is_a_singular_script() -> None:
    text = export(Grid.from_string(THESIS_PUZZLE))
    assert "ring r = 0, (x1, x3, x14, x16," in text
    assert "lp;" in text and "ideal I =" in text
    assert "  x6 - 1," in text and text.rstrip().endswith(";")
    assert "// x6 = r2c2" in text
    modular = export(Grid.from_string(THESIS_PUZZLE), modulus=32003)
    assert "ring r = 32003," in modular


def test_reduce_command_prints_and_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_bench.harness.cli import main

    assert main(["reduce", THESIS_PUZZLE, "--to", "polynomials", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["target"] == "polynomials" and summary["variables"] == 12
    target = tmp_path / "thesis.sing"
    assert main(["reduce", THESIS_PUZZLE, "--to", "polynomials", "-o", str(target)]) == 0
    assert "ideal I =" in target.read_text(encoding="utf-8")


def test_solve_command_with_groebner(capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_bench.harness.cli import main

    assert main(["solve", THESIS_PUZZLE, "-s", "groebner", "--json"]) == 0
    assert THESIS_SOLUTION in capsys.readouterr().out
