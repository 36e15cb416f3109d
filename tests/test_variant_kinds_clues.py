"""The dot, clue and cell kinds of the setters' variants (issue 30): kropki difference and
ratio dots and XV with their negative rules, little killers, sandwich sums, X-sums,
skyscrapers, quadruples, minimum and maximum cells, row/column/box indexers.

Each kind: JSON and f-puzzles round trips, its check in words, moves that keep a solved grid
solved, candidates that the grid keeps, SVG that parses, and the negative rules exactly as
Rangsk's SudokuSolver reads f-puzzles (hand-made examples)."""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from solving_support import shuffled_grid

from sudoku_bench.puzzles.checker import conflicts, is_solution
from sudoku_bench.puzzles.constraints import (
    KINDS,
    XV,
    BoxIndexer,
    Canvas,
    ColumnIndexer,
    Constraint,
    Difference,
    DifferenceNegative,
    LittleKiller,
    Maximum,
    Minimum,
    NonConsecutive,
    Quadruple,
    Ratio,
    RatioNegative,
    RowIndexer,
    Sandwich,
    Skyscraper,
    TableConstraint,
    XSum,
    XVNegative,
)
from sudoku_bench.puzzles.constraints.base import Move
from sudoku_bench.puzzles.errors import PuzzleFormatError, RulesError
from sudoku_bench.puzzles.formats.common import PuzzleEntry
from sudoku_bench.puzzles.formats.fpuzzles import entry_from_text, fpuzzles_object, rules_of
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.picture import marks as picture_marks
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.shape import GridShape
from sudoku_bench.puzzles.transform import random_isomorph
from sudoku_bench.solvers.registry import backends

NINE = GridShape.of_size(9)
FOUR = GridShape.of_size(4)
MINE = (
    "difference", "difference_negative", "ratio", "ratio_negative", "xv", "xv_negative",
    "little_killer", "sandwich", "x_sum", "skyscraper", "quadruple", "minimum", "maximum",
    "row_indexer", "column_indexer", "box_indexer",
)  # fmt: skip


def cell(name: str, size: int = 9) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * size + int(col) - 1


def grid_of(rules: Rules, filled: dict[str, int]) -> Grid:
    values = [0] * rules.cell_count
    for name, digit in filled.items():
        values[cell(name, rules.size)] = digit
    return Grid(rules, tuple(values))


def words(grid: Grid) -> list[str]:
    return [conflict.describe(grid) for conflict in conflicts(grid)]


# Examples of each kind on a 9x9 grid (the negative rules with the marks they leave out).
EXAMPLES: dict[str, list[Constraint]] = {
    "difference": [Difference(0, 1), Difference(9, 18, 3)],
    "difference_negative": [
        Difference(0, 1),
        Ratio(10, 11),
        DifferenceNegative(frozenset({1}), frozenset({(0, 1), (10, 11)})),
    ],
    "ratio": [Ratio(0, 1), Ratio(30, 39, 3)],
    "ratio_negative": [
        Ratio(0, 1, 3),
        Difference(20, 21),
        RatioNegative(frozenset({3}), frozenset({(0, 1), (20, 21)})),
    ],
    "xv": [XV(0, 1, 10), XV(40, 41, 5)],
    "xv_negative": [XV(0, 1, 5), XVNegative(frozenset({5, 10}), frozenset({(0, 1)}))],
    "little_killer": [LittleKiller((-1, 2), (1, 1), 30), LittleKiller((9, 9), (-1, -1), 45)],
    "sandwich": [Sandwich((-1, 0), 12), Sandwich((4, 9), 0)],
    "x_sum": [XSum((-1, 3), 15), XSum((2, 9), 9)],
    "skyscraper": [Skyscraper((9, 4), 3), Skyscraper((0, -1), 1)],
    "quadruple": [Quadruple((0, 1, 9, 10), (1, 2)), Quadruple((70, 71, 79, 80), (5, 5, 9))],
    "minimum": [Minimum(frozenset({12, 30}))],
    "maximum": [Maximum(frozenset({13, 50}))],
    "row_indexer": [RowIndexer(0), RowIndexer(40)],
    "column_indexer": [ColumnIndexer(9), ColumnIndexer(80)],
    "box_indexer": [BoxIndexer(4), BoxIndexer(60)],
}


def test_every_kind_of_this_part_is_registered_and_has_an_example() -> None:
    assert set(MINE) <= set(KINDS)
    assert set(EXAMPLES) == set(MINE)


@pytest.mark.parametrize("kind", MINE)
def test_json_round_trip(kind: str) -> None:
    rules = Rules.from_constraints(NINE, EXAMPLES[kind])
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert Rules.parse(rules.spec) == rules
    assert kind in set(rules.to_json())


@pytest.mark.parametrize("kind", MINE)
def test_fpuzzles_round_trip(kind: str) -> None:
    rules = Rules.from_constraints(NINE, EXAMPLES[kind])
    data = fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))
    assert set(type(EXAMPLES[kind][-1]).fpuzzles_keys) <= set(data) | {"nonconsecutive"}
    assert rules_of(json.loads(json.dumps(data))) == rules


def test_fpuzzles_keys_and_value_types_are_those_f_puzzles_writes() -> None:
    rules = Rules.from_constraints(
        NINE,
        [
            Difference(0, 1),
            Difference(2, 3, 2),
            Ratio(4, 5),
            XV(6, 7, 10),
            XV(15, 16, 5),
            LittleKiller((-1, 2), (1, 1), 30),
            Sandwich((-1, 0), 12),
            XSum((2, 9), 9),
            Skyscraper((9, 4), 3),
            Quadruple((0, 1, 9, 10), (1, 2)),
            Minimum(frozenset({30})),
            RowIndexer(40),
        ],
    )
    data = fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))
    assert data["difference"] == [
        {"cells": ["R1C1", "R1C2"]},
        {"cells": ["R1C3", "R1C4"], "value": "2"},
    ]
    assert data["ratio"] == [{"cells": ["R1C5", "R1C6"]}]
    assert data["xv"] == [
        {"cells": ["R1C7", "R1C8"], "value": "X"},
        {"cells": ["R2C7", "R2C8"], "value": "V"},
    ]
    assert data["littlekillersum"] == [{"cell": "R0C3", "direction": "DR", "value": "30"}]
    assert data["sandwichsum"] == [{"cell": "R0C1", "value": "12"}]
    assert data["xsum"] == [{"cell": "R3C10", "value": "9"}]
    assert data["skyscraper"] == [{"cell": "R10C5", "value": "3"}]
    assert data["quadruple"] == [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2]}]
    assert data["minimum"] == [{"cell": "R4C4"}]
    assert data["rowindexer"] == [{"cells": ["R5C5"]}]


# ----- the negative rules, as Rangsk's SudokuSolver reads f-puzzles ---------------------------


def fpuzzles(size: int = 4, **keys: Any) -> dict[str, Any]:
    grid = [[{} for _ in range(size)] for _ in range(size)]
    return {"size": size, "grid": grid, **keys}


def test_nonconsecutive_beside_white_dots_leaves_out_the_dotted_and_the_black_pairs() -> None:
    rules = rules_of(
        fpuzzles(
            difference=[{"cells": ["R1C1", "R1C2"]}],
            ratio=[{"cells": ["R3C3", "R4C3"]}],
            nonconsecutive=True,
        )
    )
    (negative,) = [c for c in rules.constraints if isinstance(c, DifferenceNegative)]
    assert negative.marked == {(0, 1), (10, 14)} and negative.values == {1}
    assert not any(isinstance(c, NonConsecutive) for c in rules.constraints)
    # a white dot's pair holds 1 and 2; a black dot's pair 2 and 1 (consecutive too): both
    # stand; the pair r1c2-r1c3 has no dot and may not be consecutive
    solved = grid_of(rules, {"r1c1": 1, "r1c2": 2, "r1c3": 4, "r3c3": 2, "r4c3": 1})
    assert words(solved) == []
    broken = grid_of(rules, {"r1c2": 2, "r1c3": 3})
    assert words(broken) == [
        "r1c2-r1c3 hold 2 and 3 without a white dot between them (negative white dots: no "
        "unmarked neighbours differ by 1)"
    ]


def test_nonconsecutive_without_dots_is_the_non_consecutive_kind_as_before() -> None:
    assert rules_of(fpuzzles(nonconsecutive=True)).constraints == (NonConsecutive(),)
    rules = Rules.from_constraints(FOUR, [NonConsecutive()])
    assert fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))["nonconsecutive"] is True


def test_negative_ratio_takes_the_black_dots_ratios_or_2_and_leaves_white_dots_out() -> None:
    alone = rules_of(fpuzzles(negative=["ratio"]))
    assert alone.constraints == (RatioNegative(frozenset({2}), frozenset()),)
    assert words(grid_of(alone, {"r1c1": 2, "r1c2": 4})) == [
        "r1c1-r1c2 hold 2 and 4 without a black dot between them (negative black dots: no "
        "unmarked neighbours stand in the ratio 1:2)"
    ]
    rules = rules_of(
        fpuzzles(
            ratio=[{"cells": ["R1C1", "R1C2"], "value": "3"}],
            difference=[{"cells": ["R1C3", "R1C4"]}],
            negative=["ratio"],
        )
    )
    (negative,) = [c for c in rules.constraints if isinstance(c, RatioNegative)]
    assert negative.values == {3} and negative.marked == {(0, 1), (2, 3)}
    # 1:2 is no black dot's ratio here, so an unmarked 2 beside a 4 stands; 1 beside 3 not
    assert words(grid_of(rules, {"r2c1": 2, "r2c2": 4})) == []
    assert len(words(grid_of(rules, {"r2c1": 1, "r2c2": 3}))) == 1
    assert words(grid_of(rules, {"r1c3": 2, "r1c4": 1})) == []  # a white dot's pair


def test_negative_xv_forbids_unmarked_sums_of_5_and_10_and_dots_do_not_matter() -> None:
    rules = rules_of(
        fpuzzles(
            9,
            xv=[{"cells": ["R1C1", "R1C2"], "value": "x"}],
            difference=[{"cells": ["R2C1", "R2C2"]}],
            negative=["xv", "ratio"],
        )
    )
    kinds = {type(c) for c in rules.constraints}
    assert {XV, XVNegative, RatioNegative, Difference} <= kinds
    (negative,) = [c for c in rules.constraints if isinstance(c, XVNegative)]
    assert negative.marked == {(0, 1)} and negative.values == {5, 10}
    assert words(grid_of(rules, {"r1c1": 3, "r1c2": 7})) == []
    assert len(words(grid_of(rules, {"r2c1": 2, "r2c2": 3}))) == 1  # a white dot: still no V
    data = fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))
    assert sorted(data["negative"]) == ["ratio", "xv"]
    assert rules_of(json.loads(json.dumps(data))) == rules


def test_an_unknown_negative_rule_is_named_not_dropped() -> None:
    with pytest.raises(PuzzleFormatError, match="'sum'"):
        rules_of(fpuzzles(negative=["sum"]))


def test_a_negative_rule_whose_exceptions_are_not_the_marks_is_not_written_to_f_puzzles() -> None:
    rules = Rules.from_constraints(FOUR, [DifferenceNegative(frozenset({1}), frozenset({(0, 1)}))])
    with pytest.raises(PuzzleFormatError, match="negative white dots"):
        fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))


def test_json_true_reads_a_negative_rule_as_f_puzzles_does() -> None:
    data = {
        "size": 4,
        "difference": [{"cells": ["r1c1", "r1c2"]}],
        "ratio": [{"cells": ["r3c3", "r4c3"], "value": 3}],
        "difference_negative": True,
        "ratio_negative": True,
    }
    rules = Rules.from_json(data)
    assert DifferenceNegative(frozenset({1}), frozenset({(0, 1), (10, 14)})) in rules.constraints
    assert RatioNegative(frozenset({3}), frozenset({(0, 1), (10, 14)})) in rules.constraints


def test_rangsk_writes_default_dots_without_a_value_and_f_puzzles_with_an_empty_one() -> None:
    for value in ({}, {"value": ""}, {"value": None}):
        rules = rules_of(fpuzzles(difference=[{"cells": ["R1C1", "R1C2"], **value}]))
        assert rules.constraints == (Difference(0, 1, 1),)


# ----- each kind's check, in words -------------------------------------------------------------

BROKEN: list[tuple[list[Constraint], dict[str, int], list[str]]] = [
    (
        [Difference(0, 1)],
        {"r1c1": 3, "r1c2": 7},
        ["r1c1-r1c2 hold 3 and 7, but the white dot between them says they differ by 1"],
    ),
    (
        [Ratio(0, 9, 3)],
        {"r1c1": 2, "r2c1": 4},
        ["r1c1-r2c1 hold 2 and 4, but the black dot between them says they stand in the ratio 1:3"],
    ),
    (
        [XV(0, 1, 5)],
        {"r1c1": 1, "r1c2": 2},
        ["r1c1-r1c2 hold 1 and 2, but the XV mark between them says they add up to 5 (V)"],
    ),
    (
        [LittleKiller((-1, 6), (1, 1), 6)],
        {"r1c8": 4, "r2c9": 3},
        ["little killer 6 at r0c7 DR: its diagonal adds up to 7"],
    ),
    (
        [Sandwich((-1, 0), 5)],
        {"r1c1": 1, "r2c1": 4, "r3c1": 2, "r4c1": 9},
        ["sandwich sum 5 at r0c1: the digits between the 1 and the 9 add up to 6"],
    ),
    (
        [XSum((0, 9), 10)],
        {"r1c9": 3, "r1c8": 5, "r1c7": 1},
        ["X-sum 10 at r1c10: its first 3 digits add up to 9"],
    ),
    (
        [Skyscraper((-1, 0), 2)],
        {"r1c1": 1, "r2c1": 2, "r3c1": 3},
        ["skyscraper 2 at r0c1: 3 digits are seen from it already, and the 9 is still to come"],
    ),
    (
        [Quadruple((0, 1, 9, 10), (1, 2))],
        {"r1c1": 3, "r1c2": 4, "r2c1": 5},
        ["quadruple 12 at r1c1: its cells lack 1, 2"],
    ),
    (
        [Minimum(frozenset({10}))],
        {"r2c2": 5, "r2c3": 3},
        ["r2c2 is a minimum cell holding 5, not less than its neighbour r2c3's 3"],
    ),
    (
        [Maximum(frozenset({10}))],
        {"r2c2": 5, "r1c2": 8},
        ["r2c2 is a maximum cell holding 5, not greater than its neighbour r1c2's 8"],
    ),
    (
        [RowIndexer(10)],
        {"r2c2": 4, "r4c2": 7},
        ["r2c2 is a row indexer holding 4, so r4c2 holds 2, not 7"],
    ),
    (
        [ColumnIndexer(10)],
        {"r2c2": 9, "r2c9": 1},
        ["r2c2 is a column indexer holding 9, so r2c9 holds 2, not 1"],
    ),
    (
        [BoxIndexer(10)],
        {"r2c2": 1, "r1c1": 3},
        ["r2c2 is a box indexer holding 1, so r1c1 holds 5, not 3"],
    ),
]


@pytest.mark.parametrize("case", BROKEN, ids=[type(c[0][0]).kind for c in BROKEN])
def test_the_check_names_a_broken_clue_in_words(
    case: tuple[list[Constraint], dict[str, int], list[str]],
) -> None:
    constraints, filled, expected = case
    rules = Rules.from_constraints(NINE, constraints)
    assert words(grid_of(rules, filled)) == expected


def test_clues_that_hold_are_not_named() -> None:
    rules = Rules.from_constraints(
        NINE, [Sandwich((-1, 0), 0), XSum((0, -1), 1), Skyscraper((0, -1), 2), RowIndexer(0)]
    )
    assert words(grid_of(rules, {"r1c1": 1, "r2c1": 9, "r1c4": 9})) == []
    # an indexer whose named cell is still empty breaks nothing yet
    assert words(grid_of(Rules.from_constraints(NINE, [RowIndexer(0)]), {"r1c1": 5})) == []


# ----- validation names what is wrong --------------------------------------------------------


@pytest.mark.parametrize(
    ("constraint", "message"),
    [
        (Difference(0, 2), "between two orthogonal neighbours"),
        (Difference(0, 1, 9), "no two digits 1 to 9 differ by 9"),
        (XV(0, 1, 7), "an X sums to 10 and a V to 5"),
        (LittleKiller((-1, 0), (-1, 1), 10), "points away from the grid"),
        (LittleKiller((-1, 2), (1, 1), 80), "6 digits 1 to 9 add up to 6 to 54"),
        (Sandwich((-1, -1), 10), "beside a row"),
        (Sandwich((-1, 0), 40), "out of reach"),
        (Skyscraper((2, 9), 10), "out of reach"),
        (Quadruple((0, 1, 2, 3), (1,)), "the four round one corner"),
        (Quadruple((0, 1, 9, 10), (1, 1, 1)), "at most twice"),
        (Minimum(frozenset({81})), "outside the 9x9 grid"),
    ],
)
def test_validate_names_what_is_wrong(constraint: Constraint, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_constraints(NINE, [constraint])


def test_line_clue_tables_are_refused_past_9x9_with_a_reason() -> None:
    clue = XSum((-1, 0), 20)
    sixteen = GridShape.of_size(16)
    Rules.from_constraints(sixteen, [clue])  # the clue itself is fine
    with pytest.raises(RulesError, match="too large"):
        clue.tables(sixteen)


# ----- tables and equations hold exactly when the rule does ---------------------------------


@pytest.mark.parametrize("kind", [Sandwich, XSum, Skyscraper])
def test_line_tables_match_one_row_exactly_when_the_line_gives_the_clue(kind: type) -> None:
    """Every filling of a 4-cell line (each permutation), against every clue value."""
    for value in range(0, 11):
        clue = kind((-1, 1), value)
        (table,) = clue.tables(FOUR)
        for digits in itertools.permutations(range(1, 5)):
            values = [0] * 16
            for place, digit in zip(table.cells, digits, strict=True):
                values[place] = digit
            assert table.matching(values) == (clue.value_of(digits) == value)
            rules = Rules.from_constraints(FOUR, [])
            assert (not list(clue.violations(rules, values))) == (clue.value_of(digits) == value)


def test_quadruple_and_indexer_tables_agree_with_their_checks() -> None:
    rng = random.Random(4)
    rules = Rules.of_size(4)
    for _ in range(30):
        solution = shuffled_grid(rules, rng).values
        for constraint in [
            Quadruple((5, 6, 9, 10), tuple(sorted(rng.sample(range(1, 5), 2)))),
            RowIndexer(rng.randrange(16)),
            ColumnIndexer(rng.randrange(16)),
            BoxIndexer(rng.randrange(16)),
        ]:
            assert isinstance(constraint, TableConstraint)
            (table,) = constraint.tables(rules.shape)
            holds = not list(constraint.violations(rules, solution))
            assert table.matching(solution) == holds


# ----- candidates, moves and pictures on solved grids --------------------------------------------


def solved_rules(kind: str, shape: GridShape, seed: int) -> tuple[Rules, Grid]:
    """Rules of up to six of the kind's candidates on a random solved grid, and the grid."""
    rng = random.Random(seed)
    solution = shuffled_grid(Rules.from_constraints(shape), rng)
    found = KINDS[kind].candidates(solution.values, shape, rng)
    rules = Rules.from_constraints(shape, found[:6])
    return rules, Grid(rules, solution.values)


@pytest.mark.parametrize("size", [4, 6, 9])
@pytest.mark.parametrize("kind", MINE)
def test_candidates_hold_in_the_grid_they_come_from(kind: str, size: int) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        shape = GridShape.of_size(size)
        solution = shuffled_grid(Rules.from_constraints(shape), rng)
        found = KINDS[kind].candidates(solution.values, shape, rng)
        assert found, f"{kind} gave no candidates on {size}x{size}"
        assert all(type(c) is KINDS[kind] for c in found)
        rules = Rules.from_constraints(shape, found)
        assert is_solution(Grid.empty(rules), Grid(rules, solution.values))


@pytest.mark.parametrize("kind", MINE)
def test_random_isomorphs_keep_a_solved_grid_solved(kind: str) -> None:
    for seed in range(8):
        rules, solution = solved_rules(kind, NINE, seed)
        iso = random_isomorph(rules, seed)
        moved = iso.apply(solution)
        assert is_solution(Grid.empty(iso.rules), moved)
        assert iso.invert(moved) == solution


def square_moves(shape: GridShape, reverse: bool) -> list[Move]:
    n = shape.size
    moves = []
    for transpose, flip_rows, flip_cols in itertools.product((False, True), repeat=3):
        source = []
        for r in range(n):
            for c in range(n):
                row, col = (c, r) if transpose else (r, c)
                row = n - 1 - row if flip_rows else row
                col = n - 1 - col if flip_cols else col
                source.append(row * n + col)
        target = [0] * len(source)
        for new, old in enumerate(source):
            target[old] = new
        moves.append(Move(shape, tuple(source), tuple(target), reverse))
    return moves


@pytest.mark.parametrize("kind", [k for k in MINE if KINDS[k].movable])
def test_every_symmetry_of_the_square_keeps_a_solved_grid_solved(kind: str) -> None:
    rules, solution = solved_rules(kind, NINE, 1)
    reversals = (False, True) if KINDS[kind].digits_reversible else (False,)
    for reverse in reversals:
        for move in square_moves(NINE, reverse):
            moved_rules = Rules.from_constraints(NINE, [c.moved(move) for c in rules.constraints])
            values = tuple(
                (10 - solution.values[old]) if reverse else solution.values[old]
                for old in move.source
            )
            assert is_solution(Grid.empty(moved_rules), Grid(moved_rules, values)), move


def test_reversal_turns_minimum_cells_into_maximum_cells() -> None:
    (move,) = [m for m in square_moves(NINE, True) if m.source == tuple(range(81))]
    assert Minimum(frozenset({3})).moved(move) == Maximum(frozenset({3}))


def test_indexers_stay_where_they_are_in_an_isomorph() -> None:
    rules, _ = solved_rules("row_indexer", NINE, 2)
    for seed in range(5):
        iso = random_isomorph(rules, seed)
        assert iso.rules == rules and iso.source == tuple(range(81))
        assert iso.digits == tuple(range(10))


def parse_svg(elements: Sequence[str]) -> ET.Element:
    document = '<svg xmlns="http://www.w3.org/2000/svg">' + "".join(elements) + "</svg>"
    return ET.fromstring(document)


@pytest.mark.parametrize("kind", MINE)
def test_svg_marks_parse_as_xml_and_the_text_picture_draws(kind: str) -> None:
    rules = Rules.from_constraints(NINE, EXAMPLES[kind])
    canvas = Canvas(9, 30.0, 34.0, 34.0)
    marks = 0
    for group, items in rules.by_kind():
        elements = group.svg(items, rules.shape, canvas)
        if elements is not None:
            marks += len(parse_svg(elements))
    negative = kind.endswith("_negative")
    assert marks > 0  # the negative examples hold their marks too
    picture = picture_marks(rules)
    assert picture or negative


def test_outside_clues_are_written_in_the_border_and_dots_on_the_edge() -> None:
    canvas = Canvas(9, 30.0, 30.0, 30.0)
    (text,) = parse_svg(Sandwich.svg([Sandwich((-1, 0), 12)], NINE, canvas) or [])
    assert (float(text.get("x", 0)), float(text.get("y", 0)), text.text) == (45.0, 15.0, "12")
    (circle,) = parse_svg(Ratio.svg([Ratio(0, 1)], NINE, canvas) or [])
    assert (float(circle.get("cx", 0)), float(circle.get("cy", 0))) == (60.0, 45.0)
    assert circle.get("fill") == "black"
    assert LittleKiller.outside_clues and Sandwich.outside_clues and not Difference.outside_clues


# ----- sizes and jigsaws -------------------------------------------------------------------------


def test_kinds_work_on_a_jigsaw_and_box_indexers_read_its_regions() -> None:
    from sudoku_bench.puzzles.collections import load

    entry = next(e for e in load("jigsaw") if e.solution is not None)
    rules = entry.puzzle.rules
    solution = entry.solution
    assert solution is not None
    rng = random.Random(3)
    found: list[Constraint] = []
    for kind in ("box_indexer", "little_killer", "difference", "quadruple", "minimum"):
        found += KINDS[kind].candidates(solution.values, rules.shape, rng)[:3]
    jigsaw = Rules.from_constraints(rules.shape, found)
    assert is_solution(Grid.empty(jigsaw), Grid(jigsaw, solution.values))
    region = next(r for r in rules.shape.regions if 0 in r)
    assert BoxIndexer(0).line(rules.shape) == tuple(sorted(region))


# ----- the peer's own puzzles: Rangsk's SudokuSolver tests, f-puzzles as it reads them -----------

RANGSK = json.loads((Path(__file__).parent / "data" / "rangsk_clue_kinds.json").read_text())


@pytest.mark.parametrize(
    "case", RANGSK["puzzles"], ids=[p["title"][:30] for p in RANGSK["puzzles"]]
)
def test_the_peers_puzzles_read_and_their_asserted_solution_is_the_one(
    case: dict[str, Any],
) -> None:
    """Read from the `?load=` text; the solution its tests assert passes the checker, and every
    of the complete CP-SAT and SAT back-ends that accepts the rules finds it and no other."""
    entry = entry_from_text(case["load"], "rangsk")
    rules = entry.puzzle.rules
    solution = Grid(rules, tuple(int(ch, 36) for ch in case["solution"]))
    assert is_solution(entry.puzzle, solution)
    for name in ("cpsat", "sat"):
        backend = next(b for b in backends() if b.name == name)
        if not backend.available():
            continue
        solver = backend.create()
        if not solver.accepts(rules):
            continue
        result = solver.solve(entry.puzzle, limit=2, timeout=120)
        assert [g.values for g in result.solutions] == [solution.values], name
        assert result.exact, name
