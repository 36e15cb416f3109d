"""The groebner back-end and the polynomial reduction under every variant rule.

Each rule kind on 4x4 (complete solution sets against the brute force of `solving_support`,
which asks only the rule checker) and on 6x6 (verdict and grid with limit 2), both through
one basis and through propagate-and-split; the polynomials of each rule vanish exactly on
what the rule allows; the fields that cannot express a cage sum answer `unsupported`.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

pytest.importorskip("sympy")

from solving_support import brute_force_solutions
from variant_support import distinct_group, random_partition_layout

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import KINDS, TableConstraint
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions.polynomial import (
    Algebra,
    FieldTooSmallError,
    PolynomialReduction,
    PolynomialSystem,
    cage_spread,
    format_polynomial,
    nonconsecutive_polynomial,
    raw_size,
    system_of,
)
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.engines.groebner import GroebnerSolver
from sudoku_bench.solvers.registry import create
from tests.solving_support import kinds_of

# 4x4 regions that are not boxes (96 grids):  3 3 3 4 / 1 3 4 4 / 1 1 2 4 / 1 2 2 2
JIGSAW_4 = (2, 2, 2, 3, 0, 2, 3, 3, 0, 0, 1, 3, 0, 1, 1, 1)


def rules4(**changes: Any) -> Rules:
    return Rules.of_size(4).with_rules(**changes)


def cells(rules: Rules, *names: str) -> tuple[int, ...]:
    """`r1c2` names -> cell numbers."""
    return tuple(rules.cell(int(n[1]) - 1, int(n[3]) - 1) for n in names)


BASE4 = Rules.of_size(4)

# One 4x4 rule set per rule kind (and one with everything that still has solutions).
KIND_RULES_4 = {
    "jigsaw": rules4(layout=JIGSAW_4),
    "extra_region": rules4(
        extra_regions=(cells(BASE4, "r1c1", "r2c3", "r4c2"), cells(BASE4, "r3c1", "r3c4"))
    ),
    "anti_knight": rules4(anti_knight=True),
    "non_consecutive": rules4(non_consecutive=True),  # no 4x4 grid keeps it
    "parity": rules4(
        odd=frozenset(cells(BASE4, "r1c1", "r2c3")), even=frozenset(cells(BASE4, "r4c4"))
    ),
    "killer_cage": rules4(
        cages=(
            Cage(cells(BASE4, "r1c1", "r1c2"), 3),
            Cage(cells(BASE4, "r2c2", "r2c3", "r3c3"), 8),
            Cage(cells(BASE4, "r4c3", "r4c4")),  # distinct, any sum
        )
    ),
}
ANTI_KING_4 = rules4(anti_king=True)  # no 4x4 grid keeps it either
MIXED_4 = rules4(  # 12 grids
    layout=JIGSAW_4,
    extra_regions=(cells(BASE4, "r1c4", "r4c2"),),
    even=frozenset(cells(BASE4, "r2c2")),
    cages=(Cage(cells(BASE4, "r3c3", "r3c4"), 6), Cage(cells(BASE4, "r1c1", "r2c1"))),
)


def count_check(puzzle: Grid, **options: Any) -> None:
    """The solver's complete solution set is the brute force's, and it says so (exact)."""
    truth = frozenset(brute_force_solutions(puzzle))
    result = GroebnerSolver(**options).solve(puzzle, limit=len(truth) + 1, timeout=120)
    assert result.exact, (result.status, result.message)
    assert frozenset(result.solutions) == truth, (len(result.solutions), len(truth))
    assert result.status is (Status.SOLVED if truth else Status.NO_SOLUTION)


def with_givens(rules: Rules, count: int) -> Grid:
    """`count` givens (every few cells, row-major) of the first brute-force solution; with no
    solution, the main diagonal of a classic grid (no two of its cells are neighbours)."""
    if not count:
        return Grid.empty(rules)
    found = brute_force_solutions(Grid.empty(rules), limit=1)
    if not found:
        diagonal = {c * (rules.size + 1) for c in range(rules.size)}
        classic = brute_force_solutions(Grid.empty(Rules.of_size(rules.size)), limit=1)[0]
        return Grid(rules, tuple(v if c in diagonal else 0 for c, v in enumerate(classic.values)))
    keep = set(range(0, rules.cell_count, rules.cell_count // count)[:count])
    return Grid(rules, tuple(v if c in keep else 0 for c, v in enumerate(found[0].values)))


def test_groebner_declares_every_rule_kind_but_tables() -> None:
    """Pair relations by interpolation, sums and equations linear; a table of fillings has
    no polynomial form kept small here, so those kinds are answered unsupported."""
    for kind in KINDS.values():
        assert GroebnerSolver.encoders.encodes(kind) != issubclass(kind, TableConstraint), kind
    assert all(create(name).accepts(MIXED_4) for name in ("groebner", "groebner-unity"))


@pytest.mark.parametrize("kind", list(KIND_RULES_4), ids=str)
@pytest.mark.parametrize(
    "options",
    [
        {"strategy": "split", "leaf_freedom": 4},  # the propagation steps do most of the work
        {"strategy": "split", "leaf_freedom": 0, "local_cells": 3, "cage_cells": 4},
        {"strategy": "basis", "modulus": None},  # one basis over QQ, as the thesis computes
    ],
    ids=["split", "split-local", "basis-qq"],
)
def test_each_rule_kind_on_4x4_gets_every_solution(kind: str, options: dict[str, Any]) -> None:
    rules = KIND_RULES_4[kind]
    assert kinds_of(rules) == {kind}
    # one basis of a nearly empty ideal takes sympy minutes: that strategy gets 5 givens
    count_check(with_givens(rules, 5 if options["strategy"] == "basis" else 0), **options)


@pytest.mark.parametrize("rules", [ANTI_KING_4, MIXED_4], ids=["anti-king", "mixed"])
@pytest.mark.parametrize("formulation", ["thesis", "roots-of-unity"])
def test_more_4x4_rules_in_both_formulations(rules: Rules, formulation: str) -> None:
    count_check(Grid.empty(rules), formulation=formulation, leaf_freedom=6)
    count_check(with_givens(rules, 3), formulation=formulation)


# 6x6 grids that keep the pair rules (found by the brute force, checked below).
NONCONSECUTIVE_6 = "135246462513246351513624351462624135"
ANTI_KNIGHT_6 = "123456456123345612612345561234234561"
ANTI_KING_6 = "123456456123214365365214541632632541"


def around(solution: str) -> Grid:
    return Grid.from_string(solution)


def six(solution: str, empty: list[int], **changes: Any) -> Grid:
    rules = Rules.of_size(6).with_rules(**changes)
    values = tuple(0 if c in empty else int(v) for c, v in enumerate(solution))
    grid = Grid(rules, values)
    assert is_solution(grid, Grid(rules, tuple(int(v) for v in solution)))
    return grid


EMPTY_6 = [c for c in range(36) if c % 3 != 0 and c % 7 != 3]  # 21 of 36 cells empty
SIX = {
    "jigsaw": six(
        ANTI_KNIGHT_6,
        EMPTY_6,
        layout=random_partition_layout(around(ANTI_KNIGHT_6), random.Random(6)),
    ),
    "extra-units": six(
        ANTI_KING_6,
        EMPTY_6,
        extra_regions=tuple(
            distinct_group(around(ANTI_KING_6), random.Random(seed), size)
            for seed, size in ((1, 6), (2, 3))
        ),
    ),
    "anti-knight": six(ANTI_KNIGHT_6, EMPTY_6, anti_knight=True),
    "anti-king": six(ANTI_KING_6, EMPTY_6, anti_king=True),
    "non-consecutive": six(NONCONSECUTIVE_6, EMPTY_6, non_consecutive=True),
    "parity": six(
        ANTI_KING_6,
        EMPTY_6,
        odd=frozenset(c for c in range(0, 36, 4) if int(ANTI_KING_6[c]) % 2),
        even=frozenset(c for c in range(0, 36, 4) if int(ANTI_KING_6[c]) % 2 == 0),
    ),
    "killer": six(
        NONCONSECUTIVE_6,
        list(range(36)),  # no givens at all
        cages=tuple(
            Cage((c, c + 1), int(NONCONSECUTIVE_6[c]) + int(NONCONSECUTIVE_6[c + 1]))
            for c in range(0, 36, 2)
        ),
    ),
}


@pytest.mark.parametrize("name", list(SIX))
@pytest.mark.parametrize("leaf_freedom", [12, 0], ids=["default", "no-leaf-basis"])
def test_each_rule_kind_on_6x6_gets_the_brute_force_verdict(name: str, leaf_freedom: int) -> None:
    puzzle = SIX[name]
    truth = brute_force_solutions(puzzle, limit=2)
    result = create("groebner", leaf_freedom=leaf_freedom).solve(puzzle, limit=2, timeout=120)
    assert result.status is not Status.TIMEOUT
    assert len(result.solutions) == len(truth)
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
    if len(truth) == 1:
        assert result.status is Status.SOLVED and result.solutions == truth


def test_an_impossible_cage_sum_has_no_solution_exhausted() -> None:
    rules = rules4(cages=(Cage(cells(BASE4, "r1c1", "r1c2"), 8),))  # two digits make 3..7
    system = system_of(Grid.empty(rules))
    assert [reason for reason, _ in system.clash_reasons] == [
        "cage r1c1+r1c2 = 8: 2 distinct digits add up to 3..7"
    ]
    for strategy in ("auto", "basis", "split"):
        result = GroebnerSolver(strategy=strategy).solve(Grid.empty(rules), limit=2)
        assert result.status is Status.NO_SOLUTION and result.exact, strategy


@pytest.mark.parametrize(
    ("rules", "line", "reason"),
    [
        (rules4(non_consecutive=True), "12" + "." * 14, "r1c1 and r1c2 hold consecutive digits"),
        (rules4(odd=frozenset({0})), "2" + "." * 15, "r1c1 holds 2, not allowed there"),
        (
            rules4(cages=(Cage((0, 1), 4),)),
            "12" + "." * 14,
            "cage r1c1+r1c2 = 4: its digits add up to 3",
        ),
        (rules4(anti_knight=True), "1" + "." * 5 + "1" + "." * 9, "r1c1 and r2c3 both hold 1"),
    ],
    ids=["non-consecutive", "parity", "cage", "anti-knight"],
)
def test_givens_that_break_a_variant_rule_put_one_in_the_ideal(
    rules: Rules, line: str, reason: str
) -> None:
    puzzle = Grid.from_string(line, rules)
    system = system_of(puzzle)
    assert reason in [r for r, _ in system.clash_reasons]
    assert all(c for _, c in system.clash_reasons)  # nonzero constants
    for strategy in ("basis", "split"):
        result = GroebnerSolver(strategy=strategy).solve(puzzle, limit=2)
        assert result.status is Status.NO_SOLUTION and result.exact, strategy


# --- the polynomials of each rule ----------------------------------------------------------


@pytest.mark.parametrize(
    ("modulus", "unity"), [(None, False), (32003, False), (5, True)], ids=["QQ", "GF", "unity"]
)
def test_nonconsecutive_polynomial_vanishes_exactly_on_allowed_pairs(
    modulus: int | None, unity: bool
) -> None:
    from sympy.polys.orderings import lex
    from sympy.polys.rings import ring

    algebra = Algebra.of(4, modulus, unity=unity)
    R, a, b = ring("a,b", algebra.domain, lex)
    h = nonconsecutive_polynomial(algebra, R, a, b)
    value = algebra.value
    for u, w in itertools.product(algebra.digits, repeat=2):
        at = h(algebra.to_sympy(value[u]), algebra.to_sympy(value[w]))
        assert (at == 0) == (abs(u - w) != 1), (u, w)
    # with one side fixed to v: zero at every digit but v - 1 and v + 1
    for v in algebra.digits:
        roots = algebra.roots(algebra.gcd(algebra.F, algebra.next_to[v]))
        assert set(roots) == {w for w in algebra.digits if abs(v - w) != 1}


@pytest.mark.parametrize("modulus", [None, 13])
def test_reduced_nonconsecutive_is_the_remainder_of_h(modulus: int | None) -> None:
    rules = rules4(non_consecutive=True)
    puzzle = Grid.from_string("1...." + "." * 11, rules)
    system = system_of(puzzle, modulus=modulus)
    assert system.nonconsecutive
    for (a, b), reduced in system.nonconsecutive.items():
        xa, xb = system.variable(a), system.variable(b)
        full = nonconsecutive_polynomial(system.algebra, system.ring, xa, xb)
        assert full.rem([system.candidates[a], system.candidates[b]]) == reduced


def test_parity_cells_get_their_own_candidate_polynomial() -> None:
    rules = rules4(odd=frozenset({0}), even=frozenset({5}))
    system = system_of(Grid.empty(rules))
    algebra = system.algebra
    assert format_polynomial(system.candidates[0], algebra) == "x1^2 - 4*x1 + 3"  # (x-1)(x-3)
    assert format_polynomial(system.candidates[5], algebra) == "x6^2 - 6*x6 + 8"  # (x-2)(x-4)


def test_cage_sum_is_the_thesis_linear_polynomial() -> None:
    rules = rules4(cages=(Cage((0, 1, 4), 6),))
    system = system_of(Grid.from_string("...." + "1" + "." * 11, rules))
    (cage_sum,) = system.cage_sums
    assert format_polynomial(cage_sum, system.algebra) in ("x1 + x2 - 5", "x2 + x1 - 5")
    # one cell left open: the sum is univariate and goes into its candidate polynomial
    alone = system_of(Grid.from_string("3..." + "1" + "." * 11, rules))
    assert not alone.cage_sums and alone.algebra.roots(alone.univariate[1]) == (2,)


def generators(system: PolynomialSystem) -> list[list[tuple[Any, list[tuple[int, int]]]]]:
    """Each generator as its terms: (coefficient, [(variable index, exponent), ...])."""
    algebra = system.algebra
    return [
        [
            (algebra.from_sympy(c), [(i, e) for i, e in enumerate(monomial) if e])
            for monomial, c in poly.terms()
        ]
        for poly in system.polynomials()
    ]


def vanishes(system: PolynomialSystem, polys: list[Any], grid: Grid) -> bool:
    """Every generator is zero at the grid's point (in the system's field)."""
    algebra = system.algebra
    point = [algebra.value[grid[c]] for c in system.cells]
    for terms in polys:
        total = 0
        for coefficient, powers in terms:
            for i, e in powers:
                coefficient *= point[i] ** e
            total += coefficient
        if algebra.number(total):
            return False
    return True


@pytest.mark.parametrize(("modulus", "unity"), [(32003, False), (5, True)], ids=["GF", "unity"])
def test_the_variety_of_each_rule_is_what_the_checker_allows(modulus: int, unity: bool) -> None:
    """Over every classic 4x4 grid: a grid is a point of the variant ideal (every generator
    vanishes there) exactly when the checker calls it a solution."""
    grids = brute_force_solutions(Grid.empty(BASE4))
    assert len(grids) == 288
    for rules in [*KIND_RULES_4.values(), ANTI_KING_4, MIXED_4]:
        system = system_of(Grid.empty(rules), modulus=modulus, unity=unity)
        polys = generators(system)
        for classic in grids:
            grid = Grid(rules, classic.values)
            expected = is_solution(Grid.empty(rules), grid)
            assert vanishes(system, polys, grid) == expected, (rules.name, grid)


def test_a_field_too_small_for_the_cage_sums_is_unsupported() -> None:
    # 6x6, a cage of 3 cells: sums 6..15, spread 9; GF(7) cannot tell 8 from 15
    rules = Rules.of_size(6).with_rules(cages=(Cage((0, 1, 2), 8),))
    assert cage_spread(rules) == 9
    with pytest.raises(FieldTooSmallError):
        system_of(Grid.empty(rules), modulus=7)
    result = GroebnerSolver(modulus=7).solve(Grid.empty(rules))
    assert result.status is Status.UNSUPPORTED and "GF(7)" in result.message
    # the default roots-of-unity prime moves above the spread: 13 = 1 mod 6
    assert system_of(Grid.empty(rules), modulus="default", unity=True).algebra.modulus == 13
    reduction = PolynomialReduction(modulus="default", unity=True)
    assert reduction.describe(Grid.empty(rules))["field"] == "GF(13)"


def test_extra_regions_smaller_than_n_are_not_houses() -> None:
    """A 2-cell extra region need not hold every digit: the house step must skip it (taking
    it for a house would force the only cell of the region that keeps a digit to hold it)."""
    rules = rules4(extra_regions=((0, 15), (3, 12)))
    count_check(Grid.empty(rules), strategy="split", leaf_freedom=0)
    search_system = PolynomialSystem(rules, Algebra.of(4), {0: Algebra.of(4).F}, {})
    assert not search_system.pairs  # one open cell: no pair within the system


def test_raw_size_counts_every_rule() -> None:
    rules = MIXED_4.with_rules(non_consecutive=True)
    size = raw_size(rules, 0)
    pairs = sum(len(p) for p in rules.peers) // 2
    assert size["raw_polynomials"] == 16 + pairs + len(rules.nonconsecutive_pairs) + 1


# A 4x4 killer with no givens and one solution, 1234341221434321 (cages of 2-3 cells).
KILLER_4 = Rules.parse(
    '{"cages":[{"cells":["r1c1","r1c2"],"sum":3},{"cells":["r1c3","r2c3","r3c3"],"sum":8},'
    '{"cells":["r1c4","r2c4"],"sum":6},{"cells":["r2c1","r3c1","r4c1"],"sum":9},'
    '{"cells":["r2c2","r3c2"],"sum":5},{"cells":["r3c4","r4c4"],"sum":4},'
    '{"cells":["r4c2","r4c3"],"sum":5}],"size":4}'
)


@pytest.mark.parametrize("name", ["groebner", "groebner-qq", "groebner-unity", "groebner-basis"])
def test_a_killer_with_no_givens_is_solved_by_every_configuration(name: str) -> None:
    puzzle = Grid.empty(KILLER_4)
    truth = brute_force_solutions(puzzle)
    assert [grid.to_line() for grid in truth] == ["1234341221434321"]
    result = create(name).solve(puzzle, limit=2, timeout=120)
    assert result.status is Status.SOLVED and result.solutions == truth, result.status


def test_a_cage_sum_its_candidates_already_fix_adds_no_zero_generator() -> None:
    """r1c1 can only be 1 and r1c2 only 2, so their cage sum x1 + x2 - 3 reduces to 0: it
    must not reach sympy, which divides by every generator (a ZeroDivisionError once)."""
    rules = rules4(cages=(Cage((0, 1), 3), Cage((2, 3), 7)))
    puzzle = Grid.from_string("..34....21......", rules)
    system = system_of(puzzle)
    assert system.algebra.roots(system.univariate[0]) == (1,)
    assert not system.cage_sums and all(system.polynomials())
    count_check(puzzle, strategy="basis")
