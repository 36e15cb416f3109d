"""Indexers: a marked cell's digit names a place along its line, and the cell at that place
holds the marked cell's own place.

- row indexer: the digit d of a cell in row r, column c says that row d of column c holds r;
- column indexer: the digit d of a cell in row r, column c says that column d of row r holds c;
- box indexer: the digit d of the cell at place p of its region (places counted row by row
  from 1) says that place d of that region holds p.

That is how Rangsk's SudokuSolver reads f-puzzles' `"rowindexer"`, `"columnindexer"` and
`"boxindexer"`, each `[{"cells": ["R1C1", ...]}]`. One constraint per marked cell; as a table
over its line, a row per digit d: the marked cell d and the cell it names its place, the other
cells any digit. The digits name places, so an isomorph moves nothing (`movable`).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_bench.puzzles.constraints.base import (
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    Shape,
    Table,
    TableConstraint,
    check_cells,
    fpuzzles_cell,
    json_cells,
    read_cells,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


@dataclass(frozen=True, order=True)
class Indexer(TableConstraint):
    cell: int

    reads_digit_values = True
    digits_reversible = False
    movable = False
    line_word: ClassVar[str] = ""  # "row": what the digit names
    symbol: ClassVar[str] = ""
    shade: ClassVar[str] = ""

    @abstractmethod
    def line(self, shape: Shape) -> tuple[int, ...]:
        """The cells the digit indexes, in their places' order (place 1 first)."""

    def tables(self, shape: Shape) -> tuple[Table, ...]:
        line = self.line(shape)
        own = line.index(self.cell) + 1
        rows = []
        for digit in range(1, len(line) + 1):
            row = [0] * len(line)
            row[digit - 1] = own  # the named cell holds the marked cell's place ...
            row[own - 1] = digit  # ... and the marked cell its digit (the same cell if own)
            rows.append(tuple(row))
        return (Table(line, tuple(rows)),)

    def validate(self, shape: GridShape) -> None:
        check_cells(shape, (self.cell,), self.title)

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        line = self.line(rules.shape)
        digit = values[self.cell]
        if not digit:
            return
        named = line[digit - 1]
        own = line.index(self.cell) + 1
        if values[named] and values[named] != own:
            name = rules.cell_name
            text = (
                f"{name(self.cell)} is a {self.title} holding {digit}, so {name(named)} "
                f"holds {own}, not {values[named]}"
            )
            yield Conflict(f"{self.title} {name(self.cell)}", digit, (self.cell, named), text)

    def moved(self, move: Move) -> Constraint:
        """Only the identity keeps an indexer's meaning (its digits name places); the
        isomorphs of rules with indexers are the identity (`movable`)."""
        if move.reverse or any(cell != source for cell, source in enumerate(move.source)):
            raise RulesError(f"a {self.title}'s digits name places: it cannot be moved")
        return self

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted({item for item in items if isinstance(item, cls)}))

    @classmethod
    def marked(cls, items: Sequence[Constraint]) -> list[int]:
        return sorted({item.cell for item in items if isinstance(item, Indexer)})

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        cells = cls.marked(items)
        return {cls.json_keys[0]: json_cells(shape, cells)} if cells else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        key = cls.json_keys[0]
        if key not in data:
            return []
        return [cls(cell) for cell in read_cells(shape, data[key], key)]

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        key = cls.fpuzzles_keys[0]
        return [cls(cell) for entry in reader.entries(key) for cell in reader.group(entry, key)]

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        cells = cls.marked(items)
        key = cls.fpuzzles_keys[0]
        return {key: [{"cells": [fpuzzles_cell(shape, c) for c in cells]}]} if cells else {}

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        cells = set(cls.marked(items))
        symbols = tuple(cls.symbol if cell in cells else "." for cell in shape.cells)
        return Drawing(
            f"{cls.title} cells ({cls.symbol}: its digit names the {cls.line_word} that holds "
            f"its own {cls.line_word} number):",
            symbols,
        )

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        unit = canvas.unit
        parts = []
        for cell in cls.marked(items):
            x, y = canvas.corner(*divmod(cell, shape.size))
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{unit:.1f}" height="{unit:.1f}" '
                f'fill="{cls.shade}" class="{cls.kind}"/>'
            )
        return parts

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """Every cell whose digit, read as this indexer, holds in the full grid."""
        found: list[Constraint] = []
        for cell in shape.cells:
            clue = cls(cell)
            (table,) = clue.tables(shape)
            if table.matching(solution):
                found.append(clue)
        rng.shuffle(found)
        return found


@dataclass(frozen=True, order=True)
class RowIndexer(Indexer):
    kind = "row_indexer"
    title = "row indexer"
    word = "row-indexer"
    json_keys = ("row_indexer",)
    fpuzzles_keys = ("rowindexer",)
    line_word = "row"
    symbol = "R"
    shade = "#f6dada"

    def line(self, shape: Shape) -> tuple[int, ...]:
        n = shape.size
        return tuple(row * n + self.cell % n for row in range(n))


@dataclass(frozen=True, order=True)
class ColumnIndexer(Indexer):
    kind = "column_indexer"
    title = "column indexer"
    word = "column-indexer"
    json_keys = ("column_indexer",)
    fpuzzles_keys = ("columnindexer",)
    line_word = "column"
    symbol = "C"
    shade = "#dbeedb"

    def line(self, shape: Shape) -> tuple[int, ...]:
        n = shape.size
        return tuple(self.cell // n * n + col for col in range(n))


@dataclass(frozen=True, order=True)
class BoxIndexer(Indexer):
    kind = "box_indexer"
    title = "box indexer"
    word = "box-indexer"
    json_keys = ("box_indexer",)
    fpuzzles_keys = ("boxindexer",)
    line_word = "place in its region"
    symbol = "B"
    shade = "#dcdcf4"

    def line(self, shape: Shape) -> tuple[int, ...]:
        """The cell's region, row by row (jigsaw regions too)."""
        regions: tuple[tuple[int, ...], ...] = shape.regions  # type: ignore[attr-defined]
        return next(tuple(sorted(region)) for region in regions if self.cell in region)
