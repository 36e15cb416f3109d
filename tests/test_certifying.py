"""Certified verdicts: the DRAT checker on hand-made, corrupted and real proofs; certificates."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from sudoku_bench.harness.certifying import (
    FAILED,
    NO,
    YES,
    ProofError,
    certify,
    check_drat,
    parse_drat,
)
from sudoku_bench.harness.certifying import certificate as certificate_module
from sudoku_bench.harness.certifying.certifier import InOrder
from sudoku_bench.harness.certifying.drat import check_steps
from sudoku_bench.harness.certifying.external import check_with_drat_trim, drat_trim
from sudoku_bench.harness.certifying.proving import SolverAnswer, solve_with_proof
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.testing import registered
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.cnf import CnfReduction
from tests.cli_contract import CERTIFICATE, CERTIFIED, CHECK, SOLVE

# A small unsatisfiable formula whose proof opens with a lemma that is RAT but not RUP, and
# whose deletions remove the clauses that lemma resolves with.
PAPER_FORMULA = [
    (1, 2, -3),
    (-1, -2, 3),
    (2, 3, -4),
    (-2, -3, 4),
    (1, 3, 4),
    (-1, -3, -4),
    (-1, 2, 4),
    (1, -2, -4),
]
PAPER_PROOF = ["-1 0", "d -1 -2 3 0", "d -1 -3 -4 0", "d -1 2 4 0", "2 0", "0"]
# unsatisfiable only once a decision on 1 or 2 is made: (3 4) alone propagates nothing
TWO_BY_TWO = [(1, 2), (-1, 2), (1, -2), (-1, -2), (3, 4)]


def test_a_rat_lemma_and_deletions_are_checked() -> None:
    report = check_drat(PAPER_FORMULA, PAPER_PROOF)
    assert (report.lemmas, report.rup, report.rat, report.deletions) == (2, 1, 1, 3)


def test_a_rup_proof_is_accepted() -> None:
    report = check_drat(TWO_BY_TWO, ["c a comment", "", "1 0", "0"])
    assert (report.lemmas, report.rup, report.rat) == (1, 1, 0)


def test_a_lemma_neither_rup_nor_rat_is_named() -> None:
    with pytest.raises(ProofError, match=r"lemma 1 \(proof line 1: -3 0\) is neither RUP nor RAT"):
        check_drat(TWO_BY_TWO, ["-3 0", "1 0", "0"])


def test_deleting_a_needed_clause_makes_the_proof_fail() -> None:
    with pytest.raises(ProofError, match=r"lemma 1 \(proof line 2: 1 0\)"):
        check_drat(TWO_BY_TWO, ["d 1 2 0", "1 0", "0"])


def test_a_proof_without_the_empty_clause_is_rejected() -> None:
    with pytest.raises(ProofError, match="never derive the empty clause"):
        check_drat([(1, 2), (-1, 2), (1, -2)], ["2 0"])


def test_the_empty_clause_alone_is_no_proof() -> None:
    with pytest.raises(ProofError, match=r"lemma 1 \(proof line 1: 0\)"):
        check_drat(TWO_BY_TWO, ["0"])


def test_deleting_the_reason_of_a_top_level_unit_is_ignored() -> None:
    formula = [(1,), (-1, 2), (-2, -1, 3), (-3, 4, 5), (-3, -4, 5), (-3, 4, -5), (-3, -4, -5)]
    report = check_drat(formula, ["d 1 0", "4 0", "0"])
    assert report.ignored_deletions == 1


def test_a_formula_refuted_by_propagation_needs_no_lemma() -> None:
    assert check_drat([(1,), (-1, 2), (-2,)], []).lemmas == 0


def test_malformed_proof_lines_are_named() -> None:
    with pytest.raises(ProofError, match="proof line 2"):
        parse_drat(["1 0", "1 x 0"])
    with pytest.raises(ProofError, match="single 0"):
        parse_drat(["1 2"])


def _unique_formula(name: str) -> tuple[Grid, list[tuple[int, ...]], Grid]:
    """A bundled puzzle's CNF plus the clause blocking its solution, and that solution."""
    entry = load(name)[0]
    reduction = CnfReduction()
    cnf, data = reduction.apply(entry.puzzle)
    answer = solve_with_proof(cnf.clauses)
    assert answer.model is not None
    solution = reduction.invert(answer.model, data)
    assert is_solution(entry.puzzle, solution)
    return entry.puzzle, [*cnf.clauses, reduction.blocking_clause(data, solution)], solution


def test_a_real_proof_is_accepted_and_a_corrupted_one_rejected() -> None:
    _, clauses, solution = _unique_formula("top95")
    answer = solve_with_proof(clauses)
    assert answer.model is None and answer.proof
    assert check_drat(clauses, answer.proof).lemmas > 0
    steps = parse_drat(answer.proof)
    # the first lemma replaced by one that the solution's own literal refutes: the formula
    # without the blocking clause has that solution as a model, so this is no consequence
    first = next(i for i, step in enumerate(steps) if not step.deletion)
    corrupted = list(steps)
    empty_cell = next(c for c in range(len(solution.values)) if c not in _given_cells(clauses))
    literal = empty_cell * solution.rules.size + solution[empty_cell]
    corrupted[first] = type(steps[first])(steps[first].line, (-literal,))
    with pytest.raises(ProofError, match=rf"lemma 1 \(proof line {steps[first].line}: "):
        check_steps(clauses, corrupted)


def test_a_check_past_its_timeout_fails_saying_so() -> None:
    _, clauses, _ = _unique_formula("top95")
    answer = solve_with_proof(clauses)
    with pytest.raises(ProofError, match=r"proof not checked within 1e-09 s \(loading clause"):
        check_drat(clauses, answer.proof, timeout=1e-9)


def test_dropping_the_last_lemmas_of_a_real_proof_is_rejected() -> None:
    _, clauses, _ = _unique_formula("top95")
    answer = solve_with_proof(clauses)
    report = check_drat(clauses, answer.proof)
    with pytest.raises(ProofError):
        check_drat(clauses, answer.proof[: report.refuted_at_line - 2])


def _given_cells(clauses: list[tuple[int, ...]]) -> set[int]:
    return {(clause[0] - 1) // 9 for clause in clauses if len(clause) == 1 and clause[0] > 0}


@pytest.mark.parametrize(
    "name",
    [
        "top95",
        pytest.param("16x16", marks=pytest.mark.slow),
        "6x6",
        "jigsaw",
        "killer",
        "ortools-killer",
        "anti-king",
        "anti-knight",
        "non-consecutive",
        "odd-even",
        "sudoku-x",
        "windoku",
    ],
)
def test_unique_is_certified_for_every_rule_kind(name: str) -> None:
    puzzle = load(name)[0].puzzle
    certificate = certify(puzzle, "unique", second_checker=False)
    assert certificate.outcome == YES, certificate.message
    assert certificate.proof_bytes and certificate.lemmas is not None


def test_unique_with_the_given_solution_and_none_made_unsolvable() -> None:
    puzzle, _, solution = _unique_formula("top95")
    assert certify(puzzle, "unique", [solution], second_checker=False).outcome == YES
    unsolvable = _made_unsolvable(puzzle, solution)
    certificate = certify(unsolvable, "none", second_checker=False)
    assert certificate.outcome == YES, certificate.message
    assert "no model" in certificate.message


def _made_unsolvable(puzzle: Grid, solution: Grid) -> Grid:
    """The puzzle with one empty cell given a wrong digit that breaks no rule on its face."""
    from sudoku_bench.puzzles.checker import has_conflicts

    values = list(puzzle.values)
    for cell in puzzle.empty_cells:
        for digit in puzzle.rules.digits:
            if digit == solution[cell]:
                continue
            values[cell] = digit
            candidate = Grid(puzzle.rules, tuple(values))
            if not has_conflicts(candidate):
                return candidate
        values[cell] = 0
    raise AssertionError("no wrong digit fits")


def test_wrong_verdicts_are_disproved() -> None:
    puzzle, _, solution = _unique_formula("top95")
    assert certify(puzzle, "none", second_checker=False).outcome == NO
    assert certify(puzzle, "multiple", [solution], second_checker=False).outcome == NO
    multi = load("multi")[0].puzzle
    unique = certify(multi, "unique", second_checker=False)
    assert unique.outcome == NO and "second solution" in unique.message


def test_multiple_is_certified_by_two_checked_grids() -> None:
    multi = load("multi")[0].puzzle
    certificate = certify(multi, "multiple")
    assert certificate.outcome == YES and certificate.method == "grids"


def test_a_wrong_solution_for_unique_fails() -> None:
    puzzle, _, solution = _unique_formula("top95")
    values = list(solution.values)
    values[puzzle.empty_cells[0]], values[puzzle.empty_cells[1]] = (
        values[puzzle.empty_cells[1]],
        values[puzzle.empty_cells[0]],
    )
    certificate = certify(puzzle, "unique", [Grid(puzzle.rules, tuple(values))])
    assert certificate.outcome == FAILED and "breaks the rules" in certificate.message


def test_unknown_is_not_certifiable() -> None:
    with pytest.raises(ValueError, match="unknown"):
        certify(load("top95")[0].puzzle, "unknown")


@pytest.mark.skipif(drat_trim() is None, reason="drat-trim is not installed (not in Debian)")
def test_drat_trim_agrees_on_real_proofs_and_rejects_a_truncated_one() -> None:
    program = drat_trim()
    assert program is not None
    _, clauses, _ = _unique_formula("killer")
    answer = solve_with_proof(clauses)
    variables = max(abs(lit) for clause in clauses for lit in clause)
    assert check_with_drat_trim(program, variables, clauses, answer.proof).verified
    report = check_drat(clauses, answer.proof)
    cut = answer.proof[: report.refuted_at_line - 2]
    assert not check_with_drat_trim(program, variables, clauses, cut).verified


# ----- the commands: count --certify, check --certify ---------------------------------------

FOUR_UNIQUE = "...3..4114..3..."
FOUR_TWO = "123434122.4.4.2."  # exactly two solutions
# top95:1 with a wrong digit in r1c2 that breaks no rule on its face: no solution
UNSOLVABLE = "46....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_count_certify_json_adds_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["count", FOUR_UNIQUE, FOUR_TWO, UNSOLVABLE, "-s", "dlx", "--certify", "--json"])
    assert code == 0
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert all(set(record) == SOLVE | CERTIFIED for record in records)
    assert all(set(record["certificate"]) == CERTIFICATE for record in records)
    assert [(r["verdict"], r["certified"]) for r in records] == [
        ("unique", "yes"),
        ("multiple", "yes"),
        ("none", "yes"),
    ]
    assert "certified 3 of 3 distinct verdicts" in captured.err


def test_count_certify_words_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", FOUR_UNIQUE, "-s", "dlx", "--certify"]) == 0
    out = capsys.readouterr().out
    assert "unique" in out and "certified (DRAT" in out


def test_check_certify_passes_true_verdicts(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--quiet", FOUR_UNIQUE, UNSOLVABLE, "-s", "dlx,sat", "--certify"])
    assert code == 0  # two back-ends per puzzle, one certificate per puzzle and verdict
    assert "certified 2 of 2 distinct verdicts" in capsys.readouterr().out
    assert main(["check", "--quiet", FOUR_UNIQUE, "-s", "dlx", "--certify", "--json"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert set(record) == CHECK | CERTIFIED and record["certified"] == "yes"


def test_check_certify_exits_non_zero_on_a_disproved_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with registered("false-unique"):
        code = main(["check", "--quiet", FOUR_TWO, "-s", "false-unique", "--certify"])
    assert code == 1
    out = capsys.readouterr().out
    assert "arg1: false-unique's unique: DISPROVED (the SAT solver finds a second solution" in out


def test_check_certify_exits_non_zero_when_a_proof_is_rejected(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = certificate_module.solve_with_proof

    def truncated(clauses: Sequence[Sequence[int]]) -> SolverAnswer:
        answer = real(clauses)  # the proof cut before its last lemmas: no empty clause
        return replace(answer, proof=answer.proof[: len(answer.proof) // 2])

    monkeypatch.setattr(certificate_module, "solve_with_proof", truncated)
    code = main(["check", "--quiet", load("top95")[0].puzzle.to_line(), "-s", "dlx", "--certify"])
    assert code == 1
    out = capsys.readouterr().out
    assert "arg1: dlx's unique: CERTIFICATION FAILED (proof rejected" in out


def test_in_order_runs_jobs_in_order_and_hands_back_the_first_error() -> None:
    done: list[int] = []
    in_order = InOrder()
    for number in range(50):
        in_order.submit(lambda number=number: done.append(number))  # type: ignore[misc]
    in_order.close()
    assert done == list(range(50))

    def fail() -> None:
        raise ProofError("the first")

    failing = InOrder()
    failing.submit(fail)
    failing.submit(lambda: done.append(-1))
    with pytest.raises(ProofError, match="the first"):
        failing.close()
    assert -1 not in done


def test_without_pysat_certify_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pysat.solvers", None)  # importing it raises ImportError
    assert main(["count", FOUR_UNIQUE, "-s", "dlx", "--certify"]) != 0
    error = capsys.readouterr().err
    assert "--certify needs python-sat" in error and "Traceback" not in error


# ----- bench --certify ----------------------------------------------------------------------


def test_bench_certifies_a_run_after_it_and_stores_the_certificates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each task's verdict is certified once the run is over (agreeing tasks of a puzzle
    share a proof), stored in the `certificates` table and shown in the report's raw rows;
    a verdict that fails its proof fails the command."""
    from sudoku_bench.harness.storing.store import SQLiteStore
    from tests.cli_contract import REPORT_CSV

    db = tmp_path / "runs.sqlite"
    argv = ["bench", "seeds", "-s", "dlx,propagating", "--repeat", "2", "--limit", "2"]
    assert main([*argv, "--db", str(db), "--quiet", "--certify"]) == 0
    err = capsys.readouterr().err
    assert "certified 5 of 5 distinct verdicts" in err, err
    store = SQLiteStore(db, read_only=True)
    certificates = store.certificates(1)
    assert sorted(certificates) == sorted(row["task"] for row in store.results(1))
    assert {c["certified"] for c in certificates.values()} == {YES}
    assert all(c["method"] == "drat" and c["proof_bytes"] > 0 for c in certificates.values())
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    tasks = json.loads(capsys.readouterr().out)["tasks"]
    assert {t["certified"] for t in tasks} == {YES} and set(tasks[0]) >= set(REPORT_CSV)
    # a complete run certified again: nothing is left to certify, nothing changes
    before = store.certificates(1)
    assert main(["bench", "--db", str(db), "--resume", "--certify", "--quiet"]) == 0
    assert "no verdict to certify" in capsys.readouterr().err
    assert store.certificates(1) == before
    with registered("false-unique"):  # says "unique" of a puzzle with two solutions
        code = main(["bench", FOUR_TWO, "-s", "false-unique", "--limit", "2", "--db",
                     str(tmp_path / "b.sqlite"), "--quiet", "--certify"])  # fmt: skip
    assert code == 1
    assert "DISPROVED" in capsys.readouterr().err
