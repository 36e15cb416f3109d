"""`check` catches wrong grids and false uniqueness claims, and does not count timeouts."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.crosscheck import Claim, check_puzzle, contradiction
from sudoku_bench.harness.running.testing import ReferenceSolver, registered
from sudoku_bench.puzzles.grid import Grid
from tests.cli_contract import CHECK, CHECK_SUMMARY, CHECK_SUMMARY_SOLVER

UNIQUE = "...3..4114..3..."
UNIQUE_SOLVED = "4123234114323214"
TWO = "123434122.4.4.2."  # exactly two solutions
TWO_A, TWO_B = "1234341221434321", "1234341223414123"


def check(*args: str) -> int:
    return main(["check", "--quiet", "--timeout", "2", *args])


def test_two_solution_puzzle_has_exactly_two() -> None:
    result = ReferenceSolver().solve(Grid.from_string(TWO), limit=3)
    assert result.exact and sorted(g.to_line() for g in result.solutions) == [TWO_A, TWO_B]


def test_agreeing_backends_pass(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("reference"), registered("false-unique"):
        assert check(UNIQUE, "-s", "reference,false-unique") == 0
    out = capsys.readouterr().out
    assert "OK: no wrong grid and no disagreement; verified 1 of 1 puzzle\n" in out


def test_wrong_grid_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("reference", "wrong-grid"):
        assert check(UNIQUE, TWO, "-s", "reference,wrong-grid") == 1
    out = capsys.readouterr().out
    assert "WRONG GRID  arg1: wrong-grid returned a grid that is not a solution" in out
    assert "WRONG GRID  arg2: wrong-grid" in out
    assert "FAILED" in out


def test_false_unique_claim_on_a_two_solution_puzzle_is_caught(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with registered("reference", "false-unique"):
        assert check(TWO, "-s", "reference,false-unique") == 1
    out = capsys.readouterr().out
    assert "DISAGREEMENT  arg1: false-unique is disproved: false-unique says unique" in out
    assert "reference found 2 valid solutions" in out
    assert "[verdicts: reference multiple, false-unique unique]" in out


def test_timeouts_and_errors_are_reported_not_counted(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("reference", "sleeper", "raiser"):
        code = main(
            [
                "check",
                "--quiet",
                "--timeout",
                "0.2",
                UNIQUE,
                "-s",
                "reference,sleeper,raiser",
                "-j",
                "2",
            ]
        )
    assert code == 0
    out = capsys.readouterr().out
    assert "timeout  arg1: sleeper: killed after" in out
    assert "error  arg1: raiser: RuntimeError" in out
    assert "OK:" in out


def test_json_records_say_who_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("reference", "false-unique"):
        assert check(TWO, "-s", "reference,false-unique", "--json") == 1
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert all(set(record) == CHECK for record in records)
    assert {(r["solver"], r["verdict"], r["agrees"]) for r in records} == {
        ("reference", "multiple", True),
        ("false-unique", "unique", False),
    }
    assert "DISAGREEMENT" in captured.err


def test_the_summary_counts_agreed_timeout_unsupported_and_disagreed_per_backend(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with registered("reference", "false-unique", "sleeper", "no-geometry"):
        code = main(
            [
                "check",
                "--quiet",
                "--timeout",
                "0.2",
                TWO,
                UNIQUE,
                "-s",
                "reference,false-unique,sleeper,no-geometry",
                "--summary-json",
            ]
        )
    assert code == 1  # false-unique is disproved on TWO
    captured = capsys.readouterr()
    (line,) = captured.out.splitlines()  # stdout holds the summary object alone
    summary = json.loads(line)
    assert set(summary) == CHECK_SUMMARY
    assert all(set(row) == CHECK_SUMMARY_SOLVER for row in summary["solvers"])
    assert (summary["puzzles"], summary["checked"], summary["verified"]) == (2, 2, 2)
    assert (summary["failures"], summary["interrupted"], summary["timeout_s"]) == (1, False, 0.2)
    counts = {
        row["solver"]: (row["agreed"], row["timeout"], row["unsupported"], row["disagreed"])
        for row in summary["solvers"]
    }
    assert counts == {
        "reference": (2, 0, 0, 0),
        "false-unique": (1, 0, 0, 1),
        "sleeper": (0, 2, 0, 0),
        "no-geometry": (0, 0, 2, 0),
    }
    false_unique = next(row for row in summary["solvers"] if row["solver"] == "false-unique")
    assert (false_unique["unique"], false_unique["disproved"], false_unique["wrong_grid"]) == (2, 1, 0)
    header = next(line for line in captured.err.splitlines() if line.startswith("solver"))
    assert header.split()[:2] == ["solver", "agreed"] and header.split()[-1] == "disagreed"


def test_the_summary_follows_the_records_under_json(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("reference"):
        assert check(UNIQUE, "-s", "reference", "--json", "--summary-json") == 0
    lines = capsys.readouterr().out.splitlines()
    assert set(json.loads(lines[0])) == CHECK
    assert set(json.loads(lines[-1])) == CHECK_SUMMARY and len(lines) == 2


def test_collection_solution_disproves_a_different_unique_claim(tmp_path: Path) -> None:
    puzzle = Grid.from_string(TWO)
    claim = Claim("x", 1, True, (TWO_A,))
    verdict = check_puzzle(puzzle, [claim], known=Grid.from_string(TWO_B))
    assert set(verdict.contradicted) == {"x"}


def test_lower_bounds_contradict_nothing() -> None:
    assert contradiction(Claim("a", 1, False, (TWO_A,)), Claim("b", 1, False, (TWO_B,))) is None
    assert (
        contradiction(Claim("a", 2, True, (TWO_A, TWO_B)), Claim("b", 1, False, (TWO_B,))) is None
    )
    found = contradiction(Claim("a", 0, True, ()), Claim("b", 1, False, (TWO_B,)))
    assert found is not None and found[0] == "a"


def test_a_grid_returned_twice_is_wrong() -> None:
    verdict = check_puzzle(Grid.from_string(TWO), [Claim("a", 2, True, (TWO_A, TWO_A))])
    assert verdict.wrong == {"a": ["the same grid is returned twice"]}


# ----- properties of the comparison ----------------------------------------------------------

EMPTY = "." * 16
ALL_EMPTY = tuple(
    sorted(
        g.to_line() for g in ReferenceSolver().solve(Grid.from_string(EMPTY), limit=300).solutions
    )
)


def truthful(solutions: tuple[str, ...], truth: tuple[str, ...], name: str) -> Claim:
    """An honest answer: exact only when it found every solution."""
    return Claim(name, len(solutions), len(solutions) == len(truth), solutions)


subsets = st.lists(st.sampled_from(ALL_EMPTY), unique=True, max_size=6).map(tuple)


def test_the_empty_4x4_has_288_solutions() -> None:
    assert len(ALL_EMPTY) == 288


@settings(max_examples=40, deadline=None)
@given(subsets, subsets)
def test_honest_answers_never_contradict(a: tuple[str, ...], b: tuple[str, ...]) -> None:
    first, second = truthful(a, ALL_EMPTY, "a"), truthful(b, ALL_EMPTY, "b")
    assert contradiction(first, second) is None
    assert check_puzzle(Grid.from_string(EMPTY), [first, second]).ok


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=287))
def test_an_exact_claim_short_of_the_truth_is_disproved_by_the_full_answer(count: int) -> None:
    claim = Claim("liar", count, True, ALL_EMPTY[:count])
    full = truthful(ALL_EMPTY, ALL_EMPTY, "honest")
    found = contradiction(full, claim)
    assert found is not None and found[0] == "liar"
