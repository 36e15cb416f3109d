"""Puzzle -> 0/1 integer linear program -> grid, composed on the exact-cover reduction.

After CVXPY, one small translation on top of another: `SudokuExactCover` turns the puzzle into
an exact-cover matrix after the givens; this reduction writes that matrix as a feasibility
MILP for OR-Tools' linear-solver wrapper (`pywraplp`), which drives SCIP, CBC or HiGHS:

- one binary variable per matrix row: "cell c holds digit d" (named `x_r1c1_5`);
- one constraint per primary column: its rows sum to 1 (a cell is filled once, a unit holds
  each digit once); a secondary column's rows sum to at most 1;
- no objective: any feasible point is a solution.

A column no row can cover (two givens clash on it) becomes `0 = 1`, so the program is
infeasible exactly when the puzzle has no solution. `export` writes the model in free MPS,
the format every MILP solver reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ortools.linear_solver import pywraplp

from puzzles.grid import Grid
from reductions.base import Reduction
from reductions.exact_cover import REDUCTION as EXACT_COVER
from reductions.exact_cover import SudokuCover

# The MILP solvers of the ortools wheel, by the names `pywraplp.Solver.CreateSolver` takes.
BACKENDS = ("SCIP", "CBC", "HIGHS")


@dataclass(frozen=True)
class MilpData:
    """What `invert` needs: the exact-cover data and the variables, one per matrix row."""

    cover: SudokuCover
    variables: tuple[Any, ...]  # pywraplp.Variable, in matrix-row order


class MilpReduction(Reduction[pywraplp.Solver, Sequence[float]]):
    """Sudoku as a 0/1 feasibility program: the exact-cover matrix as `A x = 1`."""

    name = "milp"

    def __init__(self, backend: str = "SCIP") -> None:
        if backend.upper() not in BACKENDS:
            raise ValueError(f"unknown MILP solver {backend!r}; choose one of {BACKENDS}")
        self.backend = backend.upper()

    def apply(self, puzzle: Grid) -> tuple[pywraplp.Solver, MilpData]:
        matrix, cover = EXACT_COVER.apply(puzzle)
        solver = pywraplp.Solver.CreateSolver(self.backend)
        if solver is None:  # the wheel was built without it
            raise RuntimeError(f"this ortools build has no {self.backend} solver")
        solver.SuppressOutput()
        if self.backend == "HIGHS":  # HiGHS still prints its banner on stdout without this
            solver.SetSolverSpecificParametersAsString("output_flag=false")
        variables = tuple(
            solver.BoolVar(_variable_name(puzzle, cover, row)) for row in range(len(matrix.rows))
        )
        for column, rows in enumerate(matrix.rows_by_column()):
            bound = 1.0 if column < matrix.primary else 0.0  # primary: exactly one; else at most
            constraint = solver.Constraint(bound, 1.0, _constraint_name(matrix.columns[column]))
            for row in rows:
                constraint.SetCoefficient(variables[row], 1.0)
        return solver, MilpData(cover, variables)

    def invert(self, answer: Sequence[float], data: MilpData) -> Grid:
        """`answer[i]` is the value of variable i; the rows at 1 are the placements."""
        return EXACT_COVER.invert(
            (row for row, value in enumerate(answer) if value > 0.5), data.cover
        )

    def exclude(self, solver: pywraplp.Solver, data: MilpData, solution: Grid) -> None:
        """Add the no-good cut "not all of these placements again" for `solution`.

        Every solution of a puzzle selects the same number k of rows (one per empty cell), so
        "the k rows of this one sum to at most k - 1" cuts off exactly this solution.
        """
        chosen = EXACT_COVER.encode(solution, data.cover)
        cut = solver.Constraint(-solver.infinity(), len(chosen) - 1.0)
        for row in chosen:
            cut.SetCoefficient(data.variables[row], 1.0)

    def size(self, model: pywraplp.Solver) -> dict[str, int]:
        return {"variables": model.NumVariables(), "constraints": model.NumConstraints()}

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle, self.backend)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle)


def _variable_name(puzzle: Grid, cover: SudokuCover, row: int) -> str:
    cell, digit = cover.placements[row]
    return f"x_{puzzle.rules.cell_name(cell)}_{digit}"


def _constraint_name(column: str) -> str:
    return column.replace("#", "_")  # r1#5 -> r1_5: plain names for every LP reader


# ----- the `reduce --to milp` target ----------------------------------------------------------


def describe(puzzle: Grid, backend: str = "SCIP") -> dict[str, Any]:
    reduction = MilpReduction(backend)
    model, data = reduction.apply(puzzle)
    return {
        "solver": reduction.backend,
        **reduction.size(model),
        "clashes": list(data.cover.clashes),
    }


def export(puzzle: Grid) -> str:
    """The program in free MPS format, which SCIP, CBC, HiGHS, Gurobi, CPLEX and glpk all read."""
    model, _ = MilpReduction().apply(puzzle)
    text: str = model.ExportModelAsMpsFormat(False, False)  # free format, names kept
    return text
