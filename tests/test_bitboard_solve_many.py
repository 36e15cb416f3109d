"""`BitboardJitSolver.solve_many`, the batch path `solve FILE` and `count FILE` take: the same
results as `solve` puzzle by puzzle (solutions, status, verdict, counters), deadlines held
between compiled calls, and the CLI's output unchanged."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Result, Status

pytest.importorskip("numba", reason="the compiled engines need numba: pip install '.[jit]'")

from sudoku_bench.harness.cli import main
from sudoku_bench.solvers.engines.bitboard import jit as bitboard
from sudoku_bench.solvers.engines.bitboard.jit import BitboardJitSolver

SETS = ("top95", "multi")


@pytest.fixture(scope="module")
def solver() -> BitboardJitSolver:
    return BitboardJitSolver()


def puzzles_of(name: str) -> list[Grid]:
    return [entry.puzzle for entry in load(name)]


def answer(result: Result) -> tuple[object, ...]:
    """Everything of a result but its times."""
    return (
        result.solver,
        result.status,
        result.solutions,
        result.exhausted,
        result.verdict,
        result.counters,
        result.message,
    )


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("limit", [1, 2])
@pytest.mark.parametrize("timeout", [None, 60.0])
def test_solve_many_agrees_with_solve(
    solver: BitboardJitSolver, name: str, limit: int, timeout: float | None
) -> None:
    puzzles = puzzles_of(name)
    one_by_one = [solver.solve(puzzle, limit=limit, timeout=timeout) for puzzle in puzzles]
    many = list(solver.solve_many(puzzles, limit=limit, timeout=timeout))
    assert len(many) == len(puzzles)
    for puzzle, expected, got in zip(puzzles, one_by_one, many, strict=True):
        assert answer(got) == answer(expected), puzzle.to_line()
        assert all(is_solution(puzzle, grid) for grid in got.solutions)
        assert got.build_s >= 0 and got.search_s >= 0
    if name == "multi" and limit == 2:  # the batch path kept every solution, not the first
        assert all(result.count == 2 for result in many)


def test_solve_many_beyond_the_solution_buffer(solver: BitboardJitSolver) -> None:
    """More solutions than the kernel's buffer holds, across puzzles: each goes to its own."""
    puzzles = [*puzzles_of("multi")[:3], Grid.from_string("." * 81), *puzzles_of("top95")[:2]]
    limit = bitboard.SOLUTION_BUFFER + 7
    one_by_one = [solver.solve(puzzle, limit=limit) for puzzle in puzzles]
    many = list(solver.solve_many(puzzles, limit=limit))
    assert [answer(result) for result in many] == [answer(result) for result in one_by_one]
    assert many[3].count == limit


def test_rules_the_kernel_lacks_go_one_by_one(solver: BitboardJitSolver) -> None:
    puzzles = [Grid.from_string("." * 16, Rules.of_size(4)), puzzles_of("top95")[0]]
    many = list(solver.solve_many(puzzles))
    assert [result.status for result in many] == [Status.UNSUPPORTED, Status.SOLVED]


class SteppingClock:
    """A clock that moves one second each time it is read: every pause runs past a deadline."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def test_a_deadline_stops_a_puzzle_between_calls_and_the_next_one_starts_clean(
    solver: BitboardJitSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzles = list(itertools.islice(puzzles_of("forum-hardest"), 30)) + puzzles_of("top95")[:30]
    untimed = [solver.solve(puzzle, limit=2) for puzzle in puzzles]
    monkeypatch.setattr(bitboard, "time", SteppingClock())
    monkeypatch.setattr(bitboard, "CHECK_EVERY", 1)  # a compiled call per node or two
    many = list(solver.solve_many(puzzles, limit=2, timeout=0.5))
    assert len(many) == len(puzzles)
    statuses = {result.status for result in many}
    assert Status.TIMEOUT in statuses and Status.SOLVED in statuses
    for puzzle, expected, got in zip(puzzles, untimed, many, strict=True):
        if got.status is Status.TIMEOUT:
            assert not got.exhausted
            assert got.nodes < expected.nodes  # stopped before the search was over
            assert all(is_solution(puzzle, grid) for grid in got.solutions)
        else:
            assert answer(got) == answer(expected), puzzle.to_line()


@pytest.mark.parametrize("name", SETS)
def test_cli_solve_file_output_is_solve_of_each_puzzle(
    solver: BitboardJitSolver, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{name}.txt"
    path.write_text("".join(puzzle.to_line() + "\n" for puzzle in puzzles_of(name)))
    expected = [solver.solve(Grid.from_string(line), limit=2) for line in path.read_text().split()]
    assert main(["solve", str(path), "-s", "bitboard-jit", "--limit", "2", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [record["id"] for record in records] == [
        f"{path}:{number}" for number in range(1, len(expected) + 1)
    ]
    for record, result in zip(records, expected, strict=True):
        assert record["status"] == result.status.value
        assert record["solutions"] == [grid.to_line() for grid in result.solutions]
        assert record["verdict"] == result.verdict.value
        assert record["counters"] == result.counters
        assert record["verified"] is True
    assert main(["solve", str(path), "-s", "bitboard-jit", "--line"]) == 0
    out = capsys.readouterr().out.splitlines()
    firsts = [solver.solve(Grid.from_string(line)) for line in path.read_text().split()]
    assert out[1::2] == [result.solutions[0].to_line() for result in firsts]
