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
Variables are ordered for lex with the cells of many candidates first (largest), which the
measurements showed to matter 2-20x in sympy.

`export(puzzle)` writes the system as a Singular script (`ring r = 0, (x1, ...), lp;`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from puzzles.errors import SudokuBenchError
from puzzles.geometry import Geometry
from puzzles.grid import Grid
from reductions.base import Reduction

Poly = Any  # a sympy PolyElement (sympy ships no type hints)


class PolynomialOptionsError(SudokuBenchError):
    """A coefficient field that cannot hold the digits as distinct roots."""


def is_prime(number: int) -> bool:
    return number >= 2 and all(number % d for d in range(2, math.isqrt(number) + 1))


@dataclass(frozen=True)
class Algebra:
    """The coefficient field and the univariate polynomials of one grid size.

    `t` generates K[t], where the candidate polynomials of the search live; `F` is the
    thesis's F(t) and `G[v]` the pair polynomial with one side fixed to the digit v,
    G(v, t) = (F(v) - F(t)) / (v - t), which the thesis calls G(3, x6) and so on.
    """

    size: int
    modulus: int | None
    domain: Any
    univariate: Any
    t: Poly
    F: Poly
    G: Mapping[int, Poly]

    @staticmethod
    @cache
    def of(size: int, modulus: int | None = None) -> Algebra:
        from sympy.polys.domains import GF, QQ
        from sympy.polys.orderings import lex
        from sympy.polys.rings import ring

        if modulus is not None and (not is_prime(modulus) or modulus <= size):
            raise PolynomialOptionsError(
                f"modulus {modulus} must be a prime larger than {size} so that the digits "
                f"1..{size} stay distinct roots"
            )
        domain = QQ if modulus is None else GF(modulus)
        univariate, t = ring("t", domain, lex)
        F = univariate.one
        for digit in range(1, size + 1):
            F *= t - digit
        G = {v: pair_polynomial(F, univariate, t, univariate(v)) for v in range(1, size + 1)}
        return Algebra(size, modulus, domain, univariate, t, F, G)

    @property
    def field_name(self) -> str:
        return "QQ" if self.modulus is None else f"GF({self.modulus})"

    def roots(self, poly: Poly) -> tuple[int, ...]:
        """The roots of a divisor of F, which are digits (F splits into x - 1, ..., x - N)."""
        return tuple(d for d in range(1, self.size + 1) if not poly(d))

    def from_roots(self, digits: Iterable[int]) -> Poly:
        """The monic polynomial prod (t - d): F divided by the factors of the excluded digits."""
        excluded = self.univariate.one
        kept = set(digits)
        for d in range(1, self.size + 1):
            if d not in kept:
                excluded *= self.t - d
        return self.F.quo(excluded)

    def lift(self, poly: Poly, x: Poly) -> Poly:
        """The univariate polynomial `poly(t)` written in the multivariate variable `x` (Horner)."""
        result = x.ring.zero
        for coefficient in poly.to_dense():
            result = result * x + x.ring.domain.convert(coefficient, self.domain)
        return result

    def integer(self, coefficient: Any) -> int:
        """A coefficient as an int (symmetric residue mod p; rationals here are integers)."""
        if self.modulus is None:
            value = self.domain.to_sympy(coefficient)
            if not value.is_Integer:
                raise ValueError(f"coefficient {value} is not an integer")
            return int(value)
        return int(self.domain.to_int(coefficient))


def pair_polynomial(F: Poly, ring: Any, a: Poly, b: Poly) -> Poly:
    """G(a, b) = (F(a) - F(b)) / (a - b), expanded without dividing: sum f_k (a^k - b^k)/(a - b).

    `a` and `b` are ring elements (variables or constants); F's coefficients are in its ring.
    """
    result = ring.zero
    for (k,), f_k in F.terms():
        for i in range(k):
            result += ring.domain.convert(f_k, F.ring.domain) * a**i * b ** (k - 1 - i)
    return result


def variable_name(cell: int) -> str:
    """The thesis's numbering: x1..x{N²}, row-major, 1-based."""
    return f"x{cell + 1}"


def pairs_of(geometry: Geometry, cells: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs (a, b), a < b, of the given cells that share a unit."""
    chosen = set(cells)
    return [(a, b) for a in sorted(chosen) for b in geometry.peers[a] if b > a and b in chosen]


@dataclass
class PolynomialSystem:
    """The ideal over the unresolved cells, with everything known substituted.

    `cells[i]` is the cell of the ring's i-th generator (lex: the first is the largest).
    """

    geometry: Geometry
    algebra: Algebra
    ring: Any
    cells: tuple[int, ...]
    candidates: dict[int, Poly]  # cell -> C(x_cell), the candidate polynomial
    pairs: dict[tuple[int, int], Poly]  # (a, b) -> G(x_a, x_b) reduced modulo C_a, C_b
    sums: list[Poly] = field(default_factory=list)  # unit sums with the known cells substituted
    clashes: list[Poly] = field(default_factory=list)  # nonzero constants: givens that clash
    known: dict[int, int] = field(default_factory=dict)  # the substituted cells' values

    def variable(self, cell: int) -> Poly:
        return self.ring.gens[self.cells.index(cell)]

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


def make_system(
    geometry: Geometry,
    algebra: Algebra,
    candidates: Mapping[int, Poly],
    known: Mapping[int, int],
    *,
    unit_sums: bool = False,
) -> PolynomialSystem:
    """The ideal of the cells in `candidates` (univariate C(t) each), the `known` cells substituted.

    Substituting x_k = v into G(x_k, x_c) leaves G(v, x_c): each candidate polynomial is
    replaced by its gcd with those of its known peers (1 when no digit is left).
    """
    from sympy.polys.orderings import lex
    from sympy.polys.rings import ring

    candidates = dict(candidates)
    for cell in candidates:
        for peer in geometry.peers[cell]:
            if peer in known:
                candidates[cell] = candidates[cell].gcd(algebra.G[known[peer]])

    cells = tuple(sorted(candidates, key=lambda c: (-candidates[c].degree(), c)))
    names = ",".join(variable_name(c) for c in cells) if cells else "x0"
    polyring, *gens = ring(names, algebra.domain, lex)
    x = dict(zip(cells, gens))
    lifted = {c: algebra.lift(candidates[c], x[c]) for c in cells}
    pairs = {}
    for a, b in pairs_of(geometry, cells):
        if candidates[a].gcd(candidates[b]).degree() == 0:
            continue  # coprime candidate polynomials: x_a != x_b already holds
        g = pair_polynomial(algebra.F, polyring, x[a], x[b]).rem([lifted[a], lifted[b]])
        if g:
            pairs[(a, b)] = g
    clashes = [
        polyring(algebra.G[known[a]](known[b]))
        for a, b in pairs_of(geometry, list(known))
        if known[a] == known[b]  # G(v, v) = F'(v): a nonzero constant, so the ideal is <1>
    ]
    sums = []
    if unit_sums:
        target = geometry.size * (geometry.size + 1) // 2
        for unit in geometry.units:
            open_cells = [c for c in unit if c in x]
            if open_cells:
                fixed = sum(known[c] for c in unit if c in known)
                sums.append(sum((x[c] for c in open_cells), polyring.zero) - (target - fixed))
    return PolynomialSystem(
        geometry, algebra, polyring, cells, lifted, pairs, sums, clashes, dict(known)
    )


def candidate_polynomials(puzzle: Grid, algebra: Algebra) -> dict[int, Poly]:
    """C(x) for every empty cell: F(x) divided by x - v for each value v among its given peers.

    This is the gcd of F(x) and the thesis's G(v, x) = F(x)/(x - v) over the given peers.
    """
    geometry = puzzle.geometry
    result = {}
    for cell in puzzle.empty_cells:
        seen = {puzzle[p] for p in geometry.peers[cell]} - {0}
        result[cell] = algebra.from_roots(d for d in geometry.digits if d not in seen)
    return result


def system_of(
    puzzle: Grid, *, modulus: int | None = None, unit_sums: bool = False
) -> PolynomialSystem:
    """The puzzle's ideal with its givens substituted."""
    algebra = Algebra.of(puzzle.geometry.size, modulus)
    known = {c: v for c, v in enumerate(puzzle.values) if v}
    return make_system(
        puzzle.geometry,
        algebra,
        candidate_polynomials(puzzle, algebra),
        known,
        unit_sums=unit_sums,
    )


def raw_size(geometry: Geometry, givens: int, *, unit_sums: bool = False) -> dict[str, int]:
    """The size of the thesis ideal taken as is: every cell a variable, x - v per given."""
    pairs = sum(len(p) for p in geometry.peers) // 2
    sums = len(geometry.units) if unit_sums else 0
    return {
        "raw_variables": geometry.cell_count,
        "raw_polynomials": geometry.cell_count + pairs + givens + sums,
    }


class PolynomialReduction(Reduction[PolynomialSystem, Mapping[int, int]]):
    """Puzzle -> the substituted ideal; a solution (cell -> value of its variable) -> grid."""

    name = "polynomials"

    def __init__(self, *, modulus: int | None = None, unit_sums: bool = False) -> None:
        self.modulus = modulus
        self.unit_sums = unit_sums

    def apply(self, puzzle: Grid) -> tuple[PolynomialSystem, Grid]:
        return system_of(puzzle, modulus=self.modulus, unit_sums=self.unit_sums), puzzle

    def invert(self, answer: Mapping[int, int], data: Grid) -> Grid:
        return data.with_values(dict(answer))

    def size(self, model: PolynomialSystem) -> dict[str, int]:
        return model.size()


# --- the `reduce --to polynomials` target -------------------------------------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    """The substituted system's size, next to the raw thesis ideal's."""
    system = system_of(puzzle)
    return {
        "field": system.algebra.field_name,
        "order": "lex, cells with many candidates first",
        **system.size(),
        **raw_size(puzzle.geometry, puzzle.givens),
    }


def export(puzzle: Grid, *, modulus: int | None = None, unit_sums: bool = False) -> str:
    """The system as a Singular script; `std(I)` there gives the basis the back-end computes."""
    system = system_of(puzzle, modulus=modulus, unit_sums=unit_sums)
    geometry = puzzle.geometry
    names = [variable_name(c) for c in system.cells] or ["x0"]
    lines = [
        f"// sudoku-bench: the Sudoku ideal of {puzzle.to_line()}",
        f"// {geometry} grid, givens substituted; x_k is cell k, row-major from 1 (x1 = r1c1)",
        *(f"// {variable_name(c)} = {geometry.cell_name(c)}" for c in system.cells),
        f"ring r = {system.algebra.modulus or 0}, ({', '.join(names)}), lp;",
        "ideal I =",
    ]
    polys = [format_polynomial(p, system.algebra) for p in system.polynomials()] or ["0"]
    lines += [f"  {p}," for p in polys[:-1]] + [f"  {polys[-1]};", ""]
    return "\n".join(lines)


def format_polynomial(poly: Poly, algebra: Algebra) -> str:
    """Singular/Macaulay2-style text: `x3^2*x7 - 5*x3 + 4`."""
    names = [str(g) for g in poly.ring.gens]
    parts = []
    for monomial, coefficient in poly.terms():
        c = algebra.integer(coefficient)
        powers = [n if e == 1 else f"{n}^{e}" for n, e in zip(names, monomial) if e]
        body = "*".join(powers)
        if body and abs(c) == 1:
            text = body
        else:
            text = f"{abs(c)}*{body}" if body else str(abs(c))
        parts.append(("-" if c < 0 else "+", text))
    if not parts:
        return "0"
    sign, first = parts[0]
    return ("-" if sign == "-" else "") + first + "".join(f" {s} {t}" for s, t in parts[1:])


def total_degree(poly: Poly) -> int:
    return max((sum(monomial) for monomial in poly.monoms()), default=0) if poly else 0
