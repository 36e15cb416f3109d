"""The problem: rules (a shape plus constraints), puzzles, formats, collections and the
independent rule checker.

Glossary (the names every layer uses; Norvig's essay is the model):

- cell: one square of the N x N grid, numbered 0..N²-1 row by row; named `r1c1` for people.
- digit: a value 1..N (written 1-9 then A-P); 0 is an empty cell.
- unit: cells that hold distinct digits: a row, a column, a region, or a unit constraint's
  unit (a diagonal, an extra region). A unit of N cells is a house: every digit once.
- family: the units of one name: `row`, `column`, `region` (the shape's three), `extra`
  (the unit constraints'); `rules.family("column")`, `rules.family_of(unit)`.
- region: one of the N pieces of N cells that partition the grid: the boxes of a box shape
  (3x3 for 9x9, 2x3 for 6x6), or the irregular pieces of a jigsaw.
- shape (`GridShape`, `rules.shape`): side N, the regions and the three unit families;
  shared by every puzzle of that size and layout, its structure built once.
- constraint: one rule beyond the shape, a value of one kind (`AntiKnight()`,
  `Cage((0, 1), 3)`); `rules.constraints` holds a puzzle's, in a fixed order.
- kind: a class of constraint, one module of `sudoku_bench.puzzles.constraints` each (`diagonal`,
  `extra_region`, `anti_knight`, `anti_king`, `non_consecutive`, `parity`, `killer_cage`);
  it owns its check, JSON form, isomorph move, picture and f-puzzles mapping.
- constraint family: what models encode once for many kinds: unit constraints, pair
  constraints (anti-knight, anti-king: distinct pairs; non-consecutive), cell digits
  (parity), sums (cages). A model's encoder table maps kinds or families to its encoders.
- scope: the cells a constraint is about.
- peers: the cells that must hold a different digit from a cell (its units' cells, its cage
  mates, its anti-knight / anti-king partners).
- `Rules`: a shape plus constraints; classic Sudoku has none (Sudoku-X: the two diagonals).
  It has a name (`9x9`, `9x9 anti-knight`), a canonical JSON form and a fingerprint.
- `Grid`: rules plus N² values. A puzzle is a grid whose filled cells are its givens
  (`Puzzle` is the same type, named for that role); a solution is a full grid that breaks
  no rule and keeps every given.
- conflict: a broken rule, named in words by the checker, which trusts no solver.
- isomorph: the same puzzle with cells moved and digits relabelled, as far as its
  constraints allow.
"""

from typing import Any

from sudoku_bench.puzzles.checker import (
    Conflict,
    conflicts,
    is_solution,
    is_valid_puzzle,
    solution_problems,
)
from sudoku_bench.puzzles.constraints import Constraint
from sudoku_bench.puzzles.errors import (
    InvalidPuzzleError,
    PuzzleFormatError,
    RulesError,
    SudokuBenchError,
    UnknownCollectionError,
)
from sudoku_bench.puzzles.grid import Grid, Puzzle
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.puzzles.shape import GridShape
from sudoku_bench.puzzles.symbols import DEFAULT, HEX, Alphabet

__all__ = [
    "DEFAULT",
    "HEX",
    "Alphabet",
    "Cage",
    "Conflict",
    "Constraint",
    "Grid",
    "GridShape",
    "InvalidPuzzleError",
    "Puzzle",
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


def __getattr__(name: str) -> Any:
    # `__version__` read from the installed metadata only when asked: it costs an import of
    # importlib.metadata, which the command line does not otherwise pay for
    if name == "__version__":
        from sudoku_bench.puzzles.version import installed_version

        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
