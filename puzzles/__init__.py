"""The problem: geometry, grids, formats, collections and the independent rule checker."""

from puzzles.checker import Conflict, conflicts, is_solution, is_valid_puzzle, solution_problems
from puzzles.errors import (
    GeometryError,
    InvalidPuzzleError,
    PuzzleFormatError,
    SudokuBenchError,
    UnknownCollectionError,
)
from puzzles.geometry import Geometry
from puzzles.grid import Grid
from puzzles.symbols import DEFAULT, HEX, Alphabet

__all__ = [
    "DEFAULT",
    "HEX",
    "Alphabet",
    "Conflict",
    "Geometry",
    "GeometryError",
    "Grid",
    "InvalidPuzzleError",
    "PuzzleFormatError",
    "SudokuBenchError",
    "UnknownCollectionError",
    "conflicts",
    "is_solution",
    "is_valid_puzzle",
    "solution_problems",
]
