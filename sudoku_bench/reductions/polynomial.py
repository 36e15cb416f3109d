"""Sudoku as a polynomial ideal: the model of the source thesis (section 2.3.2, after
Gago-Vargas, Hartillo-Hermoso, Martín-Morales and Ucha-Enríquez, "Sudokus and Gröbner
bases: not only a divertimento"), extended to every variant rule.

One variable x_k per cell, numbered 1..N² row-major as in the thesis (x6 is r2c2 of a 4x4).
For every cell F(x) = (x - 1)(x - 2)...(x - N): its roots are the digits. For every pair
of cells that must differ (a common unit of any size, a cage, a knight's or king's move under
anti-knight / anti-king) G(xi, xj) = (F(xi) - F(xj)) / (xi - xj): on the roots of F it
vanishes exactly when xi != xj (G(v, v) = F'(v) != 0 because F is square-free). A given v
adds x - v. Optionally every house adds the linear sum x_1 + ... + x_N = N(N+1)/2.

The variant rules (`Rules`) add:
  * parity: an odd or even cell's polynomial is prod (x - d) over its allowed digits, not F;
  * non-consecutive neighbours a, b: H(xa, xb) = sum over the forbidden pairs (u, w),
    |u - w| = 1, of L_u(xa) L_w(xb), L_d the Lagrange basis polynomial of the digit d on the
    digits (1 at d, 0 at the others). With F(xa) = F(xb) = 0 in the ideal, H is the indicator
    of a forbidden pair on the grid of digit pairs, so it vanishes exactly on the allowed ones;
    it has degree N - 1 in each variable, where "xa - xb is not +-1" has no polynomial of the
    G kind (a quotient like (F(xa) - F(xb + 1)) / (xa - xb - 1) also forbids xb = N);
  * any other pair relation (a `PairConstraint`: kropki dots, XV, whispers, a thermometer's
    order, read first cell first): the same indicator, R(xa, xb) = sum over the digit pairs
    (u, w) the relation forbids of L_u(xa) L_w(xb). We take the indicator of the forbidden
    pairs rather than the product of (xa - u)(xb - w)-style factors over them because,
    modulo F(xa) and F(xb), every polynomial that vanishes exactly on the allowed pairs is a
    nonzero multiple of it on the grid, and this one has degree < N in each variable (at
    most N² terms, fewer after reduction modulo the candidate polynomials) whatever the
    relation: a product over the forbidden pairs would have degree up to N² to be reduced;
  * a linear equation (a `LinearConstraint`: arrows, little killers, equal-sum segments):
    sum k * D(x_c) - total, linear in the thesis formulation (D(x) = x);
  * a killer cage with a sum: the linear polynomial x_1 + ... + x_k - total (the thesis
    formulation; with roots of unity, D(x_1) + ... + D(x_k) - total, D the interpolation of
    the digit from its root). Over GF(p) a sum is only known modulo p, so p must exceed the
    spread k(N - k) of every summed cage (then two possible sums that agree mod p are equal),
    and a total that k distinct digits cannot reach puts 1 in the ideal outright. A linear
    equation's spread is sum |k| (N - 1), which p must exceed likewise.

The givens are substituted before anything else, which shrinks the system by orders of
magnitude (docs/measurements/models.md):
G(v, x) = F(x)/(x - v) for a given peer v, so the gcd of F with those polynomials, the
cell's *candidate polynomial* C(x) = F(x) / prod(x - v), replaces F; H(v, x) and a cage sum
with one open cell are univariate too and go into C by a gcd. Every pair polynomial between
empty cells is reduced modulo the two candidate polynomials, and a pair whose candidate
polynomials rule it out already (coprime for G, no forbidden pair among their roots for H) is
left out: the polynomial then lies in the ideal of the two candidate polynomials.

Coefficients are rationals, or integers modulo a prime p > N (the digits stay distinct roots).
`unity=True` is Bayer's colouring ideal: the same construction with digit d standing for
omega^d, omega a primitive N-th root of unity mod p (p = 1 mod N), so F(t) = t^N - 1.
Variables are ordered for lex with the cells of many candidates first (largest), which
matters in sympy (docs/measurements/models.md).

`export(puzzle)` writes the system as a Singular script (`ring r = 0, (x1, ...), lp;`) whose
header names the rules, the puzzle and each variable's cell, and gives the recipe that solves
it in seconds (`SINGULAR_RECIPE`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from typing import Any, Literal

from sudoku_bench.puzzles.constraints import (
    Cage,
    CellDigits,
    Constraint,
    DistinctPairs,
    EncoderTable,
    Equation,
    LinearConstraint,
    NonConsecutive,
    PairConstraint,
    SumConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.base import Reduction, puzzle_header
from sudoku_bench.reductions.encoding import (
    Domains,
    cell_domains,
    extra_units,
    forbidden_digit_pairs,
    grouped,
    narrow_to_allowed,
    relation_pairs,
    shape_units,
)

Poly = Any  # a sympy PolyElement (sympy ships no type hints)


class PolynomialOptionsError(SudokuBenchError):
    """A coefficient field that cannot hold the digits as distinct roots."""


class FieldTooSmallError(PolynomialOptionsError):
    """GF(p) with p too small for a puzzle's cage sums: that field cannot express them."""


def is_prime(number: int) -> bool:
    return number >= 2 and all(number % d for d in range(2, math.isqrt(number) + 1))


# Entries each memo table of an Algebra keeps before it starts afresh (bounds the memory).
MEMO_LIMIT = 200_000

Coefficient = int | Fraction
UPoly = tuple[Coefficient, ...]  # a univariate polynomial in t, constant term first; () is 0


class Algebra:
    """The coefficient field and the univariate polynomials of one grid size.

    Univariate polynomials (`UPoly`, constant term first) carry the search's knowledge: the
    candidate polynomial of each cell. Their arithmetic is done here on Python numbers (ints
    modulo p, or Fractions), dense and small, because sympy's element objects made a gcd
    cost milliseconds; the multivariate work (Groebner bases) is sympy's. `F` is the
    thesis's F(t) and `G[v]` the pair polynomial with one side fixed to the digit v,
    G(v, t) = (F(v) - F(t)) / (v - t): the thesis's G(3, x6) and so on.
    """

    def __init__(self, size: int, modulus: int | None = None, *, unity: bool = False) -> None:
        if modulus is not None and (not is_prime(modulus) or modulus <= size):
            raise PolynomialOptionsError(
                f"modulus {modulus} must be a prime larger than {size} so that the digits "
                f"1..{size} stay distinct roots"
            )
        self.size = size
        self.modulus = modulus
        self.unity = unity
        self.digits = range(1, size + 1)
        self.value = {d: d for d in self.digits}  # the root that stands for digit d
        if unity:
            self.value = roots_of_unity(size, modulus)
        self.one: UPoly = (1,)
        self.t: UPoly = (0, 1)
        self.F = self.product(self.linear(d) for d in self.digits)
        self.G = {v: self.pair_with_digit(v) for v in self.digits}
        self._powers: dict[UPoly, list[UPoly]] = {}
        self._roots: dict[UPoly, tuple[int, ...]] = {}
        self._gcds: dict[tuple[UPoly, UPoly], UPoly] = {}
        self._lagrange: dict[tuple[tuple[int, ...], int], UPoly] = {}
        self._supports: dict[tuple[int, ...], UPoly] = {}
        self.next_to = {v: self.nonconsecutive_with_digit(v) for v in self.digits}

    @staticmethod
    @cache
    def of(size: int, modulus: int | None = None, *, unity: bool = False) -> Algebra:
        """The shared instance for a size and field (its memo tables are reused)."""
        return Algebra(size, modulus, unity=unity)

    @property
    def field_name(self) -> str:
        return "QQ" if self.modulus is None else f"GF({self.modulus})"

    @property
    def formulation(self) -> str:
        return "roots-of-unity" if self.unity else "thesis"

    @cached_property
    def domain(self) -> Any:
        """sympy's coefficient domain for the multivariate rings: QQ or GF(p)."""
        from sympy.polys.domains import GF, QQ

        return QQ if self.modulus is None else GF(self.modulus)

    # --- field and dense polynomial arithmetic ---------------------------------------

    def number(self, value: Coefficient) -> Coefficient:
        """A field element in its normal form: an int mod p, or an int/Fraction."""
        if self.modulus is not None:
            if type(value) is int:  # the common case, checked first: this runs very often
                return value % self.modulus
            if isinstance(value, Fraction):
                value = value.numerator * pow(value.denominator, -1, self.modulus)
            return value % self.modulus
        if isinstance(value, Fraction) and value.denominator == 1:
            return value.numerator
        return value

    def inverse(self, value: Coefficient) -> Coefficient:
        if self.modulus is not None:
            return pow(int(value), -1, self.modulus)
        return Fraction(1) / value

    def strip(self, coefficients: Iterable[Coefficient]) -> UPoly:
        normal = [self.number(c) for c in coefficients]
        while normal and not normal[-1]:
            normal.pop()
        return tuple(normal)

    def linear(self, digit: int) -> UPoly:
        """t - (the root standing for the digit): the digit itself, or omega^digit."""
        return self.strip((-self.value[digit], 1))

    def add(self, a: UPoly, b: UPoly) -> UPoly:
        longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
        return self.strip(c + (shorter[i] if i < len(shorter) else 0) for i, c in enumerate(longer))

    def scale(self, a: UPoly, factor: Coefficient) -> UPoly:
        return self.strip(c * factor for c in a)

    def mul(self, a: UPoly, b: UPoly) -> UPoly:
        if not a or not b:
            return ()
        result: list[Coefficient] = [0] * (len(a) + len(b) - 1)
        for i, ca in enumerate(a):
            for j, cb in enumerate(b):
                result[i + j] += ca * cb
        return self.strip(result)

    def product(self, factors: Iterable[UPoly]) -> UPoly:
        result = self.one
        for factor in factors:
            result = self.mul(result, factor)
        return result

    def divmod(self, a: UPoly, b: UPoly) -> tuple[UPoly, UPoly]:
        """Quotient and remainder of a by b (b nonzero)."""
        remainder = list(a)
        quotient: list[Coefficient] = [0] * max(len(a) - len(b) + 1, 0)
        lead = self.inverse(b[-1])
        for shift in range(len(a) - len(b), -1, -1):
            factor = self.number(remainder[shift + len(b) - 1] * lead)
            quotient[shift] = factor
            if factor:
                for i, cb in enumerate(b):
                    remainder[shift + i] = self.number(remainder[shift + i] - factor * cb)
        return self.strip(quotient), self.strip(remainder[: len(b) - 1])

    def monic(self, a: UPoly) -> UPoly:
        return self.scale(a, self.inverse(a[-1])) if a else a

    def gcd(self, a: UPoly, b: UPoly) -> UPoly:
        """The monic greatest common divisor (Euclid's algorithm), memoised: a search asks
        for the same few thousand pairs of divisors of F again and again."""
        key = (a, b)
        found = self._gcds.get(key)
        if found is None:
            while b:
                a, b = b, self.divmod(a, b)[1]
            if len(self._gcds) >= MEMO_LIMIT:  # 16x16 and larger meet too many to keep all
                self._gcds.clear()
            found = self._gcds[key] = self.monic(a)
        return found

    def degree(self, a: UPoly) -> int:
        return len(a) - 1  # -1 for the zero polynomial

    def evaluate(self, a: UPoly, value: Coefficient) -> Coefficient:
        result: Coefficient = 0
        for coefficient in reversed(a):
            result = self.number(result * value + coefficient)
        return result

    def roots(self, a: UPoly) -> tuple[int, ...]:
        """The roots of a divisor of F, which are digits (F splits into t - 1, ..., t - N).

        Memoised: the search meets the same few hundred divisors over and over.
        """
        found = self._roots.get(a)
        if found is None:
            found = tuple(d for d in self.digits if not self.evaluate(a, self.value[d]))
            if len(self._roots) >= MEMO_LIMIT:
                self._roots.clear()
            self._roots[a] = found
        return found

    def from_roots(self, digits: Iterable[int]) -> UPoly:
        """The monic polynomial prod (t - d) over the digits."""
        return self.product(self.linear(d) for d in sorted(set(digits)))

    def pair_with_digit(self, digit: int) -> UPoly:
        """G(v, t) = (F(v) - F(t)) / (v - t), by exact division as the thesis defines it."""
        v = self.value[digit]
        numerator = self.add((self.evaluate(self.F, v),), self.scale(self.F, -1))
        quotient, remainder = self.divmod(numerator, self.strip((v, -1)))
        assert not remainder
        return quotient

    def lagrange(self, digits: tuple[int, ...], digit: int) -> UPoly:
        """L(t) of degree < len(digits): 1 at the root of `digit`, 0 at the other digits' roots.

        The Lagrange basis polynomial on `digits` (sorted, containing `digit`); on the roots
        of a candidate polynomial C with these roots it is the remainder mod C of the one on
        all digits. Memoised.
        """
        key = (digits, digit)
        found = self._lagrange.get(key)
        if found is None:
            at = self.value[digit]
            numerator = self.product(self.linear(d) for d in digits if d != digit)
            denominator = self.evaluate(numerator, at)
            found = self.scale(numerator, self.inverse(denominator))
            if len(self._lagrange) >= MEMO_LIMIT:
                self._lagrange.clear()
            self._lagrange[key] = found
        return found

    def interpolate(self, digits: tuple[int, ...], values: Mapping[int, Coefficient]) -> UPoly:
        """The polynomial of degree < len(digits) taking values[d] at the root of each digit d."""
        result: UPoly = ()
        for d in digits:
            if values[d]:
                result = self.add(result, self.scale(self.lagrange(digits, d), values[d]))
        return result

    @cached_property
    def digit_polynomial(self) -> UPoly:
        """D(t): the digit at its root, D(root of d) = d. Just t in the thesis formulation
        (the roots are the digits); for roots of unity a polynomial of degree < N."""
        return self.interpolate(tuple(self.digits), {d: d for d in self.digits})

    def nonconsecutive_with_digit(self, digit: int) -> UPoly:
        """H(v, t) = sum of L_w(t) over the digits w = v - 1, v + 1: the non-consecutive
        polynomial H(xa, xb) with xa fixed to v. It vanishes at every digit but v - 1, v + 1."""
        every = tuple(self.digits)
        result: UPoly = ()
        for w in (digit - 1, digit + 1):
            if w in self.value:
                result = self.add(result, self.lagrange(every, w))
        return result

    def nonconsecutive_support(self, roots: tuple[int, ...]) -> UPoly:
        """prod over u in roots of H(u, t), mod F: it vanishes at a digit w exactly when some
        root u allows w next to it (|u - w| != 1). With C_a(xa) = 0 in the ideal this product
        lies in the ideal (it vanishes on every point, and the ideal is radical), so
        gcd(C_b, it) keeps the digits of b that a root of a still allows. Memoised."""
        found = self._supports.get(roots)
        if found is None:
            found = self.one
            for u in roots:
                found = self.divmod(self.mul(found, self.next_to[u]), self.F)[1]
            if len(self._supports) >= MEMO_LIMIT:
                self._supports.clear()
            self._supports[roots] = found
        return found

    def relation_support(
        self, roots: tuple[int, ...], allowed: Mapping[int, tuple[int, ...]]
    ) -> UPoly:
        """prod over u in roots of A_u(t) mod F, A_u = prod (t - w) over the digits w the
        relation allows beside u (`allowed[u]`): it vanishes at a digit w exactly when some
        root u allows w. With C_a(xa) = 0 in the ideal it lies in the ideal, as the
        non-consecutive support does, so gcd(C_b, it) keeps the digits of b that a root of a
        still allows."""
        found = self.one
        for u in roots:
            found = self.divmod(self.mul(found, self.from_roots(allowed[u])), self.F)[1]
        return found

    def text(self, a: UPoly, name: str = "t") -> str:
        """`t^3 - 7*t^2 + 14*t - 8`."""
        terms: dict[tuple[int, ...], Coefficient] = {(k,): c for k, c in enumerate(a) if c}
        return format_terms(terms, [name], self)

    # --- towards sympy's multivariate rings --------------------------------------------

    def signed(self, value: Coefficient) -> Coefficient:
        """A coefficient for printing: the symmetric residue mod p, or the rational."""
        value = self.number(value)
        if self.modulus is not None and value > self.modulus // 2:
            return value - self.modulus
        return value

    def from_sympy(self, value: Any) -> Coefficient:
        """A coefficient of a sympy polynomial over `domain`, as a field element here."""
        if self.modulus is not None:
            return int(self.domain.to_int(value)) % self.modulus
        return self.number(Fraction(int(value.numerator), int(value.denominator)))

    def to_sympy(self, value: Coefficient) -> Any:
        if isinstance(value, Fraction):
            return self.domain(value.numerator) / self.domain(value.denominator)
        return self.domain(value)

    def lift(self, a: UPoly, x: Poly) -> Poly:
        """The univariate a(t) written in the variable `x` of a sympy ring."""
        index = x.ring.gens.index(x)
        zero = [0] * x.ring.ngens
        terms = {}
        for k, c in enumerate(a):
            if c:
                monomial = list(zero)
                monomial[index] = k
                terms[tuple(monomial)] = self.to_sympy(c)
        return x.ring.from_dict(terms)

    def powers_modulo(self, a: UPoly) -> list[UPoly]:
        """t^i mod a for i = 0..N-1 (memoised)."""
        if a not in self._powers:
            self._powers[a] = [self.divmod((0,) * i + (1,), a)[1] for i in range(self.size)]
        return self._powers[a]

    def reduced_pair(self, first: UPoly, second: UPoly) -> dict[tuple[int, int], Coefficient]:
        """G(a, b) reduced modulo first(a) and second(b): {(i, j): coefficient of a^i b^j}.

        G(a, b) = sum over i + j = k - 1 of f_k a^i b^j, where F = sum f_k t^k; each a^i and b^j
        is replaced by its remainder, which is what division by the two univariate
        polynomials (a Groebner basis: their leading terms are coprime) gives.
        """
        powers_a = self.powers_modulo(first)
        powers_b = self.powers_modulo(second)
        result: dict[tuple[int, int], Coefficient] = {}
        for i in range(self.size):
            for j in range(self.size - i):
                coefficient = self.F[i + j + 1]
                for p, ca in enumerate(powers_a[i]):
                    if ca:
                        for q, cb in enumerate(powers_b[j]):
                            if cb:
                                result[(p, q)] = result.get((p, q), 0) + coefficient * ca * cb
        normal = {k: self.number(v) for k, v in result.items()}
        return {k: v for k, v in normal.items() if v}

    def reduced_nonconsecutive(
        self, first: UPoly, second: UPoly
    ) -> dict[tuple[int, int], Coefficient]:
        """H(a, b) reduced modulo first(a) and second(b): {(i, j): coefficient of a^i b^j}.

        The remainder is the polynomial of degrees < deg first, deg second with the values of
        H on the roots: the sum over forbidden pairs (u, w) of roots of L_u(a) L_w(b), the
        Lagrange polynomials on those roots. Empty when no pair of roots is forbidden.
        """
        return self.reduced_relation(first, second, self.consecutive)

    @cached_property
    def consecutive(self) -> frozenset[tuple[int, int]]:
        return frozenset((u, w) for u in self.digits for w in self.digits if abs(u - w) == 1)

    def reduced_relation(
        self, first: UPoly, second: UPoly, forbidden: frozenset[tuple[int, int]]
    ) -> dict[tuple[int, int], Coefficient]:
        """R(a, b) = sum over the `forbidden` digit pairs (u, w) of L_u(a) L_w(b), reduced
        modulo first(a) and second(b) as `reduced_nonconsecutive` reduces H (which is R for
        the pairs of consecutive digits). Empty when no pair of roots is forbidden."""
        roots_a, roots_b = self.roots(first), self.roots(second)
        result: dict[tuple[int, int], Coefficient] = {}
        for u in roots_a:
            partners = [w for w in roots_b if (u, w) in forbidden]
            if not partners:
                continue
            right: UPoly = ()
            for w in partners:
                right = self.add(right, self.lagrange(roots_b, w))
            for i, ca in enumerate(self.lagrange(roots_a, u)):
                if ca:
                    for j, cb in enumerate(right):
                        if cb:
                            result[(i, j)] = result.get((i, j), 0) + ca * cb
        normal = {k: self.number(v) for k, v in result.items()}
        return {k: v for k, v in normal.items() if v}


def roots_of_unity(size: int, modulus: int | None) -> dict[int, int]:
    """Bayer's colouring: digit d stands for omega^d, omega a primitive N-th root of unity
    mod p (so F(t) = t^N - 1, and every pair polynomial is sparse). Needs p = 1 mod N."""
    if modulus is None or (modulus - 1) % size:
        raise PolynomialOptionsError(
            f"the roots-of-unity formulation needs a prime modulus p with p = 1 mod {size} "
            f"(e.g. {unity_prime(size)}), got {modulus}"
        )
    for omega in range(2, modulus):
        order_is_n = pow(omega, size, modulus) == 1
        if order_is_n and all(pow(omega, size // q, modulus) != 1 for q in prime_factors(size)):
            return {d: pow(omega, d, modulus) for d in range(1, size + 1)}
    raise PolynomialOptionsError(f"no primitive {size}-th root of unity modulo {modulus}")


def prime_factors(number: int) -> set[int]:
    return {d for d in range(2, number + 1) if number % d == 0 and is_prime(d)}


def unity_prime(size: int, above: int = 0) -> int:
    """The smallest prime p > N (and p > `above`) with p = 1 mod N (GF(p) holds the N-th roots
    of unity)."""
    p = size + 1
    while not is_prime(p) or p <= above:
        p += size
    return p


def pair_polynomial(algebra: Algebra, ring: Any, a: Poly, b: Poly) -> Poly:
    """The thesis's G(a, b) = (F(a) - F(b)) / (a - b) in a sympy ring, unreduced:
    sum_k f_k (a^k - b^k)/(a - b) = sum_k f_k sum_{i+j=k-1} a^i b^j."""
    result = ring.zero
    for k, f_k in enumerate(algebra.F):
        for i in range(k):
            result += algebra.to_sympy(f_k) * a**i * b ** (k - 1 - i)
    return result


def nonconsecutive_polynomial(algebra: Algebra, ring: Any, a: Poly, b: Poly) -> Poly:
    """H(a, b) = sum over |u - w| = 1 of L_u(a) L_w(b) in a sympy ring, unreduced (Lagrange
    polynomials on all N digits): 1 on a forbidden pair of digits, 0 on an allowed one."""
    every = tuple(algebra.digits)
    result = ring.zero
    for u in every:
        left = ring.zero
        for k, c in enumerate(algebra.lagrange(every, u)):
            left += algebra.to_sympy(c) * a**k
        for w in (u - 1, u + 1):
            if w in algebra.value:
                right = ring.zero
                for k, c in enumerate(algebra.lagrange(every, w)):
                    right += algebra.to_sympy(c) * b**k
                result += left * right
    return result


def variable_name(cell: int) -> str:
    """The thesis's numbering: x1..x{N²}, row-major, 1-based."""
    return f"x{cell + 1}"


# ----- the encoders: what each constraint kind or family puts into the ideal ------------------


@dataclass
class IdealParts:
    """What the ideal of one set of rules is written from, as its encoders leave it:

    - `peers[c]`: the cells that must hold another digit than c (a G polynomial per pair):
      a common unit, a pair rule that makes them differ, a cage;
    - `neighbours[c]` and `ladder`: the non-consecutive pairs (an H polynomial each);
    - `cages`: the sum constraints (a linear polynomial each where there is a total);
    - `relations`: the other pair relations, each pair (a, b) with the digit pairs it
      forbids (an R polynomial each); `equations`: the linear equations;
    - `domains[c]`: the digits c's own polynomial has as roots (F, or a parity product);
    - `houses`: the units of N cells (the optional house sums)."""

    rules: Rules
    domains: list[tuple[int, ...]]
    houses: list[tuple[int, ...]]
    mates: list[set[int]]
    ladder: list[tuple[int, int]] = field(default_factory=list)
    cages: list[SumConstraint] = field(default_factory=list)
    relations: list[tuple[int, int, frozenset[tuple[int, int]]]] = field(default_factory=list)
    equations: list[Equation] = field(default_factory=list)

    def add_unit(self, unit: Sequence[int]) -> None:
        if len(unit) == self.rules.size:
            self.houses.append(tuple(unit))
        self.differ(unit)

    def differ(self, cells: Sequence[int]) -> None:
        for cell in cells:
            self.mates[cell].update(cells)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted(m - {c})) for c, m in enumerate(self.mates))

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        others: list[list[int]] = [[] for _ in self.rules.cells]
        for a, b in self.ladder:
            others[a].append(b)
            others[b].append(a)
        return tuple(tuple(sorted(cells)) for cells in others)


Group = tuple[Constraint, ...]


def _units(parts: IdealParts, group: Group) -> None:
    for unit in extra_units(parts.rules, group):
        parts.add_unit(unit)


def _different(parts: IdealParts, group: Group) -> None:
    for constraint in group:
        assert isinstance(constraint, PairConstraint)
        for pair in constraint.pairs(parts.rules):
            parts.differ(pair)


def _non_consecutive(parts: IdealParts, group: Group) -> None:
    parts.ladder += [pair for _, pair in relation_pairs(parts.rules, _pair_group(group))]


def _cages(parts: IdealParts, group: Group) -> None:
    for cage in group:
        assert isinstance(cage, SumConstraint)
        parts.cages.append(cage)
        parts.differ(cage.summed)


def _relations(parts: IdealParts, group: Group) -> None:
    for constraint in _pair_group(group):
        forbidden = frozenset(forbidden_digit_pairs(parts.rules, constraint))
        if forbidden:
            parts.relations += [(a, b, forbidden) for a, b in constraint.pairs(parts.rules)]


def _equations(parts: IdealParts, group: Group) -> None:
    for constraint in group:
        assert isinstance(constraint, LinearConstraint)
        parts.equations += constraint.equations(parts.rules)


def _domains_only(parts: IdealParts, group: Group) -> None:
    """Cell-digit constraints are the cells' own polynomials (`narrow`): nothing more."""


def _pair_group(group: Group) -> list[PairConstraint]:
    return [c for c in group if isinstance(c, PairConstraint)]


@dataclass(frozen=True)
class IdealEncoder:
    """A kind's (or family's) part of the ideal; `narrow` (cell-digit constraints) shapes the
    cells' own polynomials."""

    add: Callable[[IdealParts, Group], None]
    narrow: Callable[[Rules, Sequence[Constraint], Domains], None] | None = None


ENCODERS: EncoderTable[IdealEncoder] = EncoderTable(
    {
        UnitConstraint: IdealEncoder(_units),
        DistinctPairs: IdealEncoder(_different),
        NonConsecutive: IdealEncoder(_non_consecutive),
        CellDigits: IdealEncoder(_domains_only, narrow_to_allowed),
        Cage: IdealEncoder(_cages),
        PairConstraint: IdealEncoder(_relations),
        LinearConstraint: IdealEncoder(_equations),
    }
)


@lru_cache(maxsize=16)  # one per rules; a worker sees few distinct rules at a time
def ideal_parts(rules: Rules) -> IdealParts:
    """The parts of the ideal of `rules`: the shape's units, then each encoder's share."""
    groups = grouped(ENCODERS, rules.constraints, "polynomials")
    parts = IdealParts(rules, list(cell_domains(rules, groups)), [], [set() for _ in rules.cells])
    for unit in shape_units(rules):
        parts.add_unit(unit)
    for encoder, group in groups:
        encoder.add(parts, group)
    return parts


def pairs_of(rules: Rules, cells: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs (a, b), a < b, of the given cells that must differ: a common unit, a cage,
    a pair rule that makes them differ (`IdealParts.peers`)."""
    chosen = set(cells)
    peers = ideal_parts(rules).peers
    return [(a, b) for a in sorted(chosen) for b in peers[a] if b > a and b in chosen]


def cage_range(rules: Rules, cells: int) -> tuple[int, int]:
    """The least and the greatest sum of `cells` distinct digits."""
    n = rules.size
    return cells * (cells + 1) // 2, cells * (2 * n - cells + 1) // 2


def cage_spread(rules: Rules) -> int:
    """The largest difference between two sums a summed cage can have: k(N - k) for k cells,
    or a linear equation's left side: sum |k| (N - 1) (0 without either). A prime above it
    tells every two such sums apart."""
    parts = ideal_parts(rules)
    spreads = [
        cage_range(rules, len(c.summed))[1] - cage_range(rules, len(c.summed))[0]
        for c in parts.cages
        if c.target is not None
    ]
    spreads += [sum(abs(k) for _, k in eq.terms) * (rules.size - 1) for eq in parts.equations]
    return max(spreads, default=0)


class PolynomialSystem:
    """The ideal over the open cells, with every known cell substituted.

    Built from univariate candidate polynomials C_c(t) and the known values: substituting
    x_k = v into G(x_k, x_c) leaves G(v, x_c), into H(x_k, x_c) leaves H(v, x_c), and into a
    cage sum with one open cell leaves D(x_c) - r; each candidate polynomial is first replaced
    by its gcd with these (1, a unit, when no digit is left). A polynomial is taken only when
    all of its cells are open or known, so a system over some of the cells (a unit's or a
    cage's local ideal) is a relaxation: its variety contains every solution's projection.
    The sympy ring and its polynomials are made on first use: the propagate-and-split
    search needs only the univariate part until a branch is small.
    `cells[i]` is the cell of the ring's i-th generator (lex: the first is the largest).
    """

    def __init__(
        self,
        rules: Rules,
        algebra: Algebra,
        candidates: Mapping[int, UPoly],
        known: Mapping[int, int],
        *,
        unit_sums: bool = False,
    ) -> None:
        self.rules = rules
        self.parts = parts = ideal_parts(rules)
        self.algebra = algebra
        self.known = dict(known)
        self.unit_sums = unit_sums
        self.univariate = dict(candidates)  # cell -> C(t)
        for cell in self.univariate:
            for peer in parts.peers[cell]:
                if peer in known and known[peer] in algebra.roots(self.univariate[cell]):
                    self.univariate[cell] = algebra.gcd(
                        self.univariate[cell], algebra.G[known[peer]]
                    )
            for peer in parts.neighbours[cell]:
                if peer in known:
                    self.univariate[cell] = algebra.gcd(
                        self.univariate[cell], algebra.next_to[known[peer]]
                    )
        for cage, open_cells in self._summed_cages:
            if len(open_cells) == 1:
                (cell,) = open_cells
                self.univariate[cell] = algebra.gcd(self.univariate[cell], self._last_in_cage(cage))
        for a, b, forbidden in parts.relations:  # a known partner leaves the allowed digits
            if a in self.univariate and b in known:
                allowed = (u for u in algebra.digits if (u, known[b]) not in forbidden)
                self.univariate[a] = algebra.gcd(self.univariate[a], algebra.from_roots(allowed))
            elif b in self.univariate and a in known:
                allowed = (w for w in algebra.digits if (known[a], w) not in forbidden)
                self.univariate[b] = algebra.gcd(self.univariate[b], algebra.from_roots(allowed))
        for equation, open_terms in self._whole_equations:
            if len(open_terms) == 1:
                ((cell, k),) = open_terms
                rest = self._equation_rest(equation)
                digit = rest // k if rest % k == 0 else 0
                last = algebra.linear(digit) if digit in algebra.value else algebra.one
                self.univariate[cell] = algebra.gcd(self.univariate[cell], last)
        self.cells = tuple(sorted(self.univariate, key=lambda c: (-len(self.univariate[c]), c)))

    @property
    def _summed_cages(self) -> list[tuple[SumConstraint, list[int]]]:
        """The cages with a sum whose cells are all open or known, with their open cells."""
        found = []
        for cage in self.parts.cages:
            if cage.target is None:
                continue
            if all(c in self.univariate or c in self.known for c in cage.summed):
                found.append((cage, [c for c in cage.summed if c in self.univariate]))
        return found

    @property
    def _whole_equations(self) -> list[tuple[Equation, list[tuple[int, int]]]]:
        """The linear equations whose cells are all open or known, with their open terms."""
        found = []
        for equation in self.parts.equations:
            if all(c in self.univariate or c in self.known for c, _ in equation.terms):
                found.append(
                    (equation, [(c, k) for c, k in equation.terms if c in self.univariate])
                )
        return found

    def _equation_rest(self, equation: Equation) -> int:
        """The equation's total less its known terms: what its open terms must add up to."""
        return equation.total - sum(k * self.known[c] for c, k in equation.terms if c in self.known)

    def _rest(self, cage: SumConstraint) -> int:
        """The cage's total less its known digits: what its open cells must add up to."""
        assert cage.target is not None
        return cage.target - sum(self.known[c] for c in cage.summed if c in self.known)

    def _last_in_cage(self, cage: SumConstraint) -> UPoly:
        """D(t) - r for the one open cell of a summed cage: t - r in the thesis (the root of
        digit r in general), 1 when r is no digit."""
        rest = self._rest(cage)
        return self.algebra.linear(rest) if rest in self.algebra.value else self.algebra.one

    @cached_property
    def ring(self) -> Any:
        """The sympy ring over the field, one variable per open cell, lex order."""
        from sympy.polys.orderings import lex
        from sympy.polys.rings import ring

        names = ",".join(variable_name(c) for c in self.cells) if self.cells else "x0"
        return ring(names, self.algebra.domain, lex)[0]

    def variable(self, cell: int) -> Poly:
        return self.ring.gens[self.cells.index(cell)]

    @cached_property
    def candidates(self) -> dict[int, Poly]:
        """cell -> C(x_cell), the candidate polynomial in the ring."""
        return {c: self.algebra.lift(self.univariate[c], self.variable(c)) for c in self.cells}

    def _bivariate(
        self, a: int, b: int, reduced: Mapping[tuple[int, int], Coefficient]
    ) -> Poly | None:
        position = {c: i for i, c in enumerate(self.cells)}
        zero = [0] * self.ring.ngens
        terms = {}
        for (i, j), coefficient in reduced.items():
            monomial = list(zero)
            monomial[position[a]] = i
            monomial[position[b]] = j
            terms[tuple(monomial)] = self.algebra.to_sympy(coefficient)
        return self.ring.from_dict(terms) if terms else None

    @cached_property
    def pairs(self) -> dict[tuple[int, int], Poly]:
        """(a, b) -> G(x_a, x_b) reduced modulo C_a and C_b; coprime C_a, C_b are left out."""
        algebra = self.algebra
        pairs = {}
        for a, b in pairs_of(self.rules, self.cells):
            first, second = self.univariate[a], self.univariate[b]
            if algebra.degree(algebra.gcd(first, second)) == 0:
                continue  # G is a unit modulo C_a, C_b: x_a != x_b holds already
            poly = self._bivariate(a, b, algebra.reduced_pair(first, second))
            if poly is not None:
                pairs[(a, b)] = poly
        return pairs

    @cached_property
    def nonconsecutive(self) -> dict[tuple[int, int], Poly]:
        """(a, b) -> H(x_a, x_b) reduced modulo C_a and C_b, for orthogonal neighbours under the
        non-consecutive rule; left out when no pair of their roots differs by 1."""
        open_cells = set(self.cells)
        found = {}
        for a, b in self.parts.ladder:
            if a in open_cells and b in open_cells:
                reduced = self.algebra.reduced_nonconsecutive(
                    self.univariate[a], self.univariate[b]
                )
                poly = self._bivariate(a, b, reduced)
                if poly is not None:
                    found[(a, b)] = poly
        return found

    @cached_property
    def relation_polynomials(self) -> dict[tuple[int, int], Poly]:
        """(a, b) -> R(x_a, x_b) reduced modulo C_a and C_b for each pair relation of two
        open cells (the sum over several relations of one pair: each is 0 or 1 on the grid,
        so the sum vanishes exactly where all do); left out when no pair of roots is
        forbidden."""
        open_cells = set(self.cells)
        forbidden: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for a, b, barred in self.parts.relations:
            if a in open_cells and b in open_cells:
                if a > b:  # one polynomial per pair of cells, written first cell first
                    a, b, barred = b, a, frozenset((w, u) for u, w in barred)
                forbidden.setdefault((a, b), set()).update(barred)
        found = {}
        for (a, b), pairs in forbidden.items():
            reduced = self.algebra.reduced_relation(
                self.univariate[a], self.univariate[b], frozenset(pairs)
            )
            poly = self._bivariate(a, b, reduced)
            if poly is not None:
                found[(a, b)] = poly
        return found

    @cached_property
    def linear_polynomials(self) -> list[Poly]:
        """sum k D(x_c) - r over each linear equation's open cells (two or more), r its total
        less its known terms: linear in the thesis formulation."""
        algebra, found = self.algebra, []
        for equation, open_terms in self._whole_equations:
            if len(open_terms) < 2:
                continue
            total = self.ring.zero
            for cell, k in open_terms:
                digit = algebra.divmod(algebra.digit_polynomial, self.univariate[cell])[1]
                total += algebra.lift(algebra.scale(digit, k), self.variable(cell))
            total -= algebra.to_sympy(algebra.number(self._equation_rest(equation)))
            if total:
                found.append(total)
        return found

    @cached_property
    def cage_sums(self) -> list[Poly]:
        """sum D(x_c) - r over each summed cage's open cells (two or more), where r is its
        total less its known digits: the thesis's linear x_1 + ... + x_k - r."""
        algebra, sums = self.algebra, []
        for cage, open_cells in self._summed_cages:
            if len(open_cells) < 2 or self._cage_clash(cage) is not None:
                continue
            total = self.ring.zero
            for cell in open_cells:
                digit = algebra.divmod(algebra.digit_polynomial, self.univariate[cell])[1]
                total += algebra.lift(digit, self.variable(cell))
            total -= algebra.to_sympy(algebra.number(self._rest(cage)))
            if total:  # zero when the cells' candidates already fix the sum: nothing to add
                sums.append(total)
        return sums

    @cached_property
    def clashing_pairs(self) -> list[tuple[int, int]]:
        """Known cells that must differ and hold the same value (givens that break the rules)."""
        known = self.known
        return [(a, b) for a, b in pairs_of(self.rules, list(known)) if known[a] == known[b]]

    def _cage_clash(self, cage: SumConstraint) -> str | None:
        """Why a summed cage puts 1 in the ideal, if it does: its total is out of reach of
        its number of cells, or all its cells are known and add up to something else."""
        assert cage.target is not None
        low, high = cage_range(self.rules, len(cage.summed))
        if not low <= cage.target <= high:
            return f"{len(cage.summed)} distinct digits add up to {low}..{high}"
        if all(c in self.known for c in cage.summed) and self._rest(cage):
            return f"its digits add up to {cage.target - self._rest(cage)}"
        return None

    @cached_property
    def clash_reasons(self) -> list[tuple[str, Coefficient]]:
        """The rules the known cells break, each with the nonzero constant it puts in the
        ideal (so 1 is in it): G(v, v) = F'(v) for two equal peers; H(v, v +- 1) = 1 for
        consecutive neighbours; prod (v - d) over the allowed digits for a parity cell;
        the known sum less the total for a cage (1 for a total out of reach)."""
        algebra, known, rules = self.algebra, self.known, self.rules
        found: list[tuple[str, Coefficient]] = []
        for a, b in self.clashing_pairs:
            constant = algebra.evaluate(algebra.G[known[a]], algebra.value[known[b]])
            found.append(
                (f"{rules.cell_name(a)} and {rules.cell_name(b)} both hold {known[a]}", constant)
            )
        for a, b in self.parts.ladder:
            if a in known and b in known and abs(known[a] - known[b]) == 1:
                found.append(
                    (f"{rules.cell_name(a)} and {rules.cell_name(b)} hold consecutive digits", 1)
                )
        for a, b, forbidden in self.parts.relations:
            if a in known and b in known and (known[a], known[b]) in forbidden:
                found.append(
                    (
                        f"{rules.cell_name(a)} and {rules.cell_name(b)} hold {known[a]} and "
                        f"{known[b]}, which their pair rule forbids",
                        1,
                    )
                )
        for equation, open_terms in self._whole_equations:
            rest = self._equation_rest(equation)
            if not open_terms and rest:
                cells = ", ".join(rules.cell_name(c) for c, _ in equation.terms)
                found.append((f"the equation over {cells} misses its total by {rest}", 1))
        for cell, digit in known.items():
            allowed = self.parts.domains[cell]
            if digit not in allowed:
                constant = algebra.evaluate(algebra.from_roots(allowed), algebra.value[digit])
                found.append(
                    (f"{rules.cell_name(cell)} holds {digit}, not allowed there", constant)
                )
        for cage in self.parts.cages:
            if cage.target is None:
                continue
            reason = self._cage_clash(cage)
            if reason is not None:
                rest = self._rest(cage) if all(c in known for c in cage.summed) else 1
                constant = algebra.number(-rest) or 1
                cells = "+".join(rules.cell_name(c) for c in cage.summed)
                found.append((f"cage {cells} = {cage.target}: {reason}", constant))
        return found

    @cached_property
    def clashes(self) -> list[Poly]:
        """The nonzero constants of `clash_reasons`: with any of them, 1 is in the ideal."""
        return [self.ring(self.algebra.to_sympy(c)) for _, c in self.clash_reasons]

    @cached_property
    def sums(self) -> list[Poly]:
        """The house sums x_1 + ... + x_N = N(N+1)/2 with the known cells substituted (option).

        Only houses (units of N cells: they hold every digit) whose cells are all open or
        known; with the G's in the ideal a house sum is implied, so it never changes the
        solutions, whatever the field."""
        if not self.unit_sums:
            return []
        value = self.algebra.value
        target = sum(value[d] for d in self.algebra.digits)  # N(N+1)/2 in the thesis
        sums = []
        for unit in self.parts.houses:
            open_cells = [c for c in unit if c in self.univariate]
            if open_cells and all(c in self.univariate or c in self.known for c in unit):
                fixed = sum(value[self.known[c]] for c in unit if c in self.known)
                total = sum((self.variable(c) for c in open_cells), self.ring.zero)
                sums.append(total - self.algebra.to_sympy(self.algebra.number(target - fixed)))
        return sums

    def polynomials(self) -> list[Poly]:
        """The generators: clashes, candidate polynomials, pair polynomials (G, H, then R),
        cage sums, linear equations, house sums."""
        return [
            *self.clashes,
            *(self.candidates[c] for c in self.cells),
            *self.pairs.values(),
            *self.nonconsecutive.values(),
            *self.relation_polynomials.values(),
            *self.cage_sums,
            *self.linear_polynomials,
            *self.sums,
        ]

    def size(self) -> dict[str, int]:
        polynomials = self.polynomials()
        return {
            "variables": len(self.cells),
            "polynomials": len(polynomials),
            "candidate_polynomials": len(self.candidates),
            "pair_polynomials": len(self.pairs),
            "nonconsecutive_polynomials": len(self.nonconsecutive),
            "relation_polynomials": len(self.relation_polynomials),
            "cage_sums": len(self.cage_sums),
            "linear_polynomials": len(self.linear_polynomials),
            "unit_sums": len(self.sums),
            "max_degree": max((total_degree(p) for p in polynomials), default=0),
            "terms": sum(len(p) for p in polynomials),
        }


def candidate_polynomials(puzzle: Grid, algebra: Algebra) -> dict[int, UPoly]:
    """C(x) for every empty cell: the product of x - d over the digits d its parity allows,
    less each value among its given peers.

    This is the gcd of the cell's polynomial (F, or the parity product) and the thesis's
    G(v, x) = F(x)/(x - v) over the given peers.
    """
    parts = ideal_parts(puzzle.rules)
    result = {}
    for cell in puzzle.empty_cells:
        seen = {puzzle[p] for p in parts.peers[cell]} - {0}
        result[cell] = algebra.from_roots(d for d in parts.domains[cell] if d not in seen)
    return result


def algebra_for(rules: Rules, modulus: ModulusOption, *, unity: bool = False) -> Algebra:
    """The field a puzzle's ideal is written over: `modulus` resolved (`resolve_modulus`) and
    checked against the spread of its cage sums (FieldTooSmallError)."""
    spread = cage_spread(rules)
    prime = resolve_modulus(modulus, rules.size, unity, above=spread)
    if prime is not None and prime <= spread:
        raise FieldTooSmallError(
            f"GF({prime}) cannot tell the sums of these {rules} cages or equations apart (two "
            f"sums of one can differ by {spread}): use a prime above {spread}, or QQ"
        )
    return Algebra.of(rules.size, prime, unity=unity)


def system_of(
    puzzle: Grid,
    *,
    modulus: ModulusOption = None,
    unit_sums: bool = False,
    unity: bool = False,
) -> PolynomialSystem:
    """The puzzle's ideal with its givens substituted (digits as roots of unity if `unity`)."""
    algebra = algebra_for(puzzle.rules, modulus, unity=unity)
    known = {c: v for c, v in enumerate(puzzle.values) if v}
    return PolynomialSystem(
        puzzle.rules,
        algebra,
        candidate_polynomials(puzzle, algebra),
        known,
        unit_sums=unit_sums,
    )


def raw_size(rules: Rules, givens: int, *, unit_sums: bool = False) -> dict[str, int]:
    """The size of the ideal taken as is: every cell a variable (F, or its parity product),
    G per pair that must differ, H per non-consecutive pair, one sum per summed cage,
    x - v per given (and a sum per house)."""
    parts = ideal_parts(rules)
    pairs = sum(len(p) for p in parts.peers) // 2
    cages = sum(1 for cage in parts.cages if cage.target is not None)
    sums = len(parts.houses) if unit_sums else 0
    return {
        "raw_variables": rules.cell_count,
        "raw_polynomials": rules.cell_count
        + pairs
        + len(parts.ladder)
        + len(parts.relations)
        + len(parts.equations)
        + cages
        + givens
        + sums,
    }


# The prime the back-end computes modulo unless told otherwise (the thesis formulation).
DEFAULT_MODULUS = 32003

ModulusOption = int | None | Literal["default"]


def resolve_modulus(option: ModulusOption, size: int, unity: bool, above: int = 0) -> int | None:
    """`default`: 32003 for the thesis, the smallest p = 1 mod N (and above `above`, the
    cages' spread) for roots of unity."""
    if option == "default":
        return unity_prime(size, above) if unity else DEFAULT_MODULUS
    return option


def field_modulus(text: str) -> int | None:
    """`QQ` -> None (the rationals), `GF(p)` -> p; the prime is checked by `Algebra`."""
    spec = text.strip().upper().replace(" ", "")
    if spec == "QQ":
        return None
    if spec.startswith("GF(") and spec.endswith(")") and spec[3:-1].isdigit():
        return int(spec[3:-1])
    raise PolynomialOptionsError(
        f"unknown field {text!r}: QQ (the rationals) or GF(p) for a prime p, e.g. GF(32003)"
    )


class PolynomialReduction(Reduction[PolynomialSystem, Mapping[int, int]]):
    """Puzzle -> the substituted ideal; a solution (cell -> digit of its variable) -> grid.

    `modulus`: None for the rationals, a prime p > N, or `default` (see `resolve_modulus`).
    """

    name = "polynomials"
    encoders = ENCODERS

    def __init__(
        self,
        *,
        modulus: ModulusOption = None,
        unit_sums: bool = False,
        unity: bool = False,
        script: str = "sudoku.sing",
    ) -> None:
        self.modulus = modulus
        self.unit_sums = unit_sums
        self.unity = unity
        self.script = script  # the exported file's name, which its recipe loads

    def apply(self, puzzle: Grid) -> tuple[PolynomialSystem, Grid]:
        system = system_of(puzzle, modulus=self.modulus, unit_sums=self.unit_sums, unity=self.unity)
        return system, puzzle

    def invert(self, answer: Mapping[int, int], data: Grid) -> Grid:
        return data.with_values(dict(answer))

    def size(self, model: PolynomialSystem) -> dict[str, int]:
        return model.size()

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle, modulus=self._modulus(puzzle))

    def export(self, puzzle: Grid) -> str:
        return export(
            puzzle,
            modulus=self._modulus(puzzle),
            unit_sums=self.unit_sums,
            unity=self.unity,
            script=self.script,
        )

    def _modulus(self, puzzle: Grid) -> int | None:
        # `default` with roots of unity moves above the cages' spread, as `system_of` does
        above = cage_spread(puzzle.rules)
        return resolve_modulus(self.modulus, puzzle.rules.size, self.unity, above=above)


# --- the `reduce --to polynomials` target -------------------------------------------------


def describe(puzzle: Grid, *, modulus: int | None = None) -> dict[str, Any]:
    """The substituted system's size, next to the raw thesis ideal's."""
    system = system_of(puzzle, modulus=modulus)
    return {
        "field": system.algebra.field_name,
        "formulation": system.algebra.formulation,
        "order": "lex, cells with many candidates first",
        **system.size(),
        **raw_size(puzzle.rules, puzzle.givens),
    }


# How to solve an exported script in Singular, written into its header: a degrevlex basis
# (slimgb), converted to the lex basis by FGLM (the ideal is zero-dimensional), split into
# its points by facstd; a lex `std(I)` directly is far slower (docs/measurements/models.md). `{variables}` and `{characteristic}`
# are filled in per script.
SINGULAR_RECIPE = """\
< "{script}";  // this file: the ring r (lex) and the ideal I
option(redSB);  // reduced bases, which fglm needs
ring s = {characteristic}, ({variables}), dp;
ideal J = slimgb(imap(r, I));  // a degrevlex basis
setring r;
ideal L = fglm(s, J);  // the lex basis of the same ideal: triangular
vdim(L);  // the number of solutions (0 when L = 1)
list P = facstd(L);  // one component per solution
P;"""


def export(
    puzzle: Grid,
    *,
    modulus: int | None = None,
    unit_sums: bool = False,
    unity: bool = False,
    script: str = "sudoku.sing",
) -> str:
    """The system as a Singular script. Its header says what it is (the rules, the puzzle,
    each variable's cell, the digit of each root) and how to solve it (`SINGULAR_RECIPE`);
    `script` is the file name the recipe loads."""
    system = system_of(puzzle, modulus=modulus, unit_sums=unit_sums, unity=unity)
    rules, algebra = puzzle.rules, system.algebra
    names = [variable_name(c) for c in system.cells] or ["x0"]
    roots = ", ".join(f"{d} -> {v}" for d, v in algebra.value.items())
    recipe = SINGULAR_RECIPE.format(
        script=script, characteristic=algebra.modulus or 0, variables=", ".join(names)
    )
    counts = system.size()
    lines = [
        "// sudoku-bench: the polynomial ideal of a Sudoku puzzle (reduce --to polynomials)",
        *(f"// {line}" for line in puzzle_header(puzzle)),  # puzzle, rules, symbol -> digit
        f"// field: {algebra.field_name}; {algebra.formulation} formulation; "
        f"digit -> root: {roots}",
        "// variables: one per empty cell, x_k is cell k row-major from 1 (x1 = r1c1);"
        " lex order, cells with many candidates first; givens substituted",
        *(f"// {variable_name(c)} = {rules.cell_name(c)}" for c in system.cells),
        f"// generators, in this order: clash constants {len(system.clashes)}, candidate"
        f" polynomials C(x) {counts['candidate_polynomials']}, G(xi, xj) for cells that differ"
        f" {counts['pair_polynomials']}, H(xi, xj) for non-consecutive neighbours"
        f" {counts['nonconsecutive_polynomials']}, R(xi, xj) for other pair relations"
        f" {counts['relation_polynomials']}, cage sums {counts['cage_sums']}, linear"
        f" equations {counts['linear_polynomials']}, house sums {counts['unit_sums']}",
        "// how to solve it: a lex std(I) can run for hours even on an empty 4x4; these lines",
        "// in a Singular 4 session (the first loads this file) give every solution in seconds:",
        *(f"//   {line}" for line in recipe.splitlines()),
        "// each component P[i] is x_k - root for every variable: the cell of x_k holds the",
        "// digit of that root; with the givens of the puzzle line that is the full grid.",
        f"ring r = {algebra.modulus or 0}, ({', '.join(names)}), lp;",
        "ideal I =",
    ]
    polys = [format_polynomial(p, algebra) for p in system.polynomials()] or ["0"]
    lines += [f"  {p}," for p in polys[:-1]] + [f"  {polys[-1]};", ""]
    return "\n".join(lines)


def format_polynomial(poly: Poly, algebra: Algebra) -> str:
    """Singular/Macaulay2-style text: `x3^2*x7 - 5*x3 + 4`."""
    terms = {m: algebra.from_sympy(c) for m, c in poly.terms()}
    return format_terms(terms, [str(g) for g in poly.ring.gens], algebra)


def format_terms(
    terms: Mapping[tuple[int, ...], Coefficient], names: Sequence[str], algebra: Algebra
) -> str:
    """Terms (monomial -> coefficient), largest first in the order given, as text."""
    parts = []
    for monomial in sorted(terms, reverse=True):
        c = algebra.signed(terms[monomial])
        powers = [n if e == 1 else f"{n}^{e}" for n, e in zip(names, monomial, strict=True) if e]
        body = "*".join(powers)
        text = f"{abs(c)}*{body}" if body and abs(c) != 1 else body or str(abs(c))
        parts.append(("-" if c < 0 else "+", text))
    if not parts:
        return "0"
    sign, first = parts[0]
    return ("-" if sign == "-" else "") + first + "".join(f" {s} {t}" for s, t in parts[1:])


def total_degree(poly: Poly) -> int:
    return max((sum(monomial) for monomial in poly.monoms()), default=0) if poly else 0
