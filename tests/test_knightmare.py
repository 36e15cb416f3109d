"""The knightmare kind: two cells a knight's move apart never add up to one of its sums (5 and
15 unless named). Its check, JSON form, isomorphs and f-puzzles refusal; the peer's puzzle
that needs it is in `test_rangsk_suite.py`, every back-end against a brute force in
`test_kind_matrix.py` and `test_cp_variants.py`."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_constraint_kinds import grid_of, names, square_symmetries
from test_rangsk_suite import asserted, read, suite

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import Knightmare
from sudoku_bench.puzzles.errors import RulesError
from sudoku_bench.puzzles.formats import PuzzleEntry, write_text
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.shape import GridShape
from sudoku_bench.puzzles.transform import Isomorph, _moved_rules

NINE = GridShape.of_size(9)


def test_a_knights_move_adding_up_to_a_sum_is_named_with_its_digits() -> None:
    rules = Rules.from_constraints(NINE, [Knightmare()])
    assert names(grid_of(rules, {"r1c1": 2, "r2c3": 3, "r3c2": 4})) == [
        "r1c1 and r2c3 are a knight's move apart and their digits 2 and 3 add up to 5"
    ]
    assert names(grid_of(rules, {"r5c5": 7, "r7c6": 8})) == [
        "r5c5 and r7c6 are a knight's move apart and their digits 7 and 8 add up to 15"
    ]
    assert names(grid_of(rules, {"r5c5": 7, "r6c6": 8})) == []  # a king's move, not a knight's


def test_json_form_is_the_sums_and_true_is_the_default_a_grid_can_reach() -> None:
    rules = Rules.from_constraints(NINE, [Knightmare((15, 5))])
    assert rules.spec == '{"knightmare":[5,15],"size":9}'
    assert Rules.parse(rules.spec) == rules
    assert Rules.parse('{"size": 9, "knightmare": true}') == rules
    assert Rules.parse('{"size": 4, "knightmare": true}').constraints == (Knightmare((5,)),)
    assert Rules.from_json(rules.to_json()) == rules
    two = Rules.from_constraints(NINE, [Knightmare((5,)), Knightmare((10,))])
    assert two.constraints == (Knightmare((5, 10)),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"size": 9, "knightmare": [1]}', "the sum 1 is not one two digits"),
        ('{"size": 4, "knightmare": [15]}', r"4x4 grid add up to \(2 to 8\)"),
        ('{"size": 9, "knightmare": []}', "true .* or a list of the sums"),
        ('{"size": 9, "knightmare": "5,15"}', "true .* or a list of the sums"),
    ],
)
def test_sums_out_of_reach_or_not_numbers_are_refused_in_words(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.parse(text)


def knightmare_case() -> tuple[Grid, Grid]:
    case = next(case for case in suite() if case.get("extra_rules") == ["knightmare:5,15"])
    entry = read(case)
    return entry.puzzle, asserted(case, entry)


def test_every_symmetry_and_the_reversed_digits_keep_the_peer_s_knightmare_puzzle() -> None:
    puzzle, solution = knightmare_case()
    rules = puzzle.rules
    assert is_solution(puzzle, solution)
    n = rules.size
    for source in square_symmetries(n):
        for reverse, digits in ((False, tuple(range(n + 1))), (True, (0, *range(n, 0, -1)))):
            iso = Isomorph(rules, _moved_rules(rules, source, reverse), source, digits)
            assert is_solution(iso.apply(puzzle), iso.apply(solution)), reverse


def test_reversed_digits_move_each_sum_to_its_mirror() -> None:
    """Under d -> N + 1 - d a sum s becomes 2 (N + 1) - s: {5, 15} is its own mirror on 9x9,
    {3} becomes {17}; a relabelling that kept the sum would break the rule."""
    rules = Rules.from_constraints(NINE, [Knightmare((3,))])
    identity = tuple(range(81))
    assert _moved_rules(rules, identity, True).constraints == (Knightmare((17,)),)
    assert _moved_rules(rules, identity, False).constraints == (Knightmare((3,)),)


def test_convert_to_f_puzzles_refuses_the_rule_f_puzzles_cannot_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle, solution = knightmare_case()
    source = tmp_path / "knightmare.json"
    source.write_text(write_text([PuzzleEntry("t:1", puzzle, solution)], "json"))
    assert main(["convert", str(source), "--to", "fpuzzles-url"]) != 0
    error = capsys.readouterr().err.strip()
    assert "f-puzzles has no key for the knightmare rule" in error
    assert len(error.splitlines()) == 1 and "Traceback" not in error
