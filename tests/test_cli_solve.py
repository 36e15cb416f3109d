"""The `solve` and `count` commands: output, `--json` records, exit codes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.base import Deadline, SearchOutcome, Solver
from sudoku_bench.solvers.registry import Backend, register, unregister
from tests.cli_contract import SOLVE

EMPTY_4X4 = "." * 16
SEED_9X9 = load("seeds")[0]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_solve_prints_the_solution_as_a_picture(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", SEED_9X9.puzzle.to_line())
    assert code == 0
    assert "propagating  solved" in out
    assert SEED_9X9.solution is not None
    assert SEED_9X9.solution.picture() in out


def test_solve_with_two_solvers_and_line_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "seeds", "-s", "backtracking,propagating", "--line")
    assert code == 0
    for entry in load("seeds"):
        assert entry.solution is not None
        assert out.count(entry.solution.to_line()) == 2
    assert out.count("backtracking") == 5 and out.count("propagating") == 5


def test_solve_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "seeds", "--json", "-s", "backtracking,propagating")
    assert code == 0
    found = records(out)
    assert len(found) == 10
    for record in found:
        assert set(record) == SOLVE
        assert record["verified"] is True
        assert record["count"] == 1
    by_id = {(r["id"], r["solver"]): r for r in found}
    for entry in load("seeds"):
        assert entry.solution is not None
        assert by_id[(entry.id, "propagating")]["solutions"] == [entry.solution.to_line()]


def test_count_the_empty_4x4_on_both_back_ends(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "count", EMPTY_4X4, "--limit", "1000", "-s", "backtracking,propagating"
    )
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    for line, solver in zip(lines, ["backtracking", "propagating"], strict=True):
        assert line.split()[1:5] == [solver, "288", "exact", "multiple"]


def test_count_json_for_the_empty_4x4(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", EMPTY_4X4, "--limit", "1000", "--json")
    assert code == 0
    (record,) = records(out)
    assert set(record) == SOLVE
    assert (record["count"], record["exact"], record["status"]) == (288, True, "solved")
    assert len(record["solutions"]) == 288


def test_count_defaults_to_limit_2_and_summarises_a_collection(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "count", "multi", "seeds")
    assert code == 0
    assert "multi:1  propagating  >=2  limit  multiple" in out or (
        "multi:1  propagating  2  exact  multiple" in out
    )
    assert "seeds:2  propagating  1  exact  unique" in out
    summary = out.split("\n\n")[-1]
    assert "puzzles" in summary and "unique" in summary
    row = next(line for line in summary.splitlines() if line.startswith("propagating"))
    assert row.split()[1:6] == ["205", "0", "5", "200", "0"]


def test_count_reports_no_solution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "12....3.........", "-s", "backtracking")
    assert code == 0
    assert "arg1  backtracking  0  exact  none" in out


def test_a_timeout_is_reported_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    hard = load("seeds")[1].puzzle.to_line()
    code, out, _ = run(capsys, "count", hard, "-s", "backtracking", "--timeout", "0.05")
    assert code == 0
    assert "timeout  unknown" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "123"],  # neither a puzzle nor a file nor a collection
        ["solve", "1" * 81],  # givens break the rules
        ["solve", EMPTY_4X4, "-s", "no-such-solver"],
        ["count", "12345678x" + "." * 72],  # a bad symbol
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("sudoku-bench: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("option", [["--limit", "0"], ["--timeout", "0"], ["--timeout", "x"]])
def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], option: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", EMPTY_4X4, *option])
    assert exit_info.value.code == 2


class WrongSolver(Solver[None]):
    """A broken back-end for the tests: answers every puzzle with the same wrong grid."""

    name = "test-wrong"

    def _build(self, puzzle: Grid, deadline: Deadline) -> None:
        return None

    def _search(self, model: None, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        return SearchOutcome([Grid(puzzle.rules, (1,) * len(puzzle))], exhausted=True)


class CrashingSolver(WrongSolver):
    name = "test-crash"

    def _search(self, model: None, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        raise RuntimeError("boom")


@pytest.fixture
def broken_backends() -> Iterator[None]:
    register(Backend("test-wrong", f"{__name__}:WrongSolver", "returns a wrong grid"))
    register(Backend("test-crash", f"{__name__}:CrashingSolver", "raises"))
    yield
    unregister("test-wrong")
    unregister("test-crash")


@pytest.mark.usefixtures("broken_backends")
@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_wrong_grid_is_reported_loudly_with_exit_1(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = run(capsys, command, EMPTY_4X4, "-s", "test-wrong,propagating")
    assert code == 1
    assert "WRONG ANSWER from test-wrong" in err
    assert "propagating" in out


@pytest.mark.usefixtures("broken_backends")
def test_a_wrong_grid_is_marked_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", EMPTY_4X4, "-s", "test-wrong", "--json")
    assert code == 1
    assert records(out)[0]["verified"] is False


@pytest.mark.usefixtures("broken_backends")
def test_a_crashing_back_end_becomes_an_error_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", EMPTY_4X4, "-s", "test-crash,propagating", "--json")
    assert code == 1
    crash, good = records(out)
    assert crash["status"] == "error" and "RuntimeError: boom" in crash["message"]
    assert good["status"] == "limit" or good["status"] == "solved"
    assert "ERROR in test-crash on arg1: RuntimeError: boom" in err  # as the README shows
    assert "Traceback" not in err


def test_configurations_of_one_class_are_told_apart(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "count", EMPTY_4X4, "-s", "propagating,propagating-singles", "--json"
    )
    assert code == 0
    assert [r["solver"] for r in records(out)] == ["propagating", "propagating-singles"]
