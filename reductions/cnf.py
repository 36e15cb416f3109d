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

so 81 + 2916 + 243 + 8748 = 11988 clauses before the givens for 9x9 (the "minimal"
encoding would keep only cell-at-least and unit-at-most: 8829).

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
from typing import Any

from puzzles.grid import Grid
from puzzles.rules import Rules
from reductions.base import Reduction

GIVENS = ("units", "simplify")
FAMILIES = ("cell-at-least", "cell-at-most", "unit-at-least", "unit-at-most", "givens")

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
    """Sudoku as CNF in the extended encoding; `givens` is `units` or `simplify`."""

    name = "cnf"

    def __init__(self, givens: str = "units") -> None:
        if givens not in GIVENS:
            raise ValueError(f"unknown way to encode givens {givens!r}; choose one of {GIVENS}")
        self.givens = givens

    def apply(self, puzzle: Grid) -> tuple[Cnf, CnfData]:
        families = _families(puzzle) if self.givens == "units" else _simplified(puzzle)
        clauses = tuple(clause for _, part in families for clause in part)
        cnf = Cnf(
            puzzle.rules.size**3,
            clauses,
            tuple((name, len(part)) for name, part in families),
            _comments(puzzle, self.givens),
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
    """The clauses every puzzle of a geometry shares (built once: 11988 tuples for 9x9)."""
    cell_least, cell_most = _exactly_one(
        [variable(rules, c, d) for d in rules.digits] for c in rules.cells
    )
    unit_least, unit_most = _exactly_one(
        [variable(rules, c, d) for c in unit] for unit in rules.units for d in rules.digits
    )
    return (
        ("cell-at-least", tuple(cell_least)),
        ("cell-at-most", tuple(cell_most)),
        ("unit-at-least", tuple(unit_least)),
        ("unit-at-most", tuple(unit_most)),
    )


def _simplified(puzzle: Grid) -> Families:
    """The clauses of `_families` after the givens are propagated, built directly.

    A given makes its own literal true, and false every other digit of its cell and its digit
    in every peer. Each clause with a true literal goes and false literals are removed: what
    is left is the same families over the empty cells' candidates, and for each unit only the
    digits it still lacks."""
    rules = puzzle.rules
    values = puzzle.values
    if any(
        values[peer] == value
        for cell, value in enumerate(values)
        if value
        for peer in rules.peers[cell]
    ):
        return [(name, [()] if name == "givens" else []) for name in FAMILIES]
    candidates = [set(rules.digits) if not value else set() for value in values]
    for cell, value in enumerate(values):
        if value:
            for peer in rules.peers[cell]:
                candidates[peer].discard(value)
    cell_least, cell_most = _exactly_one(
        [variable(rules, c, d) for d in sorted(candidates[c])] for c in puzzle.empty_cells
    )
    unit_least, unit_most = _exactly_one(
        [variable(rules, c, d) for c in unit if d in candidates[c]]
        for unit in rules.units
        for d in rules.digits
        if all(values[c] != d for c in unit)
    )
    return [
        ("cell-at-least", cell_least),
        ("cell-at-most", cell_most),
        ("unit-at-least", unit_least),
        ("unit-at-most", unit_most),
        ("givens", []),
    ]


def _exactly_one(groups: Iterable[list[int]]) -> tuple[list[Clause], list[Clause]]:
    """At least one of each group (one clause) and at most one (a clause per pair)."""
    least: list[Clause] = []
    most: list[Clause] = []
    for group in groups:
        least.append(tuple(group))
        most += [(-a, -b) for a, b in itertools.combinations(group, 2)]
    return least, most


def _comments(puzzle: Grid, givens: str) -> tuple[str, ...]:
    rules = puzzle.rules
    n = rules.size
    return (
        f"sudoku-bench: {rules} Sudoku, extended CNF encoding, givens as {givens}",
        f"puzzle {puzzle.to_line()}",
        f"variable cell*{n} + d: cell 0..{n * n - 1} row-major (r1c1 = 0), digit d = 1..{n}",
        f"e.g. 1 = r1c1 holds 1, {n} = r1c1 holds {n}, {n + 1} = r1c2 holds 1, "
        f"{n**3} = {rules.cell_name(n * n - 1)} holds {n}",
    )


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid, givens: str = "units") -> dict[str, Any]:
    reduction = CnfReduction(givens)
    model, _ = reduction.apply(puzzle)
    return {"givens": givens, **reduction.size(model)}


def export(puzzle: Grid, givens: str = "units") -> str:
    """The formula as DIMACS CNF text, the numbering explained in its comment lines."""
    model, _ = CnfReduction(givens).apply(puzzle)
    return model.to_dimacs()
