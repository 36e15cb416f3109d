"""Constraints: the rules of a puzzle beyond its shape, one module per kind.

Glossary (Norvig's essay is the model):
- *shape*: side N, the regions (boxes of a box shape, or a jigsaw), and the unit families
  rows, columns and regions; every puzzle has them.
- *constraint*: one value of a kind (`AntiKnight()`, `Cage((0, 1), 3)`); `Rules.constraints`
  holds a puzzle's.
- *kind*: a class of constraint, named by `kind` (`"anti_knight"`); one module each.
- *family*: a base class that models encode once for all its kinds: `UnitConstraint` (cells
  with distinct digits), `PairConstraint` (a relation between two cells' digits; its
  subclass `DistinctPairs`), `CellDigits` (digits a cell may hold), `SumConstraint` (cells
  whose digits add up to a total).
- *scope*: the cells a constraint is about.
- *check*, *JSON form*, *move*, *drawing*, *f-puzzles mapping*: what each kind owns
  (`violations`, `to_json`/`from_json`, `moved`, `drawing`, `from_fpuzzles`/`to_fpuzzles`);
  `Rules`, the checker, the isomorphs, the pictures and the f-puzzles format ask the kinds.
- *families* added for the setters' variants: `LinearConstraint` (linear equations over
  digits that may repeat: arrows, little killers, equal-sum segments) and `TableConstraint`
  (tables of admissible fillings, rows exclusive: what exact cover with colours takes), and
  `RegularConstraint` (finite automata read along cells: outside clues on any side).
- *canvas*, *candidates*: where a kind draws its SVG marks (`svg`), and the clues of its
  kind a full grid keeps, for the generator (`candidates`).
- *encoder table*: a model's map from kind or family to encoder (`EncoderTable`); the
  model accepts exactly the rules whose every constraint has an encoder there.
"""

from sudoku_bench.puzzles.constraints.anti_king import KING_MOVES, AntiKing
from sudoku_bench.puzzles.constraints.anti_knight import KNIGHT_MOVES, AntiKnight
from sudoku_bench.puzzles.constraints.arrow import Arrow
from sudoku_bench.puzzles.constraints.base import (
    KINDS,
    Automaton,
    Canvas,
    CellDigits,
    Conflict,
    Constraint,
    DistinctPairs,
    Drawing,
    EncoderTable,
    Equation,
    FpuzzlesReader,
    LinearConstraint,
    Move,
    PairConstraint,
    RegularConstraint,
    Shape,
    SingletonRule,
    State,
    SumConstraint,
    Table,
    TableConstraint,
    UnitConstraint,
    move_pairs,
)
from sudoku_bench.puzzles.constraints.between_line import BetweenLine
from sudoku_bench.puzzles.constraints.clone import Clone
from sudoku_bench.puzzles.constraints.diagonal import Diagonal
from sudoku_bench.puzzles.constraints.difference import Difference, DifferenceNegative
from sudoku_bench.puzzles.constraints.entropic_line import EntropicLine
from sudoku_bench.puzzles.constraints.extra_region import ExtraRegion
from sudoku_bench.puzzles.constraints.indexer import BoxIndexer, ColumnIndexer, RowIndexer
from sudoku_bench.puzzles.constraints.killer_cage import Cage
from sudoku_bench.puzzles.constraints.knightmare import Knightmare
from sudoku_bench.puzzles.constraints.little_killer import LittleKiller
from sudoku_bench.puzzles.constraints.maximum import Maximum
from sudoku_bench.puzzles.constraints.minimum import Minimum
from sudoku_bench.puzzles.constraints.non_consecutive import ORTHOGONAL_MOVES, NonConsecutive
from sudoku_bench.puzzles.constraints.palindrome import Palindrome
from sudoku_bench.puzzles.constraints.parity import Parity
from sudoku_bench.puzzles.constraints.quadruple import Quadruple
from sudoku_bench.puzzles.constraints.ratio import Ratio, RatioNegative
from sudoku_bench.puzzles.constraints.region_sum_line import RegionSumLine
from sudoku_bench.puzzles.constraints.renban import Renban
from sudoku_bench.puzzles.constraints.sandwich import Sandwich
from sudoku_bench.puzzles.constraints.skyscraper import Skyscraper
from sudoku_bench.puzzles.constraints.slow_thermometer import SlowThermometer
from sudoku_bench.puzzles.constraints.thermometer import Thermometer
from sudoku_bench.puzzles.constraints.whispers import Whispers
from sudoku_bench.puzzles.constraints.x_sum import XSum
from sudoku_bench.puzzles.constraints.xv import XV, XVNegative
from sudoku_bench.puzzles.constraints.zipper_line import ZipperLine

__all__ = [
    "KINDS",
    "KING_MOVES",
    "KNIGHT_MOVES",
    "ORTHOGONAL_MOVES",
    "XV",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "Automaton",
    "BetweenLine",
    "BoxIndexer",
    "Cage",
    "Canvas",
    "CellDigits",
    "Clone",
    "ColumnIndexer",
    "Conflict",
    "Constraint",
    "Diagonal",
    "Difference",
    "DifferenceNegative",
    "DistinctPairs",
    "Drawing",
    "EncoderTable",
    "EntropicLine",
    "Equation",
    "ExtraRegion",
    "FpuzzlesReader",
    "Knightmare",
    "LinearConstraint",
    "LittleKiller",
    "Maximum",
    "Minimum",
    "Move",
    "NonConsecutive",
    "PairConstraint",
    "Palindrome",
    "Parity",
    "Quadruple",
    "Ratio",
    "RatioNegative",
    "RegionSumLine",
    "RegularConstraint",
    "Renban",
    "RowIndexer",
    "Sandwich",
    "Shape",
    "SingletonRule",
    "Skyscraper",
    "SlowThermometer",
    "State",
    "SumConstraint",
    "Table",
    "TableConstraint",
    "Thermometer",
    "UnitConstraint",
    "Whispers",
    "XSum",
    "XVNegative",
    "ZipperLine",
    "move_pairs",
]
