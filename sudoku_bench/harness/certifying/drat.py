"""A forward DRAT proof checker, written for this project and sharing no code with any solver.

A DRAT proof of a formula's unsatisfiability is a list of steps: a lemma (a clause) to add, or
`d` and a clause to delete. Checking forward, each lemma must be implied by the clauses
present at that moment:

- RUP (reverse unit propagation): assume every literal of the lemma false and propagate units;
  a conflict shows that every model of the clauses satisfies the lemma;
- RAT (resolution asymmetric tautology) on the lemma's first literal p, tried when RUP fails:
  for every present clause D containing ¬p, the resolvent lemma ∪ (D \\ {¬p}) is RUP. Adding
  such a lemma keeps the formula satisfiable if it was (it may lose models, never all of them).

The proof is accepted when the empty clause is derived (or unit propagation on the clauses
present already conflicts), so the formula has no model.

Unit propagation uses two watched literals per clause. Assignments made at the top level
(units of the formula and of lemmas, and what they propagate) stay; the assumptions of one
lemma's check are undone after it. Deletions are honoured except of a clause that is the
reason of a top-level assignment: keeping a clause can only make later RAT checks stricter
and never makes a RUP check unsound, so ignoring such a deletion is sound, and it keeps the
top-level assignment valid (drat-trim ignores deletions of unit clauses for the same reason).

Literals are coded for list indexing: variable v true is 2v, false is 2v + 1, so a literal's
negation is `code ^ 1`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sudoku_bench.puzzles.errors import SudokuBenchError


class ProofError(SudokuBenchError):
    """A proof that cannot be read or that the checker rejects; the message names the step."""


@dataclass(frozen=True)
class ProofStep:
    """One line of a DRAT proof: a lemma added, or a clause deleted (`deletion`)."""

    line: int  # 1-based line number in the proof text
    clause: tuple[int, ...]
    deletion: bool = False

    def text(self) -> str:
        body = " ".join(map(str, (*self.clause, 0)))
        return f"d {body}" if self.deletion else body


@dataclass(frozen=True)
class DratReport:
    """What the check found: lemmas checked by RUP and by RAT, deletions honoured and ignored."""

    lemmas: int
    rup: int
    rat: int
    deletions: int
    ignored_deletions: int  # deletions of reason clauses of top-level assignments (see above)
    refuted_at_line: int  # the line where the formula became refuted (0: by the formula alone)


def parse_drat(lines: Iterable[str]) -> list[ProofStep]:
    """The steps of a textual DRAT proof: lines of integers ending in 0, `d` before a deletion;
    `c` lines and blank lines are skipped. A malformed line is a `ProofError` naming it."""
    steps: list[ProofStep] = []
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("c"):
            continue
        deletion = text.startswith("d")
        if deletion:
            text = text[1:]
        try:
            values = [int(token) for token in text.split()]
        except ValueError:
            raise ProofError(f"proof line {number} is not a DRAT step: {raw.strip()!r}") from None
        if not values or values[-1] != 0 or 0 in values[:-1]:
            raise ProofError(
                f"proof line {number} must be one clause ending in a single 0: {raw.strip()!r}"
            )
        steps.append(ProofStep(number, tuple(values[:-1]), deletion))
    return steps


def check_drat(
    clauses: Iterable[Sequence[int]], proof: Iterable[str], timeout: float | None = None
) -> DratReport:
    """Check a DRAT proof (text lines) that `clauses` are unsatisfiable.

    Returns what was checked; raises `ProofError` naming the first lemma that is neither RUP
    nor RAT, saying that the proof never derives the empty clause, or that the check took
    longer than `timeout` seconds (None: no limit)."""
    return check_steps(clauses, parse_drat(proof), timeout)


def check_steps(
    clauses: Iterable[Sequence[int]], steps: Sequence[ProofStep], timeout: float | None = None
) -> DratReport:
    """`check_drat` on steps already parsed."""
    deadline = math.inf if timeout is None else time.monotonic() + timeout
    formula = [tuple(clause) for clause in clauses]
    variables = max(
        (abs(literal) for clause in (*formula, *(s.clause for s in steps)) for literal in clause),
        default=0,
    )
    checker = _Checker(variables)
    for number, clause in enumerate(formula):
        if number % CLOCK_EVERY == 0:
            _in_time(deadline, timeout, f"loading clause {number + 1} of {len(formula)}")
        checker.add(clause)
        if checker.refuted:
            return DratReport(0, 0, 0, 0, 0, 0)
    lemmas = rup = rat = deletions = ignored = 0
    for number, step in enumerate(steps):
        if number % CLOCK_EVERY == 0:
            _in_time(deadline, timeout, f"at proof line {step.line} of {steps[-1].line}")
        if step.deletion:
            if checker.delete(step.clause):
                deletions += 1
            else:
                ignored += 1
            continue
        lemmas += 1
        if checker.implied_by_rup(step.clause):
            rup += 1
        elif checker.implied_by_rat(step.clause):
            rat += 1
        else:
            raise ProofError(
                f"proof rejected: lemma {lemmas} (proof line {step.line}: {step.text()}) is "
                "neither RUP nor RAT on its first literal"
            )
        checker.add(step.clause)
        if checker.refuted:
            return DratReport(lemmas, rup, rat, deletions, ignored, step.line)
    raise ProofError(
        f"proof rejected: its {lemmas} lemmas never derive the empty clause "
        "(unit propagation on the final clauses finds no conflict)"
    )


CLOCK_EVERY = 4096  # clauses or steps between two looks at the clock


def _in_time(deadline: float, timeout: float | None, where: str) -> None:
    if time.monotonic() > deadline:
        raise ProofError(f"proof not checked within {timeout:g} s ({where})")


class _Checker:
    """The clause database with watched literals and the top-level assignment."""

    def __init__(self, variables: int) -> None:
        size = 2 * variables + 2
        self.true = bytearray(size)  # true[code]: the literal is assigned true
        self.watches: list[list[int]] = [[] for _ in range(size)]
        self.clauses: list[list[int] | None] = []  # None: deleted
        self.units: dict[int, list[int]] = {}  # literal code -> its unit clauses' ids
        self.trail: list[int] = []
        self.reason: dict[int, int] = {}  # top-level literal code -> clause id that forced it
        self.head = 0
        self.refuted = False

    # ----- clauses ---------------------------------------------------------------------------

    def add(self, literals: Sequence[int]) -> None:
        """Add a clause at the top level: watch two literals, or assign its unit, or refute."""
        if self.refuted:
            return
        codes = _codes(literals)
        if codes is None:  # a tautology: always true, never propagates
            return
        number = len(self.clauses)
        self.clauses.append(codes)
        true = self.true
        if len(codes) == 1:
            self.units.setdefault(codes[0], []).append(number)
        elif codes:
            first, second = codes[0], codes[1]
            if not (true[first] or true[first ^ 1] or true[second] or true[second ^ 1]):
                self._watch(number)  # the usual case: two unassigned literals to watch
                return
        # put literals that are not false first (top-level assignments never go away)
        open_ = [c for c in codes if not true[c ^ 1]]
        if any(true[c] for c in open_):
            first = next(c for c in open_ if true[c])
            codes[:] = [first, *(c for c in codes if c != first)]
            if len(codes) > 1:
                self._watch(number)
            return
        if not open_:
            self.refuted = True
            return
        codes[:] = [*open_, *(c for c in codes if true[c ^ 1])]
        if len(codes) > 1:
            self._watch(number)
        if len(open_) == 1:
            self._assign(codes[0], number)
            if not self._propagate():
                self.refuted = True

    def _watch(self, number: int) -> None:
        codes = self.clauses[number]
        assert codes is not None
        self.watches[codes[0]].append(number)
        self.watches[codes[1]].append(number)

    def delete(self, literals: Sequence[int]) -> bool:
        """Delete one copy of a clause; False when it is ignored (the reason of a top-level
        assignment, or not present: deleting what is absent removes nothing)."""
        codes = _codes(literals)
        if codes is None:
            return True
        wanted = set(codes)
        # a present copy is a unit clause, or watched by two of its own literals
        if len(codes) == 1:
            candidates: list[int] = self.units.get(codes[0], [])
        else:
            candidates = [number for code in codes for number in self.watches[code]]
        for number in candidates:
            clause = self.clauses[number]
            if clause is None or len(clause) != len(wanted) or set(clause) != wanted:
                continue
            if self.reason.get(clause[0]) == number:
                continue
            self.clauses[number] = None  # its watches go lazily, when next visited
            return True
        return False

    # ----- propagation -----------------------------------------------------------------------

    def _assign(self, code: int, reason: int) -> None:
        self.true[code] = 1
        self.trail.append(code)
        if reason >= 0:
            self.reason[code] = reason

    def _propagate(self) -> bool:
        """Propagate the trail from `head`; False on a conflict."""
        true = self.true
        clauses = self.clauses
        watches = self.watches
        trail = self.trail
        while self.head < len(trail):
            false_code = trail[self.head] ^ 1
            self.head += 1
            watching = watches[false_code]
            kept = 0
            index = 0
            count = len(watching)
            while index < count:
                number = watching[index]
                index += 1
                clause = clauses[number]
                if clause is None:  # deleted: drop the watch
                    continue
                if clause[0] == false_code:
                    clause[0], clause[1] = clause[1], false_code
                first = clause[0]
                if true[first]:
                    watching[kept] = number
                    kept += 1
                    continue
                for k in range(2, len(clause)):
                    candidate = clause[k]
                    if not true[candidate ^ 1]:
                        clause[1], clause[k] = candidate, false_code
                        watches[candidate].append(number)
                        break
                else:
                    watching[kept] = number
                    kept += 1
                    if true[first ^ 1]:  # both watches false: conflict
                        while index < count:
                            watching[kept] = watching[index]
                            kept += 1
                            index += 1
                        del watching[kept:]
                        return False
                    true[first] = 1
                    trail.append(first)
                    if not self.checking:
                        self.reason[first] = number
            del watching[kept:]
        return True

    checking = False  # True while a lemma's assumptions are on the trail

    # ----- lemma checks ----------------------------------------------------------------------

    def implied_by_rup(self, literals: Sequence[int]) -> bool:
        """Whether assuming every literal of the clause false propagates to a conflict."""
        if self.refuted:
            return True
        codes = [_code(literal) for literal in literals]
        return self._conflicts_assuming(codes)

    def _conflicts_assuming(self, codes: Iterable[int]) -> bool:
        true = self.true
        mark = len(self.trail)
        self.checking = True
        try:
            conflict = False
            for code in codes:
                if true[code]:  # the clause is already true: its negation conflicts
                    conflict = True
                    break
                if not true[code ^ 1]:
                    true[code ^ 1] = 1
                    self.trail.append(code ^ 1)
            if not conflict:
                conflict = not self._propagate()
            return conflict
        finally:
            for code in self.trail[mark:]:
                true[code] = 0
            del self.trail[mark:]
            self.head = mark
            self.checking = False

    def implied_by_rat(self, literals: Sequence[int]) -> bool:
        """Whether the clause is a RAT on its first literal: every resolvent with a present
        clause holding that literal's negation is RUP."""
        if not literals:
            return False
        codes = [_code(literal) for literal in literals]
        pivot = codes[0]
        lemma = set(codes)
        for clause in self.clauses:
            if clause is None or (pivot ^ 1) not in clause:
                continue
            others = [c for c in clause if c != pivot ^ 1]
            if any(c ^ 1 in lemma for c in others):  # the resolvent is a tautology
                continue
            if not self._conflicts_assuming([*codes, *others]):
                return False
        return True


def _code(literal: int) -> int:
    return 2 * literal if literal > 0 else -2 * literal + 1


def _codes(literals: Sequence[int]) -> list[int] | None:
    """The clause's literal codes without repeats; None for a tautology (p and ¬p)."""
    codes = [literal + literal if literal > 0 else 1 - literal - literal for literal in literals]
    present = set(codes)
    if len(present) != len(codes):
        codes = list(dict.fromkeys(codes))
    if not present.isdisjoint([code ^ 1 for code in codes]):
        return None
    return codes
