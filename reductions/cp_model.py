"""Puzzle -> OR-Tools CP-SAT model -> grid, in two encodings.

- `integer`: one integer variable per cell, domain 1..N (a given's domain is its value),
  and `add_all_different` per unit (rows, columns, boxes, extra units).
- `onehot`: one 0/1 variable per (cell, digit) and `add_exactly_one` per cell and per
  (unit, digit): the exact-cover structure written as Boolean constraints. A given fixes
  its cell's variables to constants.

The answer `invert` takes is a function from a variable to its value (the solution
callback's `value`, or `CpSolver.value`), so both encodings map back the same way.
`export` writes the model as the CpModelProto text format, which `ortools` reads back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from puzzles.grid import Grid
from reductions.base import Reduction

ENCODINGS = ("integer", "onehot")

# A function giving a model expression's value in a solution.
Answer = Callable[[Any], int]


@dataclass(frozen=True)
class CpData:
    """What `invert` needs: the puzzle and its variables.

    `cells[c]` is cell c's integer variable (integer encoding); `literals[c][d - 1]` is
    "cell c holds d" (one-hot encoding; constants for givens).
    """

    puzzle: Grid
    encoding: str
    cells: tuple[cp_model.IntVar, ...] = ()
    literals: tuple[tuple[Any, ...], ...] = ()


class CpModelReduction(Reduction[cp_model.CpModel, Answer]):
    """Sudoku as a CP-SAT model in the `integer` (AllDifferent) or `onehot` encoding."""

    name = "cp-model"

    def __init__(self, encoding: str = "integer") -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown CP-SAT encoding {encoding!r}; choose one of {ENCODINGS}")
        self.encoding = encoding

    def apply(self, puzzle: Grid) -> tuple[cp_model.CpModel, CpData]:
        model = cp_model.CpModel()
        if self.encoding == "integer":
            return model, _integer_model(model, puzzle)
        return model, _onehot_model(model, puzzle)

    def invert(self, answer: Answer, data: CpData) -> Grid:
        if data.encoding == "integer":
            values = tuple(answer(cell) for cell in data.cells)
        else:
            values = tuple(_digit_of(answer, row) for row in data.literals)
        return Grid(data.puzzle.rules, values)

    def size(self, model: cp_model.CpModel) -> dict[str, int]:
        proto = model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}

    def exclude(self, model: cp_model.CpModel, data: CpData, solution: Grid) -> None:
        """Add "at least one empty cell differs from `solution`" to the model.

        Re-solving after this proves uniqueness (INFEASIBLE) or finds another solution, and
        unlike `enumerate_all_solutions` it stays sound with several workers.
        """
        free = data.puzzle.empty_cells
        if data.encoding == "onehot":
            model.add_bool_or([data.literals[c][solution[c] - 1].negated() for c in free])
            return
        differs = []
        for c in free:
            literal = model.new_bool_var(f"differs_{c}")
            model.add(data.cells[c] != solution[c]).only_enforce_if(literal)
            differs.append(literal)
        model.add_bool_or(differs)

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle, self.encoding)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle, self.encoding)


def _integer_model(model: cp_model.CpModel, puzzle: Grid) -> CpData:
    rules = puzzle.rules
    cells = tuple(
        model.new_int_var(value or 1, value or rules.size, rules.cell_name(cell))
        for cell, value in enumerate(puzzle.values)
    )
    for unit in rules.units:
        model.add_all_different(cells[c] for c in unit)
    return CpData(puzzle, "integer", cells=cells)


def _onehot_model(model: cp_model.CpModel, puzzle: Grid) -> CpData:
    rules = puzzle.rules
    # A given's literals are the shared constants; unnamed variables keep building cheap.
    false, true = (model.new_constant(0), model.new_constant(1)) if puzzle.givens else (0, 1)
    literals = tuple(
        tuple(true if digit == given else false for digit in rules.digits)
        if given
        else tuple(model.new_bool_var("") for _ in rules.digits)
        for given in puzzle.values
    )
    for row in literals:
        model.add_exactly_one(row)
    for unit in rules.units:
        for d in range(rules.size):
            model.add_exactly_one(literals[c][d] for c in unit)
    return CpData(puzzle, "onehot", literals=literals)


def _digit_of(answer: Answer, row: Sequence[Any]) -> int:
    """The digit whose literal is true (0 if none is: only a broken answer does that)."""
    return next((d for d, literal in enumerate(row, 1) if answer(literal)), 0)


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid, encoding: str = "integer") -> dict[str, Any]:
    reduction = CpModelReduction(encoding)
    model, _ = reduction.apply(puzzle)
    return {"encoding": encoding, **reduction.size(model)}


def export(puzzle: Grid, encoding: str = "integer") -> str:
    """The model in CpModelProto text format (`text_format.Parse` reads it back)."""
    model, _ = CpModelReduction(encoding).apply(puzzle)
    return str(model.proto)
