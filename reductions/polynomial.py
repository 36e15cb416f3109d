"""Sudoku as a polynomial ideal: the model of the source thesis (section 2.3.2, after
Gago-Vargas, Hartillo-Hermoso, Martín-Morales and Ucha-Enríquez, "Sudokus and Gröbner
bases: not only a divertimento").

One variable x_k per cell, numbered 1..N² row-major as in the thesis (x6 is r2c2 of a 4x4).
For every cell F(x) = (x - 1)(x - 2)...(x - N): its roots are the digits. For every pair
of cells sharing a unit G(xi, xj) = (F(xi) - F(xj)) / (xi - xj): on the roots of F it
vanishes exactly when xi != xj (G(v, v) = F'(v) != 0 because F is square-free). A given v
adds x - v. Optionally every unit adds the linear sum x_1 + ... + x_N = N(N+1)/2.

The givens are substituted before anything else, which shrinks the system by orders of
magnitude (measured: the raw 81-variable ideal of a 75-given 9x9 does not finish in 300 s):
G(v, x) = F(x)/(x - v) for a given peer v, so the gcd of F with those polynomials, the
cell's *candidate polynomial* C(x) = F(x) / prod(x - v), replaces F; every pair polynomial
between empty cells is reduced modulo the two candidate polynomials, and a pair whose
candidate polynomials are coprime is left out (G is then a unit modulo them: it adds nothing).

Coefficients are rationals, or integers modulo a prime p > N (the digits stay distinct roots).
`unity=True` is Bayer's colouring ideal: the same construction with digit d standing for
omega^d, omega a primitive N-th root of unity mod p (p = 1 mod N), so F(t) = t^N - 1.
Variables are ordered for lex with the cells of many candidates first (largest), which the
measurements showed to matter 2-20x in sympy.

`export(puzzle)` writes the system as a Singular script (`ring r = 0, (x1, ...), lp;`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache, cached_property
from typing import Any, Literal

from puzzles.errors import SudokuBenchError
from puzzles.grid import Grid
from puzzles.rules import Rules
from reductions.base import Reduction

Poly = Any  # a sympy PolyElement (sympy ships no type hints)


class PolynomialOptionsError(SudokuBenchError):
    """A coefficient field that cannot hold the digits as distinct roots."""


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


def unity_prime(size: int) -> int:
    """The smallest prime p > N with p = 1 mod N (GF(p) holds the N-th roots of unity)."""
    p = size + 1
    while not is_prime(p):
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


def variable_name(cell: int) -> str:
    """The thesis's numbering: x1..x{N²}, row-major, 1-based."""
    return f"x{cell + 1}"


def pairs_of(rules: Rules, cells: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs (a, b), a < b, of the given cells that share a unit."""
    chosen = set(cells)
    return [(a, b) for a in sorted(chosen) for b in rules.peers[a] if b > a and b in chosen]


class PolynomialSystem:
    """The ideal over the open cells, with every known cell substituted.

    Built from univariate candidate polynomials C_c(t) and the known values: substituting
    x_k = v into G(x_k, x_c) leaves G(v, x_c), so each candidate polynomial is first replaced
    by its gcd with the G(v, t) of its known peers (1, a unit, when no digit is left).
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
        self.algebra = algebra
        self.known = dict(known)
        self.unit_sums = unit_sums
        self.univariate = dict(candidates)  # cell -> C(t)
        for cell in self.univariate:
            for peer in rules.peers[cell]:
                if peer in known and known[peer] in algebra.roots(self.univariate[cell]):
                    self.univariate[cell] = algebra.gcd(
                        self.univariate[cell], algebra.G[known[peer]]
                    )
        self.cells = tuple(sorted(self.univariate, key=lambda c: (-len(self.univariate[c]), c)))

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

    @cached_property
    def pairs(self) -> dict[tuple[int, int], Poly]:
        """(a, b) -> G(x_a, x_b) reduced modulo C_a and C_b; coprime C_a, C_b are left out."""
        algebra, ring = self.algebra, self.ring
        position = {c: i for i, c in enumerate(self.cells)}
        zero = [0] * ring.ngens
        pairs = {}
        for a, b in pairs_of(self.rules, self.cells):
            first, second = self.univariate[a], self.univariate[b]
            if algebra.degree(algebra.gcd(first, second)) == 0:
                continue  # G is a unit modulo C_a, C_b: x_a != x_b holds already
            terms = {}
            for (i, j), coefficient in algebra.reduced_pair(first, second).items():
                monomial = list(zero)
                monomial[position[a]] = i
                monomial[position[b]] = j
                terms[tuple(monomial)] = algebra.to_sympy(coefficient)
            if terms:
                pairs[(a, b)] = ring.from_dict(terms)
        return pairs

    @cached_property
    def clashing_pairs(self) -> list[tuple[int, int]]:
        """Known cells of a unit with the same value (givens that break the rules)."""
        known = self.known
        return [(a, b) for a, b in pairs_of(self.rules, list(known)) if known[a] == known[b]]

    @cached_property
    def clashes(self) -> list[Poly]:
        """G(v, v) = F'(v), a nonzero constant, for each clashing pair: 1 is in the ideal."""
        algebra, known = self.algebra, self.known
        return [
            self.ring(
                algebra.to_sympy(algebra.evaluate(algebra.G[known[a]], algebra.value[known[b]]))
            )
            for a, b in self.clashing_pairs
        ]

    @cached_property
    def sums(self) -> list[Poly]:
        """The unit sums x_1 + ... + x_N = N(N+1)/2 with the known cells substituted (option)."""
        if not self.unit_sums:
            return []
        value = self.algebra.value
        target = sum(value[d] for d in self.algebra.digits)  # N(N+1)/2 in the thesis
        sums = []
        for unit in self.rules.units:
            open_cells = [c for c in unit if c in self.univariate]
            if open_cells:
                fixed = sum(value[self.known[c]] for c in unit if c in self.known)
                total = sum((self.variable(c) for c in open_cells), self.ring.zero)
                sums.append(total - self.algebra.to_sympy(self.algebra.number(target - fixed)))
        return sums

    def polynomials(self) -> list[Poly]:
        """The generators: clashes, candidate polynomials, pair polynomials, unit sums."""
        return [
            *self.clashes,
            *(self.candidates[c] for c in self.cells),
            *self.pairs.values(),
            *self.sums,
        ]

    def size(self) -> dict[str, int]:
        polynomials = self.polynomials()
        return {
            "variables": len(self.cells),
            "polynomials": len(polynomials),
            "candidate_polynomials": len(self.candidates),
            "pair_polynomials": len(self.pairs),
            "unit_sums": len(self.sums),
            "max_degree": max((total_degree(p) for p in polynomials), default=0),
            "terms": sum(len(p) for p in polynomials),
        }


def candidate_polynomials(puzzle: Grid, algebra: Algebra) -> dict[int, UPoly]:
    """C(x) for every empty cell: F(x) divided by x - v for each value v among its given peers.

    This is the gcd of F(x) and the thesis's G(v, x) = F(x)/(x - v) over the given peers.
    """
    rules = puzzle.rules
    result = {}
    for cell in puzzle.empty_cells:
        seen = {puzzle[p] for p in rules.peers[cell]} - {0}
        result[cell] = algebra.from_roots(d for d in rules.digits if d not in seen)
    return result


def system_of(
    puzzle: Grid, *, modulus: int | None = None, unit_sums: bool = False, unity: bool = False
) -> PolynomialSystem:
    """The puzzle's ideal with its givens substituted (digits as roots of unity if `unity`)."""
    algebra = Algebra.of(puzzle.rules.size, modulus, unity=unity)
    known = {c: v for c, v in enumerate(puzzle.values) if v}
    return PolynomialSystem(
        puzzle.rules,
        algebra,
        candidate_polynomials(puzzle, algebra),
        known,
        unit_sums=unit_sums,
    )


def raw_size(rules: Rules, givens: int, *, unit_sums: bool = False) -> dict[str, int]:
    """The size of the thesis ideal taken as is: every cell a variable, x - v per given."""
    pairs = sum(len(p) for p in rules.peers) // 2
    sums = len(rules.units) if unit_sums else 0
    return {
        "raw_variables": rules.cell_count,
        "raw_polynomials": rules.cell_count + pairs + givens + sums,
    }


# The prime the back-end computes modulo unless told otherwise (the thesis formulation).
DEFAULT_MODULUS = 32003

ModulusOption = int | None | Literal["default"]


def resolve_modulus(option: ModulusOption, size: int, unity: bool) -> int | None:
    """`default`: 32003 for the thesis, the smallest p = 1 mod N for roots of unity."""
    if option == "default":
        return unity_prime(size) if unity else DEFAULT_MODULUS
    return option


class PolynomialReduction(Reduction[PolynomialSystem, Mapping[int, int]]):
    """Puzzle -> the substituted ideal; a solution (cell -> digit of its variable) -> grid.

    `modulus`: None for the rationals, a prime p > N, or `default` (see `resolve_modulus`).
    """

    name = "polynomials"

    def __init__(
        self, *, modulus: ModulusOption = None, unit_sums: bool = False, unity: bool = False
    ) -> None:
        self.modulus = modulus
        self.unit_sums = unit_sums
        self.unity = unity

    def apply(self, puzzle: Grid) -> tuple[PolynomialSystem, Grid]:
        modulus = resolve_modulus(self.modulus, puzzle.rules.size, self.unity)
        system = system_of(puzzle, modulus=modulus, unit_sums=self.unit_sums, unity=self.unity)
        return system, puzzle

    def invert(self, answer: Mapping[int, int], data: Grid) -> Grid:
        return data.with_values(dict(answer))

    def size(self, model: PolynomialSystem) -> dict[str, int]:
        return model.size()

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle)


# --- the `reduce --to polynomials` target -------------------------------------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    """The substituted system's size, next to the raw thesis ideal's."""
    system = system_of(puzzle)
    return {
        "field": system.algebra.field_name,
        "formulation": system.algebra.formulation,
        "order": "lex, cells with many candidates first",
        **system.size(),
        **raw_size(puzzle.rules, puzzle.givens),
    }


def export(
    puzzle: Grid, *, modulus: int | None = None, unit_sums: bool = False, unity: bool = False
) -> str:
    """The system as a Singular script; `std(I)` there gives the basis the back-end computes."""
    system = system_of(puzzle, modulus=modulus, unit_sums=unit_sums, unity=unity)
    rules = puzzle.rules
    names = [variable_name(c) for c in system.cells] or ["x0"]
    values = ", ".join(f"{d} -> {v}" for d, v in system.algebra.value.items())
    lines = [
        f"// sudoku-bench: the Sudoku ideal of {puzzle.to_line()}",
        f"// {rules} grid, givens substituted; x_k is cell k, row-major from 1 (x1 = r1c1)",
        f"// {system.algebra.formulation} formulation; digit -> root: {values}",
        *(f"// {variable_name(c)} = {rules.cell_name(c)}" for c in system.cells),
        f"ring r = {system.algebra.modulus or 0}, ({', '.join(names)}), lp;",
        "ideal I =",
    ]
    polys = [format_polynomial(p, system.algebra) for p in system.polynomials()] or ["0"]
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
