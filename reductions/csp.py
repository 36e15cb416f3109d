"""Puzzle -> python-constraint `Problem` -> grid.

One variable per cell (named by its cell number), domain 1..N, a given's domain is its
value alone, and an `AllDifferentConstraint` per unit (rows, columns, boxes, extra units).
An answer is the library's solution dictionary, cell -> digit.

With `hidden_singles=True` each unit's constraint is a `UnitConstraint` instead: the same
AllDifferent check and forward checking, plus the "hidden single" rule (a digit that only
one cell of the unit can still take goes there; a digit no cell can take is a dead end).
That is the library's extension mechanism (a `Constraint` subclass), and it is what turns
python-constraint from hopeless on the hardest 9x9s into a fair competitor.

`export` writes the model in XCSP3, the XML format of the CSP solver competitions, so the
same instance can be handed to other constraint solvers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from constraint import AllDifferentConstraint, BacktrackingSolver, Problem
from constraint import Solver as ConstraintSolver

from puzzles.grid import Grid
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

    def __init__(
        self, solver: ConstraintSolver | None = None, *, hidden_singles: bool = False
    ) -> None:
        self.solver = solver
        self.hidden_singles = hidden_singles

    def apply(self, puzzle: Grid) -> tuple[CspModel, Grid]:
        rules = puzzle.rules
        problem = Problem(self.solver if self.solver is not None else BacktrackingSolver())
        digits = list(rules.digits)
        for cell, value in enumerate(puzzle.values):
            problem.addVariable(cell, [value] if value else digits)
        for unit in rules.units:
            unit_constraint = (
                UnitConstraint(digits) if self.hidden_singles else AllDifferentConstraint()
            )
            problem.addConstraint(unit_constraint, list(unit))
        return CspModel(problem, rules.cell_count, len(rules.units)), puzzle

    def invert(self, answer: Mapping[int, int], data: Grid) -> Grid:
        return Grid(data.rules, tuple(answer[cell] for cell in data.rules.cells))

    def size(self, model: CspModel) -> dict[str, int]:
        return {"variables": model.variables, "constraints": model.constraints}

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle)


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    reduction = CspReduction()
    model, _ = reduction.apply(puzzle)
    return {"givens": puzzle.givens, **reduction.size(model)}


def export(puzzle: Grid) -> str:
    """The model as an XCSP3 instance: array x[row][col] over 1..N, allDifferent per unit."""
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
    givens = [cell for cell, value in enumerate(puzzle.values) if value]
    if givens:
        lines.append('    <instantiation note="givens">')
        lines.append(f"      <list> {' '.join(name(cell) for cell in givens)} </list>")
        lines.append(f"      <values> {' '.join(str(puzzle[cell]) for cell in givens)} </values>")
        lines.append("    </instantiation>")
    lines += ["  </constraints>", "</instance>", ""]
    return "\n".join(lines)
