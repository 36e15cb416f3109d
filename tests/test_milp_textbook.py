"""The textbook MILP model (all N³ binaries, every rule row, givens as equations x = 1) against
the reduced one: sizes by formula, the same solutions under every rule kind, the export."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving_support import brute_force_solutions
from variant_support import random_4x4_puzzle

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions import milp
from sudoku_bench.reductions.milp import MilpReduction, linear_program
from sudoku_bench.solvers.adapters.milp import MilpSolver
from sudoku_bench.solvers.registry import create


@pytest.mark.parametrize("size", [4, 9])
def test_the_textbook_program_has_n_cubed_variables_and_every_row(size: int) -> None:
    puzzle = load("seeds")[0].puzzle if size == 9 else load("4x4")[0].puzzle
    program = linear_program(puzzle, "textbook")
    rules = puzzle.rules
    assert len(program.placements) == size**3
    # a row per cell, per unit and digit, and per given
    assert (
        len(program.rows)
        == 4 * size * size + puzzle.givens
        == len(rules.units) * size + (size * size + puzzle.givens)
    )
    fixing = [row for row in program.rows if row.name.startswith("g_")]
    assert len(fixing) == puzzle.givens
    assert all(len(row.terms) == 1 and row.lower == row.upper == 1 for row in fixing)
    reduced = linear_program(puzzle)
    assert len(reduced.placements) < size**3 and len(reduced.rows) < len(program.rows)


def test_an_unknown_model_names_the_choices() -> None:
    with pytest.raises(ValueError, match="reduced, textbook"):
        MilpReduction(model="book")


def test_textbook_and_reduced_agree_on_hard_puzzles() -> None:
    textbook, reduced = create("milp-textbook"), create("milp")
    for entry in load("top95")[:3]:
        a, b = textbook.solve(entry.puzzle, limit=2), reduced.solve(entry.puzzle, limit=2)
        assert a.exact and a.count == b.count == 1 and a.solutions == b.solutions
        assert is_solution(entry.puzzle, a.solutions[0])
        assert a.counters["variables"] == 729
        assert a.counters["constraints"] == 324 + entry.puzzle.givens
        assert b.counters["variables"] < 729
        assert a.details["model"] == "textbook"


@settings(max_examples=12, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_the_textbook_model_keeps_every_variant_rule(rng: random.Random) -> None:
    puzzle = random_4x4_puzzle(rng)
    truth = set(brute_force_solutions(puzzle))
    result = MilpSolver(model="textbook").solve(puzzle, limit=len(truth) + 1)
    assert result.exact and set(result.solutions) == truth


def test_a_clash_makes_the_textbook_program_infeasible() -> None:
    puzzle = Grid(Rules.of_size(4), (1, 1) + (0,) * 14)
    result = MilpSolver(model="textbook").solve(puzzle, limit=2)
    assert result.exact and result.count == 0
    assert milp.describe(puzzle, model="textbook")["clashes"] == ["r1_1", "b1_1"]


def test_the_textbook_export_says_what_it_is() -> None:
    from ortools.linear_solver.python import model_builder

    puzzle = load("4x4")[0].puzzle
    text = milp.export(puzzle, "textbook")
    assert "* textbook model:" in text and " g_r" in text
    model = model_builder.Model()
    assert model.import_from_mps_string(text)
    assert model.num_variables == 64


def test_reduce_reports_both_models(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reduce", "top95:1", "--to", "milp", "--model", "textbook", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["model"] == "textbook"
    assert summary["variables"] == summary["textbook_variables"] == 729
    assert summary["reduced_variables"] == 301 and summary["reduced_constraints"] == 256
    assert main(["reduce", "top95:1", "--to", "milp", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["variables"], summary["textbook_constraints"]) == (301, 324 + 17)
    assert main(["reduce", "top95:1", "--to", "cnf", "--model", "textbook"]) == 2
