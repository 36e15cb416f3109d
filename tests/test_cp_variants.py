"""Every rule kind in `cpsat`, `milp` and `python-constraint` (and their configurations).

Each rule kind has a small puzzle whose complete solution set the brute force of
`solving_support` enumerates (it asks only the rule checker); every configuration must find
exactly that set and say the count is exact. Then what only some encodings have: killers
with no givens, impossible cage sums, givens that break a rule, the cage fillings behind
`cages="table"`, the MILP rows of each rule and the XCSP3 export of each rule.
"""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ElementTree
from functools import cache
from typing import Any

import pytest
from solving_support import brute_force_solutions, shuffled_grid

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints import (
    KINDS,
    Arrow,
    BetweenLine,
    Clone,
    EntropicLine,
    Knightmare,
    Palindrome,
    RegionSumLine,
    Renban,
    SlowThermometer,
    Thermometer,
    Whispers,
    ZipperLine,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions import csp
from sudoku_bench.reductions.cp_model import CpModelReduction, cage_fillings
from sudoku_bench.reductions.milp import linear_program
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create

FOUR, SIX = Rules.of_size(4), Rules.of_size(6)


def layout(text: str) -> tuple[int, ...]:
    return tuple(int(region) - 1 for region in text)


# One puzzle per rule kind, each with two or more solutions so that counting is tested too.
CASES: dict[str, Grid] = {
    "jigsaw": Grid.from_string(
        "1...............", FOUR.with_rules(layout=layout("1112132233243444"))
    ),
    "extra unit of N cells": Grid.from_string(
        "12..............", FOUR.with_rules(extra_regions=((1, 4, 11, 14),))
    ),
    "extra unit of 3 cells": Grid.from_string(
        "12..............", FOUR.with_rules(extra_regions=((1, 6, 11),))
    ),
    "anti-knight": Grid.from_string(
        ".3.14....5...24..1.......1.263....15", SIX.with_rules(anti_knight=True)
    ),
    "anti-king": Grid.from_string(
        "..614...43....5..31..6....1..6..2...", SIX.with_rules(anti_king=True)
    ),
    "non-consecutive": Grid.from_string(
        "........1......2.......3..........2.", SIX.with_rules(non_consecutive=True)
    ),
    "parity": Grid.from_string(
        "1...............", FOUR.with_rules(odd=frozenset({5, 10}), even=frozenset({3, 12}))
    ),
    "knightmare": Grid.empty(Rules.from_constraints(FOUR.shape, [Knightmare((4, 6))])),
    "cages": Grid.empty(
        FOUR.with_rules(cages=(Cage((0, 1), 3), Cage((2, 3), 7), Cage((5, 6, 9)), Cage((15,), 2)))
    ),
    # the line kinds on 4x4 (cells row by row: r1c1 = 0, r2c1 = 4)
    **{
        kind: Grid.empty(Rules.from_constraints(FOUR.shape, lines))
        for kind, lines in {
            "thermometer": [Thermometer((0, 1, 5)), Thermometer((0, 4))],
            "slow thermometer": [SlowThermometer((0, 5, 10))],
            "arrow": [Arrow((0,), (5, 10))],
            "whispers": [Whispers((0, 1, 2), 2)],
            "palindrome": [Palindrome((0, 5, 10, 15))],
            "renban": [Renban((0, 5, 6))],
            "between line": [BetweenLine((0, 1, 2, 3))],
            "clone": [Clone((0, 1), (14, 15))],
            "entropic line": [EntropicLine((0, 1, 2, 3), 4)],
            "zipper line": [ZipperLine((0, 1, 2))],
            "region sum line": [RegionSumLine((0, 1, 2))],
        }.items()
    },
}



def clue_case(kind: str) -> Grid | None:
    """A 4x4 puzzle of `kind` alone with two or more solutions (all 288 grids are quick to
    enumerate): clues of the kind a 4x4 grid keeps, from its `candidates`, added until the
    solutions are few (2 to 24); None when no 4x4 grid gives such clues."""
    for seed in range(20):
        rng = random.Random(seed)
        solution = shuffled_grid(FOUR, rng)
        found = KINDS[kind].candidates(solution.values, FOUR.shape, rng)
        for count in range(1, min(len(found), 6) + 1):
            puzzle = Grid.empty(Rules.from_constraints(FOUR.shape, found[:count]))
            if 2 <= len(brute_force_solutions(puzzle, limit=25)) <= 24:
                return puzzle
    return None


# the kinds above by hand; the others from their candidates (dots, clues, cells)
_BY_HAND = {c.kind for puzzle in CASES.values() for c in puzzle.rules.constraints}
_CLUE_CASES = {kind: clue_case(kind) for kind in sorted(set(KINDS) - _BY_HAND - {"diagonal"})}
CASES.update((kind, case) for kind, case in _CLUE_CASES.items() if case is not None)
# kinds with no 4x4 case (their 6x6 puzzles are in the variant matrix test)
NO_4X4_CASE = {kind for kind, case in _CLUE_CASES.items() if case is None}


# Every configuration of the three methods: encodings, cage encodings, counting methods,
# MILP solvers and python-constraint's algorithms (min-conflicts cannot count: apart below).
CONFIGURATIONS: list[tuple[str, dict[str, Any]]] = [
    ("cpsat", {}),
    ("cpsat", {"cages": "table"}),
    ("cpsat", {"num_workers": 2}),  # counts by re-solving with each solution excluded
    ("cpsat-onehot", {}),
    ("cpsat-onehot", {"num_workers": 2}),
    ("milp", {}),
    ("milp-highs", {}),
    ("milp-cbc", {}),
    ("python-constraint", {}),
    ("python-constraint-singles", {}),
    ("python-constraint-optimized", {}),
    ("python-constraint-recursive", {}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in CONFIGURATIONS]


@cache
def truth(case: str) -> frozenset[Grid]:
    """Every solution of `CASES[case]`, by the brute force (once per test process)."""
    return frozenset(brute_force_solutions(CASES[case]))


def test_the_cases_cover_every_rule_kind_with_several_solutions() -> None:
    kinds = {c.kind for puzzle in CASES.values() for c in puzzle.rules.constraints}
    assert {"row_indexer", "column_indexer", "box_indexer"} >= NO_4X4_CASE
    assert set(KINDS) - kinds <= {"diagonal", *NO_4X4_CASE}  # Sudoku-X has tests of its own
    assert any(puzzle.rules.layout is not None for puzzle in CASES.values())  # a jigsaw
    for name in CASES:
        assert len(truth(name)) >= 2, name


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_every_rule_kind_gives_the_brute_force_solutions(
    name: str, options: dict[str, Any]
) -> None:
    solver = create(name, **options)
    for case, puzzle in CASES.items():
        assert solver.accepts(puzzle.rules), case
        expected = truth(case)
        result = solver.solve(puzzle, limit=len(expected) + 1, timeout=60)
        assert result.exact, (case, result.status, result.message)
        assert len(result.solutions) == len(set(result.solutions)) == len(expected), case
        assert set(result.solutions) == expected, case


@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=IDS)
def test_an_impossible_cage_or_a_broken_given_has_no_solution(
    name: str, options: dict[str, Any]
) -> None:
    impossible = [
        Grid.empty(FOUR.with_rules(cages=(Cage((0, 1), 8),))),  # 3 + 4 is the most
        Grid.empty(FOUR.with_rules(cages=(Cage((0, 1, 4), 5),))),  # 1 + 2 + 3 is the least
        Grid.from_string("2...............", FOUR.with_rules(odd=frozenset({0}))),
        Grid.from_string("12..............", FOUR.with_rules(non_consecutive=True)),
        Grid.from_string("1.....1.........", FOUR.with_rules(anti_knight=True)),
        Grid.from_string("3...............", FOUR.with_rules(cages=(Cage((0, 1), 3),))),
        Grid.from_string("1.....1.........", FOUR.with_rules(cages=(Cage((0, 6)),))),
        Grid.from_string("1..........1....", FOUR.with_rules(extra_regions=((0, 11),))),
    ]
    solver = create(name, **options)
    for puzzle in impossible:
        assert brute_force_solutions(puzzle) == []
        result = solver.solve(puzzle, limit=2, timeout=60)
        assert (result.status, result.exhausted) == (Status.NO_SOLUTION, True), puzzle.rules


# A 6x6 killer with no givens: cages drawn at random around this grid until cpsat found the
# puzzle unique (the brute force confirms it in its own test).
KILLER_SOLUTION = Grid.from_string("125346346125213654654213532461461532")
KILLER_CAGES = (
    (0, 1, 2, 7), (3, 4, 9), (5, 11), (6, 12), (8, 13, 14), (10, 15, 16, 22),
    (17, 23, 29, 35), (18, 24, 25, 30), (19, 20, 26), (21, 27), (28, 34), (31, 32, 33),
)  # fmt: skip
KILLER = Grid.empty(
    SIX.with_rules(
        cages=tuple(Cage(cells, sum(KILLER_SOLUTION[c] for c in cells)) for cells in KILLER_CAGES)
    )
)


@pytest.mark.slow
def test_the_6x6_killer_has_one_solution_by_the_brute_force() -> None:  # about 50 s of CPU
    assert brute_force_solutions(KILLER, limit=2) == [Grid(KILLER.rules, KILLER_SOLUTION.values)]


# python-constraint needs 1-2 s of CPU for this killer (15,000 nodes): its variants only in
# the slow suite.
KILLER_CONFIGURATIONS = [
    pytest.param(
        name,
        options,
        id=id_,
        marks=[pytest.mark.slow] if name.startswith("python-constraint-") else [],
    )
    for (name, options), id_ in zip(CONFIGURATIONS, IDS, strict=True)
]


@pytest.mark.parametrize(("name", "options"), KILLER_CONFIGURATIONS)
def test_a_killer_with_no_givens_is_solved(name: str, options: dict[str, Any]) -> None:
    result = create(name, **options).solve(KILLER, limit=2, timeout=60)
    assert result.exact and result.solutions == [Grid(KILLER.rules, KILLER_SOLUTION.values)]


def test_min_conflicts_takes_every_rule_kind_and_never_claims_a_count() -> None:
    solver = create("python-constraint-minconflicts", restarts=3)  # it may give up: that is fine
    for case, puzzle in CASES.items():
        result = solver.solve(puzzle, limit=2, timeout=5)
        assert not result.exact, case
        assert all(is_solution(puzzle, grid) for grid in result.solutions), case


ORTOOLS_EXAMPLE = [  # examples/contrib/killer_sudoku.py's `problem`: [sum, [[row, col], ...]]
    [3, [[1, 1], [1, 2]]], [15, [[1, 3], [1, 4], [1, 5]]],
    [22, [[1, 6], [2, 5], [2, 6], [3, 5]]], [4, [[1, 7], [2, 7]]], [16, [[1, 8], [2, 8]]],
    [15, [[1, 9], [2, 9], [3, 9], [4, 9]]], [25, [[2, 1], [2, 2], [3, 1], [3, 2]]],
    [17, [[2, 3], [2, 4]]], [9, [[3, 3], [3, 4], [4, 4]]], [8, [[3, 6], [4, 6], [5, 6]]],
    [20, [[3, 7], [3, 8], [4, 7]]], [6, [[4, 1], [5, 1]]], [14, [[4, 2], [4, 3]]],
    [17, [[4, 5], [5, 5], [6, 5]]], [17, [[4, 8], [5, 7], [5, 8]]],
    [13, [[5, 2], [5, 3], [6, 2]]], [20, [[5, 4], [6, 4], [7, 4]]], [12, [[5, 9], [6, 9]]],
    [27, [[6, 1], [7, 1], [8, 1], [9, 1]]], [6, [[6, 3], [7, 2], [7, 3]]],
    [20, [[6, 6], [7, 6], [7, 7]]], [6, [[6, 7], [6, 8]]],
    [10, [[7, 5], [8, 4], [8, 5], [9, 4]]], [14, [[7, 8], [7, 9], [8, 8], [8, 9]]],
    [8, [[8, 2], [9, 2]]], [16, [[8, 3], [9, 3]]], [15, [[8, 6], [8, 7]]],
    [13, [[9, 5], [9, 6], [9, 7]]], [17, [[9, 8], [9, 9]]],
]  # fmt: skip
ORTOOLS_SOLUTION = (  # the example's docstring, "The output is:"
    "215647398368952174794381652586274931142593867973816425821739546659428713437165289"
)


def test_the_ortools_killer_is_the_examples_puzzle() -> None:
    (entry,) = load("ortools-killer")
    cages = tuple(
        Cage(tuple(9 * (row - 1) + col - 1 for row, col in cells), total)
        for total, cells in ORTOOLS_EXAMPLE
    )
    rules = Rules.of_size(9).with_rules(cages=cages)
    assert entry.puzzle == Grid.empty(rules)
    assert entry.solution == Grid.from_string(ORTOOLS_SOLUTION, rules)
    assert is_solution(entry.puzzle, entry.solution)


@pytest.mark.parametrize(
    "name",
    [
        "cpsat",
        "cpsat-onehot",
        "milp",
        "milp-highs",
        pytest.param("python-constraint", marks=pytest.mark.slow),
    ],
)  # python-constraint: about 4 s on an idle machine
def test_the_ortools_killer_has_its_known_solution_only(name: str) -> None:
    (entry,) = load("ortools-killer")
    result = create(name).solve(entry.puzzle, limit=2, timeout=60)
    assert (result.status, result.solutions) == (Status.SOLVED, [entry.solution])


def test_cpsat_table_cages_solve_the_ortools_killer() -> None:
    (entry,) = load("ortools-killer")
    result = create("cpsat", cages="table").solve(entry.puzzle, limit=2)
    assert (result.status, result.solutions) == (Status.SOLVED, [entry.solution])


# ----- cpsat: the cage fillings of `cages="table"` ----------------------------------------------


@pytest.mark.parametrize(
    ("domains", "total"),
    [
        ([range(1, 10)] * 2, 3),
        ([range(1, 10)] * 3, 15),
        ([(1, 3, 5, 7, 9), range(1, 10), (4,)], 12),
        ([range(1, 7)] * 4, 30),  # impossible: 3 + 4 + 5 + 6 = 18 is the most
        ([range(1, 10)] * 5, 25),
    ],
)
def test_cage_fillings_are_every_distinct_ordering_that_reaches_the_total(
    domains: list[range | tuple[int, ...]], total: int
) -> None:
    cage = Cage(tuple(range(len(domains))), total)
    expected = [
        filling
        for filling in itertools.product(*domains)
        if len(set(filling)) == len(filling) and sum(filling) == total
    ]
    assert cage_fillings(cage, [tuple(d) for d in domains]) == expected


def test_a_cage_with_too_many_fillings_keeps_the_linear_sum() -> None:
    cage = Cage(tuple(range(9)), 45)  # 9! orderings
    assert cage_fillings(cage, [tuple(range(1, 10))] * 9, limit=5000) is None
    rules = Rules.of_size(9).with_rules(cages=(Cage(tuple(range(9)), 45), Cage((9, 10), 3)))
    model, _ = CpModelReduction(cages="table").apply(Grid.empty(rules))
    kinds = constraint_kinds(model)
    assert kinds.count("table") == 1 and kinds.count("linear") == 1  # the 9-cell cage: a sum
    with pytest.raises(ValueError, match="needs the integer encoding"):
        CpModelReduction("onehot", cages="table")


def constraint_kinds(model: Any) -> list[str]:
    """The kind of each constraint of a CP-SAT model (`all_diff`, `linear`, `table`, ...)."""
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2

    proto = text_format.Parse(str(model.proto), cp_model_pb2.CpModelProto())
    return [str(constraint.WhichOneof("constraint")) for constraint in proto.constraints]


def test_the_integer_model_writes_each_rule_as_documented() -> None:
    rules = FOUR.with_rules(
        anti_knight=True,
        non_consecutive=True,
        odd=frozenset({0}),
        extra_regions=((0, 5, 10),),
        cages=(Cage((3, 6), 5),),
    )
    model, _ = CpModelReduction().apply(Grid.empty(rules))
    kinds = constraint_kinds(model)
    pairs = len(rules.distinct_pairs)
    assert kinds.count("all_diff") == len(rules.units) + 1  # and the cage
    assert kinds.count("table") == len(rules.nonconsecutive_pairs)  # forbidden (d, d +/- 1)
    assert kinds.count("linear") == pairs + 1  # x != y per pair, and the cage's sum
    assert list(model.proto.variables[0].domain) == [1, 1, 3, 3]  # r1c1 is odd: {1, 3}


# ----- milp: the rows of each rule ------------------------------------------------------------


def test_the_milp_rows_of_each_rule() -> None:
    rules = FOUR.with_rules(
        anti_knight=True,
        non_consecutive=True,
        even=frozenset({0}),
        extra_regions=((0, 5, 10),),
        cages=(Cage((3, 4), 5), Cage((12, 13), 3)),
    )
    program = linear_program(Grid.empty(rules))
    rows = {row.name: row for row in program.rows}
    assert [d for cell, d in program.placements if cell == 0] == [2, 4]  # even: 1, 3 left out

    def placements(name: str) -> list[tuple[tuple[int, int], int]]:
        return [(program.placements[i], c) for i, c in rows[name].terms]

    # the extra unit of 3 cells may miss a digit: at most one, not exactly one
    assert (rows["x1_2"].lower, rows["x1_2"].upper) == (-float("inf"), 1)
    assert placements("x1_2") == [((0, 2), 1), ((5, 2), 1), ((10, 2), 1)]
    assert (rows["r1_2"].lower, rows["r1_2"].upper) == (1, 1)  # a house: exactly one
    a, b = rules.distinct_pairs[0]
    assert placements(f"d_{rules.cell_name(a)}_{rules.cell_name(b)}_4") == [
        ((a, 4), 1),
        ((b, 4), 1),
    ]
    assert placements("n_r1c2_2_r1c3_3") == [((1, 2), 1), ((2, 3), 1)]
    assert rows["n_r1c2_2_r1c3_3"].upper == 1
    # cage 1 (r1c4, r2c1) shares no unit: its digits differ by its own rows; cage 2 is in row 4
    assert "k1_1" in rows and not any(name.startswith("k2_") for name in rows)
    assert (rows["k1"].lower, rows["k1"].upper) == (5, 5)
    assert placements("k1") == [((3, d), d) for d in range(1, 5)] + [
        ((4, d), d) for d in range(1, 5)
    ]


def test_milp_givens_move_to_the_bounds_and_clashes_stay_as_empty_rows() -> None:
    rules = FOUR.with_rules(cages=(Cage((0, 1, 4), 7),), non_consecutive=True)
    program = linear_program(Grid.from_string("1...............", rules))
    rows = {row.name: row for row in program.rows}
    assert (rows["k1"].lower, rows["k1"].upper) == (6, 6)  # 7 less the given 1
    assert all(d not in (1, 2) for cell, d in program.placements if cell in (1, 4))
    clash = linear_program(Grid.from_string("21..............", rules))
    assert clash.clashes == ("n_r1c1_2_r1c2_1",)
    parity = linear_program(
        Grid.from_string("2...............", FOUR.with_rules(odd=frozenset({0})))
    )
    assert parity.clashes == ("r1c1",)


def test_for_classic_rules_the_milp_rows_are_the_exact_cover_columns() -> None:
    from sudoku_bench.reductions.exact_cover import REDUCTION as EXACT_COVER

    for puzzle in (
        load("top95")[0].puzzle,
        Grid(Rules.of_size(9, diagonals=True), load("seeds")[0].puzzle.values),
        Grid.from_string("11.............."),
    ):
        matrix, cover = EXACT_COVER.apply(puzzle)
        program = linear_program(puzzle)
        assert [row.name for row in program.rows] == [c.replace("#", "_") for c in matrix.columns]
        assert program.placements == cover.placements
        assert program.clashes == tuple(c.replace("#", "_") for c in cover.clashes)


# ----- python-constraint: the XCSP3 export of each rule -------------------------------------


def test_the_xcsp3_export_writes_every_rule_kind() -> None:
    rules = FOUR.with_rules(
        anti_king=True,
        non_consecutive=True,
        odd=frozenset({0, 5}),
        even=frozenset({3}),
        extra_regions=((0, 5, 10),),
        cages=(Cage((3, 6), 5), Cage((12, 13))),
    )
    root = ElementTree.fromstring(csp.export(Grid.from_string("1...............", rules)))
    constraints = root.find("constraints")
    assert constraints is not None
    intensions = [e.text.strip() for e in constraints.iter("intension") if e.text]
    assert len(intensions) == len(rules.distinct_pairs) + len(rules.nonconsecutive_pairs)
    assert "gt(dist(x[0][0],x[0][1]),1)" in intensions
    a, b = rules.distinct_pairs[0]
    assert f"ne(x[{a // 4}][{a % 4}],x[{b // 4}][{b % 4}])" in intensions
    groups = {
        g.get("note"): [e.text.strip() for e in g.iter("args") if e.text]
        for g in constraints.iter("group")
    }
    assert groups == {"odd cells": ["x[0][0]", "x[1][1]"], "even cells": ["x[0][3]"]}
    (total,) = constraints.iter("sum")
    assert total.findtext("condition", "").strip() == "(eq,5)"
    assert len(list(constraints.iter("allDifferent"))) == len(rules.units) + 2  # and 2 cages


def test_the_csp_model_counts_its_constraints() -> None:
    rules = FOUR.with_rules(anti_knight=True, cages=(Cage((3, 4), 5), Cage((0, 1), 3)))
    model, _ = csp.CspReduction().apply(Grid.empty(rules))
    # units, pairs, cage 1's AllDifferent and sum, cage 2's sum (its cells share a row)
    assert model.constraints == len(rules.units) + len(rules.distinct_pairs) + 3
    assert json.loads(rules.canonical_json())["anti_knight"] is True


def test_these_back_ends_declare_every_rule_kind() -> None:
    for name in ("cpsat", "cpsat-onehot", "milp", "milp-highs", "milp-cbc", "python-constraint"):
        table = create(name).encoders
        assert table is not None and all(table.encodes(kind) for kind in KINDS.values()), name


@pytest.mark.slow
def test_the_empty_6x6_non_consecutive_has_48_solutions() -> None:  # brute force: about 10 s
    puzzle = Grid.empty(SIX.with_rules(non_consecutive=True))
    truth = set(brute_force_solutions(puzzle))
    assert len(truth) == 48
    for name in ("cpsat", "cpsat-onehot", "milp-highs", "python-constraint"):
        result = create(name).solve(puzzle, limit=100)
        assert result.exact and set(result.solutions) == truth, name
