"""The problem: rules, puzzles, formats, collections and the independent rule checker.

Glossary (the names every layer uses):

- cell: one square of the N x N grid, numbered 0..N²-1 row by row; named `r1c1` for people.
- digit: a value 1..N (written 1-9 then A-P); 0 is an empty cell.
- unit: cells that hold distinct digits: a row, a column, a region, an extra unit. A unit of
  N cells (a house) holds every digit once.
- region: one of the N pieces of N cells that partition the grid: the boxes of a box shape
  (3x3 for 9x9, 2x3 for 6x6), or the irregular pieces of a jigsaw.
- extra unit: a unit beyond rows, columns and regions: the diagonals of Sudoku-X, windoku
  and other extra regions.
- peers: the cells that must hold a different digit from a cell (its units' cells, its cage
  mates, its anti-knight / anti-king partners).
- pair rule: a rule between two cells: anti-knight and anti-king (a knight's / king's move
  apart: different digits), non-consecutive (orthogonal neighbours: not consecutive).
- parity: cells that must hold an odd, or an even, digit.
- cage: a killer cage, cells with distinct digits and an optional sum.
- `Rules`: all of the above for one puzzle; classic Sudoku by default. It has a name
  (`9x9`, `9x9 anti-knight`), a canonical JSON form and a fingerprint.
- `Grid`: rules plus N² values. A puzzle is a grid whose filled cells are its givens
  (`Puzzle` is the same type, named for that role); a solution is a full grid that breaks
  no rule and keeps every given.
- conflict: a broken rule, named in words by the checker, which trusts no solver.
"""

from typing import Any

from puzzles.checker import Conflict, conflicts, is_solution, is_valid_puzzle, solution_problems
from puzzles.errors import (
    InvalidPuzzleError,
    PuzzleFormatError,
    RulesError,
    SudokuBenchError,
    UnknownCollectionError,
)
from puzzles.grid import Grid, Puzzle
from puzzles.rules import Cage, RuleKind, Rules
from puzzles.symbols import DEFAULT, HEX, Alphabet

__all__ = [
    "DEFAULT",
    "HEX",
    "Alphabet",
    "Cage",
    "Conflict",
    "Grid",
    "InvalidPuzzleError",
    "Puzzle",
    "PuzzleFormatError",
    "RuleKind",
    "Rules",
    "RulesError",
    "SudokuBenchError",
    "UnknownCollectionError",
    "conflicts",
    "is_solution",
    "is_valid_puzzle",
    "solution_problems",
]


def __getattr__(name: str) -> Any:
    # `__version__` read from the installed metadata only when asked: it costs an import of
    # importlib.metadata, which the command line does not otherwise pay for
    if name == "__version__":
        from puzzles.version import installed_version

        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
