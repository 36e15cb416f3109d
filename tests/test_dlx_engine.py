"""The Dancing Links engine on exact-cover problems that are not Sudoku."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.solvers.base import Deadline, SearchTimeout
from sudoku_bench.solvers.engines.dlx import DancingLinks

# Knuth, "Dancing Links", figure (3): columns A..G and six rows.
KNUTH_COLUMNS = "ABCDEFG"
KNUTH_ROWS = ["CEF", "ADG", "BCF", "AD", "BG", "DEG"]


def knuth_links() -> DancingLinks:
    rows = [[KNUTH_COLUMNS.index(name) for name in row] for row in KNUTH_ROWS]
    return DancingLinks(rows, primary=len(KNUTH_COLUMNS))


def queens(n: int) -> DancingLinks:
    """N-queens as in the paper: ranks and files primary, both kinds of diagonal secondary."""
    rows = []
    for rank in range(n):
        for file in range(n):
            diagonal = 2 * n + rank + file  # 2n - 1 of them
            anti = 2 * n + (2 * n - 1) + rank - file + n - 1  # 2n - 1 of them
            rows.append([rank, n + file, diagonal, anti])
    return DancingLinks(rows, primary=2 * n, secondary=2 * (2 * n - 1))


def brute_force_count(rows: list[list[int]], primary: int, width: int) -> int:
    """Exact covers by trying every subset of rows (small matrices only).

    As in Knuth's definition, a row with no primary column is never part of a solution:
    nothing needs it, so taking it or not would count one cover twice.
    """
    needed = [row for row in rows if min(row) < primary]
    count = 0
    for size in range(len(needed) + 1):
        for subset in combinations(needed, size):
            hits = [0] * width
            for row in subset:
                for column in row:
                    hits[column] += 1
            if all(h == 1 for h in hits[:primary]) and all(h <= 1 for h in hits):
                count += 1
    return count


def test_knuths_example_has_its_one_solution() -> None:
    links = knuth_links()
    solutions = [sorted(rows) for rows in links.solutions()]
    assert solutions == [[0, 3, 4]]  # rows 1, 4 and 5 of the paper: CEF, AD, BG
    assert links.exhausted
    assert links.nodes >= 4  # the root and the three rows of the solution at least
    assert links.updates > 0


@pytest.mark.parametrize(
    ("n", "count"), [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92)]
)
def test_n_queens_counts_use_secondary_diagonals(n: int, count: int) -> None:
    links = queens(n)
    assert links.count() == count
    assert links.exhausted


def test_every_queens_solution_is_a_placement_of_n_non_attacking_queens() -> None:
    n = 6
    for rows in queens(n).solutions():
        squares = [divmod(row, n) for row in rows]
        assert len(squares) == n
        assert len({r for r, _ in squares}) == len({c for _, c in squares}) == n
        assert len({r + c for r, c in squares}) == len({r - c for r, c in squares}) == n


def test_limit_stops_early_and_the_matrix_is_restored() -> None:
    links = queens(8)
    before = (links.L[:], links.R[:], links.U[:], links.D[:], links.S[:])
    assert links.count(limit=5) == 5
    assert not links.exhausted
    assert before == (links.L, links.R, links.U, links.D, links.S)
    assert links.count() == 92  # the same instance searches again from scratch


def test_closing_the_generator_part_way_restores_the_matrix() -> None:
    links = queens(6)
    before = (links.U[:], links.D[:], links.S[:])
    generator = links.solutions()
    next(generator)
    generator.close()
    assert before == (links.U, links.D, links.S)


def test_limit_equal_to_the_count_can_still_prove_exhaustion() -> None:
    links = knuth_links()  # the only solution is forced after the first choice
    assert links.count(limit=1) == 1
    assert links.exhausted


def test_a_passed_deadline_raises_search_timeout_and_restores() -> None:
    links = queens(8)
    deadline = Deadline(1e-9)
    before = (links.U[:], links.D[:], links.S[:])
    with pytest.raises(SearchTimeout):
        links.count(deadline=deadline)
    assert before == (links.U, links.D, links.S)


def test_counters_grow_with_the_search() -> None:
    small, big = queens(5), queens(7)
    small.count()
    big.count()
    assert 0 < small.nodes < big.nodes
    assert 0 < small.updates < big.updates
    assert small.guesses <= small.nodes


def test_no_primary_column_means_one_empty_solution() -> None:
    links = DancingLinks([[0], [1]], primary=0, secondary=2)
    assert list(links.solutions()) == [[]]


def test_an_empty_primary_column_means_no_solution() -> None:
    links = DancingLinks([[0]], primary=2)
    assert links.count() == 0
    assert links.exhausted


@pytest.mark.parametrize("row", [[], [0, 0], [3], [-1]])
def test_bad_rows_are_rejected(row: list[int]) -> None:
    with pytest.raises(ValueError, match="row 1"):
        DancingLinks([[0], row], primary=3)


# (width, primary, rows): small random matrices
MATRICES = st.integers(min_value=1, max_value=5).flatmap(
    lambda width: st.tuples(
        st.just(width),
        st.integers(min_value=0, max_value=width),
        st.lists(
            st.sets(st.integers(0, width - 1), min_size=1).map(sorted), min_size=0, max_size=8
        ),
    )
)


@settings(max_examples=60, deadline=None)
@given(MATRICES)
def test_counts_agree_with_brute_force(case: tuple[int, int, list[list[int]]]) -> None:
    width, primary, rows = case
    links = DancingLinks(rows, primary=primary, secondary=width - primary)
    found = [sorted(solution) for solution in links.solutions()]
    assert len(found) == len({tuple(s) for s in found})  # no solution twice
    assert len(found) == brute_force_count(rows, primary, width)


def test_select_takes_rows_up_front_and_copies_stay_independent() -> None:
    pristine = queens(6)
    links = pristine.copy()
    links.select([1])  # a queen on rank 0, file 1
    solutions = list(links.solutions())
    assert solutions and all(rows[0] == 1 for rows in solutions)
    assert len(solutions) == sum(1 for rows in pristine.solutions() if 1 in rows)
    assert pristine.count() == 4  # the original was not touched


def test_selecting_rows_that_overlap_leaves_no_solution() -> None:
    links = knuth_links()
    links.select([3, 1])  # AD and ADG share A and D
    assert links.clashes == [0, 3]
    assert links.count() == 0 and links.exhausted


def test_remove_leaves_rows_out_and_copies_stay_independent() -> None:
    pristine = queens(6)
    every = [sorted(rows) for rows in pristine.solutions()]
    links = pristine.copy()
    links.remove([1, 1, 8])  # twice is once
    assert sorted(links.removed) == [1, 8]
    kept = [sorted(rows) for rows in links.solutions()]
    assert kept == [rows for rows in every if not {1, 8} & set(rows)]
    assert links.column_sizes()[0] == 5  # rank 0 lost file 1's queen
    assert pristine.count() == 4 and pristine.column_sizes()[0] == 6
    with pytest.raises(ValueError, match="removed"):
        links.select([1])


@settings(max_examples=60, deadline=None)
@given(MATRICES, st.data())
def test_removing_rows_counts_as_the_matrix_without_them(
    case: tuple[int, int, list[list[int]]], data: st.DataObject
) -> None:
    width, primary, rows = case
    gone = {i for i in range(len(rows)) if data.draw(st.booleans(), label=f"remove {i}")}
    links = DancingLinks(rows, primary, width - primary)
    links.remove(gone)
    others = [row for i, row in enumerate(rows) if i not in gone]
    assert links.count() == brute_force_count(others, primary, width)
    assert all(not set(solution) & gone for solution in links.solutions())


def test_a_selected_row_cannot_be_removed() -> None:
    links = knuth_links()
    links.select([3])
    with pytest.raises(ValueError, match="selected"):
        links.remove([3])
