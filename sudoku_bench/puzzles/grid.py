"""`Grid`: an immutable puzzle or solution: its rules and N² values (0 = empty)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sudoku_bench.puzzles.errors import PuzzleFormatError, RulesError
from sudoku_bench.puzzles.picture import region_picture
from sudoku_bench.puzzles.rules import COMMON_SIZES, Rules
from sudoku_bench.puzzles.symbols import DEFAULT, Alphabet, describe_char


@dataclass(frozen=True, repr=False)
class Grid:
    """A Sudoku grid: `values[cell]` in 0..N, 0 for an empty cell, cells in row-major order.

    A Grid may break the rules (two equal givens in a unit): that is a puzzle with no
    solution, which solvers must be able to say. `sudoku_bench.puzzles.checker` tells the two apart.
    """

    rules: Rules
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        n = self.rules.size
        if len(self.values) != self.rules.cell_count:
            raise PuzzleFormatError(
                f"a {self.rules} grid has {self.rules.cell_count} cells, got {len(self.values)}"
            )
        if self.values and min(self.values) >= 0 and max(self.values) <= n:
            return  # the common case, checked at C speed (big files are read puzzle by puzzle)
        for cell, value in enumerate(self.values):
            if not 0 <= value <= n:
                raise PuzzleFormatError(
                    f"{self.rules.cell_name(cell)} holds {value}: values are 0 (empty) to {n}"
                )

    # ----- building -------------------------------------------------------------------------

    @classmethod
    def empty(cls, rules: Rules) -> Grid:
        return cls(rules, (0,) * rules.cell_count)

    @classmethod
    def from_string(
        cls,
        text: str,
        rules: Rules | None = None,
        *,
        alphabet: Alphabet = DEFAULT,
    ) -> Grid:
        """A grid from one line of N² symbols (`.` or `0` for empty; 1-9 then A-P), or, for
        sizes past the alphabet, N² numbers separated by spaces (`to_line` writes either).

        White space is ignored. The geometry is inferred from the length unless given.
        Errors name the 1-based column of the offending character.
        """
        if rules is None or len(text) == rules.size * rules.size:
            fast = _decode(text, alphabet, rules)
            if fast is not None:  # values known to be in range: skip __post_init__'s check
                grid = object.__new__(cls)
                fields = grid.__dict__  # set directly: the dataclass is frozen
                fields["rules"], fields["values"] = fast
                if alphabet is DEFAULT and "0" not in text and text == text.upper():
                    fields["_line"] = text  # what `to_line` writes
                return grid
        invisible = _invisible(text)
        if invisible is not None:  # else it counted as a cell: "82 cells is no puzzle size"
            column, char = invisible
            raise PuzzleFormatError(
                f"unexpected {describe_char(char)}: an invisible character "
                "(copied from a web page or a document?)",
                column=column,
            )
        numbers = _numbers(text, alphabet, rules)
        if numbers is not None:
            return numbers
        # Counted before the cells are listed: a line far longer than a grid (a file that is
        # not puzzles) is refused for its length without being listed.
        count = len("".join(text.split()))
        if rules is None:
            rules = _geometry_for_length(count)
        elif count != rules.cell_count:
            raise PuzzleFormatError(
                f"expected {rules.cell_count} cells for a {rules} puzzle, got {count}",
                column=_column_after(text, rules.cell_count),
            )
        chars = [(column, char) for column, char in enumerate(text, 1) if not char.isspace()]
        values = []
        for column, char in chars:
            value = alphabet.value_of(char)
            if value is None or value > rules.size:
                raise PuzzleFormatError(
                    f"unexpected {char!r}: a {rules} cell is {alphabet.describe(rules.size)}",
                    column=column,
                )
            values.append(value)
        return cls(rules, tuple(values))

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], rules: Rules | None = None) -> Grid:
        """A grid from a list of lists, `board[row][col]`, 0 for empty (the seeds' form)."""
        if rules is None:
            try:
                rules = Rules.of_size(len(rows))
            except RulesError as error:  # bad input, to be located like any other
                raise PuzzleFormatError(f"{len(rows)} rows make no board: {error}") from None
        if len(rows) != rules.size or any(len(row) != rules.size for row in rows):
            raise PuzzleFormatError(f"a {rules} board is {rules.size} rows of {rules.size} values")
        return cls(rules, tuple(int(value) for row in rows for value in row))

    def with_values(self, changes: dict[int, int]) -> Grid:
        """A copy with some cells set (cell -> value; 0 empties a cell)."""
        values = list(self.values)
        for cell, value in changes.items():
            values[cell] = value
        return Grid(self.rules, tuple(values))

    # ----- reading --------------------------------------------------------------------------

    def __getitem__(self, cell: int) -> int:
        return self.values[cell]

    def at(self, row: int, col: int) -> int:
        return self.values[self.rules.cell(row, col)]

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    @property
    def size(self) -> int:
        return self.rules.size

    @property
    def givens(self) -> int:
        """How many cells are filled."""
        return sum(1 for value in self.values if value)

    @property
    def empty_cells(self) -> list[int]:
        return [cell for cell, value in enumerate(self.values) if value == 0]

    def to_rows(self) -> list[list[int]]:
        n = self.rules.size
        return [list(self.values[r * n : (r + 1) * n]) for r in range(n)]

    # ----- writing --------------------------------------------------------------------------

    def to_line(self, alphabet: Alphabet = DEFAULT, blank: str | None = None) -> str:
        """One line of N² symbols; `blank` defaults to the alphabet's first blank (`.`).

        Past the alphabet's symbols (a 36x36 grid), N² numbers separated by spaces. The
        default line is kept once written or read (`from_string`): `solve` and `count`
        write the puzzle and the solution of every answer, a file of them.
        """
        if alphabet is DEFAULT and (blank is None or blank == _DEFAULT_BLANK):
            fields = self.__dict__
            line: str | None = fields.get("_line")
            if line is None:
                if self.rules.size <= _DEFAULT_COVERS:
                    line = bytes(self.values).translate(_DEFAULT_ENCODING).decode("latin-1")
                else:
                    line = self._written(DEFAULT, _DEFAULT_BLANK)
                fields["_line"] = line  # set directly: the dataclass is frozen
            return line
        return self._written(alphabet, alphabet.blanks[0] if blank is None else blank)

    def _written(self, alphabet: Alphabet, empty: str) -> str:
        if not alphabet.covers(self.rules.size):
            return " ".join(str(v) if v else empty for v in self.values)
        # value v is symbol v (0: the blank), at C speed: `solve` and `count` write every
        # solution of a file of puzzles
        table = _encoding(empty + alphabet.symbols)
        if table is not None:
            return bytes(self.values).translate(table).decode("latin-1")
        return "".join(map((empty + alphabet.symbols).__getitem__, self.values))

    def __str__(self) -> str:
        return self.to_line()

    def __repr__(self) -> str:
        """Short: `Grid('53..7....6..195...', rules=9x9)`, the line cut after 18 cells (…)."""
        line = self.to_line()
        shown = line if len(line) <= 24 else line[:18] + "\u2026"
        return f"Grid({shown!r}, rules={self.rules.name})"

    def svg(self) -> str:
        """The grid as an SVG document: regions, givens in bold, and the marks of its rules
        (cages, parity, diagonals, extra regions; see `sudoku_bench.puzzles.drawing`)."""
        from sudoku_bench.puzzles.drawing import grid_svg

        return grid_svg(self)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return f'<div style="display:inline-block">{self.svg()}</div>'

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's console shows the terminal picture."""
        printer.text(self.picture())

    def picture(self, alphabet: Alphabet = DEFAULT, blank: str = ".") -> str:
        """A boxed picture with `|`, `-` and `+` between boxes, one row per line; a jigsaw
        is drawn in a frame with borders where the regions change (`sudoku_bench.puzzles.picture`)."""
        rules = self.rules
        covered = alphabet.covers(rules.size)  # else numbers, right-aligned (a 36x36 grid)
        if covered and rules.layout is None and len(blank) == 1:  # a character a cell: the line
            line = self.to_line(alphabet, blank)
            if line.isascii():  # a byte a cell: bytes' %-format, twice as fast as str.format
                cells = _picture_bytes(rules.size, rules.box_rows, rules.box_cols)
                return (cells % tuple(line.encode())).decode()
            return _picture_template(rules.size, rules.box_rows, rules.box_cols).format(*line)
        width = 1 if covered else len(str(rules.size))
        digits = (blank, *_symbols(alphabet if covered else None, rules.size))
        digits = tuple(digit.rjust(width) for digit in digits)
        if rules.layout is not None:
            return region_picture(rules, [digits[v] for v in self.values])
        # one str.format per grid: `solve FILE` prints thousands of them
        template = _picture_template(rules.size, rules.box_rows, rules.box_cols, width)
        return template.format(*[digits[v] for v in self.values])


@cache
def _picture_template(size: int, box_rows: int, box_cols: int, width: int = 1) -> str:
    """`picture`'s layout with a `{}` per cell, for `str.format`."""
    rows = []
    for r in range(size):
        if r and r % box_rows == 0:
            stack = "-" * ((width + 1) * box_cols - 1)
            rows.append("-+-".join([stack] * (size // box_cols)))
        stacks = [" ".join(["{}"] * box_cols) for _ in range(0, size, box_cols)]
        rows.append(" | ".join(stacks))
    return "\n".join(rows)


@cache
def _picture_bytes(size: int, box_rows: int, box_cols: int) -> bytes:
    """`_picture_template` with a `%c` per cell, for bytes' %-format."""
    return _picture_template(size, box_rows, box_cols).replace("{}", "%c").encode()


def _symbols(alphabet: Alphabet | None, size: int) -> list[str]:
    """The symbols of the values 1..size, or their numbers when the alphabet (None) does not
    cover the grid."""
    if alphabet is None:
        return [str(value) for value in range(1, size + 1)]
    return list(alphabet.symbols[:size])


@cache
def _encoding(symbols: str) -> bytes | None:
    """`bytes.translate` table: value v -> symbol v, or None when a symbol is not one byte
    (or there are more values than bytes)."""
    try:
        encoded = symbols.encode("latin-1")
    except UnicodeEncodeError:
        return None
    if len(encoded) > 256:
        return None
    return bytes(encoded[v] if v < len(encoded) else v for v in range(256))


# the default line's table and the sizes it covers, looked up once: `solve` and `count` write
# every solution of a file of puzzles
_DEFAULT_BLANK = DEFAULT.blanks[0]
_DEFAULT_ENCODING = _encoding(_DEFAULT_BLANK + DEFAULT.symbols)
assert _DEFAULT_ENCODING is not None  # the default symbols are ASCII
_DEFAULT_COVERS = len(DEFAULT.symbols)

INVALID = 255  # what `_decoding` makes of a byte that is no symbol of the puzzle


@cache
def _decoding(alphabet: Alphabet, size: int) -> bytes:
    """`bytes.translate` table: byte -> value for the first `size` symbols and the blanks that
    are one latin-1 byte (either case), INVALID for every other byte."""
    table = bytearray([INVALID]) * 256
    pairs = [(blank, 0) for blank in alphabet.blanks]
    pairs += [
        (char, value)
        for value, symbol in enumerate(alphabet.symbols[:size], 1)
        for char in (symbol, symbol.lower())
    ]
    for char, value in pairs:
        if ord(char) < 256:
            table[ord(char)] = value
    return bytes(table)


@cache
def _default_decoding(size: int) -> bytes:
    """`_decoding` of the default alphabet, cached by the size alone (hashing an alphabet
    costs a quarter of decoding a line)."""
    return _decoding(DEFAULT, size)


def _decode(
    text: str, alphabet: Alphabet, rules: Rules | None
) -> tuple[Rules, tuple[int, ...]] | None:
    """The fast path of `Grid.from_string` (C speed): a well-formed line without spaces.

    None sends the caller to the slow path, which finds and names what is wrong (or reads
    the symbols that are not one latin-1 byte).
    """
    if rules is None:
        side = math.isqrt(len(text))
        if side * side != len(text) or side < 4:
            return None
        try:
            rules = Rules.of_size(side)
        except RulesError:
            return None
    if rules.size >= INVALID:
        return None
    if alphabet is DEFAULT:
        table = _default_decoding(rules.size)
    else:
        table = _decoding(alphabet, rules.size)
    try:
        raw = text.encode("latin-1").translate(table)
    except UnicodeEncodeError:
        return None
    # the table maps every byte that is no symbol of a value up to the size to INVALID
    return None if INVALID in raw else (rules, tuple(raw))


def _invisible(text: str) -> tuple[int, str] | None:
    """The first character of `text` that cannot be seen and is not white space (a zero-width
    space, a direction override, a control character), with its 1-based column."""
    if text.isprintable():
        return None
    for column, char in enumerate(text, 1):
        if not char.isprintable() and not char.isspace():
            return column, char
    return None


def _numbers(text: str, alphabet: Alphabet, rules: Rules | None) -> Grid | None:
    """The numeric form `to_line` writes past the alphabet (`1 . 36 12 ...`), or None when
    `text` is not in it: the grid is larger than the alphabet and a cell is a number of two
    digits, or the geometry was given as such a grid."""
    tokens = text.split()
    if len(tokens) < 2:
        return None
    side = math.isqrt(len(tokens))
    if rules is None:
        if side * side != len(tokens) or alphabet.covers(side):
            return None
        try:
            rules = Rules.of_size(side)
        except RulesError:
            return None
    elif alphabet.covers(rules.size):
        return None
    if len(tokens) != rules.cell_count:
        raise PuzzleFormatError(
            f"expected {rules.cell_count} numbers for a {rules} puzzle, got {len(tokens)}"
        )
    values = []
    for token in tokens:
        if token in alphabet.blanks:
            values.append(0)
        elif token.isdigit() and len(token) <= len(str(rules.size)) and int(token) <= rules.size:
            values.append(int(token))
        else:
            column = _token_column(text, len(values))
            raise PuzzleFormatError(
                f"unexpected {token!r}: a {rules} cell is {alphabet.describe(rules.size)}",
                column=column,
            )
    return Grid(rules, tuple(values))


def _token_column(text: str, index: int) -> int:
    """The 1-based column where the token number `index` (0-based) starts."""
    tokens = 0
    for column, char in enumerate(text, 1):
        if not char.isspace() and (column == 1 or text[column - 2].isspace()):
            if tokens == index:
                return column
            tokens += 1
    return len(text)


def _column_after(text: str, cells: int) -> int | None:
    """The column of cell number `cells + 1` (the first extra one), or just past the last."""
    last = None
    for seen, column in enumerate(
        (column for column, char in enumerate(text, 1) if not char.isspace()), 1
    ):
        if seen > cells:
            return column
        last = column
    return None if last is None else last + 1


def _geometry_for_length(length: int) -> Rules:
    try:
        return Rules.for_cell_count(length)
    except RulesError as error:
        if math.isqrt(length) ** 2 == length and math.isqrt(length) > 25:  # 36x36 and up
            raise PuzzleFormatError(str(error)) from None
        sizes = [f"{n * n} ({n}x{n})" for n in COMMON_SIZES]
        raise PuzzleFormatError(
            f"{length} cells is no puzzle size: expected {', '.join(sizes[:-1])} or {sizes[-1]}"
        ) from None


# A puzzle is a grid whose filled cells are its givens: the same type, named for its role.
Puzzle = Grid
