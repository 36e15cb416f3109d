import pytest

from sudoku_bench.puzzles import Rules, RulesError


@pytest.mark.parametrize(
    ("size", "box"),
    [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4)), (25, (5, 5))],
)
def test_common_sizes_have_their_usual_boxes(size: int, box: tuple[int, int]) -> None:
    rules = Rules.of_size(size)
    assert (rules.box_rows, rules.box_cols) == box
    assert len(rules.units) == 3 * size
    assert all(sorted(unit) == sorted(set(unit)) and len(unit) == size for unit in rules.units)
    # each cell's peers: its row, column and box, minus overlaps and itself
    expected_peers = 2 * (size - 1) + (size - box[0] - box[1] + 1)
    assert {len(peers) for peers in rules.peers} == {expected_peers}


def test_sudoku_x_adds_the_two_diagonals() -> None:
    x = Rules.of_size(9, diagonals=True)
    assert len(x.units) == 29
    assert x.unit_names[-2:] == ("diagonal", "anti-diagonal")
    centre = x.cell(4, 4)
    assert len(x.units_of[centre]) == 5
    assert x.name == "9x9-x"


def test_boxes_of_a_6x6_are_two_rows_by_three_columns() -> None:
    g = Rules.of_size(6)
    assert g.regions[0] == (0, 1, 2, 6, 7, 8)
    assert g.region_of(g.cell(5, 5)) == 5


@pytest.mark.parametrize("size", [2, 3, 5, 7])
def test_sizes_without_a_box_shape_are_rejected(size: int) -> None:
    with pytest.raises(RulesError):
        Rules.of_size(size)


def test_parse_names() -> None:
    assert Rules.parse("9x9") == Rules.of_size(9)
    assert Rules.parse("6x6:3x2") == Rules(6, 3, 2)
    assert Rules.parse("9x9-x").diagonals
    with pytest.raises(RulesError):
        Rules.parse("nine")
