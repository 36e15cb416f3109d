"""Rules that carry variants: the JSON form, the fingerprint, derived structure, the checker."""

import pytest

from sudoku_bench.puzzles import Grid, Rules, RulesError, conflicts, is_solution
from sudoku_bench.puzzles.rules import Cage

SEED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
NINE = Rules.of_size(9)


def test_classic_rules_keep_their_names_and_no_kinds() -> None:
    assert NINE.is_classic and NINE.constraints == ()
    assert NINE.spec == NINE.name == "9x9"
    assert Rules.parse("9x9-x").spec == "9x9-x" and Rules.parse("9x9-x").is_classic


def test_a_layout_equal_to_the_boxes_is_the_boxes() -> None:
    boxes = tuple(NINE.region_of(cell) for cell in NINE.cells)
    assert NINE.with_rules(layout=boxes) == NINE


@pytest.mark.parametrize(
    "changes",
    [
        {"anti_knight": True},
        {"anti_king": True, "diagonals": True},
        {"non_consecutive": True},
        {"odd": frozenset({0, 10}), "even": frozenset({80})},
        {"extra_regions": ((10, 11, 12, 19, 20, 21, 28, 29, 30),)},
        {"cages": (Cage((0, 1), 3), Cage((2, 3, 4)))},
        {"layout": tuple((cell // 9 + (cell % 9 == 8)) % 9 for cell in range(81))},
    ],
    ids=str,
)
def test_json_form_round_trips_and_names_the_rules(changes: dict[str, object]) -> None:
    rules = NINE.with_rules(**changes)
    assert not rules.is_classic
    assert Rules.parse(rules.spec) == rules
    assert Rules.from_json(rules.to_json()) == rules
    assert len(rules.fingerprint) == 12 and rules.fingerprint != NINE.fingerprint


def test_jigsaw_regions_replace_the_boxes() -> None:
    # rows as regions shifted: region r holds row r, except that cells (r, 8) swap with r+1
    layout = [cell // 9 for cell in range(81)]
    layout[8], layout[17] = 1, 0  # r1c9 to region 2, r2c9 to region 1: still 9 cells each
    rules = NINE.with_rules(layout=tuple(layout))
    assert rules.layout is not None and rules.constraints == ()
    assert rules.regions[0] == (0, 1, 2, 3, 4, 5, 6, 7, 17)
    assert rules.unit_names[18] == "region 1"
    assert "jigsaw" in rules.name


def test_bad_rules_are_named() -> None:
    with pytest.raises(RulesError, match="region 1 does not have 9 cells"):
        NINE.with_rules(layout=(1,) * 9 + (0,) * 72)
    with pytest.raises(RulesError, match="both odd and even"):
        NINE.with_rules(odd=frozenset({3}), even=frozenset({3}))
    with pytest.raises(RulesError, match="unknown rule 'thermometers'"):
        Rules.from_json({"size": 9, "thermometers": [["r1c1", "r1c2"]]})
    with pytest.raises(RulesError, match="not a cell name"):
        Rules.from_json({"size": 9, "odd": ["a1"]})


def test_pairs_skip_what_a_unit_already_says() -> None:
    king = NINE.with_rules(anti_king=True)
    # r1c1-r2c2 share box 1: no extra pair; r3c3-r4c4 do not share a unit
    assert (0, 10) not in king.distinct_pairs and (20, 30) in king.distinct_pairs
    assert 30 in king.peers[20]


def test_checker_names_each_broken_rule() -> None:
    knight = NINE.with_rules(anti_knight=True)
    values = [0] * 81
    values[knight.cell(2, 3)] = values[knight.cell(4, 4)] = 7
    (conflict,) = conflicts(Grid(knight, tuple(values)))
    assert conflict.describe(Grid(knight, tuple(values))) == (
        "r3c4 and r5c5 are a knight's move apart and both hold 7"
    )
    consecutive = NINE.with_rules(non_consecutive=True)
    values = [0] * 81
    values[0], values[1] = 4, 5
    (conflict,) = conflicts(Grid(consecutive, tuple(values)))
    assert "r1c1 and r1c2" in conflict.text and "consecutive" in conflict.text
    odd = NINE.with_rules(odd=frozenset({0}))
    values = [0] * 81
    values[0] = 4
    (conflict,) = conflicts(Grid(odd, tuple(values)))
    assert conflict.text == "r1c1 holds 4 but must be odd"
    killer = NINE.with_rules(cages=(Cage((0, 1), 3),))
    values = [0] * 81
    values[0], values[1] = 1, 5
    (conflict,) = conflicts(Grid(killer, tuple(values)))
    assert conflict.text == "cage r1c1+r1c2 = 3: its digits add up to 6"


def test_a_solution_is_checked_against_every_rule() -> None:
    solution = Grid.from_string(SEED)
    assert is_solution(solution, solution)
    first_two = solution.values[0] + solution.values[1]
    killer = Grid(NINE.with_rules(cages=(Cage((0, 1), first_two),)), solution.values)
    assert is_solution(killer, killer)
    wrong_sum = Grid(NINE.with_rules(cages=(Cage((0, 1), first_two + 1),)), solution.values)
    assert not is_solution(wrong_sum, wrong_sum)
