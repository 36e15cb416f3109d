"""Certificates for verdicts: a checked proof for "unique" and "none", two grids for "multiple".

- "none": the puzzle's CNF (`sudoku_bench.reductions.cnf`, the extended encoding with the givens as unit
  clauses) is unsatisfiable: CaDiCaL writes a DRAT proof and `drat.check_drat` verifies it.
- "unique": the solution passes the rule checker (`sudoku_bench.puzzles.checker`), and the CNF plus the
  clause "some empty cell differs from this solution" is unsatisfiable, proven the same way.
- "multiple": two distinct grids that both pass the rule checker (the ones the back-end
  returned, or ones the SAT solver finds: whoever finds a grid, the checker judges it).

The outcome is `yes` (proven), `no` (disproved: a grid the rule checker accepts contradicts
the verdict, e.g. a second solution of a "unique" puzzle) or `failed` (neither: the proof was
rejected, or the solver and the rule checker disagree about a grid).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.harness.certifying.drat import ProofError, check_drat
from sudoku_bench.harness.certifying.external import check_with_drat_trim, drat_trim
from sudoku_bench.harness.certifying.proving import PROVER, SolverAnswer, solve_with_proof
from sudoku_bench.puzzles.checker import solution_problems
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.cnf import Clause, CnfData, CnfReduction

YES, NO, FAILED = "yes", "no", "failed"
OUTCOMES = (YES, NO, FAILED)
CERTIFIABLE = ("none", "unique", "multiple")
DRAT, GRIDS = "drat", "grids"  # the methods


@dataclass(frozen=True)
class Certificate:
    """The certification of one verdict on one puzzle.

    `proof_bytes`, `lemmas`, `solve_s` and `check_s` describe the DRAT proof (None for
    "multiple", which needs none); `second_checker` is drat-trim's verdict (`yes` / `no`,
    None when it did not run) and `second_check_s` its time.
    """

    verdict: str
    outcome: str  # yes / no / failed
    method: str  # drat / grids
    message: str
    proof_bytes: int | None = None
    lemmas: int | None = None
    solve_s: float | None = None  # CPU seconds of the proof-producing solve
    check_s: float | None = None  # CPU seconds of this project's checker
    second_checker: str | None = None
    second_check_s: float | None = None
    prover: str | None = None

    @property
    def certified(self) -> bool:
        return self.outcome == YES

    def record(self) -> dict[str, Any]:
        """The `certificate` object of the `--json` records."""
        return {
            "outcome": self.outcome,
            "verdict": self.verdict,
            "method": self.method,
            "proof_bytes": self.proof_bytes,
            "lemmas": self.lemmas,
            "solve_s": _rounded(self.solve_s),
            "check_s": _rounded(self.check_s),
            "second_checker": self.second_checker,
            "second_check_s": _rounded(self.second_check_s),
            "prover": self.prover,
            "message": self.message,
        }

    def words(self) -> str:
        """One phrase for the plain output: `certified (DRAT 5.0 KB, checked in 0.04 s)`."""
        if self.method == GRIDS:
            return {YES: "certified", NO: "DISPROVED", FAILED: "CERTIFICATION FAILED"}[
                self.outcome
            ] + f" ({self.message})"
        if self.outcome == YES:
            second = ""
            if self.second_checker is not None:
                second = (
                    ", drat-trim agrees"
                    if self.second_checker == YES
                    else ", but drat-trim REJECTS it"
                )
            return (
                f"certified (DRAT {_size(self.proof_bytes or 0)}, {self.lemmas} lemmas, "
                f"solved in {self.solve_s or 0:.3f} s, checked in {self.check_s or 0:.3f} s"
                f"{second})"
            )
        head = "DISPROVED" if self.outcome == NO else "CERTIFICATION FAILED"
        return f"{head} ({self.message})"


def certify(
    puzzle: Grid,
    verdict: str,
    solutions: Sequence[Grid] = (),
    *,
    second_checker: bool = True,
    check_timeout: float | None = None,
) -> Certificate:
    """Certify `verdict` ("none", "unique" or "multiple") on `puzzle`, given the solutions a
    back-end returned (for "unique" its solution; for "multiple" up to two; none needed: the
    SAT solver finds what is missing). `second_checker=False` skips drat-trim even where it
    is installed; `check_timeout` bounds each proof check in seconds (past it the certificate
    is `failed`). Raises ValueError for a verdict that claims nothing ("unknown")."""
    if verdict not in CERTIFIABLE:
        raise ValueError(f"only {', '.join(CERTIFIABLE)} can be certified, not {verdict!r}")
    reduction = CnfReduction(givens="units", encoding="extended")
    cnf, data = reduction.apply(puzzle)
    clauses = list(cnf.clauses)
    good = _checked_distinct(puzzle, solutions)
    if verdict == "multiple":
        return _certify_multiple(puzzle, reduction, data, clauses, good, check_timeout)
    if verdict == "none":
        if good:
            return _disproved(verdict, DRAT, good[0], "a back-end's grid solves it")
        return _prove(
            verdict, puzzle, reduction, data, cnf.variables, clauses, second_checker, check_timeout
        )
    # unique
    if not good:
        if solutions:
            return Certificate(
                verdict,
                FAILED,
                DRAT,
                "the solution given breaks the rules: "
                + "; ".join(solution_problems(puzzle, solutions[0])),
            )
        answer = solve_with_proof(clauses)
        if answer.model is None:
            return _refuted(
                verdict, DRAT, clauses, answer, "the puzzle has no solution", check_timeout
            )
        found = reduction.invert(answer.model, data)
        problems = solution_problems(puzzle, found)
        if problems:
            return _encoding_disagrees(verdict, found, problems)
        good = [found]
    if len(good) > 1:
        return _disproved(verdict, DRAT, good[1], "two distinct solutions were given")
    blocking = reduction.blocking_clause(data, good[0])
    return _prove(
        verdict,
        puzzle,
        reduction,
        data,
        cnf.variables,
        [*clauses, blocking],
        second_checker,
        check_timeout,
    )


def _prove(
    verdict: str,
    puzzle: Grid,
    reduction: CnfReduction,
    data: CnfData,
    variables: int,
    clauses: list[Clause],
    second_checker: bool,
    timeout: float | None,
) -> Certificate:
    """Ask for a DRAT proof that `clauses` have no model, and check it."""
    answer = solve_with_proof(clauses)
    if answer.model is not None:
        found = reduction.invert(answer.model, data)
        problems = solution_problems(puzzle, found)
        if problems:
            return _encoding_disagrees(verdict, found, problems)
        what = "a solution" if verdict == "none" else "a second solution"
        return _disproved(verdict, DRAT, found, f"the SAT solver finds {what}")
    started = time.thread_time()
    try:
        report = check_drat(clauses, answer.proof, timeout)
    except ProofError as error:
        return Certificate(
            verdict,
            FAILED,
            DRAT,
            str(error),
            answer.proof_bytes,
            None,
            answer.solve_s,
            time.thread_time() - started,
            prover=PROVER,
        )
    check_s = time.thread_time() - started
    second: str | None = None
    second_s: float | None = None
    message = f"the CNF{' plus the blocking clause' if verdict == 'unique' else ''} has no model"
    if report.lemmas == 0:
        message += " (unit propagation alone refutes it)"
    program = drat_trim() if second_checker else None
    if program is not None:
        external = check_with_drat_trim(program, variables, clauses, answer.proof)
        second = YES if external.verified else NO
        second_s = external.check_s
        if not external.verified:  # two checkers disagree: no certificate
            message = (
                "this project's checker accepts the proof, but drat-trim rejects it: "
                + external.message
            )
    return Certificate(
        verdict,
        YES if second != NO else FAILED,
        DRAT,
        message,
        answer.proof_bytes,
        report.lemmas,
        answer.solve_s,
        check_s,
        second,
        second_s,
        PROVER,
    )


def _certify_multiple(
    puzzle: Grid,
    reduction: CnfReduction,
    data: CnfData,
    clauses: list[Clause],
    good: list[Grid],
    timeout: float | None,
) -> Certificate:
    """Two distinct grids that pass the rule checker; the SAT solver finds the missing ones."""
    found = list(good[:2])
    while len(found) < 2:
        blocks = [reduction.blocking_clause(data, grid) for grid in found]
        answer = solve_with_proof([*clauses, *blocks])
        if answer.model is None:
            fact = "the puzzle has only one solution" if found else "the puzzle has no solution"
            return _refuted("multiple", GRIDS, [*clauses, *blocks], answer, fact, timeout)
        grid = reduction.invert(answer.model, data)
        problems = solution_problems(puzzle, grid)
        if problems:
            return _encoding_disagrees("multiple", grid, problems)
        found.append(grid)
    return Certificate("multiple", YES, GRIDS, "two distinct grids pass the rule checker")


def _refuted(
    verdict: str,
    method: str,
    clauses: list[Clause],
    answer: SolverAnswer,
    fact: str,
    timeout: float | None,
) -> Certificate:
    """The verdict is disproved by `fact` ("no other solution"), when the solver's proof of
    it passes the checker; else the certification failed."""
    started = time.thread_time()
    try:
        report = check_drat(clauses, answer.proof, timeout)
    except ProofError as error:
        return Certificate(verdict, FAILED, method, f"{fact}, the solver says, but {error}")
    return Certificate(
        verdict,
        NO,
        method,
        f"{fact}: a checked DRAT proof shows it",
        answer.proof_bytes,
        report.lemmas,
        answer.solve_s,
        time.thread_time() - started,
        prover=PROVER,
    )


def _checked_distinct(puzzle: Grid, solutions: Sequence[Grid]) -> list[Grid]:
    """The distinct grids among `solutions` that pass the rule checker, in order."""
    good: list[Grid] = []
    for grid in solutions:
        if grid not in good and not solution_problems(puzzle, grid):
            good.append(grid)
    return good


def _disproved(verdict: str, method: str, grid: Grid, how: str) -> Certificate:
    return Certificate(verdict, NO, method, f"{how} that passes the rule checker: {grid.to_line()}")


def _encoding_disagrees(verdict: str, grid: Grid, problems: list[str]) -> Certificate:
    """The SAT solver's model is no solution: the CNF and the rule checker disagree."""
    return Certificate(
        verdict,
        FAILED,
        DRAT,
        "the CNF has a model the rule checker rejects (an encoding fault): " + "; ".join(problems),
    )


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 6)


def _size(size: int) -> str:
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KB"
