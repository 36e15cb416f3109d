"""The CP-SAT back-end and its reduction: encodings, safe counting, time limits, counters."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from typing import Any

import pytest
from ortools.sat.python import cp_model

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions import cp_model as cp_reduction
from sudoku_bench.reductions.cp_model import CpModelReduction
from sudoku_bench.solvers import SolverUnavailableError, Status, create, get, select
from sudoku_bench.solvers.adapters.cpsat import CpSatSolver

EMPTY_4X4 = Grid.empty(Rules.of_size(4))


@pytest.mark.parametrize(
    ("encoding", "variables", "constraints"),
    [("integer", 81, 27), ("onehot", 729, 81 + 27 * 9)],
)
def test_the_models_have_the_documented_size(
    encoding: str, variables: int, constraints: int
) -> None:
    reduction = CpModelReduction(encoding)
    model, _ = reduction.apply(Grid.empty(Rules.of_size(9)))
    assert reduction.size(model) == {"variables": variables, "constraints": constraints}


@pytest.mark.parametrize("encoding", ["integer", "onehot"])
def test_the_reduction_round_trips_a_seed_board(encoding: str) -> None:
    entry = load("seeds")[1]
    reduction = CpModelReduction(encoding)
    model, data = reduction.apply(entry.puzzle)
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    assert reduction.invert(solver.value, data) == entry.solution


def test_export_is_the_cp_model_proto_text_format() -> None:
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2

    puzzle = load("seeds")[0].puzzle
    proto = text_format.Parse(cp_reduction.export(puzzle), cp_model_pb2.CpModelProto())
    assert len(proto.variables) == 81 and len(proto.constraints) == 27
    assert cp_reduction.describe(puzzle) == {
        "encoding": "integer",
        "variables": 81,
        "constraints": 27,
    }


def test_enumeration_with_several_workers_is_forced_onto_one() -> None:
    """The trap: CP-SAT 9.15 enumerates only part of the 288 with two or more workers."""
    solver = CpSatSolver(num_workers=4, counting="enumerate")
    result = solver.solve(EMPTY_4X4, limit=1000)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 288, True)
    assert result.details["counting"] == "enumerate"


@pytest.mark.parametrize(
    ("options", "limit", "method"),
    [
        ({}, 1, "single"),
        ({"num_workers": 2}, 1, "single"),
        ({}, 2, "enumerate"),
        ({"num_workers": 2}, 2, "resolve"),
        ({"counting": "resolve"}, 2, "resolve"),
    ],
)
def test_counting_method_follows_the_workers(
    options: dict[str, Any], limit: int, method: str
) -> None:
    assert CpSatSolver(**options).counting_method(limit) == method


def test_counting_by_re_solving_agrees_with_enumeration_on_4x4_puzzles() -> None:
    enumerate_ = CpSatSolver()
    resolve = CpSatSolver(counting="resolve")
    for entry in load("4x4")[:10]:
        puzzle = entry.puzzle.with_values({0: 0, 5: 0, 10: 0, 15: 0})
        by_enumeration = enumerate_.solve(puzzle, limit=50)
        by_resolving = resolve.solve(puzzle, limit=50)
        assert by_enumeration.exact and by_resolving.exact
        assert set(by_enumeration.solutions) == set(by_resolving.solutions)
        assert by_resolving.counters["solves"] == by_resolving.count + 1  # the last: INFEASIBLE


@pytest.mark.slow
def test_the_empty_4x4_counts_288_in_parallel_by_re_solving() -> None:
    result = CpSatSolver(num_workers=2).solve(EMPTY_4X4, limit=1000)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 288, True)
    assert all(is_solution(EMPTY_4X4, grid) for grid in result.solutions)


def test_the_solver_counters_are_reported() -> None:
    result = create("cpsat").solve(load("seeds")[1].puzzle, limit=2)
    assert {"nodes", "branches", "conflicts", "wall_time_s", "solves"} <= set(result.counters)
    assert result.counters["wall_time_s"] > 0 and result.counters["solves"] == 1
    assert result.nodes == result.counters["branches"] > 0  # the hard seed needs branching
    assert result.details["statuses"] == ["OPTIMAL"]


@pytest.mark.parametrize("options", [{}, {"num_workers": 2}, {"encoding": "onehot"}])
def test_a_count_that_cannot_finish_stops_at_the_timeout(options: dict[str, Any]) -> None:
    empty = Grid.empty(Rules.of_size(9))  # about 6.7e21 solutions
    result = CpSatSolver(**options).solve(empty, limit=10**9, timeout=1.0)
    assert result.status is Status.TIMEOUT and not result.exact
    # the solutions found so far are kept (how many depends on the machine's load)
    assert all(is_solution(empty, grid) for grid in result.solutions)
    # stops near its limit: not much before (CP-SAT measures its own clock), and with room
    # for a loaded machine after
    assert 0.5 <= result.total_s < 5


def test_the_max_time_option_caps_the_search() -> None:
    empty = Grid.empty(Rules.of_size(9))
    result = CpSatSolver(max_time_in_seconds=0.3).solve(empty, limit=10**9)
    assert result.status is Status.TIMEOUT and result.total_s < 4


def test_one_worker_with_a_seed_is_repeatable() -> None:
    empty = Grid.empty(Rules.of_size(9))
    first = CpSatSolver(seed=7).solve(empty).solutions
    assert CpSatSolver(seed=7).solve(empty).solutions == first


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="num_workers"):
        CpSatSolver(num_workers=0)
    with pytest.raises(ValueError, match="counting"):
        CpSatSolver(counting="guess")
    with pytest.raises(ValueError, match="encoding"):
        CpSatSolver(encoding="binary")


def test_registered_with_the_ortools_version() -> None:
    for name in ("cpsat", "cpsat-onehot"):
        backend = get(name)
        assert backend.available() and backend.extra == "ortools"
        assert backend.version() == importlib.metadata.version("ortools")
    assert get("ortools").name == "cpsat"


def test_reported_unavailable_when_ortools_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_find_spec = importlib.util.find_spec

    def without_ortools(name: str, *args: Any) -> Any:
        return None if name.split(".")[0] == "ortools" else real_find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_ortools)
    assert not get("cpsat").available()
    assert "cpsat" not in [backend.name for backend in select("all")]
    with pytest.raises(SolverUnavailableError, match=r"sudoku-bench\[ortools\]"):
        create("cpsat")
    assert main(["solvers"]) == 0
    listed = next(line for line in capsys.readouterr().out.splitlines() if "cpsat " in line)
    assert "no (pip install 'sudoku-bench[ortools]')" in listed
