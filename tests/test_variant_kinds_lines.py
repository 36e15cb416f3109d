"""The line kinds of issue 30: each kind's family encoding agrees with its check, its JSON and
f-puzzles forms round-trip, its check names a broken line in words, an isomorph keeps a
solved grid solved, the generator's candidates hold in the grid they come from, and its SVG
marks parse; plus the f-puzzles semantics read in Rangsk's SudokuSolver, case by case."""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import pytest
from line_kinds_support import LINE_EXAMPLES
from solving_support import shuffled_grid
from test_constraint_kinds import square_symmetries

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import conflicts, is_solution
from sudoku_bench.puzzles.constraints import (
    KINDS,
    Arrow,
    BetweenLine,
    Canvas,
    Clone,
    Constraint,
    EntropicLine,
    LinearConstraint,
    PairConstraint,
    Palindrome,
    RegionSumLine,
    Renban,
    SlowThermometer,
    TableConstraint,
    Thermometer,
    Whispers,
    ZipperLine,
)
from sudoku_bench.puzzles.constraints.entropic_line import digit_groups
from sudoku_bench.puzzles.constraints.whispers import default_difference
from sudoku_bench.puzzles.errors import PuzzleFormatError, RulesError
from sudoku_bench.puzzles.formats.common import PuzzleEntry, ReadOptions
from sudoku_bench.puzzles.formats.fpuzzles import (
    entry_from_object,
    fpuzzles_object,
    rules_of,
    url_of,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.shape import GridShape
from sudoku_bench.puzzles.transform import Isomorph, _moved_rules, random_isomorph

NINE = GridShape.of_size(9)
LINE_KINDS = sorted(LINE_EXAMPLES)


def rules_with(*constraints: Constraint, size: int = 9) -> Rules:
    return Rules.from_constraints(GridShape.of_size(size), constraints)


def grid_of(rules: Rules, filled: dict[str, int]) -> Grid:
    values = [0] * rules.cell_count
    for name, digit in filled.items():
        row, col = name[1:].split("c")
        values[rules.cell(int(row) - 1, int(col) - 1)] = digit
    return Grid(rules, tuple(values))


def words(grid: Grid) -> list[str]:
    return [conflict.describe(grid) for conflict in conflicts(grid)]


def test_every_line_kind_is_registered_with_its_names() -> None:
    for kind, items in LINE_EXAMPLES.items():
        cls = type(items[0])
        assert KINDS[kind] is cls
        assert cls.json_keys == (kind,)
    fkeys = {type(items[0]).fpuzzles_keys[0] for items in LINE_EXAMPLES.values()}
    assert fkeys == {
        "thermometer", "slowthermometer", "arrow", "whispers", "palindrome", "renban",
        "betweenline", "clone", "entropicline", "zipperline", "regionsumline",
    }  # fmt: skip


# ----- the family encoding is the check ------------------------------------------------------


def family_holds(constraint: Constraint, shape: GridShape, values: Sequence[int]) -> bool:
    """Whether a full filling keeps the constraint, as the models read its family."""
    if isinstance(constraint, PairConstraint):
        return all(constraint.allows(values[a], values[b]) for a, b in constraint.pairs(shape))
    if isinstance(constraint, LinearConstraint):
        return all(eq.holds(values) for eq in constraint.equations(shape))
    assert isinstance(constraint, TableConstraint)
    return all(table.matching(values) == 1 for table in constraint.tables(shape))


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_the_family_encoding_agrees_with_the_check_on_random_fillings(kind: str) -> None:
    rules = rules_with(*LINE_EXAMPLES[kind])
    rng = random.Random(kind)
    scope = sorted({c for item in LINE_EXAMPLES[kind] for c in item.scope(rules.shape)})
    kept = broken = 0
    for _ in range(3000):
        values = [0] * rules.cell_count
        # digits near each other, so that sums and orders hold often enough to see both
        base = rng.randint(1, 9)
        for cell in scope:
            values[cell] = min(9, max(1, base + rng.randint(-4, 4)))
        for item in LINE_EXAMPLES[kind]:
            checked = not list(item.violations(rules, values))
            assert checked == family_holds(item, rules.shape, values), (item, values)
            kept += checked
            broken += not checked
    assert kept and broken


def test_between_tables_have_exclusive_rows() -> None:
    line = BetweenLine((0, 1, 2))
    for table in line.tables(NINE):
        assert len(set(table.rows)) == len(table.rows)
        assert all(0 not in row for row in table.rows)  # full rows: at most one matches


def test_between_line_clauses_state_exactly_the_rule_over_the_placements_alone() -> None:
    """The CNF writes a between line with no variable of its own, and its clauses allow
    exactly the fillings of (end, middle, end) with the middle strictly between the ends."""
    from sudoku_bench.reductions.cnf import constraint_clauses, describe, variable

    base = rules_with()
    line = BetweenLine((0, 10, 2))
    clauses = constraint_clauses(base, line)
    assert clauses and all(abs(literal) <= 9**3 for clause in clauses for literal in clause)
    for a, m, b in itertools.product(range(1, 10), repeat=3):
        true = {variable(base, 0, a), variable(base, 10, m), variable(base, 2, b)}
        kept = all(any(lit in true if lit > 0 else -lit not in true for lit in c) for c in clauses)
        assert kept == (min(a, b) < m < max(a, b)), (a, m, b)
    assert constraint_clauses(base, BetweenLine((0, 1))) == ()  # no middle: nothing to state
    sizes = describe(Grid.empty(rules_with(line, BetweenLine((30, 40, 50, 60)))))
    assert sizes["variables"] == 9**3 and sizes["clauses_between"] > 0


def test_between_lines_in_cp_sat_are_one_boolean_per_line_past_short_tables() -> None:
    pytest.importorskip("ortools")
    from sudoku_bench.reductions.cp_model import describe

    lines = (BetweenLine((0, 10, 2)), BetweenLine((30, 40, 50, 60)), BetweenLine((70, 71)))
    assert describe(Grid.empty(rules_with(*lines)))["variables"] == 81 + 2
    # on 6x6 the table of (end, middle, end) rows is short, and faster: no Boolean
    small = rules_with(BetweenLine((0, 7, 2)), size=6)
    assert describe(Grid.empty(small))["variables"] == 36


def test_between_line_candidates_have_a_middle_and_reach_past_four_cells() -> None:
    rng = random.Random(3)
    solution = shuffled_grid(rules_with(), rng).values
    found = BetweenLine.candidates(solution, NINE, rng)
    assert found and all(len(line.cells) >= 3 for line in found)
    assert max(len(line.cells) for line in found) > 4


def test_renban_pairs_mean_a_run_of_consecutive_digits() -> None:
    for length in (2, 3, 4):
        renban = Renban(tuple(range(length)))
        for digits in itertools.product(range(1, 7), repeat=length):
            pairs_hold = all(renban.allows(digits[a], digits[b]) for a, b in renban.pairs(NINE))
            run = sorted(digits) == list(range(min(digits), min(digits) + length))
            assert pairs_hold == run


def test_entropic_pairs_mean_every_three_in_a_row_are_low_middle_high() -> None:
    line = EntropicLine((0, 1, 2, 3, 4), 6)
    groups = digit_groups(6)
    for digits in itertools.product(range(1, 7), repeat=5):
        values = list(digits) + [0] * 31
        windows = all(len({groups[d] for d in digits[i : i + 3]}) == 3 for i in range(3))
        assert family_holds(line, GridShape.of_size(6), values) == windows


def test_entropic_groups_follow_rangsk_on_every_size() -> None:
    def named(size: int) -> list[list[int]]:
        groups = digit_groups(size)
        return [[d for d in range(1, size + 1) if groups[d] == g] for g in range(3)]

    assert named(9) == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert named(4) == [[1], [2, 3], [4]]
    assert named(8) == [[1, 2, 3], [4, 5], [6, 7, 8]]
    assert named(16) == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16]]


# ----- the check in words --------------------------------------------------------------------

BROKEN = {
    "thermometer": (Thermometer((0, 1, 2)), {"r1c1": 3, "r1c2": 5, "r1c3": 4}, "increase"),
    "slow_thermometer": (SlowThermometer((0, 10)), {"r1c1": 4, "r2c2": 3}, "do not decrease"),
    "arrow": (Arrow((0,), (1, 2)), {"r1c1": 9, "r1c2": 3, "r1c3": 5}, "adds up to 8"),
    "whispers": (Whispers((0, 1), 5), {"r1c1": 3, "r1c2": 7}, "less than 5"),
    "palindrome": (Palindrome((0, 1, 2)), {"r1c1": 3, "r1c3": 4}, "differ"),
    "renban": (Renban((0, 1, 2)), {"r1c1": 1, "r1c3": 5}, "too far apart"),
    "between_line": (BetweenLine((0, 1, 2)), {"r1c1": 2, "r1c2": 7, "r1c3": 5}, "strictly"),
    "clone": (Clone((0,), (40,)), {"r1c1": 2, "r5c5": 3}, "differ"),
    "entropic_line": (EntropicLine((0, 1), 9), {"r1c1": 2, "r1c2": 3}, "both low"),
    "zipper_line": (ZipperLine((0, 1, 2)), {"r1c1": 2, "r1c2": 7, "r1c3": 4}, "differently"),
    "region_sum_line": (
        RegionSumLine((1, 2, 3)),
        {"r1c2": 1, "r1c3": 2, "r1c4": 4},
        "segments add up differently",
    ),
}


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_the_check_names_a_broken_line_in_words(kind: str) -> None:
    constraint, filled, phrase = BROKEN[kind]
    rules = rules_with(constraint)
    grid = grid_of(rules, filled)
    found = words(grid)
    assert len(found) == 1, found
    assert constraint.title in found[0] and phrase in found[0], found
    assert not is_solution(Grid.empty(rules), grid)


def test_a_pill_reads_as_a_number_most_significant_cell_first() -> None:
    rules = rules_with(Arrow((0, 1), (9, 19, 29)))
    assert not words(grid_of(rules, {"r1c1": 1, "r1c2": 3, "r2c1": 4, "r3c2": 5, "r4c3": 4}))
    broken = words(grid_of(rules, {"r1c1": 3, "r1c2": 1, "r2c1": 4, "r3c2": 5, "r4c3": 4}))
    assert broken and "its bulb is 31" in broken[0]


def test_validate_names_what_is_wrong() -> None:
    cases = [
        (Renban(tuple(range(10))), "renban"),
        (Whispers((0, 1), 9), "difference 9"),
        (Thermometer((0, 0)), "each cell once"),
        (Thermometer((0,)), "2 to 9"),
        (Clone((0, 1), (2,)), "as many cells"),
        (Arrow((0,), ()), "a bulb and a line"),
    ]
    for constraint, phrase in cases:
        with pytest.raises(RulesError, match=phrase):
            rules_with(constraint)
    with pytest.raises(RulesError, match="decimal number"):
        rules_with(Arrow((0, 1), (16,)), size=16)
    with pytest.raises(RulesError, match="digit groups are for 9x9"):
        rules_with(EntropicLine((0, 1), 9), size=6)


# ----- round trips ---------------------------------------------------------------------------


def sample_rules(kind: str, size: int, seed: int) -> tuple[Rules, Grid]:
    """Rules of a few of the kind's candidates on a random solved grid of that size."""
    shape = GridShape.of_size(size)
    solution = shuffled_grid(Rules.from_constraints(shape), random.Random(seed))
    found = KINDS[kind].candidates(solution.values, shape, random.Random(seed))
    assert found, (kind, size)
    rules = Rules.from_constraints(shape, found[:4])
    return rules, Grid(rules, solution.values)


@pytest.mark.parametrize("size", [4, 6, 9, 16])
@pytest.mark.parametrize("kind", LINE_KINDS)
def test_json_and_fpuzzles_round_trips_on_every_size(kind: str, size: int) -> None:
    rules, solution = sample_rules(kind, size, size)
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    entry = PuzzleEntry("t", Grid.empty(rules), solution)
    back = entry_from_object(json.loads(json.dumps(fpuzzles_object(entry))), "t")
    assert back.puzzle.rules == rules and back.solution == solution


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_candidates_hold_in_the_grid_they_come_from(kind: str) -> None:
    for size, seed in ((6, 1), (9, 2), (9, 3)):
        shape = GridShape.of_size(size)
        solution = shuffled_grid(Rules.from_constraints(shape), random.Random(seed))
        found = KINDS[kind].candidates(solution.values, shape, random.Random(seed))
        assert len(found) >= 3, (kind, size)
        assert all(type(c) is KINDS[kind] for c in found)
        rules = Rules.from_constraints(shape, found)
        assert is_solution(Grid.empty(rules), Grid(rules, solution.values))


def test_candidates_come_in_random_order_from_the_seed() -> None:
    shape = NINE
    solution = shuffled_grid(Rules.from_constraints(shape), random.Random(5)).values
    first = Thermometer.candidates(solution, shape, random.Random(7))
    assert first == Thermometer.candidates(solution, shape, random.Random(7))
    assert first != Thermometer.candidates(solution, shape, random.Random(8))


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_every_move_the_kind_allows_keeps_a_solved_grid_solved(kind: str) -> None:
    rules, solution = sample_rules(kind, 9, 11)
    n = rules.size
    reversible = all(c.digits_reversible for c in rules.constraints)
    digit_maps = [(False, tuple(range(n + 1)))]
    if reversible:
        digit_maps.append((True, (0, *range(n, 0, -1))))
    if not any(c.reads_digit_values for c in rules.constraints):
        digit_maps.append((False, (0, *range(2, n + 1), 1)))
    for source in square_symmetries(n):
        for reverse, digits in digit_maps:
            iso = Isomorph(rules, _moved_rules(rules, source, reverse), source, digits)
            assert is_solution(Grid.empty(iso.rules), iso.apply(solution)), (kind, reverse)
    for seed in range(4):
        iso = random_isomorph(rules, seed)
        assert is_solution(Grid.empty(iso.rules), iso.apply(solution))


def test_a_move_that_breaks_a_line_is_caught() -> None:
    """Reading a thermometer from its tip after d -> N + 1 - d is what keeps it; not turning
    it round breaks it, and the checker says so."""
    rules, solution = sample_rules("thermometer", 9, 4)
    n = rules.size
    identity = tuple(range(n * n))
    reverse = (0, *range(n, 0, -1))
    unturned = Isomorph(rules, rules, identity, reverse)
    assert not is_solution(Grid.empty(rules), unturned.apply(solution))
    turned = Isomorph(rules, _moved_rules(rules, identity, True), identity, reverse)
    assert is_solution(Grid.empty(turned.rules), turned.apply(solution))


def test_an_arrow_is_never_relabelled() -> None:
    rules = rules_with(Arrow((40,), (41, 42)))
    assert all(random_isomorph(rules, seed).digits == tuple(range(10)) for seed in range(20))
    with pytest.raises(RulesError, match="relabelling"):
        _moved_rules(rules, tuple(range(81)), True)


# ----- pictures ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_svg_marks_parse_as_xml_and_the_text_picture_labels_the_cells(kind: str) -> None:
    items = LINE_EXAMPLES[kind]
    cls = type(items[0])
    marks = cls.svg(items, NINE, Canvas(9, 36.0, 40.0, 40.0))
    assert marks
    root = ET.fromstring(
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">'
        + "".join(marks)
        + "</svg>"
    )
    assert len(root) == len(marks)
    drawing = cls.drawing(items, NINE)
    assert drawing is not None and len(drawing.symbols) == 81
    cells = {c for item in items for c in item.scope(NINE)}
    assert all(drawing.symbols[c] != "." for c in cells)


def test_thermometer_svg_has_a_bulb_and_an_arrow_has_a_head() -> None:
    canvas = Canvas(9, 36.0, 0.0, 0.0)
    thermo = Thermometer.svg([Thermometer((0, 1, 2))], NINE, canvas) or []
    assert [ET.fromstring(m).tag for m in thermo] == ["polyline", "circle"]
    arrow = Arrow.svg([Arrow((0,), (1, 2))], NINE, canvas) or []
    assert [ET.fromstring(m).tag for m in arrow] == ["polyline", "circle", "polyline"]


# ----- f-puzzles semantics (Rangsk's SudokuSolver) --------------------------------------------


def blank(size: int = 9) -> list[list[dict[str, object]]]:
    return [[{} for _ in range(size)] for _ in range(size)]


def test_fpuzzles_arrow_lines_start_in_the_bulb_and_each_line_is_an_arrow() -> None:
    data = {
        "size": 9,
        "grid": blank(),
        "arrow": [
            {"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]]},
            {"cells": ["R5C5", "R5C6"], "lines": [["R5C6", "R6C7", "R7C7"]]},
            {"cells": ["R9C9"], "lines": [["R9C9"]]},  # a line of its start only: no rule
        ],
    }
    rules = rules_of(data)
    assert rules.constraints == (
        Arrow((0,), (1, 2)),
        Arrow((0,), (9,)),
        Arrow((40, 41), (51, 60)),
    )


def test_fpuzzles_whispers_take_rangsk_s_default_difference_by_size() -> None:
    assert [default_difference(n) for n in (4, 6, 9, 16)] == [2, 3, 5, 8]
    line = {"lines": [["R1C1", "R1C2"]]}
    six = rules_of({"size": 6, "grid": blank(6), "whispers": [line]})
    assert six.constraints == (Whispers((0, 1), 3),)
    valued = rules_of({"size": 9, "grid": blank(), "whispers": [{**line, "value": "4"}]})
    assert valued.constraints == (Whispers((0, 1), 4),)
    written = fpuzzles_object(PuzzleEntry("t", Grid.empty(valued)))
    assert written["whispers"] == [{"lines": [["R1C1", "R1C2"]], "value": "4"}]


def test_fpuzzles_clone_pairs_cells_in_order_and_passes_over_a_cell_cloned_onto_itself() -> None:
    data = {
        "size": 9,
        "grid": blank(),
        "clone": [{"cells": ["R1C1", "R1C2", "R5C5"], "cloneCells": ["R9C8", "R9C9", "R5C5"]}],
    }
    assert rules_of(data).constraints == (Clone((0, 1), (79, 80)),)


def test_region_sum_line_segments_follow_the_regions_and_a_return_is_a_new_segment() -> None:
    line = RegionSumLine((0, 1, 2, 3, 4, 12, 11))  # box 1, box 2, back into box 1
    assert line.segments(NINE) == [(0, 1, 2), (3, 4, 12), (11,)]
    jigsaw = GridShape.of_size(4).with_layout((0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3))
    assert RegionSumLine((0, 4, 8, 12)).segments(jigsaw) == [(0, 4), (8, 12)]


def test_zipper_equations_fold_the_line_from_both_ends() -> None:
    odd = ZipperLine((0, 1, 2, 3, 4))
    assert [sorted(eq.terms) for eq in odd.equations(NINE)] == [
        [(0, 1), (2, -1), (4, 1)],
        [(1, 1), (2, -1), (3, 1)],
    ]
    even = ZipperLine((0, 1, 2, 3))
    assert [sorted(eq.terms) for eq in even.equations(NINE)] == [
        [(0, -1), (1, 1), (2, 1), (3, -1)],
    ]


def test_fpuzzles_cosmetics_that_draw_a_rule_are_passed_over_others_refused() -> None:
    renban = [["R1C1", "R1C2", "R1C3"]]
    data = {
        "size": 9,
        "grid": blank(),
        "renban": [{"lines": renban}],
        # Rangsk's userscript draws its kinds with a marked line; an unmarked line over the
        # same cells draws the same rule
        "line": [
            {"lines": renban, "outlineC": "#C060C0", "fromConstraint": "Renban"},
            {"lines": [["R1C3", "R1C2", "R1C1"]], "outlineC": "#B0B0B0"},
        ],
    }
    assert rules_of(data).constraints == (Renban((0, 1, 2)),)
    data["text"] = [{"cells": ["R2C3"], "value": ">"}]
    with pytest.raises(PuzzleFormatError, match="'text'"):
        rules_of(data)
    options = ReadOptions(ignore_cosmetics=True)
    entry = entry_from_object(data, "t", options)
    assert entry.puzzle.rules.constraints == (Renban((0, 1, 2)),)


def test_fpuzzles_reads_a_cell_s_parity_as_odd_and_even_cells() -> None:
    grid = blank()
    grid[0][0] = {"parity": "Even"}
    grid[8][8] = {"parity": "Odd"}
    rules = rules_of({"size": 9, "grid": grid})
    assert rules.odd == frozenset({80}) and rules.even == frozenset({0})
    grid[4][4] = {"parity": "Blue"}
    with pytest.raises(PuzzleFormatError, match="Even or Odd"):
        rules_of({"size": 9, "grid": grid})


# ----- 7x7 jigsaws (the peer's suite holds one) ----------------------------------------------------

SEVEN = [
    [1, 1, 1, 1, 2, 2, 2],
    [1, 1, 1, 2, 2, 2, 2],
    [3, 3, 3, 3, 4, 4, 4],
    [3, 3, 3, 4, 4, 4, 4],
    [5, 5, 5, 5, 6, 6, 6],
    [5, 5, 5, 6, 6, 6, 6],
    [7, 7, 7, 7, 7, 7, 7],
]


def test_a_7x7_jigsaw_reads_from_json_and_f_puzzles_and_writes_back() -> None:
    rules = Rules.from_json({"size": 7, "regions": SEVEN, "renban": [["r7c1", "r7c2"]]})
    assert rules.name == "7x7 jigsaw renban" and rules.shape.no_boxes
    assert Rules.parse(rules.spec) == rules
    data = fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))
    assert "region" not in data["grid"][6][0]  # f-puzzles' default region of a 7x7 cell: its row
    assert rules_of(json.loads(json.dumps(data))) == rules


def test_a_7x7_grid_without_regions_is_rows_only_and_refused_as_such() -> None:
    with pytest.raises(PuzzleFormatError, match="7x7"):
        rules_of({"size": 7, "grid": blank(7)})
    with pytest.raises(RulesError, match="7x7"):
        Rules.from_json({"size": 7})


def test_the_cli_passes_cosmetics_over_when_told(capsys: pytest.CaptureFixture[str]) -> None:
    data = {
        "size": 4,
        "grid": blank(4),
        "thermometer": [{"lines": [["R1C1", "R1C2"]]}],
        "text": [{"cells": ["R4C4"], "value": "?"}],
    }
    url = url_of(data)
    assert main(["show", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--ignore-cosmetics" in err
    assert main(["show", url, "--ignore-cosmetics"]) == 0
    assert "4x4 thermo" in capsys.readouterr().out
