"""The reduction contract (after CVXPY): `apply` a puzzle to get a model, `invert` an answer.

Every export that writes a puzzle heads its file with the same three comment lines,
so that a solver's answer can be turned back into the full grid from the file alone:

    puzzle: ....3.2..4.1....
    rules: 4x4
    symbols: 1=1 2=2 3=3 4=4 .=empty

`puzzle_header` writes them (each export adds its own comment marker: `c `, `| `, `* `,
`// `); `read_puzzle_header` reads them back. `rules:` is what `Rules.parse` reads (the
classic name, or the rules' canonical JSON); `symbols:` maps each symbol of the puzzle line
to the number the model uses for it (16x16 writes `A` for 10 but numbers digits 1..16).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar

from sudoku_bench.puzzles.constraints import EncoderTable
from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT

ModelT = TypeVar("ModelT")
AnswerT = TypeVar("AnswerT")

HEADER_KEYS = ("puzzle", "rules", "symbols")
BLANK = "."


class Reduction(ABC, Generic[ModelT, AnswerT]):
    """One translation: puzzle -> model (`apply`) and the model's answer -> grid (`invert`).

    `describe` and `export` are what `sudoku-bench reduce --to TARGET` shows and writes.
    `encoders` is the model's table from constraint kind (or family) to its encoder (CVXPY's
    canonicalisation table) and `accepts` is derived from it: `reduce` refuses a puzzle with
    a kind the table lacks rather than write a model that silently leaves a rule out.
    """

    name: str = ""
    # The model's table from constraint kind (or family) to its encoder; empty: no constraint
    # beyond the shape
    encoders: ClassVar[EncoderTable[Any]] = EncoderTable({})

    def accepts(self, rules: Rules) -> bool:
        """Whether the model can express these rules: an encoder for every constraint."""
        return self.encoders.accepts(rules.constraints, rules.size)

    def missing(self, rules: Rules) -> tuple[str, ...]:
        """The titles of the rules' kinds the model cannot express (empty when it accepts)."""
        return self.encoders.missing(rules.constraints, rules.size)

    @abstractmethod
    def apply(self, puzzle: Grid) -> tuple[ModelT, Any]:
        """The model for `puzzle`, and the data `invert` needs to map an answer back."""

    @abstractmethod
    def invert(self, answer: AnswerT, data: Any) -> Grid:
        """The grid that an answer of the model stands for."""

    def size(self, model: ModelT) -> dict[str, int]:
        """Numbers that describe the model (rows, columns, variables, constraints, ...)."""
        return {}

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        """The model's size for `puzzle` (the summary and `--json` of `reduce`)."""
        model, _ = self.apply(puzzle)
        return dict(self.size(model))

    def export(self, puzzle: Grid) -> str:
        """The model in its documented text format (what `reduce -o FILE` writes)."""
        raise NotImplementedError(f"the {self.name} reduction has no export format")


def puzzle_header(puzzle: Grid) -> list[str]:
    """The comment lines (without a comment marker) that carry `puzzle` in an export."""
    rules = puzzle.rules
    symbols = DEFAULT.symbols[: rules.size]
    pairs = " ".join(f"{symbol}={value}" for value, symbol in enumerate(symbols, 1))
    return [
        f"puzzle: {puzzle.to_line(blank=BLANK)}",
        f"rules: {rules.spec}",
        f"symbols: {pairs} {BLANK}=empty",
    ]


def read_puzzle_header(comments: Iterable[str]) -> Grid:
    """The puzzle that `puzzle_header`'s lines describe, from an export's comment lines (with
    their comment marker already removed); other lines are ignored."""
    found: dict[str, str] = {}
    for line in comments:
        key, colon, value = line.strip().partition(":")
        if colon and key in HEADER_KEYS and key not in found:
            found[key] = value.strip()
    missing = [key for key in HEADER_KEYS if key not in found]
    if missing:
        raise PuzzleFormatError(f"the export's header has no '{missing[0]}:' line")
    rules = Rules.parse(found["rules"])
    numbers: dict[str, int] = {}
    for pair in found["symbols"].split():
        symbol, _, number = pair.partition("=")
        numbers[symbol] = 0 if number == "empty" else int(number)
    try:
        values = tuple(numbers[symbol] for symbol in found["puzzle"])
    except KeyError as error:
        raise PuzzleFormatError(
            f"the puzzle line uses {error}, which 'symbols:' does not map"
        ) from None
    return Grid(rules, values)
