"""Reduced lex Groebner bases of Sudoku ideals, and what is read off them.

For a zero-dimensional radical ideal (every variable has a square-free univariate
candidate polynomial, so the ideal is radical by Seidenberg's lemma) the number of
solutions is the number of standard monomials: monomials divisible by no leading monomial
of the basis. A lex basis is triangular: the solutions come out by back-substitution,
last variable first, each step the gcd of the basis polynomials whose leading variable is
the next one, specialised at the values found so far (Gianni-Kalkbrener).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from sudoku_bench.reductions.polynomial import (
    Algebra,
    Coefficient,
    Poly,
    PolynomialSystem,
    UPoly,
    total_degree,
)
from sudoku_bench.solvers.base import Deadline, SearchTimeout


class BasisError(RuntimeError):
    """A basis that contradicts the theory (not zero-dimensional, count mismatch): a bug."""


class _Interrupted(BaseException):
    """Raised by the timer's handler; a BaseException so that no `except Exception` in
    sympy swallows it. `interruptible` turns it into SearchTimeout."""


# Timers tried in order: wall clock (what the deadline means), then process CPU time.
_TIMERS = ((signal.ITIMER_REAL, signal.SIGALRM), (signal.ITIMER_PROF, signal.SIGPROF))
_REPEAT_S = 0.05  # the timer fires again every so often until the call has stopped


@contextmanager
def interruptible(deadline: Deadline) -> Iterator[None]:
    """Let a timer signal stop a long sympy call at the deadline.

    sympy's `groebner` never looks at the clock, so without this one basis that takes
    minutes would run past the deadline. Used only in the main thread, and only with a
    timer that no one else is using (a harness alarm, a profiler): otherwise it does
    nothing and the deadline is checked between calls as always.
    """
    remaining = deadline.remaining()
    timer = _free_timer() if remaining is not None else None
    if timer is None or remaining is None:
        yield
        return
    which, signum = timer

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Interrupted

    previous = signal.signal(signum, stop)
    try:
        signal.setitimer(which, remaining, _REPEAT_S)
        yield
    except _Interrupted:
        raise SearchTimeout from None
    finally:
        signal.setitimer(which, 0)
        signal.signal(signum, previous)


def _free_timer() -> tuple[int, int] | None:
    if threading.current_thread() is not threading.main_thread():
        return None
    for which, signum in _TIMERS:
        handler = signal.getsignal(signum)
        if handler in (signal.SIG_DFL, None) and signal.getitimer(which) == (0.0, 0.0):
            return which, signum
    return None


@dataclass
class Basis:
    """A reduced lex Groebner basis of a system, with the system's variable order."""

    system: PolynomialSystem
    polys: list[Poly]
    seconds: float

    @property
    def is_unit(self) -> bool:
        """The basis [1]: the ideal is the whole ring, the puzzle has no solution."""
        return len(self.polys) == 1 and self.polys[0].is_ground and bool(self.polys[0])

    @property
    def max_degree(self) -> int:
        return max((total_degree(p) for p in self.polys), default=0)

    def count(self, cap: int) -> int:
        """The number of standard monomials (= solutions), counting stops at `cap`."""
        if self.is_unit:
            return 0
        variables = len(self.system.cells)
        by_last: list[list[tuple[int, ...]]] = [[] for _ in range(variables)]
        for poly in self.polys:
            monomial = poly.LM
            support = [i for i, e in enumerate(monomial) if e]
            by_last[support[-1]].append(monomial)
        if any(not self._has_pure_power(i) for i in range(variables)):
            raise BasisError("the basis is not zero-dimensional")
        exponents = [0] * variables

        def standard(depth: int) -> bool:
            return not any(
                all(exponents[i] >= m[i] for i in range(depth + 1)) for m in by_last[depth]
            )

        def walk(depth: int, budget: int) -> int:
            if depth == variables:
                return 1
            found = 0
            exponents[depth] = 0
            while found < budget and standard(depth):
                found += walk(depth + 1, budget - found)
                exponents[depth] += 1
            exponents[depth] = 0
            return found

        return walk(0, cap)

    def _has_pure_power(self, index: int) -> bool:
        return any(
            p.LM[index] and not any(e for i, e in enumerate(p.LM) if i != index) for p in self.polys
        )

    def solutions(self, limit: int) -> list[dict[int, int]]:
        """Up to `limit` solutions (cell -> digit), by back-substitution from the last variable."""
        if self.is_unit:
            return []
        algebra = self.system.algebra
        variables = len(self.system.cells)
        leading: list[list[Poly]] = [[] for _ in range(variables)]
        for poly in self.polys:
            first = next(i for i, e in enumerate(poly.LM) if e)
            leading[first].append(poly)
        found: list[dict[int, int]] = []
        values = [0] * variables

        def extend(index: int) -> None:
            if len(found) >= limit:
                return
            if index < 0:
                found.append(dict(zip(self.system.cells, values, strict=True)))
                return
            common: UPoly = ()
            for poly in leading[index]:
                common = algebra.gcd(common, specialise(poly, index, values, algebra))
            for digit in algebra.roots(common) if common else ():
                values[index] = digit
                extend(index - 1)

        extend(variables - 1)
        return found


def specialise(poly: Poly, index: int, values: list[int], algebra: Algebra) -> UPoly:
    """poly(x_index = t, x_j = the root of digit values[j] for j > index), univariate in t."""
    coefficients: dict[int, Coefficient] = {}
    for monomial, coefficient in poly.terms():
        term = algebra.from_sympy(coefficient)
        for j in range(index + 1, len(monomial)):
            if monomial[j]:
                term *= algebra.value[values[j]] ** monomial[j]
        coefficients[monomial[index]] = coefficients.get(monomial[index], 0) + term
    degree = max(coefficients, default=0)
    return algebra.strip(coefficients.get(k, 0) for k in range(degree + 1))


def compute_basis(system: PolynomialSystem, deadline: Deadline) -> Basis:
    """The reduced lex Groebner basis of the system (interruptible at the deadline)."""
    from sympy.polys.groebnertools import groebner

    deadline.check()
    start = time.perf_counter()
    with interruptible(deadline):
        # sympy divides by every generator it is given: a zero one would be a division by 0
        polys = [p for p in system.polynomials() if p] or [system.ring.zero]
        result = groebner(polys, system.ring)
    return Basis(system, [p for p in result if p], time.perf_counter() - start)
