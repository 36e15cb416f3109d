"""The problem: geometry, grids, formats, collections and the independent rule checker."""

from puzzles.checker import Conflict, conflicts, is_solution, is_valid_puzzle, solution_problems
from puzzles.errors import (
    InvalidPuzzleError,
    PuzzleFormatError,
    RulesError,
    SudokuBenchError,
    UnknownCollectionError,
)
from puzzles.grid import Grid
from puzzles.rules import Rules
from puzzles.symbols import DEFAULT, HEX, Alphabet

__all__ = [
    "DEFAULT",
    "HEX",
    "Alphabet",
    "Conflict",
    "Grid",
    "InvalidPuzzleError",
    "PuzzleFormatError",
    "Rules",
    "RulesError",
    "SudokuBenchError",
    "UnknownCollectionError",
    "conflicts",
    "is_solution",
    "is_valid_puzzle",
    "solution_problems",
]
