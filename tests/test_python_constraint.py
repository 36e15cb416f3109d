"""The python-constraint back-end and the CSP reduction: algorithms, deadline, availability."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import time
import xml.etree.ElementTree as ElementTree
from itertools import islice
from pathlib import Path

import pytest
from constraint import AllDifferentConstraint, BacktrackingSolver, Problem

from sudoku_bench.harness.cli.commands import reduce as reduce_command
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions import csp
from sudoku_bench.reductions.csp import CspReduction
from sudoku_bench.solvers import (
    Backend,
    SolverUnavailableError,
    Status,
    create,
    get,
    register,
    select,
)
from sudoku_bench.solvers.adapters.python_constraint import PythonConstraintSolver
from sudoku_bench.solvers.registry import unregister

# Hard for the plain model: about 220,000 nodes (tens of seconds) to prove it unique.
HARD = next(entry.puzzle for entry in load("top95") if entry.id == "top95:7")


def test_the_reduction_has_a_variable_per_cell_and_a_constraint_per_unit() -> None:
    puzzle = load("seeds")[0].puzzle
    reduction = CspReduction()
    model, data = reduction.apply(puzzle)
    assert reduction.size(model) == {"variables": 81, "constraints": 27}
    answer = model.problem.getSolution()
    assert reduction.invert(answer, data) == load("seeds")[0].solution


def test_export_is_an_xcsp3_instance() -> None:
    x = Rules.of_size(9, diagonals=True)
    puzzle = Grid(x, load("seeds")[0].puzzle.values)
    root = ElementTree.fromstring(csp.export(puzzle))
    assert root.get("format") == "XCSP3"
    assert root.find("variables/array").get("size") == "[9][9]"  # type: ignore[union-attr]
    assert len(root.findall("constraints/allDifferent")) == 29
    values = root.find("constraints/instantiation/values").text  # type: ignore[union-attr]
    assert values is not None and len(values.split()) == puzzle.givens
    assert csp.describe(puzzle) == {"givens": 30, "variables": 81, "constraints": 29}


def test_hidden_singles_cut_the_search_without_changing_the_answers() -> None:
    puzzle = load("hardest")[0].puzzle
    plain = create("python-constraint").solve(puzzle, limit=2)
    singles = create("python-constraint-singles").solve(puzzle, limit=2)
    assert plain.status is singles.status is Status.SOLVED
    assert plain.solutions == singles.solutions and is_solution(puzzle, plain.solutions[0])
    assert singles.nodes * 5 < plain.nodes  # 296 against 4,454


@pytest.mark.parametrize("name", ["python-constraint", "python-constraint-optimized"])
def test_a_search_that_takes_long_stops_at_the_timeout(name: str) -> None:
    solver = create(name)
    start = time.perf_counter()
    result = solver.solve(HARD, limit=2, timeout=0.5)
    elapsed = time.perf_counter() - start
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.nodes > 0
    assert 0.5 <= elapsed < 3, elapsed  # stops, with room for a loaded machine
    # the process (and the very same solver) is usable afterwards
    entry = load("seeds")[0]
    again = solver.solve(entry.puzzle, limit=2, timeout=30)
    assert (again.status, again.solutions) == (Status.SOLVED, [entry.solution])


def test_a_timeout_keeps_the_solutions_found_so_far() -> None:
    empty = Grid.empty(Rules.of_size(9))
    result = create("python-constraint").solve(empty, limit=10**9, timeout=0.3)
    assert result.status is Status.TIMEOUT and result.count > 0
    assert all(is_solution(empty, grid) for grid in result.solutions)


def test_min_conflicts_finds_one_solution_and_never_claims_a_count() -> None:
    puzzle = load("4x4")[0].puzzle
    solver = create("python-constraint-minconflicts", seed=1)
    result = solver.solve(puzzle, limit=1, timeout=30)
    assert result.status is Status.LIMIT and not result.exact
    assert is_solution(puzzle, result.solutions[0])
    counted = solver.solve(puzzle, limit=2, timeout=30)
    assert counted.status is Status.GAVE_UP and "cannot count" in counted.message


def test_min_conflicts_gives_up_on_an_invalid_puzzle() -> None:
    puzzle = load("4x4")[0].puzzle
    broken = puzzle.with_values({1: puzzle[3]})  # the row's 3 twice
    solver = create("python-constraint-minconflicts", steps=20, restarts=5)
    result = solver.solve(broken, timeout=30)
    assert result.status is Status.GAVE_UP and result.count == 0 and not result.exact


@pytest.mark.parametrize("algorithm", ["backtracking", "optimized", "recursive"])
@pytest.mark.parametrize("forwardcheck", [True, False])
def test_every_complete_algorithm_counts_a_4x4_puzzle(algorithm: str, forwardcheck: bool) -> None:
    puzzle = load("4x4")[0].puzzle.with_values({0: 0, 5: 0, 10: 0, 15: 0})
    reference = create("cpsat").solve(puzzle, limit=100)
    solver = PythonConstraintSolver(algorithm=algorithm, forwardcheck=forwardcheck)
    result = solver.solve(puzzle, limit=100)
    assert result.exact and set(result.solutions) == set(reference.solutions)


def test_counting_takes_limit_solutions_from_the_library_iterator() -> None:
    """The back-end gives what the bare library gives, in the library's order."""
    empty = Grid.empty(Rules.of_size(4))
    problem = Problem(BacktrackingSolver())
    for cell in empty.rules.cells:
        problem.addVariable(cell, [1, 2, 3, 4])
    for unit in empty.rules.units:
        problem.addConstraint(AllDifferentConstraint(), list(unit))
    bare = [tuple(answer[c] for c in range(16)) for answer in islice(problem.getSolutionIter(), 7)]
    ours = create("python-constraint").solve(empty, limit=7)
    assert ours.status is Status.LIMIT
    assert [grid.values for grid in ours.solutions] == bare


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        PythonConstraintSolver(algorithm="guess")


def test_registered_with_the_python_constraint2_version() -> None:
    names = [
        "python-constraint",
        "python-constraint-singles",
        "python-constraint-optimized",
        "python-constraint-recursive",
        "python-constraint-minconflicts",
    ]
    for name in names:
        backend = get(name)
        assert backend.available() and backend.extra == "constraint"
        assert backend.version() == importlib.metadata.version("python-constraint2")
    in_all = {backend.name for backend in select("all")}
    assert {"python-constraint", "python-constraint-singles"} <= in_all
    assert not in_all & {"python-constraint-optimized", "python-constraint-minconflicts"}


def test_reported_unavailable_when_the_library_is_missing() -> None:
    backend = get("python-constraint")
    ghost = Backend(
        "python-constraint-ghost",
        backend.target,
        backend.summary,
        requires=("constraint_module_that_is_not_installed",),
        distribution="python-constraint2-ghost",
        extra=backend.extra,
    )
    register(ghost)
    try:
        assert not ghost.available() and ghost.version() is None
        assert ghost not in select("all")
        with pytest.raises(SolverUnavailableError, match=r"sudoku-bench\[constraint\]"):
            create("python-constraint-ghost")
    finally:
        unregister("python-constraint-ghost")


def test_the_reduce_command_shows_both_models(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    reduce_command.add_parser(parser.add_subparsers())
    puzzle = load("seeds")[0].puzzle.to_line()
    for target, marker in (("cp-model", "all_diff"), ("csp", 'format="XCSP3"')):
        output = tmp_path / f"{target}.txt"
        args = parser.parse_args(["reduce", "--to", target, puzzle, "--json", "-o", str(output)])
        assert args.run(args) == 0
        record = json.loads(capsys.readouterr().out)
        assert (record["target"], record["variables"]) == (target, 81)
        assert marker in output.read_text()
