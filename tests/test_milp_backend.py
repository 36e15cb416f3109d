"""The MILP reduction and back-ends: SCIP, CBC and HiGHS on the exact-cover 0/1 program."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from formats_strategies import random_solution
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions import milp
from sudoku_bench.reductions.exact_cover import REDUCTION as EXACT_COVER
from sudoku_bench.reductions.milp import MilpReduction
from sudoku_bench.solvers.adapters.milp import MilpSolver
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create, get, select

pytest.importorskip("ortools")

THESIS = Grid.from_string("0000302004010000")  # the thesis's 4x4, solution 4213312424311342
TWO = Grid.from_string("12..34..........")  # checked below against the propagating count
NAMES = ("milp", "milp-cbc", "milp-highs")


@pytest.mark.parametrize("name", NAMES)
def test_the_thesis_puzzle_and_the_seed_boards(name: str) -> None:
    solver = create(name)
    result = solver.solve(THESIS, limit=2)
    assert (result.status, result.solutions) == (
        Status.SOLVED,
        [Grid.from_string("4213312424311342")],
    )
    for entry in load("seeds"):
        result = solver.solve(entry.puzzle, limit=2)
        assert (result.status, result.solutions) == (Status.SOLVED, [entry.solution]), entry.id


@pytest.mark.parametrize("name", NAMES)
def test_counting_with_no_good_cuts_matches_the_propagating_count(name: str) -> None:
    reference = create("propagating").solve(TWO, limit=100)
    assert reference.exact and 2 <= reference.count < 100
    result = create(name).solve(TWO, limit=100)
    assert result.exact and sorted(result.solutions, key=Grid.to_line) == sorted(
        reference.solutions, key=Grid.to_line
    )
    assert result.counters["solves"] == reference.count + 1  # the last solve proves "no more"


def test_the_empty_sudoku_x_4x4_has_48_solutions() -> None:
    result = MilpSolver().solve(Grid.empty(Rules.of_size(4, diagonals=True)), limit=100)
    assert (result.count, result.exact) == (48, True)
    assert all(
        is_solution(Grid.empty(Rules.of_size(4, diagonals=True)), g) for g in result.solutions
    )


@pytest.mark.slow
def test_the_empty_4x4_has_288_solutions() -> None:  # 289 solves, about 8 s
    result = MilpSolver().solve(Grid.empty(Rules.of_size(4)), limit=1000)
    assert (result.count, result.exact) == (288, True)


@pytest.mark.parametrize("name", NAMES)
def test_a_puzzle_without_solution_is_an_infeasible_program(name: str) -> None:
    clash = Grid.from_string("11..............")  # two 1s in row 1: a column no row covers
    no_way = Grid.from_string("12.....3.....4..")  # valid givens, still no solution
    assert create("propagating").solve(no_way, limit=2).status is Status.NO_SOLUTION
    for puzzle in (clash, no_way):
        result = create(name).solve(puzzle, limit=2)
        assert (result.status, result.exhausted, result.count) == (Status.NO_SOLUTION, True, 0)
        assert result.details["statuses"] == ["INFEASIBLE"]


def test_top95_agrees_with_the_propagating_solver() -> None:
    scip, reference = MilpSolver(), create("propagating")
    for entry in load("top95"):
        ours = scip.solve(entry.puzzle, limit=2)
        theirs = reference.solve(entry.puzzle, limit=2)
        assert (ours.status, ours.solutions) == (theirs.status, theirs.solutions), entry.id


def test_a_16x16_solves() -> None:
    entry = load("gecode16")[0]
    result = MilpSolver().solve(entry.puzzle, limit=2, timeout=60)
    assert result.status is Status.SOLVED
    assert is_solution(entry.puzzle, result.solutions[0])


@pytest.mark.parametrize("name", NAMES)
def test_a_count_that_cannot_finish_stops_at_the_timeout(name: str) -> None:
    empty = Grid.empty(Rules.of_size(9))
    start = time.perf_counter()
    result = create(name).solve(empty, limit=10**9, timeout=0.3)
    assert result.status is Status.TIMEOUT and not result.exact
    assert all(is_solution(empty, grid) for grid in result.solutions)  # kept, however many
    assert time.perf_counter() - start < 5  # stops, with room for a loaded machine


def read_mps_header(text: str) -> dict[str, Any]:
    """What the export's `*` lines say, read with nothing from sudoku-bench: the rules' JSON,
    the size, the symbol map and the puzzle rows (digits, 0 for empty)."""
    comments = [line[2:] for line in text.splitlines() if line.startswith("* ")]
    fields: dict[str, list[str]] = {}
    for comment in comments:
        key, colon, value = comment.partition(": ")
        if colon:
            fields.setdefault(key, []).append(value)
    symbols = dict(item.split("=") for item in " ".join(fields["symbols"]).split())
    size = int(fields["size"][0])
    rows = [fields[f"puzzle row {r}"][0] for r in range(1, size + 1)]
    return {
        "rules": json.loads("".join(fields["rules json"])),
        "size": size,
        "grid": [[0 if symbols[s] == "empty" else int(symbols[s]) for s in row] for row in rows],
        "name": next(line.split()[1] for line in text.splitlines() if line.startswith("NAME")),
        "variable rule": " ".join(c for c in comments if "x_r<R>c<C>_<D>" in c),
    }


def grid_from_mps_answer(header: dict[str, Any], chosen: set[str]) -> list[list[int]]:
    """The full grid: the puzzle rows of the header, each empty cell filled by its variable at
    1 (the header's rule: x_r<R>c<C>_<D> = 1 puts the number D in row R, column C)."""
    assert "x_r<R>c<C>_<D> = 1 means" in header["variable rule"]
    grid = [list(row) for row in header["grid"]]
    for name in chosen:
        match = re.fullmatch(r"x_r(\d+)c(\d+)_(\d+)", name)
        assert match, name
        row, col, digit = (int(part) for part in match.groups())
        assert grid[row - 1][col - 1] == 0, f"{name} fills a given cell"
        grid[row - 1][col - 1] = digit
    return grid


MPS_CASES = {
    "thesis 4x4": THESIS,
    "16x16 (letters)": load("gecode16")[0].puzzle,
    "OR-Tools killer (no givens)": load("ortools-killer")[0].puzzle,
    "6x6 anti-knight, odd/even": Grid.from_string(
        ".3.14....5...24..1.......1.263....15",
        Rules.of_size(6).with_rules(
            anti_knight=True, odd=frozenset({0}), even=frozenset({7}), extra_regions=((0, 7, 15),)
        ),
    ),
}


@pytest.mark.parametrize("case", list(MPS_CASES))
def test_the_mps_header_carries_the_puzzle_and_the_grid_rebuilds_from_an_answer(
    case: str,
) -> None:
    """Issue 18: a solver's answer becomes the full grid with nothing but the file."""
    from ortools.linear_solver.python import model_builder

    puzzle = MPS_CASES[case]
    text = milp.export(puzzle)
    assert all(len(line) <= 100 for line in text.splitlines() if line.startswith("*"))
    header = read_mps_header(text)
    assert header["name"] == milp.model_name(puzzle) and header["name"].startswith("sudoku_")
    assert Rules.from_json(header["rules"]) == puzzle.rules
    assert header["size"] == puzzle.rules.size
    assert header["grid"] == puzzle.to_rows()
    model = model_builder.Model()  # an MPS reader that is not the exporter's pywraplp
    assert model.import_from_mps_string(text)
    solver = model_builder.Solver("scip")
    solver.set_time_limit_in_seconds(60)
    assert solver.solve(model) == model_builder.SolveStatus.OPTIMAL
    chosen = {v.name for v in model.get_variables() if solver.value(v) > 0.5}
    full = Grid(puzzle.rules, tuple(v for row in grid_from_mps_answer(header, chosen) for v in row))
    assert is_solution(puzzle, full)
    assert full in create("cpsat").solve(puzzle, limit=10).solutions


def test_the_mps_row_names_are_the_exact_cover_columns_with_an_underscore() -> None:
    text = milp.export(THESIS)
    rows = text.split("\nROWS\n")[1].split("\nCOLUMNS\n")[0].splitlines()[1:]  # after COST
    matrix, _ = EXACT_COVER.apply(THESIS)
    assert [row.split()[1] for row in rows] == [c.replace("#", "_") for c in matrix.columns]
    assert "r1_5 is r1#5" in " ".join(
        line[2:] for line in text.splitlines() if line.startswith("* ")
    )


def test_the_program_is_the_exact_cover_matrix() -> None:
    puzzle = load("top95")[0].puzzle
    matrix, _ = EXACT_COVER.apply(puzzle)
    model, _ = MilpReduction().apply(puzzle)
    assert MilpReduction().size(model) == {
        "variables": len(matrix.rows),
        "constraints": len(matrix.columns),
    }
    assert milp.describe(puzzle) == {
        "solver": "SCIP",
        "model": "reduced",
        "variables": len(matrix.rows),
        "constraints": len(matrix.columns),
        "clashes": [],
        "reduced_variables": len(matrix.rows),
        "reduced_constraints": len(matrix.columns),
        "textbook_variables": 729,
        "textbook_constraints": 324 + puzzle.givens,
    }


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([4, 6, 9]), st.randoms(use_true_random=False))
def test_invert_round_trips_any_valid_grid(size: int, rng: random.Random) -> None:
    solution = random_solution(Rules.of_size(size), rng)
    puzzle = Grid(solution.rules, tuple(v if rng.random() < 0.4 else 0 for v in solution.values))
    reduction = MilpReduction()
    _, data = reduction.apply(puzzle)
    rows = set(reduction.encode(solution, data))
    answer = [1.0 if row in rows else 0.0 for row in range(len(data.variables))]
    assert reduction.invert(answer, data) == solution


def test_unknown_solver_and_bad_threads_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown MILP solver 'GLPK'"):
        MilpReduction("GLPK")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        MilpSolver(threads=0)


def test_registered_with_the_ortools_version_and_only_scip_in_all() -> None:
    assert get("milp").distribution == "ortools" and get("milp").version()
    assert get("scip").name == "milp"
    assert [b.name for b in select("all") if b.name.startswith("milp")] == ["milp"]


def test_reduce_to_milp_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reduce", "0000302004010000", "--to", "milp", "--json"]) == 0
    assert '"variables": 24, "constraints": 48' in capsys.readouterr().out


def test_a_pair_two_thermometers_share_is_one_row_per_forbidden_digit_pair() -> None:
    # thermometer:2 has the pair (r4c6, r4c5) on two of its lines: CBC aborts the process
    # on a repeated row name, so each forbidden digit pair of a pair is written once
    entry = load("thermometer:2")[0]
    assert entry.solution is not None
    result = create("milp-cbc").solve(entry.puzzle, limit=2, timeout=60)
    assert result.status is Status.SOLVED
    assert result.solutions == [entry.solution]
