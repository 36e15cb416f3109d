"""Variant rules in the exact-cover reduction and the `dlx` back-end, one rule kind at a time.

Each kind is checked twice: the matrix has the columns and rows the README describes, and the
back-end's complete solution set equals the brute force's (which asks only the rule checker).
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions
from variant_support import puzzle_with_known_solution, random_4x4_puzzle

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import KINDS
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions.cages import digit_sets, fillings
from sudoku_bench.reductions.exact_cover import (
    CoverReduction,
    SudokuExactCover,
    full_matrix,
    placement_row,
    sudoku_matrix,
)
from sudoku_bench.solvers.base import Deadline, Status
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver

R4 = Rules.of_size(4)
R9 = Rules.of_size(9)
SOLVERS = {"fillings": DlxSolver(), "combinations": DlxSolver(cages="combinations")}


def assert_same_solutions(puzzle: Grid) -> None:
    """Every dlx configuration finds exactly the brute force's solutions, and says so."""
    truth = set(brute_force_solutions(puzzle))
    for name, solver in SOLVERS.items():
        result = solver.solve(puzzle, limit=len(truth) + 1)
        assert result.exact, (name, result.status, result.message)
        assert set(result.solutions) == truth, name
        assert result.status is (Status.SOLVED if truth else Status.NO_SOLUTION)


def names_of(rules: Rules, cell: int, digit: int, cages: str = "fillings") -> list[str]:
    sudoku = sudoku_matrix(rules, cages)
    row = sudoku.placement_rows[cell, digit]
    return [sudoku.matrix.columns[c] for c in sudoku.matrix.rows[row]]


def is_secondary(rules: Rules, name: str, cages: str = "fillings") -> bool:
    matrix = sudoku_matrix(rules, cages).matrix
    return matrix.columns.index(name) >= matrix.primary


def test_dlx_declares_every_rule_kind() -> None:
    assert all(DlxSolver.encoders.encodes(kind) for kind in KINDS.values())
    assert DlxSolver().accepts(R4.with_rules(anti_knight=True, odd=frozenset({1})))


def test_classic_matrices_keep_the_thesis_numbering() -> None:
    for rules in (R4, R9, Rules.of_size(9, diagonals=True)):
        matrix = full_matrix(rules)
        assert matrix.primary == len(matrix.columns)
        assert all(
            placement_row(rules, cell, d) == cell * rules.size + d - 1
            for cell in rules.cells
            for d in rules.digits
        )


# ----- regions and extra units --------------------------------------------------------------


def jigsaw_4x4() -> Rules:
    return R4.with_rules(layout=(0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3))


def test_jigsaw_regions_are_the_region_columns() -> None:
    rules = jigsaw_4x4()
    # r2c2 (cell 5) is in region 1 (b1), as its layout says; r1c4 (cell 3) in region 2
    assert names_of(rules, 5, 3) == ["r2c2", "r2#3", "c2#3", "b1#3"]
    assert names_of(rules, 3, 1)[-1] == "b2#1"
    assert_same_solutions(Grid.empty(rules))


def test_an_extra_unit_of_n_cells_is_primary_and_a_smaller_one_secondary() -> None:
    rules = R4.with_rules(extra_regions=((0, 5, 10, 15), (3, 6)))
    assert "x1#2" in names_of(rules, 0, 2) and not is_secondary(rules, "x1#2")
    assert names_of(rules, 6, 4)[-1] == "x2#4" and is_secondary(rules, "x2#4")
    assert_same_solutions(Grid.empty(rules))
    assert_same_solutions(Grid(rules, (1,) + (0,) * 15))


# ----- pair rules -----------------------------------------------------------------------------


def test_anti_knight_pairs_are_secondary_columns_per_digit() -> None:
    rules = Rules.of_size(6).with_rules(anti_knight=True)
    pairs = rules.distinct_pairs
    matrix = full_matrix(rules)
    pair_columns = [name for name in matrix.columns if name.startswith("p")]
    assert len(pair_columns) == len(pairs) * 6
    assert all(is_secondary(rules, name) for name in pair_columns)
    a, b = pairs[0]
    column = matrix.columns.index("p1#4")
    meeting = [row for row, columns in enumerate(matrix.rows) if column in columns]
    assert meeting == [placement_row(rules, a, 4), placement_row(rules, b, 4)]
    assert_same_solutions(Grid.empty(R4.with_rules(anti_knight=True)))
    assert_same_solutions(Grid.empty(R4.with_rules(anti_king=True)))  # no grid keeps it


def test_anti_knight_6x6_agrees_with_the_brute_force() -> None:
    rules = Rules.of_size(6).with_rules(anti_knight=True)
    # givens from the grid 123456 456123 561234 234561 345612 612345, which keeps the rule
    puzzle = Grid.from_string("1.3..6.5..2.5..2..2...6...56.2....4.", rules)
    assert_same_solutions(puzzle)


def test_non_consecutive_uses_n_minus_1_columns_per_neighbour_pair() -> None:
    rules = R4.with_rules(non_consecutive=True)
    matrix = full_matrix(rules)
    assert sum(1 for name in matrix.columns if name.startswith("v")) == 24 * 3
    # v1 is the pair r1c1~r1c2; its column for {2, 3} is met by 2 and 3 in either cell
    column = matrix.columns.index("v1#2")
    meeting = {
        sudoku_matrix(rules).options[row][0]
        for row, columns in enumerate(matrix.rows)
        if column in columns
    }
    assert meeting == {(0, 2), (0, 3), (1, 2), (1, 3)}
    assert rules.nonconsecutive_pairs[0] == (0, 1)
    six = Rules.of_size(6).with_rules(non_consecutive=True)
    assert_same_solutions(Grid.from_string("1..........3....5..........2...6....", six))


# ----- parity ---------------------------------------------------------------------------------


def test_parity_leaves_the_forbidden_placements_out() -> None:
    rules = R4.with_rules(odd=frozenset({0, 5}), even=frozenset({15}))
    sudoku = sudoku_matrix(rules)
    assert len(sudoku.matrix.rows) == 64 - 3 * 2
    assert (0, 2) not in sudoku.placement_rows and (0, 3) in sudoku.placement_rows
    assert (15, 1) not in sudoku.placement_rows
    assert_same_solutions(Grid.empty(rules))


def test_a_given_its_parity_forbids_leaves_no_solution() -> None:
    puzzle = Grid(R4.with_rules(odd=frozenset({0})), (2,) + (0,) * 15)
    problem, _ = CoverReduction().apply(puzzle)
    assert len(problem.removed) == 2  # both odd digits of r1c1: the cell cannot be filled
    result = DlxSolver().solve(puzzle)
    assert result.status is Status.NO_SOLUTION and result.exact


# ----- killer cages ---------------------------------------------------------------------------


def test_a_cage_with_a_sum_gets_one_option_per_filling() -> None:
    cage = Cage((0, 1, 4), 6)  # r1c1 r1c2 r2c1 = 6: {1, 2, 3} in any order
    rules = R4.with_rules(cages=(cage,))
    sudoku = sudoku_matrix(rules)
    assert [sudoku.options[row] for row in sudoku.cage_rows[0]][:2] == [
        ((0, 1), (1, 2), (4, 3)),
        ((0, 1), (1, 3), (4, 2)),
    ]
    assert len(sudoku.cage_rows[0]) == 6
    # the cells' own placements are gone: 13 free cells x 4 digits, plus the 6 fillings
    assert len(sudoku.matrix.rows) == 13 * 4 + 6
    assert sudoku.cage_encoding(0) == "fillings"
    assert_same_solutions(Grid.empty(rules))


def test_fillings_grow_as_digit_sets_times_k_factorial() -> None:
    for size, total, sets in ((2, 10, 4), (3, 15, 8), (4, 20, 12), (5, 25, 12)):
        cage = Cage(tuple(range(size)), total)
        assert len(digit_sets(R9, cage)) == sets
        assert sum(1 for _ in fillings(R9, cage)) == sets * math.factorial(size)
    # one more cell in the row would make 9 cells summing to 45: 9! fillings, so digit sets
    big = R9.with_rules(cages=(Cage(tuple(range(9)), 45),))
    sudoku = sudoku_matrix(big)
    assert sudoku.cage_encoding(0) == "combinations"
    assert len(sudoku.cage_rows[0]) == 1


def test_fillings_that_break_a_pair_rule_are_left_out() -> None:
    cage = Cage((0, 1), 5)  # {1, 4} or {2, 3}; 2 and 3 side by side are consecutive
    rules = R4.with_rules(cages=(cage,), non_consecutive=True)
    options = {sudoku_matrix(rules).options[row] for row in sudoku_matrix(rules).cage_rows[0]}
    assert options == {((0, 1), (1, 4)), ((0, 4), (1, 1))}


def test_digit_set_options_and_cages_without_a_sum() -> None:
    rules = R4.with_rules(cages=(Cage((0, 1), 5), Cage((2, 7), None)))
    combos = sudoku_matrix(rules, "combinations")
    matrix = combos.matrix
    assert "k1" in matrix.columns[: matrix.primary]
    assert {combos.digit_sets[row][1] for row in combos.cage_rows[0]} == {
        frozenset({1, 4}),
        frozenset({2, 3}),
    }
    assert combos.cage_encoding(1) == "distinct" and is_secondary(rules, "k2#3", "combinations")
    assert names_of(rules, 0, 4, "combinations")[-1] == "k1#4"
    # {1, 4} rules out 2 and 3 for the cage
    row = next(r for r in combos.cage_rows[0] if combos.digit_sets[r][1] == {1, 4})
    assert [matrix.columns[c] for c in matrix.rows[row]] == ["k1", "k1#2", "k1#3"]
    assert_same_solutions(Grid.empty(rules))


def test_overlapping_cages_share_cells_through_their_digit_columns() -> None:
    cages = (Cage((0, 1, 4), 6), Cage((1, 2), 5), Cage((4, 5, 8), None), Cage((5, 6), 5))
    rules = R4.with_rules(cages=cages)
    sudoku = sudoku_matrix(rules)
    assert [sudoku.cage_encoding(j) for j in range(4)] == [
        "fillings",
        "combinations",  # it shares r1c2 with the first, which places it
        "distinct",
        "fillings",
    ]
    assert_same_solutions(Grid.empty(rules))


def test_an_impossible_sum_has_no_solution_exhausted() -> None:
    for total in (2, 8):  # two different digits of 1..4 add up to 3..7
        puzzle = Grid.empty(R4.with_rules(cages=(Cage((0, 1), total),)))
        for solver in SOLVERS.values():
            result = solver.solve(puzzle, limit=2)
            assert result.status is Status.NO_SOLUTION and result.exact


def test_givens_in_a_cage_remove_the_fillings_that_disagree() -> None:
    rules = R4.with_rules(cages=(Cage((0, 1), 3),))
    problem, _ = CoverReduction().apply(Grid(rules, (1,) + (0,) * 15))
    sudoku = problem.sudoku
    assert [sudoku.options[row] for row in problem.removed] == [((0, 2), (1, 1))]
    assert_same_solutions(Grid(rules, (1,) + (0,) * 15))
    assert_same_solutions(Grid(rules, (3,) + (0,) * 15))  # no filling has a 3


def killer_from(solution: Grid, cages: list[tuple[int, ...]]) -> Rules:
    return solution.rules.with_rules(
        cages=tuple(Cage(cells, sum(solution[c] for c in cells)) for cells in cages)
    )


def test_a_killer_without_givens_is_solved() -> None:
    solution = Grid.from_string("1234341221434321")
    pairs = [(0, 1), (2, 3), (4, 8), (5, 6), (7, 11), (9, 10), (12, 13), (14, 15)]
    rules = killer_from(solution, pairs)
    assert_same_solutions(Grid.empty(rules))
    result = DlxSolver().solve(Grid.empty(rules), limit=2)
    assert all(is_solution(Grid.empty(rules), grid) for grid in result.solutions)


def test_the_reduced_matrix_and_the_linked_one_agree_on_a_killer() -> None:
    rules = R4.with_rules(cages=(Cage((0, 1), 3), Cage((5, 6, 9), 9)), odd=frozenset({15}))
    puzzle = Grid(rules, (0, 0, 0, 4) + (0,) * 12)
    matrix, data = SudokuExactCover().apply(puzzle)
    links = DlxSolver()._build(puzzle, Deadline(None)).links
    assert links.active_columns() == matrix.primary
    sizes = dict(zip(data.full.columns, links.column_sizes(), strict=True))
    expected = [sum(1 for row in matrix.rows if c in row) for c in range(len(matrix.columns))]
    assert [sizes[name] for name in matrix.columns] == expected


# ----- random puzzles under random rules --------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_random_4x4_variants_get_the_brute_force_solutions(rng: random.Random) -> None:
    assert_same_solutions(random_4x4_puzzle(rng))


@settings(max_examples=15, deadline=None)
@given(rng=st.randoms(use_true_random=False), empty=st.floats(0.3, 0.6))
def test_random_6x6_variants_round_trip_through_the_reduced_matrix(
    rng: random.Random, empty: float
) -> None:
    """A solution of a random 6x6 variant is an exact cover of the smaller matrix, and back."""
    puzzle = puzzle_with_known_solution(6, rng, empty)
    solution = brute_force_solutions(puzzle, limit=1)[0]
    for cages in ("fillings", "combinations"):
        reduction = SudokuExactCover(cages)
        matrix, data = reduction.apply(puzzle)
        rows = reduction.encode(solution, data)
        assert matrix.is_exact_cover(rows), cages
        assert reduction.invert(rows, data) == solution
