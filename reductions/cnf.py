"""Sudoku as propositional satisfiability: the standard CNF encoding, exported as DIMACS.

Variables. x(cell, d) = "cell holds digit d" is variable number `cell·N + d`, with cells
numbered 0..N²-1 row-major (r1c1 is 0) and digits d = 1..N, so the variables are exactly
1..N³ (729 for 9x9): variable v is cell (v - 1) // N holding digit (v - 1) % N + 1.

Clauses: the "extended" encoding of Lynce and Ouaknine ("Sudoku as a SAT problem", 2006),
which states every rule both ways so that unit propagation alone does the work of naked and
hidden singles. With U units (3N, plus 2 for the Sudoku-X diagonals):

    family            clauses              each
    cell-at-least     N²                   (x(c,1) ∨ ... ∨ x(c,N))
    cell-at-most      N²·N(N-1)/2          (¬x(c,a) ∨ ¬x(c,b)), a < b
    unit-at-least     U·N                  (x(c1,d) ∨ ... ∨ x(cN,d)) for unit u, digit d
    unit-at-most      U·N·N(N-1)/2         (¬x(ci,d) ∨ ¬x(cj,d)), ci before cj in unit u
    givens            one per given        (x(c,v))

so 81 + 2916 + 243 + 8748 = 11988 clauses before the givens for 9x9.

Encodings: the `encoding` option names which of the four rule families are written, after
Lynce and Ouaknine:

    encoding    families                                              9x9 clauses
    minimal     cell-at-least, unit-at-most                           81 + 8748 = 8829
    efficient   minimal + cell-at-most                                11745
    extended    efficient + unit-at-least (the default)               11988

All three have the same models: every cell lies in a row of N cells, and a row whose N
cells each hold some digit while no digit appears twice holds each digit exactly once, so
"at least one per cell" and "at most once per unit" already force exactly one digit per
cell. They differ in what unit propagation alone can conclude (the extended encoding does
naked and hidden singles; the minimal one neither). The variant families (pair rules,
parity, cages) are written in every encoding: they are rules, not redundancy, and they
stay correct because the placements mean the same in every model. The "optimised" encoding
of Kwon and Jain (2006) is the extended one with the givens simplified away: here that is
`givens="simplify"` (below), which applies to any of the three encodings, so "optimised"
is not a fourth `encoding` value but the name of that combination (`sat` uses it).

Givens: two forms, the `givens` option.
- `units` (the default, and what `export` writes): every clause above plus one unit clause
  per given. The file is the textbook encoding, its size follows the formulas exactly, and
  any SAT solver's unit propagation takes the givens at once.
- `simplify`: the givens are propagated away before the formula is written, as a SAT
  preprocessor would: a clause with a true literal is dropped, a false literal is deleted.
  What is left mentions only the candidates of the empty cells (a given's variable, or a
  digit a given rules out of a cell, appears nowhere); variables keep their numbers. The
  formula is several times smaller for a typical puzzle (about 3000 clauses instead of
  12000 for a 17-clue 9x9, 1000 for a 30-given one), which is what the `sat` back-end feeds its solver, since
  building and loading clauses in Python costs more than solving them. A puzzle whose
  givens already break a rule gets an empty clause: unsatisfiable, as it should be.

`invert` takes the true literals of a model (what a SAT solver's `get_model` returns, or
any iterable of positive and negative literals) and reads the digit of every empty cell
from it; variables that appear in no clause are ignored, since a solver may set them
either way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, ClassVar

from puzzles.checker import has_conflicts
from puzzles.grid import Grid
from puzzles.rules import ALL_KINDS, RuleKind, Rules
from reductions.base import Reduction, puzzle_header
from reductions.cages import digit_sets

GIVENS = ("units", "simplify")
RULE_FAMILIES = ("cell-at-least", "cell-at-most", "unit-at-least", "unit-at-most")
# the rule families each encoding writes (Lynce and Ouaknine 2006); the others are left empty
ENCODINGS: dict[str, frozenset[str]] = {
    "minimal": frozenset({"cell-at-least", "unit-at-most"}),
    "efficient": frozenset({"cell-at-least", "unit-at-most", "cell-at-most"}),
    "extended": frozenset(RULE_FAMILIES),
}
FAMILIES = (
    "cell-at-least",
    "cell-at-most",
    "unit-at-least",
    "unit-at-most",
    "pair-distinct",
    "nonconsecutive",
    "parity",
    "cage-at-most",
    "cage-sum",
    "givens",
)

Clause = tuple[int, ...]


@dataclass(frozen=True)
class Cnf:
    """A formula in conjunctive normal form: `clauses` over variables 1..`variables`.

    `families` names, in order, how many consecutive clauses each constraint family gave
    (so clause i's family is known without storing it per clause). `comments` go into the
    DIMACS header.
    """

    variables: int
    clauses: tuple[Clause, ...]
    families: tuple[tuple[str, int], ...] = ()
    comments: tuple[str, ...] = field(default=(), compare=False)

    @property
    def literals(self) -> int:
        return sum(len(clause) for clause in self.clauses)

    @cached_property
    def used_variables(self) -> frozenset[int]:
        """The variables some clause mentions: those of the cell-at-least clauses, which come
        first and name every candidate of every cell that other clauses can mention."""
        cell_clauses = self.clauses[: dict(self.families).get("cell-at-least", len(self.clauses))]
        return frozenset(abs(literal) for clause in cell_clauses for literal in clause)

    @property
    def has_empty_clause(self) -> bool:
        return any(not clause for clause in self.clauses)

    def satisfied_by(self, model: Iterable[int]) -> bool:
        """Whether every clause holds when the positive literals of `model` are the true
        variables and every other variable is false (so a solver's model, or just the
        variables of a grid's placements, will do)."""
        true = {literal for literal in model if literal > 0}
        return all(
            any((lit in true) if lit > 0 else (-lit not in true) for lit in clause)
            for clause in self.clauses
        )

    def to_dimacs(self) -> str:
        """The DIMACS CNF text: `c` comment lines, `p cnf V C`, one clause per line ending in 0."""
        lines = [f"c {comment}".rstrip() for comment in self.comments]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines += [" ".join([*map(str, clause), "0"]) for clause in self.clauses]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class CnfData:
    """What `invert` needs: the puzzle and the variables the formula mentions."""

    puzzle: Grid
    used: frozenset[int]


def variable(rules: Rules, cell: int, digit: int) -> int:
    """The variable of "cell holds digit": cell·N + digit, 1..N³."""
    return cell * rules.size + digit


def placement(rules: Rules, var: int) -> tuple[int, int]:
    """The (cell, digit) a variable stands for: the inverse of `variable`."""
    cell, digit = divmod(var - 1, rules.size)
    return cell, digit + 1


class CnfReduction(Reduction[Cnf, Iterable[int]]):
    """Sudoku as CNF: `encoding` is `minimal`, `efficient` or `extended` (the default);
    `givens` is `units` or `simplify`."""

    name = "cnf"
    rule_kinds: ClassVar[frozenset[RuleKind]] = ALL_KINDS

    def __init__(self, givens: str = "units", encoding: str = "extended") -> None:
        if givens not in GIVENS:
            raise ValueError(f"unknown way to encode givens {givens!r}; choose one of {GIVENS}")
        if encoding not in ENCODINGS:
            raise ValueError(
                f"unknown CNF encoding {encoding!r}; choose one of {', '.join(ENCODINGS)} "
                "(the optimised encoding is extended with givens='simplify')"
            )
        self.givens = givens
        self.encoding = encoding

    @property
    def label(self) -> str:
        """The encoding's name in the papers' terms: `optimised` for extended + simplify."""
        if self.givens == "simplify":
            return "optimised" if self.encoding == "extended" else f"{self.encoding}-simplified"
        return self.encoding

    def apply(self, puzzle: Grid) -> tuple[Cnf, CnfData]:
        families = _families(puzzle) if self.givens == "units" else _simplified(puzzle)
        kept = ENCODINGS[self.encoding]
        families = [
            (name, [] if name in RULE_FAMILIES and name not in kept else part)
            for name, part in families
        ]
        clauses = tuple(clause for _, part in families for clause in part)
        variables = CageSums.of(puzzle.rules).variables if puzzle.rules.cages else 0
        variables = max(variables, puzzle.rules.size**3)
        cnf = Cnf(
            variables,
            clauses,
            tuple((name, len(part)) for name, part in families),
            _comments(puzzle, self.givens, variables, self.encoding),
        )
        return cnf, CnfData(puzzle, cnf.used_variables)

    def invert(self, answer: Iterable[int], data: CnfData) -> Grid:
        rules = data.puzzle.rules
        values = list(data.puzzle.values)
        for literal in answer:
            if literal <= 0 or literal not in data.used:
                continue
            cell, digit = placement(rules, literal)
            if data.puzzle[cell]:
                continue
            if values[cell]:
                raise ValueError(f"the model puts two digits in {rules.cell_name(cell)}")
            values[cell] = digit
        return Grid(rules, tuple(values))

    def size(self, model: Cnf) -> dict[str, int]:
        sizes = {
            "variables": model.variables,
            "used_variables": len(model.used_variables),
            "clauses": len(model.clauses),
            "literals": model.literals,
            "unit_clauses": sum(len(clause) == 1 for clause in model.clauses),
        }
        sizes.update({f"clauses_{name}": count for name, count in model.families})
        return sizes

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        model, _ = self.apply(puzzle)
        return {"givens": self.givens, "encoding": self.encoding, **self.size(model)}

    def export(self, puzzle: Grid) -> str:
        """The formula as DIMACS CNF text, the puzzle and the numbering in its comment lines."""
        model, _ = self.apply(puzzle)
        return model.to_dimacs()

    def blocking_clause(self, data: CnfData, solution: Grid) -> Clause:
        """The clause "some empty cell differs from `solution`", which makes the next model new.

        Empty when the puzzle has no empty cell (then there is no other solution)."""
        rules = data.puzzle.rules
        return tuple(-variable(rules, c, solution[c]) for c in data.puzzle.empty_cells)


Families = list[tuple[str, list[Clause]]]


def _families(puzzle: Grid) -> Families:
    """The full extended encoding, givens as unit clauses."""
    rules = puzzle.rules
    givens: list[Clause] = [(variable(rules, c, v),) for c, v in enumerate(puzzle.values) if v]
    return [*((name, list(clauses)) for name, clauses in _rules(rules)), ("givens", givens)]


@lru_cache(maxsize=4)  # a 25x25's 752,500 clauses are worth keeping, but not many of them
def _rules(rules: Rules) -> tuple[tuple[str, tuple[Clause, ...]], ...]:
    """The clauses every puzzle of these rules shares (built once: 11988 tuples for 9x9)."""
    cell_least, cell_most = _exactly_one(
        [variable(rules, c, d) for d in rules.digits] for c in rules.cells
    )
    houses = set(rules.houses)
    unit_least, unit_most = _exactly_one(
        ([variable(rules, c, d) for c in unit] for unit in rules.units for d in rules.digits),
        least=[u in houses for u in range(len(rules.units)) for _ in rules.digits],
    )
    parity = [(-variable(rules, c, d),) for c in rules.cells for d in _forbidden(rules, c)]
    return (
        ("cell-at-least", tuple(cell_least)),
        ("cell-at-most", tuple(cell_most)),
        ("unit-at-least", tuple(unit_least)),
        ("unit-at-most", tuple(unit_most)),
        *((name, tuple(clauses)) for name, clauses in _variant_families(rules)),
        ("parity", tuple(parity)),
        *((name, tuple(clauses)) for name, clauses in _cage_families(rules)),
    )


def _forbidden(rules: Rules, cell: int) -> list[int]:
    """The digits a cell's parity rules out."""
    allowed = rules.allowed[cell]
    return [d for d in rules.digits if d not in allowed] if len(allowed) < rules.size else []


def _variant_families(
    rules: Rules, candidates: list[set[int]] | None = None
) -> list[tuple[str, list[Clause]]]:
    """The pair rules: "not both d" for anti-knight / anti-king pairs (that share no unit),
    "not d and d + 1" both ways for non-consecutive neighbours. With `candidates`, only the
    clauses whose literals can all still be true."""
    n = rules.size
    every = set(rules.digits)
    can = candidates or [every] * rules.cell_count
    pair: list[Clause] = [
        (-variable(rules, a, d), -variable(rules, b, d))
        for a, b in rules.distinct_pairs
        for d in sorted(can[a] & can[b])
    ]
    apart: list[Clause] = [
        (-variable(rules, x, d), -variable(rules, y, d + 1))
        for a, b in rules.nonconsecutive_pairs
        for d in range(1, n)
        for x, y in ((a, b), (b, a))
        if d in can[x] and d + 1 in can[y]
    ]
    return [("pair-distinct", pair), ("nonconsecutive", apart)]


@dataclass(frozen=True)
class CageSums:
    """The auxiliary variables of the cage sums, numbered after the N³ placements.

    For each cage with a sum: `has[j][d - 1]` is "cage j holds digit d", and `sets[j]` pairs
    each digit set the cage can hold (right size and sum, parity kept) with its selector.
    """

    has: dict[int, tuple[int, ...]]
    sets: dict[int, tuple[tuple[frozenset[int], int], ...]]
    variables: int  # the highest variable number in use

    @staticmethod
    @lru_cache(maxsize=16)
    def of(rules: Rules) -> CageSums:
        next_variable = rules.size**3 + 1
        has: dict[int, tuple[int, ...]] = {}
        sets: dict[int, tuple[tuple[frozenset[int], int], ...]] = {}
        for j, cage in enumerate(rules.cages):
            if cage.total is None:
                continue
            has[j] = tuple(range(next_variable, next_variable + rules.size))
            next_variable += rules.size
            allowed = digit_sets(rules, cage)
            sets[j] = tuple((digits, next_variable + i) for i, digits in enumerate(allowed))
            next_variable += len(allowed)
        return CageSums(has, sets, next_variable - 1)


def _cage_families(rules: Rules) -> list[tuple[str, list[Clause]]]:
    """Cages: distinct digits (pairwise, for cage mates that share no unit) and sums.

    A sum is encoded by its allowed digit sets (selectors): `has(j, d)` <-> some cell of the
    cage holds d; at least one selector of cage j; a selector forces `has` true for the
    digits of its set and false for the others. Since the cells hold distinct digits, the
    cage then holds exactly that set, so its sum is right; every auxiliary is fixed by the
    placements, so counting by blocking placements stays exact. A cage of k cells with m
    sets costs k·N + N + 1 + m·N clauses (9x9: 2 cells with 4 sets: 64).
    """
    distinct: list[Clause] = []
    sums: list[Clause] = []
    sizes = CageSums.of(rules)
    for j, cage in enumerate(rules.cages):
        for a, b in itertools.combinations(cage.cells, 2):
            if b not in rules.unit_peers[a]:
                distinct += [(-variable(rules, a, d), -variable(rules, b, d)) for d in rules.digits]
        if j not in sizes.has:
            continue
        has = sizes.has[j]
        for d in rules.digits:
            sums += [(-variable(rules, c, d), has[d - 1]) for c in cage.cells]
            sums.append((-has[d - 1], *(variable(rules, c, d) for c in cage.cells)))
        sums.append(tuple(selector for _, selector in sizes.sets[j]))
        for digits, selector in sizes.sets[j]:
            sums += [(-selector, has[d - 1] if d in digits else -has[d - 1]) for d in rules.digits]
    return [("cage-at-most", distinct), ("cage-sum", sums)]


def _simplified(puzzle: Grid) -> Families:
    """The clauses of `_families` after the givens are propagated, built directly.

    A given makes its own literal true, and false every other digit of its cell, its digit in
    every peer and, for a non-consecutive neighbour, the digits next to it; parity makes the
    digits it forbids false. Each clause with a true literal goes and false literals are
    removed: what is left is the same families over the empty cells' candidates, and for
    each house only the digits it still lacks."""
    rules = puzzle.rules
    values = puzzle.values
    if has_conflicts(puzzle):  # the givens already break a rule
        return [(name, [()] if name == "givens" else []) for name in FAMILIES]
    candidates = [set(rules.allowed[c]) if not value else set() for c, value in enumerate(values)]
    for cell, value in enumerate(values):
        if value:
            for peer in rules.peers[cell]:
                candidates[peer].discard(value)
            for neighbour in rules.neighbours[cell]:
                candidates[neighbour] -= {value - 1, value + 1}
    cell_least, cell_most = _exactly_one(
        [variable(rules, c, d) for d in sorted(candidates[c])] for c in puzzle.empty_cells
    )
    houses = set(rules.houses)
    missing = [
        (u, d)
        for u, unit in enumerate(rules.units)
        for d in rules.digits
        if all(values[c] != d for c in unit)
    ]
    unit_least, unit_most = _exactly_one(
        ([variable(rules, c, d) for c in rules.units[u] if d in candidates[c]] for u, d in missing),
        least=[u in houses for u, _ in missing],
    )
    families: Families = [
        ("cell-at-least", cell_least),
        ("cell-at-most", cell_most),
        ("unit-at-least", unit_least),
        ("unit-at-most", unit_most),
    ]
    if not rules.is_classic:
        families += _variant_families(rules, candidates)
        families.append(("parity", []))  # the candidates keep the parity already
        true = {variable(rules, c, v) for c, v in enumerate(values) if v}
        false = {
            variable(rules, c, d)
            for c in rules.cells
            for d in rules.digits
            if d not in candidates[c] and d != values[c]
        }
        families += [
            (name, _propagated(clauses, true, false)) for name, clauses in _cage_families(rules)
        ]
    return [*families, *((name, []) for name in FAMILIES[len(families) :])]


def _propagated(clauses: Iterable[Clause], true: set[int], false: set[int]) -> list[Clause]:
    """The clauses with the known literals applied: one made true goes, false literals go."""
    kept = []
    for clause in clauses:
        if any((lit in true) if lit > 0 else (-lit in false) for lit in clause):
            continue
        kept.append(
            tuple(lit for lit in clause if not ((lit in false) if lit > 0 else (-lit in true)))
        )
    return kept


def _exactly_one(
    groups: Iterable[list[int]], least: Iterable[bool] | None = None
) -> tuple[list[Clause], list[Clause]]:
    """At most one of each group (a clause per pair) and, where `least` says so (by default
    for every group), at least one (one clause)."""
    at_least: list[Clause] = []
    at_most: list[Clause] = []
    wanted = iter(least) if least is not None else itertools.repeat(True)
    for group in groups:
        if next(wanted):
            at_least.append(tuple(group))
        at_most += [(-a, -b) for a, b in itertools.combinations(group, 2)]
    return at_least, at_most


def _comments(
    puzzle: Grid, givens: str, variables: int, encoding: str = "extended"
) -> tuple[str, ...]:
    rules = puzzle.rules
    n = rules.size
    name = rules.cell_name
    lines = [
        f"sudoku-bench: {rules} Sudoku, {encoding} CNF encoding, givens as {givens}",
        *puzzle_header(puzzle),
        f"variables: v = cell*{n} + d for v in 1..{n**3}, cell 0..{n * n - 1} row-major "
        f"(r1c1 = 0), digit d = 1..{n}: a true v puts digit (v-1) mod {n} + 1 in cell "
        f"(v-1) div {n}",
        f"e.g. 1 = r1c1 holds 1, {n} = r1c1 holds {n}, {n + 1} = r1c2 holds 1, "
        f"{n**3} = {name(n * n - 1)} holds {n}",
    ]
    sums = CageSums.of(rules)
    if variables > n**3:
        lines.append(
            f"auxiliary variables {n**3 + 1}..{variables}: cage sums, per cage "
            "'has' (the cage holds digit 1..N) and one selector per allowed digit set"
        )
        for j, has in sums.has.items():
            cage = rules.cages[j]
            sets = " ".join(
                f"{selector}={{{','.join(map(str, sorted(digits)))}}}"
                for digits, selector in sums.sets[j]
            )
            lines.append(
                f"cage {'+'.join(name(c) for c in cage.cells)}={cage.total}: "
                f"has {has[0]}..{has[-1]}, sets {sets or 'none'}"
            )
    return tuple(lines)


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid, givens: str = "units", encoding: str = "extended") -> dict[str, Any]:
    return CnfReduction(givens, encoding).describe(puzzle)


def export(puzzle: Grid, givens: str = "units", encoding: str = "extended") -> str:
    """The formula as DIMACS CNF text, the numbering explained in its comment lines."""
    return CnfReduction(givens, encoding).export(puzzle)
