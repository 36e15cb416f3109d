"""Each rule kind owns its check, JSON form, isomorph move and f-puzzles mapping; `Rules` is
a shared shape plus constraints, and its canonical JSON is what earlier versions wrote."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from line_kinds_support import LINE_EXAMPLES

from sudoku_bench.puzzles.checker import conflicts, is_solution
from sudoku_bench.puzzles.collections import BUNDLED, load
from sudoku_bench.puzzles.constraints import (
    AntiKing,
    AntiKnight,
    Cage,
    Constraint,
    Diagonal,
    ExtraRegion,
    NonConsecutive,
    Parity,
)
from sudoku_bench.puzzles.errors import RulesError
from sudoku_bench.puzzles.formats.common import PuzzleEntry
from sudoku_bench.puzzles.formats.fpuzzles import fpuzzles_object, rules_of
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import LEGACY_KINDS, Rules, all_kinds
from sudoku_bench.puzzles.shape import GridShape
from sudoku_bench.puzzles.transform import Isomorph, _moved_rules, random_isomorph

DATA = Path(__file__).parent / "data"
NINE = GridShape.of_size(9)


def names(grid: Grid) -> list[str]:
    return [conflict.describe(grid) for conflict in conflicts(grid)]


def grid_of(rules: Rules, filled: dict[str, int]) -> Grid:
    """A grid of `rules` with the cells named `r1c1` filled, the others empty."""
    values = [0] * rules.cell_count
    for name, digit in filled.items():
        row, col = name[1:].split("c")
        values[rules.cell(int(row) - 1, int(col) - 1)] = digit
    return Grid(rules, tuple(values))


# ----- each kind's check, in words ------------------------------------------------------------


def test_anti_knight_names_the_knights_move_and_the_digit() -> None:
    rules = Rules.from_constraints(NINE, [AntiKnight()])
    grid = grid_of(rules, {"r3c4": 7, "r5c5": 7})
    assert names(grid) == ["r3c4 and r5c5 are a knight's move apart and both hold 7"]


def test_anti_king_names_the_kings_move_and_leaves_box_mates_to_the_box() -> None:
    rules = Rules.from_constraints(NINE, [AntiKing()])
    across_boxes = grid_of(rules, {"r3c3": 4, "r4c4": 4})
    assert names(across_boxes) == ["r3c3 and r4c4 are a king's move apart and both hold 4"]
    inside_a_box = grid_of(rules, {"r1c1": 4, "r2c2": 4})
    assert names(inside_a_box) == ["4 appears 2 times in box 1 (r1c1, r2c2)"]


def test_non_consecutive_names_the_neighbours_and_their_digits() -> None:
    rules = Rules.from_constraints(NINE, [NonConsecutive()])
    grid = grid_of(rules, {"r2c2": 5, "r2c3": 6, "r3c2": 8})
    assert names(grid) == [
        "r2c2 and r2c3 are neighbours and hold consecutive digits 5 and 6",
    ]


def test_parity_names_the_cell_and_what_it_must_be() -> None:
    rules = Rules.from_constraints(NINE, [Parity(odd=frozenset({0}), even=frozenset({1}))])
    assert names(grid_of(rules, {"r1c1": 2, "r1c2": 3})) == [
        "r1c1 holds 2 but must be odd",
        "r1c2 holds 3 but must be even",
    ]


def test_a_cage_names_its_repeats_and_its_sum() -> None:
    rules = Rules.from_constraints(NINE, [Cage((0, 1, 2), 10)])
    assert names(grid_of(rules, {"r1c1": 9, "r1c2": 8})) == [
        "cage r1c1+r1c2+r1c3 = 10: its digits add up to 17 already"
    ]
    assert names(grid_of(rules, {"r1c1": 1, "r1c2": 2, "r1c3": 3})) == [
        "cage r1c1+r1c2+r1c3 = 10: its digits add up to 6"
    ]
    repeated = Rules.from_constraints(NINE, [Cage((0, 10))])
    assert names(grid_of(repeated, {"r1c1": 3, "r2c2": 3})) == [
        "3 appears 2 times in box 1 (r1c1, r2c2)",
        "3 appears 2 times in cage r1c1+r2c2 (r1c1, r2c2)",
    ]


def test_unit_kinds_are_checked_with_the_units_under_their_names() -> None:
    rules = Rules.from_constraints(NINE, [*Diagonal.pair(), ExtraRegion((0, 80))])
    assert names(grid_of(rules, {"r1c1": 5, "r9c9": 5})) == [
        "5 appears 2 times in diagonal (r1c1, r9c9)",
        "5 appears 2 times in extra region 1 (r1c1, r9c9)",
    ]
    assert rules.unit_names[27:] == ("diagonal", "anti-diagonal", "extra region 1")


# ----- the JSON form ----------------------------------------------------------------------------

EVERY_KIND: dict[str, list[Constraint]] = {
    "diagonal": list(Diagonal.pair()),
    "extra_region": [ExtraRegion((0, 1, 2)), ExtraRegion((80, 79))],
    "anti_knight": [AntiKnight()],
    "anti_king": [AntiKing()],
    "non_consecutive": [NonConsecutive()],
    "parity": [Parity(frozenset({3, 5}), frozenset({7}))],
    "killer_cage": [Cage((10, 11), 3), Cage((20,))],
    **LINE_EXAMPLES,
}


def test_every_kind_is_in_the_table_of_examples() -> None:
    """The kinds of earlier versions and the line kinds are here; the dot and clue kinds
    have their table of examples in `test_variant_kinds_clues.py`."""
    assert {kind.kind for kind in LEGACY_KINDS} | set(LINE_EXAMPLES) == set(EVERY_KIND)
    assert set(EVERY_KIND) <= {kind.kind for kind in all_kinds()}


@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_json_round_trip_of_each_kind(kind: str) -> None:
    rules = Rules.from_constraints(NINE, EVERY_KIND[kind])
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert Rules.parse(rules.spec) == rules
    assert set(rules.to_json()) - {"size"} <= set(type(EVERY_KIND[kind][0]).json_keys)


def test_canonical_json_of_every_bundled_collection_is_unchanged() -> None:
    """The specs pinned from the version before constraints were objects (and each later
    collection's from the version that added it): they identify puzzles in stores, so they
    must not move by a byte."""
    pinned = json.loads((DATA / "bundled_rules_specs.json").read_text())
    assert set(pinned) == set(BUNDLED)
    for name in BUNDLED:
        specs = sorted({entry.puzzle.rules.spec for entry in load(name)})
        assert specs == pinned[name], name


def test_canonical_json_of_rules_built_from_old_fields_is_unchanged() -> None:
    pinned = json.loads((DATA / "constructed_rules_specs.json").read_text())
    built = {
        "everything": Rules.of_size(9).with_rules(
            diagonals=True,
            extra_regions=((0, 1, 2), (80, 79)),
            anti_knight=True,
            anti_king=True,
            non_consecutive=True,
            odd=frozenset({3, 5}),
            even=frozenset({7}),
            cages=(Cage((10, 11), 3), Cage((20,), None)),
        ),
        "six_boxes_3x2": Rules.parse("6x6:3x2-x").with_rules(anti_king=True),
        "jigsaw4": Rules.of_size(4).with_rules(
            layout=(0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 2, 3, 2, 3, 2, 3)
        ),
    }
    for key, rules in built.items():
        assert [rules.spec, rules.canonical_json(), rules.name, rules.fingerprint] == pinned[key]


# ----- Rules = shape + constraints ------------------------------------------------------------


def test_rules_from_shape_and_constraints_equal_rules_from_the_old_fields() -> None:
    # the kinds that were fields of `Rules` (the setters' kinds never were)
    every = [
        c for kind in sorted(EVERY_KIND) if kind not in LINE_EXAMPLES for c in EVERY_KIND[kind]
    ]
    new = Rules.from_constraints(NINE, every)
    old = Rules(
        9,
        3,
        3,
        diagonals=True,
        extra_regions=((0, 1, 2), (80, 79)),
        anti_knight=True,
        anti_king=True,
        non_consecutive=True,
        odd={3, 5},
        even={7},
        cages=(Cage((10, 11), 3), Cage((20,))),
    )
    assert new == old and hash(new) == hash(old)
    assert new.constraints == old.constraints  # one order, whatever order they came in
    assert [type(c) for c in new.constraints] == [
        Diagonal, Diagonal, ExtraRegion, ExtraRegion, AntiKnight, AntiKing, NonConsecutive,
        Parity, Cage, Cage,
    ]  # fmt: skip
    assert (new.diagonals, new.anti_knight, new.odd, new.cages) == (
        True,
        True,
        frozenset({3, 5}),
        (Cage((10, 11), 3), Cage((20,))),
    )
    assert Rules.parse("9x9-x") == Rules.from_constraints(NINE, Diagonal.pair())
    assert Rules.of_size(9).with_rules(anti_knight=True) == Rules.of_size(9).with_constraints(
        AntiKnight()
    )
    assert pickle.loads(pickle.dumps(new)) == new


def test_the_shape_is_shared_and_names_its_families() -> None:
    killer = Rules.from_constraints(NINE, [Cage((0, 1), 3)])
    assert killer.shape is Rules.of_size(9).shape is Rules.parse("9x9-x").shape
    assert killer.family("column")[2] == tuple(range(2, 81, 9))
    assert killer.family("box")[4] == (30, 31, 32, 39, 40, 41, 48, 49, 50)
    assert [killer.family_of(u) for u in (0, 9, 18, 27)] == ["row", "column", "region", "extra"]
    sudoku_x = Rules.parse("9x9-x")
    assert sudoku_x.family("extra") == sudoku_x.extra_units
    for family in ("row", "column", "region", "extra"):
        start = sudoku_x.family_start(family)
        units = sudoku_x.family(family)
        assert sudoku_x.units[start : start + len(units)] == units
        assert {sudoku_x.family_of(i) for i in range(start, start + len(units))} == {family}


def test_rules_refuse_what_is_not_a_rule() -> None:
    with pytest.raises(RulesError, match="one diagonal alone"):
        Rules.from_constraints(NINE, [Diagonal()])
    with pytest.raises(RulesError, match="not a constraint"):
        Rules.from_constraints(NINE, ["anti-knight"])  # type: ignore[list-item]
    with pytest.raises(RulesError, match="cannot be both odd and even"):
        Rules.from_constraints(NINE, [Parity(frozenset({0}), frozenset({0}))])
    with pytest.raises(RulesError, match="a cage has 1 to 9"):
        Rules.from_constraints(NINE, [Cage(tuple(range(10)))])


def test_windoku_and_disjoint_groups_are_extra_regions_with_the_same_json() -> None:
    windoku = Rules.from_constraints(NINE, ExtraRegion.windoku(NINE))
    bundled = load("windoku")[0].puzzle.rules
    assert windoku == bundled and windoku.spec == bundled.spec
    groups = ExtraRegion.disjoint_groups(NINE)
    assert len(groups) == 9 and groups[0].members == (0, 3, 6, 27, 30, 33, 54, 57, 60)


# ----- isomorphs --------------------------------------------------------------------------------

SOLVED = ("sudoku-x", "windoku", "jigsaw", "anti-knight", "anti-king", "non-consecutive")
SOLVED += ("odd-even", "killer")


def square_symmetries(n: int) -> list[tuple[int, ...]]:
    """The 8 symmetries of the square as `source` tuples (the isomorph's cell i is the
    original's source[i])."""
    found = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                source = []
                for r in range(n):
                    for c in range(n):
                        row, col = (c, r) if transpose else (r, c)
                        row = n - 1 - row if flip_rows else row
                        col = n - 1 - col if flip_cols else col
                        source.append(row * n + col)
                found.append(tuple(source))
    return found


@pytest.mark.parametrize("collection", SOLVED)
def test_every_symmetry_and_digit_map_a_kind_allows_maps_solutions_to_solutions(
    collection: str,
) -> None:
    entry = load(collection)[0]
    puzzle, solution = entry.puzzle, entry.solution
    assert solution is not None
    rules = puzzle.rules
    n = rules.size
    valued = any(c.reads_digit_values for c in rules.constraints)
    digit_maps = [(False, tuple(range(n + 1))), (True, (0, *range(n, 0, -1)))]
    if not valued:
        digit_maps.append((False, (0, *range(2, n + 1), 1)))  # any relabelling
    for source in square_symmetries(n):
        for reverse, digits in digit_maps:
            moved = _moved_rules(rules, source, reverse)
            iso = Isomorph(rules, moved, source, digits)
            assert is_solution(iso.apply(puzzle), iso.apply(solution)), (collection, reverse)
            assert iso.invert(iso.apply(solution)) == solution


@pytest.mark.parametrize("collection", SOLVED)
def test_random_isomorphs_keep_solutions(collection: str) -> None:
    entry = load(collection)[1]
    assert entry.solution is not None
    for seed in range(6):
        iso = random_isomorph(entry.puzzle.rules, seed)
        assert is_solution(iso.apply(entry.puzzle), iso.apply(entry.solution))


def test_a_move_that_breaks_a_kind_is_caught_by_the_checker() -> None:
    """The isomorph test can fail: relabelling digits freely breaks a cage's sum."""
    entry = load("killer")[0]
    assert entry.solution is not None
    n = entry.puzzle.rules.size
    identity = tuple(range(n * n))
    shuffled = (0, *range(2, n + 1), 1)
    iso = Isomorph(entry.puzzle.rules, entry.puzzle.rules, identity, shuffled)
    assert not is_solution(iso.apply(entry.puzzle), iso.apply(entry.solution))


# ----- f-puzzles ----------------------------------------------------------------------------------

FPUZZLES_CASES = {
    **{kind: Rules.from_constraints(NINE, items) for kind, items in EVERY_KIND.items()},
    "windoku": Rules.from_constraints(NINE, ExtraRegion.windoku(NINE)),
    "disjoint groups": Rules.from_constraints(NINE, ExtraRegion.disjoint_groups(NINE)),
    "one diagonal": Rules.from_constraints(NINE, [ExtraRegion.main_diagonal(NINE)]),
    "the other diagonal": Rules.from_constraints(NINE, [ExtraRegion.anti_diagonal(NINE)]),
    "jigsaw": load("jigsaw")[0].puzzle.rules,
}


@pytest.mark.parametrize("case", sorted(FPUZZLES_CASES))
def test_fpuzzles_round_trip_of_each_kind(case: str) -> None:
    rules = FPUZZLES_CASES[case]
    data = fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))
    assert rules_of(json.loads(json.dumps(data))) == rules


def test_fpuzzles_reads_one_diagonal_as_an_extra_region_and_both_as_sudoku_x() -> None:
    grid = [[{} for _ in range(9)] for _ in range(9)]
    both = rules_of({"size": 9, "grid": grid, "diagonal+": True, "diagonal-": True})
    assert both == Rules.parse("9x9-x")
    one = rules_of({"size": 9, "grid": grid, "diagonal+": True})
    assert one.constraints == (ExtraRegion.anti_diagonal(NINE),)
