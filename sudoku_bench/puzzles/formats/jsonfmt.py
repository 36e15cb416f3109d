"""JSON (`.json`: one puzzle object or a list of them) and JSON Lines (`.jsonl`: one per line).

A puzzle object:

    {
      "id": "top95:1",                  where it came from (kept in metadata; ids are file:line)
      "geometry": "9x9",                optional: 6x6:3x2 (box shape), 9x9-x (Sudoku-X), ...
      "rules": {"size": 9, "anti_knight": true},   optional: variant rules, `Rules.to_json()`
                                        (written instead of "geometry" for them)
      "alphabet": "default",            optional: default, hex, letters, or the symbols
      "puzzle": "4.....8.5.3...",       required: a line, or rows of numbers (0 = empty)
      "solution": "417369825...",       optional, must solve the puzzle
      "state": {                        optional: a player's progress
        "values": "4.7...8.5.3...",     givens plus the player's entries (same forms)
        "candidates": {"r1c2": [1, 2, 6], "r1c3": [2, 6]}   pencil marks, by cell
      },
      "source": "...", "difficulty": "hard", ...   anything else is metadata, kept as is
    }

An object with "size" and "grid" and no "puzzle" is an f-puzzles puzzle (`fpuzzles`).
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from sudoku_bench.puzzles.constraints import Diagonal
from sudoku_bench.puzzles.errors import InvalidPuzzleError, PuzzleFormatError, RulesError
from sudoku_bench.puzzles.formats.common import (
    PlayerState,
    PuzzleEntry,
    ReadOptions,
    ReadReport,
    WriteOptions,
    check_solution,
    checked,
    chosen_rules,
    conflict_cell,
    encode,
    located,
)
from sudoku_bench.puzzles.formats.fpuzzles import entry_from_object, is_fpuzzles_object
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT, Alphabet, alphabet_named

KEYS = ("id", "geometry", "rules", "alphabet", "puzzle", "solution", "state")
_CELL = re.compile(r"r(\d+)c(\d+)")
# Python's JSON parser recurses on nesting: thousands of `[` are not a puzzle but a crash.
TOO_DEEP = "JSON nested too deeply to be a puzzle"


def _finite(text: str) -> float:
    """A JSON number, refused when it does not fit a float: Python reads `1e400` as infinity,
    which it would write back as `Infinity`, not JSON."""
    value = float(text)
    if math.isinf(value):
        raise PuzzleFormatError(f"the number {text} is too large (it would become infinity)")
    return value


def _not_json(name: str) -> Any:
    raise PuzzleFormatError(f"not JSON: {name} is no JSON value")


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_not_json)


def dumps(value: Any) -> str:
    """JSON text of `value`; a non-finite number would be written as `NaN` or `Infinity`,
    which is not JSON, so it is an error (reading refuses them, so none should come)."""
    return json.dumps(value, allow_nan=False)


class _Text:
    """The document, to turn an offset into a line and column."""

    def __init__(self, text: str, first_line: int = 1) -> None:
        self.text, self.first_line = text, first_line
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self.starts, offset) - 1
        return self.first_line + index, offset - self.starts[index] + 1

    def value_offset(self, start: int, end: int, key: str) -> int | None:
        """Where the string value of `"key":` starts (its first character) in text[start:end]."""
        match = re.compile(rf'"{re.escape(key)}"\s*:\s*"').search(self.text, start, end)
        return match.end() if match else None


def read_json(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    doc = _Text("".join(lines))
    for start, end, value in _values(doc.text, source):
        line = doc.position(start)[0]
        with located(source, line, options, report):
            yield _entry(value, f"{source}:{line}", options, doc, start, end)


def read_jsonl(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        with located(source, number, options, report):
            try:
                value = _DECODER.decode(line)
            except json.JSONDecodeError as error:
                raise PuzzleFormatError(f"not JSON: {error.msg}", column=error.colno) from None
            except RecursionError:
                raise PuzzleFormatError(TOO_DEEP) from None
            except ValueError as error:  # an integer of more than 4,300 digits
                raise PuzzleFormatError(f"not a number Python reads: {error}") from None
            doc = _Text(line, number)
            yield _entry(value, f"{source}:{number}", options, doc, 0, len(line))


def _values(text: str, source: str) -> Iterator[tuple[int, int, Any]]:
    """The top-level object, or each element of a top-level list, with its offsets."""
    decoder = _DECODER
    try:
        pos = _skip(text, 0)
        if pos == len(text):
            return
        if text[pos] != "[":
            value, end = decoder.raw_decode(text, pos)
            yield pos, end, value
        else:
            pos = _skip(text, pos + 1)
            while text[pos : pos + 1] != "]":
                value, end = decoder.raw_decode(text, pos)
                yield pos, end, value
                pos = _skip(text, end)
                if text[pos : pos + 1] == ",":
                    pos = _skip(text, pos + 1)
                elif text[pos : pos + 1] != "]":
                    raise json.JSONDecodeError("expected ',' or ']'", text, pos)
            end = pos + 1
        if _skip(text, end) != len(text):
            raise json.JSONDecodeError("extra data after the JSON value", text, _skip(text, end))
    except json.JSONDecodeError as error:
        raise PuzzleFormatError(
            f"not JSON: {error.msg}", source=source, line=error.lineno, column=error.colno
        ) from None
    except RecursionError:
        raise PuzzleFormatError(TOO_DEEP, source=source) from None
    except PuzzleFormatError as error:
        raise error.located(source=source) from None
    except ValueError as error:  # an integer of more than 4,300 digits
        raise PuzzleFormatError(f"not a number Python reads: {error}", source=source) from None


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _entry(
    value: Any, entry_id: str, options: ReadOptions, doc: _Text, start: int, end: int
) -> PuzzleEntry:
    if is_fpuzzles_object(value):
        return entry_from_object(value, entry_id, options)
    if not isinstance(value, dict) or "puzzle" not in value:
        raise PuzzleFormatError('expected a JSON object with a "puzzle" key')
    alphabet = _alphabet(value.get("alphabet"), options.alphabet)
    rules = chosen_rules(options.rules, _rules(value.get("geometry"), value.get("rules")))

    def grid(key: str, field: Any, rules: Rules | None) -> Grid:
        return _grid(field, key, rules, alphabet, doc, start, end)

    puzzle = grid("puzzle", value["puzzle"], rules)
    try:
        puzzle = checked(puzzle, options)
    except InvalidPuzzleError as error:  # point at the repeated given in the puzzle string
        offset = doc.value_offset(start, end, "puzzle")
        if isinstance(value["puzzle"], str) and offset is not None:
            error.line, error.column = doc.position(offset + conflict_cell(puzzle, options))
        raise
    solution = None
    if value.get("solution") is not None:
        solution = check_solution(puzzle, grid("solution", value["solution"], puzzle.rules))
    state = None
    if value.get("state") is not None:
        state = _state(value["state"], puzzle, grid)
    metadata = {key: field for key, field in value.items() if key not in KEYS[1:]}
    return PuzzleEntry(entry_id, puzzle, solution, metadata, state)


def _alphabet(name: Any, default: Alphabet) -> Alphabet:
    if name is None:
        return default
    try:
        return alphabet_named(str(name))
    except ValueError as error:
        raise PuzzleFormatError(f'"alphabet": {error}') from None


def _rules(geometry: Any, rules: Any) -> Rules | None:
    """The rules "rules" (the JSON form, or its text) and "geometry" (a name) give; where
    both are given, they must agree on what a geometry says (size, box shape, diagonals)."""
    named = None
    if geometry is not None:
        try:
            named = Rules.parse(str(geometry))
        except RulesError as error:
            raise PuzzleFormatError(f'"geometry": {error}') from None
    if rules is None:
        return named
    try:
        stated = Rules.parse(rules) if isinstance(rules, str) else Rules.from_json(rules)
    except RulesError as error:
        raise PuzzleFormatError(f'"rules": {error}') from None
    if named is not None and named not in (stated, _geometry_of(stated)):
        raise PuzzleFormatError(
            f'"geometry" {named.name} and "rules" ({stated.name}) disagree: keep one'
        )
    return stated


def _geometry_of(rules: Rules) -> Rules:
    """What a geometry name says of the rules: size, box shape, diagonals."""
    diagonals = [c for c in rules.constraints if isinstance(c, Diagonal)]
    return Rules.from_constraints(rules.shape.with_layout(None), diagonals)


def _grid(
    field: Any,
    key: str,
    rules: Rules | None,
    alphabet: Alphabet,
    doc: _Text,
    start: int,
    end: int,
) -> Grid:
    """A grid from a line string or from rows of numbers; errors point into the file."""
    try:
        if isinstance(field, str):
            return Grid.from_string(field, rules, alphabet=alphabet)
        if isinstance(field, list) and all(
            isinstance(row, list) and all(type(v) is int for v in row) for row in field
        ):
            return Grid.from_rows(field, rules)
        raise PuzzleFormatError("expected a string of cells or a list of rows of numbers")
    except PuzzleFormatError as error:
        offset = doc.value_offset(start, end, key)
        if error.column is not None and offset is not None:
            line, column = doc.position(offset + error.column - 1)
            raise PuzzleFormatError(f'"{key}": {error.message}', line=line, column=column) from None
        raise PuzzleFormatError(f'"{key}": {error.message}', line=error.line) from None


def _state(field: Any, puzzle: Grid, grid: Callable[[str, Any, Rules | None], Grid]) -> PlayerState:
    if not isinstance(field, dict):
        raise PuzzleFormatError('"state": expected an object with "values" and "candidates"')
    rules = puzzle.rules
    values = puzzle
    if field.get("values") is not None:
        values = Grid(rules, grid("values", field["values"], rules).values)
        changed = [
            rules.cell_name(cell)
            for cell, given in enumerate(puzzle.values)
            if given and values.values[cell] != given
        ]
        if changed:
            raise PuzzleFormatError(f'"state": the values change givens at {", ".join(changed)}')
    marks = field.get("candidates") or {}
    if not isinstance(marks, dict):
        raise PuzzleFormatError('"candidates": expected an object such as {"r1c2": [1, 4]}')
    candidates: list[frozenset[int]] = [frozenset()] * rules.cell_count
    for name, digits in marks.items():
        match = _CELL.fullmatch(str(name))
        row, col = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        if not (1 <= row <= rules.size and 1 <= col <= rules.size):
            raise PuzzleFormatError(
                f'"candidates": {name!r} is no cell: expected r1c1 to r{rules.size}c{rules.size}'
            )
        if not isinstance(digits, list) or not all(
            type(d) is int and 1 <= d <= rules.size for d in digits
        ):
            raise PuzzleFormatError(
                f'"candidates": {name} should list digits from 1 to {rules.size}'
            )
        candidates[rules.cell(row - 1, col - 1)] = frozenset(digits)
    return PlayerState(values, tuple(candidates))


def entry_object(entry: PuzzleEntry, options: WriteOptions) -> dict[str, Any]:
    """The JSON object for one entry (the schema above); `id` keeps the first source."""
    puzzle = entry.puzzle
    record: dict[str, Any] = {"id": entry.metadata.get("id", entry.id)}
    if not puzzle.rules.is_classic:
        record["rules"] = puzzle.rules.to_json()
    elif puzzle.rules != Rules.of_size(puzzle.rules.size):
        record["geometry"] = puzzle.rules.name
    if options.alphabet != DEFAULT:
        record["alphabet"] = options.alphabet.name or options.alphabet.symbols
    record["puzzle"] = encode(puzzle, options)
    if entry.solution is not None:
        record["solution"] = encode(entry.solution, options)
    if entry.state is not None:
        rules = puzzle.rules
        record["state"] = {
            "values": encode(entry.state.values, options),
            "candidates": {
                rules.cell_name(cell): sorted(digits)
                for cell, digits in enumerate(entry.state.candidates)
                if digits
            },
        }
    record.update((k, v) for k, v in entry.metadata.items() if k not in KEYS)
    return record


def write_json(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """One object for one puzzle, else a list with one object per line."""
    objects = [dumps(entry_object(entry, options)) for entry in entries]
    if len(objects) == 1:
        return objects[0] + "\n"
    return "[\n" + ",\n".join(objects) + "\n]\n"


def write_jsonl(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    return "".join(dumps(entry_object(entry, options)) + "\n" for entry in entries)
