"""Clues written outside the grid (little killers, sandwich sums, X-sums, skyscrapers): their
places, names, moves and marks, shared by those kinds.

A place is (row, column) counted from 0, where the clue's row or column is -1 or N: the
border round the grid. Names count from 1 as f-puzzles does, so `r0c3` is above column 3
and `r3c10` right of row 3 on a 9x9 grid.
"""

from __future__ import annotations

import random
import re
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_bench.puzzles.constraints.base import (
    Automaton,
    Canvas,
    Checked,
    Conflict,
    Constraint,
    Drawing,
    FpuzzlesReader,
    Move,
    RegularConstraint,
    Shape,
    State,
    Table,
    TableConstraint,
    json_list,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape

Place = tuple[int, int]
TABLE_LARGEST = 9  # the largest side a line clue's table is listed for
_NAME = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)


def place_name(place: Place) -> str:
    """`r0c3`: the place as the JSON form names it."""
    return f"r{place[0] + 1}c{place[1] + 1}"


def fpuzzles_place(place: Place) -> str:
    """`R0C3`: the place as f-puzzles names it."""
    return f"R{place[0] + 1}C{place[1] + 1}"


def read_place(size: int, name: object, what: str) -> Place:
    """A place from its name (`r0c3`, any case), inside or on the border round the grid."""
    match = _NAME.fullmatch(str(name).strip())
    if match is None:
        raise RulesError(f"{what}: {name!r} is not a place such as r0c3 (above column 3)")
    row, col = int(match.group(1)) - 1, int(match.group(2)) - 1
    if not (-1 <= row <= size and -1 <= col <= size):
        raise RulesError(f"{what}: {name} is more than one step outside the {size}x{size} grid")
    return row, col


def is_outside(size: int, place: Place) -> bool:
    row, col = place
    return not (0 <= row < size and 0 <= col < size)


def line_from(size: int, place: Place) -> tuple[int, ...] | None:
    """The cells of the row or column a border clue looks along, nearest first; None when
    the place is not beside a row or a column (a corner, or inside the grid)."""
    row, col = place
    if col in (-1, size) and 0 <= row < size:
        cells = tuple(row * size + c for c in range(size))
        return cells if col == -1 else cells[::-1]
    if row in (-1, size) and 0 <= col < size:
        cells = tuple(r * size + col for r in range(size))
        return cells if row == -1 else cells[::-1]
    return None


def check_line_clue(size: int, place: Place, what: str) -> tuple[int, ...]:
    """The clue's line, or an error that says where such a clue stands."""
    line = line_from(size, place)
    if line is None:
        raise RulesError(
            f"{what} at {place_name(place)}: the clue stands just outside the grid, beside a "
            f"row (column 0 or {size + 1}) or above or below a column (row 0 or {size + 1})"
        )
    return line


def _linear(move: Move) -> tuple[Place, Place, Place]:
    """The square symmetry `move` as where (0, 0) goes and where one step along a row and
    along a column go (it is linear on (row, column), so it maps border places too)."""
    n = move.shape.size

    def at(cell: int) -> Place:
        target = move.target[cell]
        return target // n, target % n

    origin = at(0)
    right, down = at(1), at(n)
    return (
        origin,
        (right[0] - origin[0], right[1] - origin[1]),
        (
            down[0] - origin[0],
            down[1] - origin[1],
        ),
    )


def moved_place(move: Move, place: Place) -> Place:
    origin, along_row, along_col = _linear(move)
    row, col = place
    return (
        origin[0] + col * along_row[0] + row * along_col[0],
        origin[1] + col * along_row[1] + row * along_col[1],
    )


def moved_step(move: Move, step: Place) -> Place:
    """Where a direction (row step, column step) points after the move."""
    _, along_row, along_col = _linear(move)
    dr, dc = step
    return (dc * along_row[0] + dr * along_col[0], dc * along_row[1] + dr * along_col[1])


def clue_text(canvas: Canvas, place: Place, text: str, css: str) -> str:
    """A clue's number written in its border place."""
    x, y = canvas.centre(*place)
    font = round(canvas.unit * 0.45)
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{font}" text-anchor="middle" '
        f'dominant-baseline="central" class="{css}">{escape(text)}</text>'
    )


def legend_of(words: list[str], width: int = 72) -> tuple[str, ...]:
    """Words wrapped to lines of at most `width` characters."""
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines)


@dataclass(frozen=True, order=True)
class LineClue(RegularConstraint, TableConstraint):
    """A number outside the grid beside a row or a column, about the digits of that line
    read from the clue's side (a sandwich sum, an X-sum, a skyscraper count).

    Two forms for the models: an automaton that reads the line from the clue's side (any
    side; a model that encodes automata takes it first, being earlier among the bases) and
    the table of the line's admissible fillings, listed up to `TABLE_LARGEST`."""

    place: Place
    value: int

    table_largest = TABLE_LARGEST
    reads_digit_values = True
    digits_reversible = False  # what each says about 1, N or the first digit changes meaning
    outside_clues = True
    value_key: ClassVar[str] = "sum"  # the JSON form's name for `value`
    symbol: ClassVar[str] = "s"

    def line(self, size: int) -> tuple[int, ...]:
        found = line_from(size, self.place)
        if found is None:
            raise RulesError(f"{self.title} at {place_name(self.place)} is beside no row or column")
        return found

    def name(self) -> str:
        return f"{self.title} {self.value} at {place_name(self.place)}"

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted(self.line(shape.size)))

    @abstractmethod
    def admissible(self, size: int) -> tuple[tuple[int, ...], ...]:
        """The table's rows along the line, nearest cell first (0: any digit)."""

    @abstractmethod
    def start(self) -> State:
        """The automaton's state before the line's first digit."""

    @abstractmethod
    def step(self, size: int, state: State, digit: int) -> State | None:
        """The state after `digit` (digits along a line are distinct, so a step may take
        that for granted); None: no filling that starts so keeps the clue."""

    @abstractmethod
    def accepting(self, size: int, state: State) -> bool:
        """Whether a full line that ends in `state` keeps the clue."""

    def automata(self, shape: Shape) -> tuple[Automaton, ...]:
        size = shape.size
        return (
            Automaton(
                self.line(size),
                self.start(),
                lambda state, digit: self.step(size, state, digit),
                lambda state: self.accepting(size, state),
            ),
        )

    @abstractmethod
    def most(self, size: int) -> int:
        """The largest value the clue can have on an N x N grid."""

    @abstractmethod
    def broken_by(self, digits: Sequence[int]) -> str | None:
        """What is wrong with the line's digits (0: empty), nearest first, in words; None:
        nothing yet."""

    @abstractmethod
    def value_of(self, digits: Sequence[int]) -> int | None:
        """The clue a full line's digits give (None: none, e.g. a line without 1 or N)."""

    def tables(self, shape: Shape) -> tuple[Table, ...]:
        """Listed up to 9x9 (tens of thousands of rows at most); past that the fillings of a
        line run into the millions, and a model needs its own encoding of the kind."""
        if shape.size > TABLE_LARGEST:
            raise RulesError(
                f"{self.name()}: its table of fillings is listed up to "
                f"{TABLE_LARGEST}x{TABLE_LARGEST}; on {shape.size}x{shape.size} it is too large"
            )
        return (Table(self.line(shape.size), self.admissible(shape.size)),)

    def validate(self, shape: GridShape) -> None:
        check_line_clue(shape.size, self.place, self.title)
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise RulesError(f"{self.name()}: the clue is a whole number, not {self.value!r}")
        if not 0 <= self.value <= self.most(shape.size):
            raise RulesError(
                f"{self.name()}: out of reach (a {shape.size}x{shape.size} line gives 0 to "
                f"{self.most(shape.size)})"
            )

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        line = self.line(rules.shape.size)
        wrong = self.broken_by([values[cell] for cell in line])
        if wrong is not None:
            yield Conflict(self.name(), 0, line, f"{self.name()}: {wrong}")

    def moved(self, move: Move) -> Constraint:
        return type(self)(moved_place(move, self.place), self.value)

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(sorted({item for item in items if isinstance(item, LineClue)}))

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        clues = [
            {"place": place_name(clue.place), cls.value_key: clue.value}
            for clue in cls.combine(items)
            if isinstance(clue, LineClue)
        ]
        return {cls.json_keys[0]: clues} if clues else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        key = cls.json_keys[0]
        if key not in data:
            return []
        found: list[Constraint] = []
        for index, entry in enumerate(json_list(data[key], key)):
            what = f"{key}[{index}]"
            if not isinstance(entry, Mapping) or "place" not in entry or cls.value_key not in entry:
                raise RulesError(
                    f'{what} is an object with "place" (such as r0c3) and "{cls.value_key}"'
                )
            value = entry[cls.value_key]
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f'{what}: "{cls.value_key}" is a whole number, not {value!r}')
            found.append(cls(read_place(shape.size, entry["place"], what), value))
        return found

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """`[{"cell": "R0C3", "value": "12"}]`; a clue without a value is no rule (f-puzzles
        and Rangsk's SudokuSolver pass it over)."""
        key = cls.fpuzzles_keys[0]
        found: list[Constraint] = []
        for entry in reader.entries(key):
            value = reader.number(entry, key)
            if value is None:
                continue
            found.append(cls(read_place(shape.size, entry.get("cell"), f"f-puzzles {key}"), value))
        return found

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        clues = [
            {"cell": fpuzzles_place(clue.place), "value": str(clue.value)}
            for clue in cls.combine(items)
            if isinstance(clue, LineClue)
        ]
        return {cls.fpuzzles_keys[0]: clues} if clues else {}

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        clues = [clue for clue in cls.combine(items) if isinstance(clue, LineClue)]
        marked = {cell for clue in clues for cell in clue.line(shape.size)}
        symbols = tuple(cls.symbol if cell in marked else "." for cell in shape.cells)
        words = [f"{place_name(clue.place)}={clue.value}" for clue in clues]
        title = (
            f"{cls.title}s ({cls.symbol}: a line with a clue; r0 / c0 above / left of the grid):"
        )
        return Drawing(title, symbols, None, legend_of(words))

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        return [
            clue_text(canvas, clue.place, str(clue.value), cls.kind)
            for clue in cls.combine(items)
            if isinstance(clue, LineClue)
        ]

    @classmethod
    def candidates(
        cls, solution: Sequence[int], shape: GridShape, rng: random.Random
    ) -> list[Constraint]:
        """The clue each of the 4N border places gives (where the line gives one)."""
        n = shape.size
        places = [(row, side) for row in range(n) for side in (-1, n)]
        places += [(side, col) for col in range(n) for side in (-1, n)]
        found: list[Constraint] = []
        for place in places:
            line = line_from(n, place)
            assert line is not None
            value = cls(place, 0).value_of([solution[cell] for cell in line])
            if value is not None:
                found.append(cls(place, value))
        rng.shuffle(found)
        return found
