"""Puzzle -> python-constraint `Problem` -> grid, for every rule kind.

One variable per cell (named by its cell number); its domain is the digits its parity allows
(1..N for most cells), a given's domain is its value alone (with an `InSetConstraint` of its
parity's digits when its parity forbids it, so the puzzle has no solution). Rules, each with
the library's own constraints:

- every unit (rows, columns, regions, diagonals, extra regions of any size):
  `AllDifferentConstraint`;
- anti-knight / anti-king pairs that share no unit: a `FunctionConstraint` `a != b`;
- non-consecutive neighbours: a `FunctionConstraint` `abs(a - b) != 1`;
- killer cages: `AllDifferentConstraint` over the cage (left out when its cells already share
  units pairwise) and `ExactSumConstraint(total)`, which prunes the domains before the search
  and hides values that would overshoot the total while forward checking.

An answer is the library's solution dictionary, cell -> digit.

With `hidden_singles=True` each house's constraint (a unit of N cells, which holds every digit)
is a `UnitConstraint` instead: the same AllDifferent check and forward checking, plus the
"hidden single" rule (a digit that only one cell of the unit can still take goes there; a digit
no cell can take is a dead end). A smaller extra region keeps the plain AllDifferent: it need
not hold every digit.
That is the library's extension mechanism (a `Constraint` subclass), and it is what turns
python-constraint from hopeless on the hardest 9x9s into a fair competitor.

`export` writes the model in XCSP3, the XML format of the CSP solver competitions, so the
same instance can be handed to other constraint solvers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from constraint import (
    AllDifferentConstraint,
    BacktrackingSolver,
    ExactSumConstraint,
    FunctionConstraint,
    InSetConstraint,
    Problem,
)
from constraint import Solver as ConstraintSolver

from puzzles.checker import cage_name
from puzzles.grid import Grid
from puzzles.rules import ALL_KINDS, RuleKind, Rules
from reductions.base import Reduction


@dataclass
class CspModel:
    """The library's `Problem` with the numbers that describe it (it does not expose them)."""

    problem: Problem
    variables: int
    constraints: int


class UnitConstraint(AllDifferentConstraint):
    """A unit of N cells holding the N digits once each: AllDifferent plus hidden singles.

    When forward checking, after AllDifferent has hidden the placed digits from the unit's
    free cells, a digit that no free cell can take fails the node and a digit that exactly
    one free cell can take becomes that cell's only value. Only free cells' domains are
    touched, which the library has saved (`pushState`) before calling, so backtracking
    restores them.
    """

    def __init__(self, digits: Sequence[int]) -> None:
        self.digits = tuple(digits)

    def __call__(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        assignments: dict[Any, Any],
        forwardcheck: Any = False,
    ) -> bool:
        if not super().__call__(variables, domains, assignments, forwardcheck):
            return False
        if not forwardcheck:
            return True
        placed = {assignments[v] for v in variables if v in assignments}
        free = [v for v in variables if v not in assignments]
        for digit in self.digits:
            if digit in placed:
                continue
            homes = [v for v in free if digit in domains[v]]
            if not homes:
                return False
            if len(homes) == 1:
                domain = domains[homes[0]]
                for value in domain[:]:
                    if value != digit:
                        domain.hideValue(value)
        return True


class CspReduction(Reduction[CspModel, Mapping[int, int]]):
    """Sudoku as a python-constraint `Problem` searched by `solver` (BacktrackingSolver)."""

    name = "csp"
    rule_kinds: ClassVar[frozenset[RuleKind]] = ALL_KINDS  # every rule, exports included

    def __init__(
        self, solver: ConstraintSolver | None = None, *, hidden_singles: bool = False
    ) -> None:
        self.solver = solver
        self.hidden_singles = hidden_singles

    def apply(self, puzzle: Grid) -> tuple[CspModel, Grid]:
        rules = puzzle.rules
        problem = Problem(self.solver if self.solver is not None else BacktrackingSolver())
        digits = list(rules.digits)
        constraints = 0
        for cell, value in enumerate(puzzle.values):
            allowed = rules.allowed[cell]
            problem.addVariable(cell, [value] if value else list(allowed))
            if value and value not in allowed:  # the library refuses an empty domain
                problem.addConstraint(InSetConstraint(set(allowed)), [cell])
                constraints += 1
        houses = set(rules.houses)
        for index, unit in enumerate(rules.units):
            unit_constraint = (
                UnitConstraint(digits)
                if self.hidden_singles and index in houses
                else AllDifferentConstraint()
            )
            problem.addConstraint(unit_constraint, list(unit))
        for a, b in rules.distinct_pairs:
            problem.addConstraint(FunctionConstraint(_differ), [a, b])
        for a, b in rules.nonconsecutive_pairs:
            problem.addConstraint(FunctionConstraint(_not_consecutive), [a, b])
        for cage in rules.cages:
            cells = list(cage.cells)
            if not _pairwise_unit_peers(rules, cells):
                problem.addConstraint(AllDifferentConstraint(), cells)
                constraints += 1
            if cage.total is not None:
                problem.addConstraint(ExactSumConstraint(cage.total), cells)
                constraints += 1
        constraints += (
            len(rules.units) + len(rules.distinct_pairs) + len(rules.nonconsecutive_pairs)
        )
        return CspModel(problem, rules.cell_count, constraints), puzzle

    def invert(self, answer: Mapping[int, int], data: Grid) -> Grid:
        return Grid(data.rules, tuple(answer[cell] for cell in data.rules.cells))

    def size(self, model: CspModel) -> dict[str, int]:
        return {"variables": model.variables, "constraints": model.constraints}

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle)


def _differ(a: int, b: int) -> bool:
    return a != b


def _not_consecutive(a: int, b: int) -> bool:
    return abs(a - b) != 1


def _pairwise_unit_peers(rules: Rules, cells: Sequence[int]) -> bool:
    return all(b in rules.unit_peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :])


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    reduction = CspReduction()
    model, _ = reduction.apply(puzzle)
    return {"givens": puzzle.givens, **reduction.size(model)}


def export(puzzle: Grid) -> str:
    """The model as an XCSP3 instance: array x[row][col] over 1..N, allDifferent per unit,
    `ne` / `gt(dist(..),1)` intensions for the pair rules, unary tables for parity cells,
    allDifferent and sum per cage, and the givens as an instantiation."""
    rules = puzzle.rules
    n = rules.size

    def name(cell: int) -> str:
        return f"x[{rules.row_of(cell)}][{rules.col_of(cell)}]"

    lines = [
        '<instance format="XCSP3" type="CSP">',
        "  <variables>",
        f'    <array id="x" size="[{n}][{n}]"> 1..{n} </array>',
        "  </variables>",
        "  <constraints>",
    ]
    for unit_name, unit in zip(rules.unit_names, rules.units, strict=True):
        cells = " ".join(name(cell) for cell in unit)
        lines.append(f'    <allDifferent note="{unit_name}"> {cells} </allDifferent>')
    for a, b in rules.distinct_pairs:
        lines.append(f"    <intension> ne({name(a)},{name(b)}) </intension>")
    for a, b in rules.nonconsecutive_pairs:
        lines.append(f"    <intension> gt(dist({name(a)},{name(b)}),1) </intension>")
    for parity, parity_cells, digits in (
        ("odd", rules.odd, range(1, n + 1, 2)),
        ("even", rules.even, range(2, n + 1, 2)),
    ):
        if parity_cells:
            lines.append(f'    <group note="{parity} cells">')
            lines.append(
                "      <extension> <list> %0 </list> <supports> "
                f"{' '.join(map(str, digits))} </supports> </extension>"
            )
            lines += [f"      <args> {name(cell)} </args>" for cell in sorted(parity_cells)]
            lines.append("    </group>")
    for cage in rules.cages:
        members = " ".join(name(cell) for cell in cage.cells)
        note = cage_name(rules, cage)
        if len(cage.cells) > 1:
            lines.append(f'    <allDifferent note="{note}"> {members} </allDifferent>')
        if cage.total is not None:
            lines.append(
                f'    <sum note="{note}"> <list> {members} </list> '
                f"<condition> (eq,{cage.total}) </condition> </sum>"
            )
    givens = [cell for cell, value in enumerate(puzzle.values) if value]
    if givens:
        lines.append('    <instantiation note="givens">')
        lines.append(f"      <list> {' '.join(name(cell) for cell in givens)} </list>")
        lines.append(f"      <values> {' '.join(str(puzzle[cell]) for cell in givens)} </values>")
        lines.append("    </instantiation>")
    lines += ["  </constraints>", "</instance>", ""]
    return "\n".join(lines)
