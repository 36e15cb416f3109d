"""The `groebner` back-end: Sudoku solved and counted with polynomial algebra (sympy).

Small systems: one reduced lex Groebner basis of the whole ideal (givens substituted).
[1] means no solution, the standard monomials count the solutions, back-substitution
reads them off.

Larger systems: algebraic propagate-and-split. The knowledge is one univariate candidate
polynomial C_c(t) per cell (its roots are the digits still possible). Every step is algebra:
  * the thesis's gcd step: a cell fixed to v turns each peer's C into gcd(C, G(v, t)) (peers:
    unit mates, cage mates, anti-knight / anti-king partners);
  * the house polynomial: prod_{c in house} (x_c - d) lies in the ideal for every digit d (a
    house's N values are the roots of F; only houses: a smaller extra region need not hold
    every digit); x_c - d is invertible modulo C_c unless d is a root of C_c, so when only one
    cell of the house keeps the root d, x_c - d is in the ideal (none: 1 is);
  * non-consecutive neighbours a, b: prod over the roots u of C_a of H(u, t) is in the ideal,
    so C_b becomes its gcd with C_b (the digits some root of a still allows next to b);
  * any other pair relation a, b (dots, XV, whispers, thermometer order): the same with the
    relation's support, prod over the roots u of C_a of the polynomial whose roots are the
    digits u rules out beside it, which keeps in C_b the digits some root of a allows;
  * a linear equation whose cells are known but one, x_c with coefficient k: k D(x_c) - r is
    in the ideal, so C_c becomes gcd(C_c, t - r/k) (1 when r/k is no digit); all known and
    the total missed: 1 is in it;
  * a cage sum whose cells are known but one: D(x_c) - r is in the ideal (x_c - r in the
    thesis), so C_c becomes gcd(C_c, t - r); all known and the sum is wrong: 1 is in it;
  * local bases: the reduced lex basis of a unit's ideal ([1]: contradiction) and its
    variety, which removes every root that no local solution uses (naked and hidden subsets);
    the same for a summed cage's ideal with its sum (the cage's possible combinations);
  * when that stalls, split: I + <x_c - v> for each root v of the cell with fewest roots;
  * when few cells are left, one basis of the residual ideal finishes the branch.
Counting with a limit follows the split tree, adding the leaves' standard-monomial counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
    UnitConstraint,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.polynomial import (
    FieldTooSmallError,
    ModulusOption,
    PolynomialReduction,
    PolynomialSystem,
    UPoly,
    format_polynomial,
)
from sudoku_bench.solvers.base import (
    Deadline,
    SearchOutcome,
    SearchTimeout,
    Solver,
    UnsupportedPuzzleError,
)
from sudoku_bench.solvers.engines.groebner.basis import Basis, BasisError, compute_basis
from sudoku_bench.solvers.tables import per_puzzle

STRATEGIES = ("auto", "basis", "split")
FORMULATIONS = ("thesis", "roots-of-unity")

# A full basis of at most this many polynomials is shown in the result's details.
SHOWN_BASIS = 100

# Most solutions a leaf basis's standard monomials are counted up to (a safety cap).
COUNT_CAP = 10**6


class Contradiction(Exception):
    """1 lies in the ideal of the current branch: it has no solution."""


@dataclass
class Knowledge:
    """One branch's facts: the candidate polynomial of every cell and its roots.

    Givens and solved cells hold t - v. `roots` caches the roots of each polynomial.
    """

    polys: list[UPoly]
    roots: list[tuple[int, ...]]

    def copy(self) -> Knowledge:
        return Knowledge(list(self.polys), list(self.roots))

    def open_cells(self) -> list[int]:
        return [c for c, r in enumerate(self.roots) if len(r) > 1]

    def freedom(self) -> int:
        """Sum over the cells of (roots - 1): 0 when everything is known."""
        return sum(len(r) - 1 for r in self.roots)


@dataclass
class Stats:
    """The counters a search reports, and the time split between kinds of work."""

    counts: dict[str, float] = field(default_factory=dict)

    def add(self, key: str, amount: float = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + amount

    def peak(self, key: str, value: float) -> None:
        self.counts[key] = max(self.counts.get(key, 0), value)

    def basis(self, kind: str, basis: Basis) -> None:
        self.add(f"{kind}_bases")
        self.add(f"{kind}_basis_s", basis.seconds)
        self.add("bases")
        self.add("basis_polys", len(basis.polys))
        self.peak("max_basis_size", len(basis.polys))
        self.peak("max_basis_degree", basis.max_degree)


@dataclass
class _Found:
    """What the constraints beyond the units add to the search's algebra, per cell."""

    peers: list[set[int]]  # cells that must hold another digit beyond its units: G(x_a, x_b)
    neighbours: list[list[int]]  # non-consecutive partners: H(x_a, x_b)
    cages: list[Cage]  # cages: their mates by G, their sums as linear polynomials
    # other pair relations: per cell, (partner, the partner's allowed digits by this cell's
    # digit, index 0 unused): R(x_a, x_b)
    relations: list[list[tuple[int, Allowed]]] = field(default_factory=list)
    equations: list[Equation] = field(default_factory=list)  # linear polynomials


def _units(constraint: UnitConstraint, rules: Rules, found: _Found) -> None:
    """Nothing beyond the units: G for each pair of a unit's cells and the house polynomial
    come from the rules' units, which hold the unit constraints' units too."""


def _distinct_pairs(constraint: DistinctPairs, rules: Rules, found: _Found) -> None:
    for a, b in constraint.pairs(rules):
        found.peers[a].add(b)
        found.peers[b].add(a)


def _non_consecutive(constraint: NonConsecutive, rules: Rules, found: _Found) -> None:
    for a, b in constraint.pairs(rules):
        found.neighbours[a].append(b)
        found.neighbours[b].append(a)


def _relation(constraint: PairConstraint, rules: Rules, found: _Found) -> None:
    digits = rules.digits
    allows = constraint.allows
    forward = ((), *(tuple(w for w in digits if allows(u, w)) for u in digits))
    backward = ((), *(tuple(u for u in digits if allows(u, w)) for w in digits))
    for a, b in constraint.pairs(rules):
        found.relations[a].append((b, forward))
        found.relations[b].append((a, backward))


def _equations(constraint: LinearConstraint, rules: Rules, found: _Found) -> None:
    found.equations += constraint.equations(rules)


def _cell_digits(constraint: CellDigits, rules: Rules, found: _Found) -> None:
    """The candidate polynomials have only the allowed digits as roots (the reduction
    builds them): the search has nothing more to add."""


def _cage(constraint: Cage, rules: Rules, found: _Found) -> None:
    for cell in constraint.cells:
        found.peers[cell].update(constraint.cells)
    found.cages.append(constraint)


Allowed = tuple[tuple[int, ...], ...]  # by a cell's digit: the digits its partner may hold
Encoder = Callable[[Any, Rules, _Found], None]
# The search's table from kind to the polynomials it reasons with: units by G and the house
# polynomials, distinct pairs by G, non-consecutive pairs by H, other pair relations by R,
# cell digits by the candidate polynomials, cages by G and their sums, linear equations by
# their linear polynomials. (A tuple of pairs: mypy takes an abstract family as a key only
# there.)
_ENCODERS: tuple[tuple[type[Constraint], Encoder], ...] = (
    (UnitConstraint, _units),
    (DistinctPairs, _distinct_pairs),
    (NonConsecutive, _non_consecutive),
    (PairConstraint, _relation),
    (CellDigits, _cell_digits),
    (Cage, _cage),
    (LinearConstraint, _equations),
)
ENCODERS: EncoderTable[Encoder] = EncoderTable(dict(_ENCODERS))


@dataclass(frozen=True)
class SearchTables:
    """The search's view of a rules: per cell, its peers (G), non-consecutive neighbours
    (H) and cages, gathered by the encoders."""

    house_indices: frozenset[int]
    peers: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    cages: tuple[Cage, ...]
    cages_of: tuple[tuple[int, ...], ...]
    relations: tuple[tuple[tuple[int, Allowed], ...], ...] = ()
    equations: tuple[Equation, ...] = ()
    equations_of: tuple[tuple[int, ...], ...] = ()


@per_puzzle
def search_tables(rules: Rules) -> SearchTables:
    cells = rules.cells
    found = _Found([set() for _ in cells], [[] for _ in cells], [], [[] for _ in cells])
    for constraint in rules.constraints:
        ENCODERS.encoder(constraint)(constraint, rules, found)
    equations_of: list[list[int]] = [[] for _ in cells]
    for index, equation in enumerate(found.equations):
        for cell, _ in equation.terms:
            equations_of[cell].append(index)
    unit_peers = [{peer for u in rules.units_of[cell] for peer in rules.units[u]} for cell in cells]
    cages_of: list[list[int]] = [[] for _ in cells]
    for index, cage in enumerate(found.cages):
        for cell in cage.cells:
            cages_of[cell].append(index)
    return SearchTables(
        house_indices=frozenset(rules.houses),
        peers=tuple(
            tuple(sorted((unit_peers[cell] | found.peers[cell]) - {cell})) for cell in cells
        ),
        neighbours=tuple(tuple(sorted(partners)) for partners in found.neighbours),
        cages=tuple(found.cages),
        cages_of=tuple(tuple(owners) for owners in cages_of),
        relations=tuple(tuple(partners) for partners in found.relations),
        equations=tuple(found.equations),
        equations_of=tuple(tuple(owners) for owners in equations_of),
    )


class Search:
    """One solve: the puzzle's algebra, the options, the counters and the solutions found."""

    def __init__(
        self,
        puzzle: Grid,
        system: PolynomialSystem,
        solver: GroebnerSolver,
        limit: int,
        deadline: Deadline,
    ) -> None:
        self.puzzle = puzzle
        self.rules: Rules = puzzle.rules
        self.algebra = system.algebra  # the field the reduction chose for these rules
        self.tables = search_tables(self.rules)
        self.house_indices = self.tables.house_indices
        self.summed_cages = [cage for cage in self.tables.cages if cage.total is not None]
        self.solver = solver
        self.limit = limit
        self.deadline = deadline
        self.stats = Stats()
        self.solutions: list[Grid] = []
        self.complete = True  # False once a leaf had more solutions than were taken
        self.details: dict[str, Any] = {}
        # cells whose polynomial changed since their units were last looked at
        self.changed: set[int] = set(self.rules.cells)
        self.local_cache: dict[tuple[tuple[int, tuple[int, ...]], ...], dict[int, set[int]]] = {}
        self.cage_cache: dict[tuple[tuple[int, tuple[int, ...]], ...], dict[int, set[int]]] = {}
        self.supports: dict[tuple[tuple[int, ...], Allowed], UPoly] = {}

    # --- leaves: one basis ------------------------------------------------------------

    def finish_with_basis(self, knowledge: Knowledge) -> None:
        """A branch with few open cells: one basis of its residual ideal finishes it."""
        open_cells = knowledge.open_cells()
        known = {c: r[0] for c, r in enumerate(knowledge.roots) if len(r) == 1}
        if not open_cells:
            # every cell known: the ideal is <x_c - v> plus the clash constants, if any
            if not PolynomialSystem(self.rules, self.algebra, {}, known).clash_reasons:
                self.take([{}], 1, known)
            else:
                self.stats.add("contradictions")
            return
        system = PolynomialSystem(
            self.rules,
            self.algebra,
            {c: knowledge.polys[c] for c in open_cells},
            known,
            unit_sums=self.solver.unit_sums,
        )
        self.finish(system, "leaf")

    def finish(self, system: PolynomialSystem, kind: str) -> None:
        """One reduced lex basis: count its standard monomials, read off its solutions."""
        basis = compute_basis(system, self.deadline)
        self.stats.basis(kind, basis)
        if kind == "full" and len(basis.polys) <= SHOWN_BASIS:
            self.details["basis"] = [format_polynomial(p, self.algebra) for p in basis.polys]
        wanted = self.limit - len(self.solutions)
        count = basis.count(COUNT_CAP)
        self.stats.add("standard_monomials", count)
        found = basis.solutions(min(wanted, count))
        if len(found) != min(wanted, count):
            raise BasisError(f"{count} standard monomials but {len(found)} solutions")
        self.take(found, count, system.known)

    def take(self, found: list[dict[int, int]], count: int, known: dict[int, int]) -> None:
        for values in found:
            self.solutions.append(self.puzzle.with_values({**known, **values}))
        if count > len(found):
            self.complete = False

    # --- propagate-and-split ------------------------------------------------------------

    def explore(self, knowledge: Knowledge, fixed: list[int]) -> None:
        """Propagate, then finish with a basis or split; stops once `limit` solutions are in."""
        self.deadline.check()
        self.stats.add("nodes")
        try:
            self.propagate(knowledge, fixed)
        except Contradiction:
            self.stats.add("contradictions")
            return
        open_cells = knowledge.open_cells()
        if knowledge.freedom() <= self.solver.leaf_freedom:
            self.finish_with_basis(knowledge)
            return
        cell = min(open_cells, key=lambda c: (len(knowledge.roots[c]), c))
        self.stats.add("splits")
        roots = knowledge.roots[cell]
        for position, digit in enumerate(roots):
            if len(self.solutions) >= self.limit:
                self.complete = False
                return
            if position:
                self.stats.add("guesses")
            child = knowledge.copy()
            self.restrict(child, cell, self.algebra.linear(digit))  # I + <x_cell - digit>
            self.explore(child, [cell])

    def restrict(self, knowledge: Knowledge, cell: int, divisor: UPoly) -> bool:
        """C_cell <- gcd(C_cell, divisor); True when the cell became fixed."""
        new = self.algebra.gcd(knowledge.polys[cell], divisor)
        self.stats.add("gcds")
        if self.algebra.degree(new) <= 0:
            raise Contradiction
        knowledge.polys[cell] = new
        knowledge.roots[cell] = self.algebra.roots(new)
        self.changed.add(cell)
        return len(knowledge.roots[cell]) == 1

    def propagate(self, knowledge: Knowledge, fixed: list[int]) -> None:
        """Apply the algebraic steps until none changes anything (or 1 is in the ideal).

        Every step restricts a candidate polynomial only when it removes a root, so the
        loop ends: it goes round again while some cell changed.
        """
        start = time.perf_counter()
        try:
            while True:
                self.gcd_steps(knowledge, fixed)
                changed, self.changed = self.changed, set()
                houses = {u for c in changed for u in self.rules.units_of[c]} & self.house_indices
                fixed = self.unit_polynomial_steps(knowledge, sorted(houses))
                fixed += self.nonconsecutive_steps(knowledge, changed)
                fixed += self.relation_steps(knowledge, changed)
                fixed += self.cage_steps(knowledge, changed)
                fixed += self.equation_steps(knowledge, changed)
                if fixed or self.changed:
                    continue
                if self.solver.local_cells >= 2:
                    fixed = self.local_basis_steps(knowledge)
                    if fixed or self.changed:  # roots removed: their units are looked at again
                        continue
                if self.solver.cage_cells >= 2:
                    fixed = self.cage_basis_steps(knowledge)
                    if fixed or self.changed:
                        continue
                return
        finally:
            self.stats.add("propagate_s", time.perf_counter() - start)

    def gcd_steps(self, knowledge: Knowledge, fixed: list[int]) -> None:
        """The thesis's step: x_c = v turns each peer's C into gcd(C, G(v, t))."""
        queue = list(fixed)
        while queue:
            cell = queue.pop()
            (value,) = knowledge.roots[cell]
            for peer in self.tables.peers[cell]:
                # (when value is no root of C the gcd leaves C unchanged: skipped)
                if value in knowledge.roots[peer] and self.restrict(
                    knowledge, peer, self.algebra.G[value]
                ):
                    queue.append(peer)

    def unit_polynomial_steps(self, knowledge: Knowledge, units: list[int]) -> list[int]:
        """prod (x_c - d) over a house is in the ideal: a digit kept by one cell is forced there.

        `units` are houses (indices into `rules.units`); only the houses of cells whose
        polynomials changed can tell anything new.
        """
        fixed = []
        for index in units:
            unit = self.rules.units[index]
            for digit in self.rules.digits:
                holders = [c for c in unit if digit in knowledge.roots[c]]
                if not holders:
                    raise Contradiction  # every factor is invertible: 1 is in the ideal
                if len(holders) == 1 and len(knowledge.roots[holders[0]]) > 1:
                    self.stats.add("unit_polynomials")
                    if self.restrict(knowledge, holders[0], self.algebra.linear(digit)):
                        fixed.append(holders[0])
        return fixed

    def nonconsecutive_steps(self, knowledge: Knowledge, changed: set[int]) -> list[int]:
        """C_b <- gcd(C_b, prod over the roots u of C_a of H(u, t)) for the non-consecutive
        neighbours b of each changed cell a: b keeps the digits a still allows next to it."""
        fixed = []
        neighbours = self.tables.neighbours
        queue = sorted(c for c in changed if neighbours[c])
        while queue:
            cell = queue.pop()
            support = self.algebra.nonconsecutive_support(knowledge.roots[cell])
            for neighbour in neighbours[cell]:
                before = knowledge.roots[neighbour]
                new = self.algebra.gcd(knowledge.polys[neighbour], support)
                if self.algebra.degree(new) == len(before):
                    continue  # every digit of the neighbour is still allowed
                self.stats.add("nonconsecutive_gcds")
                if self.restrict(knowledge, neighbour, support):
                    fixed.append(neighbour)
                queue.append(neighbour)
        return fixed

    def relation_steps(self, knowledge: Knowledge, changed: set[int]) -> list[int]:
        """C_b <- gcd(C_b, the relation's support of the roots of C_a) for each partner b of a
        changed cell a under a pair relation: b keeps the digits some root of a allows."""
        fixed: list[int] = []
        relations = self.tables.relations
        if not relations:
            return fixed
        queue = sorted(c for c in changed if relations[c])
        while queue:
            cell = queue.pop()
            roots = knowledge.roots[cell]
            for partner, allowed in relations[cell]:
                before = knowledge.roots[partner]
                if all(any(w in allowed[u] for u in roots) for w in before):
                    continue  # every digit of the partner is still allowed
                key = (roots, allowed)
                support = self.supports.get(key)
                if support is None:
                    support = self.supports[key] = self.algebra.relation_support(
                        roots, dict(enumerate(allowed))
                    )
                if self.algebra.degree(self.algebra.gcd(knowledge.polys[partner], support)) == len(
                    before
                ):
                    continue  # a guard: the support drops a digit no root allows, so this ends
                self.stats.add("relation_gcds")
                if self.restrict(knowledge, partner, support):
                    fixed.append(partner)
                queue.append(partner)
        return fixed

    def equation_steps(self, knowledge: Knowledge, changed: set[int]) -> list[int]:
        """A linear equation of changed cells with one open cell c, coefficient k: k D(x_c) - r
        is in the ideal, r the total less the known terms, so C_c <- gcd(C_c, t - r/k) (1
        when r/k is no digit); with none open, a missed total puts 1 in the ideal."""
        fixed = []
        equations = {i for c in changed for i in self.tables.equations_of[c]}
        for index in sorted(equations):
            equation = self.tables.equations[index]
            roots = knowledge.roots
            open_terms = [(c, k) for c, k in equation.terms if len(roots[c]) > 1]
            rest = equation.total - sum(
                k * roots[c][0] for c, k in equation.terms if len(roots[c]) == 1
            )
            if not open_terms:
                if rest:
                    raise Contradiction
            elif len(open_terms) == 1:
                ((cell, k),) = open_terms
                self.stats.add("linear_steps")
                digit = rest // k if rest % k == 0 else 0
                divisor = (
                    self.algebra.linear(digit) if digit in self.algebra.value else self.algebra.one
                )
                if self.restrict(knowledge, cell, divisor):
                    fixed.append(cell)
        return fixed

    def cage_steps(self, knowledge: Knowledge, changed: set[int]) -> list[int]:
        """A summed cage of changed cells with one open cell c: D(x_c) - r is in the ideal,
        r the total less the known digits, so C_c <- gcd(C_c, t - r) (1 when r is no digit);
        with none open, a wrong sum puts 1 in the ideal. Sums are added as integers."""
        fixed = []
        cages = {i for c in changed for i in self.tables.cages_of[c]}
        for index in sorted(cages):
            cage = self.tables.cages[index]
            if cage.total is None:
                continue
            open_cells = [c for c in cage.cells if len(knowledge.roots[c]) > 1]
            rest = cage.total - sum(
                knowledge.roots[c][0] for c in cage.cells if len(knowledge.roots[c]) == 1
            )
            if not open_cells:
                if rest:
                    raise Contradiction
            elif len(open_cells) == 1:
                self.stats.add("cage_sums")
                divisor = (
                    self.algebra.linear(rest) if rest in self.algebra.value else self.algebra.one
                )
                if self.restrict(knowledge, open_cells[0], divisor):
                    fixed.append(open_cells[0])
        return fixed

    def cage_basis_steps(self, knowledge: Knowledge) -> list[int]:
        """Each summed cage with 2..cage_cells open cells: the variety of its local ideal (its
        candidate polynomials, G's, H's and the sum with the known digits substituted)
        removes the roots no combination uses."""
        fixed = []
        for cage in self.summed_cages:
            open_cells = [c for c in cage.cells if len(knowledge.roots[c]) > 1]
            if not 2 <= len(open_cells) <= self.solver.cage_cells:
                continue
            used = self.cage_variety(knowledge, cage, open_cells)
            for cell in open_cells:
                if set(knowledge.roots[cell]) - used[cell]:
                    self.stats.add("cage_removals")
                    if self.restrict(knowledge, cell, self.algebra.from_roots(used[cell])):
                        fixed.append(cell)
            if fixed:
                return fixed
        return fixed

    def cage_variety(
        self, knowledge: Knowledge, cage: Cage, open_cells: list[int]
    ) -> dict[int, set[int]]:
        """The digits each open cell of a cage takes in some solution of its ideal (memoised)."""
        key = tuple((c, knowledge.roots[c]) for c in cage.cells)
        if key not in self.cage_cache:
            known = {c: knowledge.roots[c][0] for c in cage.cells if c not in open_cells}
            system = PolynomialSystem(
                self.rules, self.algebra, {c: knowledge.polys[c] for c in open_cells}, known
            )
            self.cage_cache[key] = self.variety_of(system, "cage")
        used = self.cage_cache[key]
        if not any(used.values()):
            raise Contradiction
        return used

    def variety_of(self, system: PolynomialSystem, kind: str) -> dict[int, set[int]]:
        """cell -> the digits it takes in the points of a local ideal ({} each when none)."""
        used: dict[int, set[int]] = {c: set() for c in system.cells}
        if system.clash_reasons:
            return used
        basis = compute_basis(system, self.deadline)
        self.stats.basis(kind, basis)
        if basis.is_unit:
            return used
        for solution in basis.solutions(COUNT_CAP):
            for c, digit in solution.items():
                used[c].add(digit)
        return used

    def local_basis_steps(self, knowledge: Knowledge) -> list[int]:
        """Each unit with few open cells: its basis and variety remove the roots nobody uses."""
        fixed = []
        for unit in self.rules.units:
            open_cells = [c for c in unit if len(knowledge.roots[c]) > 1]
            if not 2 <= len(open_cells) <= self.solver.local_cells:
                continue
            used = self.local_variety(knowledge, open_cells)
            for cell in open_cells:
                if set(knowledge.roots[cell]) - used[cell]:
                    self.stats.add("local_removals")
                    divisor = self.algebra.from_roots(used[cell])
                    if self.restrict(knowledge, cell, divisor):
                        fixed.append(cell)
            if fixed:
                return fixed
        return fixed

    def local_variety(self, knowledge: Knowledge, cells: list[int]) -> dict[int, set[int]]:
        """The digits each cell takes in some solution of the unit's local ideal (memoised)."""
        key = tuple((c, knowledge.roots[c]) for c in cells)
        if key not in self.local_cache:
            system = PolynomialSystem(
                self.rules, self.algebra, {c: knowledge.polys[c] for c in cells}, {}
            )
            self.local_cache[key] = self.variety_of(system, "local")
        if not any(self.local_cache[key].values()):
            raise Contradiction
        return self.local_cache[key]


class GroebnerSolver(Solver[PolynomialSystem]):
    """Polynomial algebra: one lex basis for small systems, algebraic propagate-and-split else.

    Options: `modulus` (None = rationals, a prime p > N, or `default`: GF(32003), faster
    than the rationals on the hardest 9x9, and for roots of unity the smallest
    prime p = 1 mod N), `formulation` (`thesis`: the digits 1..N are the roots;
    `roots-of-unity`: Bayer's colouring ideal, digit d is omega^d), `unit_sums` (add the linear
    unit-sum equations to every basis; measured slower), `strategy` (`auto`, `basis` =
    always one basis of the whole system, `split` = always propagate-and-split),
    `basis_freedom` (auto: one basis when the sum over cells of (candidates - 1) is at most
    this), `leaf_freedom` (a branch whose freedom is at most this is finished by one basis),
    `local_cells` (units with 2..this many open cells get a local basis; below 2: none),
    `cage_cells` (summed cages with 2..this many open cells get a local basis; below 2: none).

    Every variant rule is in the ideal (see `sudoku_bench.reductions.polynomial`): regions and extra
    units, anti-knight / anti-king pairs and cage mates by G, non-consecutive pairs by H,
    parity by the candidate polynomials, cage sums as linear polynomials. Over GF(p) the
    prime must exceed the cages' spread (`default` picks one for roots of unity); a
    configuration whose prime cannot answers `unsupported` for that puzzle.
    """

    name = "groebner"
    encoders = ENCODERS

    def __init__(
        self,
        *,
        modulus: ModulusOption = "default",
        formulation: str = "thesis",
        unit_sums: bool = False,
        strategy: str = "auto",
        basis_freedom: int = 24,
        leaf_freedom: int = 12,
        local_cells: int = 0,
        cage_cells: int = 2,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
        if formulation not in FORMULATIONS:
            raise ValueError(f"formulation must be one of {', '.join(FORMULATIONS)}")
        self.unity = formulation == "roots-of-unity"
        self.modulus = modulus
        self.unit_sums = unit_sums
        self.strategy = strategy
        self.basis_freedom = basis_freedom
        self.leaf_freedom = leaf_freedom
        self.local_cells = local_cells
        self.cage_cells = cage_cells
        self.reduction = PolynomialReduction(modulus=modulus, unit_sums=unit_sums, unity=self.unity)
        _import_sympy()

    def _build(self, puzzle: Grid, deadline: Deadline) -> PolynomialSystem:
        try:
            system, _ = self.reduction.apply(puzzle)
        except FieldTooSmallError as error:  # this configuration's field, not the puzzle
            raise UnsupportedPuzzleError(str(error)) from None
        return system

    def _search(
        self, model: PolynomialSystem, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        search = Search(puzzle, model, self, limit, deadline)
        timed_out = False
        try:
            self._run(search, model)
        except SearchTimeout:
            timed_out = True
        counters = dict(search.stats.counts)
        counters.setdefault("bases", 0)
        counters.setdefault("splits", 0)
        counters.setdefault("guesses", 0)  # counted when a split guesses: none is 0 guesses
        return SearchOutcome(
            solutions=search.solutions[:limit],
            exhausted=search.complete and len(search.solutions) <= limit and not timed_out,
            timed_out=timed_out,
            counters=counters,
            details=search.details,
        )

    def _run(self, search: Search, system: PolynomialSystem) -> None:
        knowledge = initial_knowledge(system)
        whole = self.strategy == "basis" or (
            self.strategy == "auto" and knowledge.freedom() <= self.basis_freedom
        )
        search.details["method"] = "basis" if whole else "propagate-and-split"
        if whole:
            search.finish(system, "full")
        elif system.clash_reasons:  # a nonzero constant (G(v, v) = F'(v), ...): 1 is in I
            search.stats.add("clashes", len(system.clash_reasons))
            search.details["clashes"] = [reason for reason, _ in system.clash_reasons]
        elif not all(knowledge.roots):  # a candidate polynomial is a nonzero constant
            search.stats.add("contradictions")
        else:
            search.explore(knowledge, [c for c in system.cells if len(knowledge.roots[c]) == 1])


def initial_knowledge(system: PolynomialSystem) -> Knowledge:
    """Every cell's candidate polynomial: t - v for the known ones."""
    algebra = system.algebra
    polys = [
        algebra.linear(system.known[c]) if c in system.known else system.univariate[c]
        for c in system.rules.cells
    ]
    return Knowledge(polys, [algebra.roots(p) for p in polys])


def _import_sympy() -> None:
    """Import the sympy modules a solve uses (seconds on a loaded machine) when the solver is
    made, which the harness does untimed, not inside the first timed solve: there it took a
    worker's first task past its kill, and the fresh worker's first task with it, and so on.
    Importing this module stays cheap (`solvers` lists back-ends without their libraries)."""
    import sympy.polys.domains
    import sympy.polys.groebnertools
    import sympy.polys.orderings
    import sympy.polys.rings  # noqa: F401
