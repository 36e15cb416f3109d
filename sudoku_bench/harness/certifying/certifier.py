"""Certifying the verdicts of a command's answers, one puzzle after another (`--certify`).

A `Certifier` certifies each answer's verdict once per puzzle (several back-ends that agree
share one certificate), keeps a tally of the outcomes, and says in one line how it went.
`InOrder` runs the certification beside the worker pool, so that the pool's loop, which times
the back-ends and kills the late ones, is never held up by a proof being checked.
"""

from __future__ import annotations

import queue
import statistics
import threading
from collections import Counter
from collections.abc import Callable, Sequence

from sudoku_bench.harness.certifying.certificate import (
    CERTIFIABLE,
    DRAT,
    FAILED,
    YES,
    Certificate,
    certify,
)
from sudoku_bench.harness.certifying.external import drat_trim
from sudoku_bench.harness.certifying.proving import pysat_solver
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid

HELP = (
    "prove each none / unique verdict with a DRAT proof on the puzzle's CNF, checked by this "
    "project's own proof checker (and drat-trim where installed), and each multiple by two "
    "grids that pass the rule checker; the exit code is 1 when a verdict fails its proof; "
    "--timeout also bounds each proof's check"
)


class Certifier:
    """Certificates for answers, remembered for the current puzzle, and their tally."""

    def __init__(self, *, second_checker: bool = True, check_timeout: float | None = None) -> None:
        pysat_solver()  # a missing PySAT is said before any puzzle is solved
        self.check_timeout = check_timeout
        self.second_checker = second_checker and drat_trim() is not None
        self.outcomes: Counter[str] = Counter()
        self.proof_bytes: list[int] = []
        self.solve_s: list[float] = []
        self.check_s: list[float] = []
        self.second_agreed = 0
        self._puzzle: Grid | None = None
        self._known: dict[tuple[str, tuple[str, ...]], Certificate] = {}

    def certificate(
        self, puzzle: Grid, verdict: str, solutions: Sequence[Grid | str]
    ) -> Certificate | None:
        """The certificate of `verdict` (None for `unknown`, which claims nothing); the grids
        may be given as text lines, as a back-end's answer carries them."""
        if verdict not in CERTIFIABLE:
            return None
        if puzzle is not self._puzzle:
            self._puzzle, self._known = puzzle, {}
        lines = tuple(grid if isinstance(grid, str) else grid.to_line() for grid in solutions)
        # "none" needs no grid, "unique" blocks its one grid; any two good grids show
        # "multiple", so one certified pair serves every back-end that says so
        key = (verdict, lines[:1] if verdict == "unique" else lines[:2] if lines else ())
        known = self._known.get(key)
        if known is None and verdict == "multiple":
            known = self._known.get((verdict, ()))
        if known is not None:
            return known
        try:
            grids = [Grid.from_string(line, puzzle.rules) for line in lines[:2]]
        except SudokuBenchError as error:
            made = Certificate(verdict, FAILED, DRAT, f"a returned grid cannot be read: {error}")
        else:
            made = certify(
                puzzle,
                verdict,
                grids,
                second_checker=self.second_checker,
                check_timeout=self.check_timeout,
            )
        self._known[key] = made
        if verdict == "multiple" and made.outcome == YES:
            self._known[(verdict, ())] = made
        self._count(made)
        return made

    def _count(self, certificate: Certificate) -> None:
        self.outcomes[certificate.outcome] += 1
        if certificate.proof_bytes is not None and certificate.outcome == YES:
            self.proof_bytes.append(certificate.proof_bytes)
            self.solve_s.append(certificate.solve_s or 0.0)
            self.check_s.append(certificate.check_s or 0.0)
        self.second_agreed += certificate.second_checker == YES

    @property
    def failed(self) -> int:
        """Certificates that are not `yes`: disproved or failed verdicts."""
        return sum(n for outcome, n in self.outcomes.items() if outcome != YES)

    def summary(self) -> str:
        """One line: how many verdicts were certified, and what the proofs cost."""
        total = sum(self.outcomes.values())
        if not total:
            return "certified: no verdict to certify (none / unique / multiple)"
        parts = [f"certified {self.outcomes[YES]} of {total} distinct verdicts (puzzle, verdict)"]
        if self.failed:
            parts.append(
                f"{self.outcomes['no']} disproved, {self.outcomes[FAILED]} failed"
                " (see the lines above)"
            )
        if self.proof_bytes:
            parts.append(
                f"{len(self.proof_bytes)} DRAT proofs: median {statistics.median(self.proof_bytes):.0f}"
                f" bytes, solve {statistics.median(self.solve_s):.3f} s, check "
                f"{statistics.median(self.check_s):.3f} s (max {max(self.check_s):.3f} s)"
            )
            parts.append(
                f"drat-trim agreed on {self.second_agreed}"
                if self.second_checker
                else "no second checker (drat-trim is not installed)"
            )
        return "; ".join(parts)


class InOrder:
    """Jobs run one after another, in the order given, in one background thread.

    The first exception a job raises stops the later jobs and is raised again by `close`.
    The thread is a daemon: an interrupted command does not wait for it."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="certify", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def close(self) -> None:
        """Wait for every job given so far; raise the first error one of them raised."""
        self._jobs.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            if self._error is not None:
                continue
            try:
                job()
            except BaseException as error:  # handed to the caller by `close`
                self._error = error
