"""f-puzzles, the editor variant setters publish in: its JSON, its `?load=` text and its URLs.

An f-puzzles puzzle is a JSON object, compressed with lz-string's `compressToBase64` into the
text after `?load=` in `https://www.f-puzzles.com/?load=...`. Its keys, and what they become:

    size                       N (boxes: f-puzzles' default shape, the one `Rules.of_size` uses)
    grid[r][c]                 {"value": 5, "given": true}: a given; a value without "given"
                               is a player's entry and "centerPencilMarks" their pencil marks
                               (a player state); "region": the cell's region, from 0 (absent:
                               its default box), so other numbers draw a jigsaw
    diagonal+, diagonal-       both: Sudoku-X diagonals; one alone (r9c1-r1c9, r1c1-r9c9): an
                               extra region, since the model's diagonals come in a pair
    extraregion                [{"cells": ["R1C1", ...]}]: extra regions
    disjointgroups             N extra regions: the cells at one position of every box
    antiknight, antiking,      the pair rules
    nonconsecutive
    odd, even                  [{"cell": "R1C1"}]: parity cells
    killercage, cage           [{"cells": [...], "value": "15"}]: cages, the value their sum
                               (none: no sum)
    solution                   N² digits, row by row
    title, author, ruleset     metadata
    disabledlogic,             f-puzzles' own solver settings, and cell colours and corner
    truecandidatesoptions      marks: no rule, passed over
    grid[r][c].parity          "Even" / "Odd" (written by older editors): parity cells
    (a 7x7 grid)               no box tiles it: a cell without "region" is in its row's
                               region, as f-puzzles draws it; the regions read as a jigsaw
    line, circle, rectangle,   cosmetics: passed over where they draw a rule held in its own
    text, cage                 key (an entry marked `fromConstraint` or `isNewConstraint`, as
                               Rangsk's userscript writes beside renban, whispers, ...; a
                               line over the cells of a rule's line); any other cosmetic is
                               refused unless `ReadOptions.ignore_cosmetics`; a `cage`
                               whose value is a digital root (`DR5`) is refused always

Each rule kind reads and writes its own keys (`fpuzzles_keys`, `from_fpuzzles` and
`to_fpuzzles` in its module of `sudoku_bench.puzzles.constraints`); this module reads the size, the grid
and the metadata. Any other key (`thermometer`, `arrow`, `littlekillersum`, cosmetics such
as `line` or `text` that may carry a rule, ...) is an error that names it: a rule is never
dropped. The writer writes what the reader reads, so a puzzle opens in the setters' own tools.
"""

from __future__ import annotations

import importlib
import io
import json
import re
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NoReturn

from sudoku_bench.puzzles.constraints import ExtraRegion
from sudoku_bench.puzzles.errors import PuzzleFormatError, RulesError
from sudoku_bench.puzzles.formats.common import (
    PlayerState,
    PuzzleEntry,
    ReadOptions,
    ReadReport,
    WriteOptions,
    check_solution,
    checked,
    chosen_rules,
    located,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules, all_kinds
from sudoku_bench.puzzles.shape import GridShape, usual_box_shape

URL = "https://www.f-puzzles.com/?load="
INSTALL = "pip install 'sudoku-bench[fpuzzles]'"
LARGEST = 16  # f-puzzles draws grids of 3x3 to 16x16
LZ_JSON = "N4Ig"  # how compressToBase64 of any text starting `{"` starts

# Keys read into the rules (the shape's, then each kind's `fpuzzles_keys`), and keys that
# carry no rule (passed over).
RULE_KEYS = tuple(
    dict.fromkeys(["size", "grid", *(key for kind in all_kinds() for key in kind.fpuzzles_keys)])
)
METADATA_KEYS = ("title", "author", "ruleset")
# The order keys are written in (others before "solution", in the kinds' order).
WRITTEN_ORDER = ("size", *METADATA_KEYS, "grid", "diagonal+", "diagonal-", "disjointgroups",
                 "antiknight", "antiking", "nonconsecutive", "negative", "extraregion", "odd",
                 "even", "killercage", "other", "solution")  # fmt: skip
NO_RULE_KEYS = frozenset({"solution", "disabledlogic", "truecandidatesoptions", *METADATA_KEYS})
CELL_KEYS = frozenset(
    {"value", "given", "region", "centerPencilMarks", "cornerPencilMarks", "c", "cArray"}
    | {"highlight", "parity"}
)
# `cage` is f-puzzles' cosmetic cage (its killer cages are `killercage`); Rangsk's solver reads
# one only when its value is a digital root (`DR5`), a rule no kind here holds
COSMETIC_KEYS = ("line", "circle", "rectangle", "text", "cage")
_DIGITAL_ROOT = re.compile(r"DR\d+")
# what marks a cosmetic entry as the drawing of a rule held in its own key
DRAWS_A_RULE = ("fromConstraint", "isNewConstraint")
_CELL_NAME = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)
_BASE64 = re.compile(r"[A-Za-z0-9+/=]+")


# ----- the lz-string layer ------------------------------------------------------------------


def _lzstring() -> Any:
    try:
        return importlib.import_module("lzstring").LZString()
    except ImportError:
        raise PuzzleFormatError(f"f-puzzles links need the lzstring package: {INSTALL}") from None


def load_text(text: str) -> str | None:
    """The `?load=` text of an f-puzzles (or SudokuPad `fpuzzles...`) link, or the text itself
    if it is such base64 text; None if it is neither."""
    text = text.strip()
    if text.lower().startswith(("http://", "https://")):
        try:
            url = urllib.parse.urlsplit(text)
        except ValueError as error:  # e.g. `https://[www...` (an unclosed IPv6 bracket)
            raise PuzzleFormatError(f"not a valid link: {error}") from None
        query = urllib.parse.parse_qs(url.query.replace("+", "%2B"))
        if "load" in query:
            return urllib.parse.unquote(query["load"][0]).replace(" ", "+")
        if "id" in query and "f-puzzles" in url.netloc:
            raise PuzzleFormatError(
                "an f-puzzles short link (?id=) names a puzzle kept on the web: open it "
                "and copy the long link (?load=...) instead"
            )
        for part in (url.path, *query.get("puzzleid", [])):  # SudokuPad: /fpuzzles<base64>
            if "fpuzzles" in part:  # the base64 text may hold `/`: all after the word
                return urllib.parse.unquote(part.split("fpuzzles", 1)[1])
        return None
    if len(text) >= 16 and _BASE64.fullmatch(text) and not text.isdigit():
        return text
    return None


def decompress(load: str) -> str:
    """The JSON text compressed in a `?load=` text; an error if it holds none."""
    try:
        text = _lzstring().decompressFromBase64(load)
    except PuzzleFormatError:
        raise
    except Exception:  # lzstring raises whatever it meets in text that is not its own
        text = None
    if not isinstance(text, str) or not text.lstrip().startswith("{"):
        raise PuzzleFormatError("not an f-puzzles link: its ?load= text holds no puzzle")
    return text


def compress(data: Mapping[str, Any]) -> str:
    """The `?load=` text of an f-puzzles object."""
    return str(_lzstring().compressToBase64(json.dumps(data, separators=(",", ":"))))


def url_of(data: Mapping[str, Any]) -> str:
    return URL + compress(data)


def looks_like_fpuzzles(text: str) -> bool:
    """Whether a command-line argument or a file's first line is an f-puzzles link or
    `?load=` text (which decompresses to a JSON object)."""
    link = text.strip().lower().startswith(("http://", "https://"))
    try:
        load = load_text(text)
    except PuzzleFormatError:  # a short link: reading it explains
        return True
    if load is None:
        return False
    if link:
        return True
    try:
        decompress(load)
    except PuzzleFormatError:
        # without lzstring, text that starts as compressed JSON (`{"`) is said to need it
        return load.startswith(LZ_JSON) and _lzstring_missing()
    return True


def _lzstring_missing() -> bool:
    try:
        _lzstring()
    except PuzzleFormatError:
        return True
    return False


# ----- reading ------------------------------------------------------------------------------


def read_fpuzzles(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    """f-puzzles JSON (an object or a list of them), or one link or `?load=` text per line."""
    text = "".join(lines)
    if text.lstrip()[:1] in ("{", "["):
        from sudoku_bench.puzzles.formats.jsonfmt import read_json  # it reads f-puzzles objects too

        yield from read_json(io.StringIO(text), source, options, report)
        return
    for number, line in enumerate(io.StringIO(text), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        with located(source, number, options, report):
            yield entry_from_text(stripped, f"{source}:{number}", options)


def entry_from_text(text: str, entry_id: str, options: ReadOptions = ReadOptions()) -> PuzzleEntry:
    """One puzzle from an f-puzzles link, its `?load=` text, or its JSON."""
    if text.lstrip().startswith("{"):
        document = text
    else:
        load = load_text(text)
        if load is None:
            raise PuzzleFormatError(
                "expected an f-puzzles link (https://www.f-puzzles.com/?load=...), "
                "its ?load= text, or its JSON"
            )
        document = decompress(load)
    try:
        data = json.loads(document)
    except json.JSONDecodeError as error:
        raise PuzzleFormatError(f"not f-puzzles JSON: {error.msg}") from None
    except RecursionError:
        raise PuzzleFormatError("f-puzzles JSON nested too deeply to be a puzzle") from None
    return entry_from_object(data, entry_id, options)


def is_fpuzzles_object(value: Any) -> bool:
    """An f-puzzles object rather than this project's JSON form (which has "puzzle")."""
    return isinstance(value, dict) and "grid" in value and "size" in value and "puzzle" not in value


def entry_from_object(
    data: Any, entry_id: str, options: ReadOptions = ReadOptions()
) -> PuzzleEntry:
    """The puzzle, solution, player state and metadata of an f-puzzles object."""
    if not isinstance(data, dict):
        raise PuzzleFormatError('expected an f-puzzles object: {"size": 9, "grid": [...], ...}')
    file_rules = rules_of(data, ignore_cosmetics=options.ignore_cosmetics)
    if options.rules is not None and options.rules.size != file_rules.size:
        raise PuzzleFormatError(
            f"the f-puzzles grid is {file_rules.size}x{file_rules.size}, the rules given "
            f"are {options.rules.name}"
        )
    rules = chosen_rules(options.rules, file_rules) or file_rules
    size = rules.size
    cells = _grid_cells(data, file_rules.size)
    givens = [0] * rules.cell_count
    entered = [0] * rules.cell_count
    marks: list[frozenset[int]] = [frozenset()] * rules.cell_count
    for cell, item in enumerate(cells):
        value = _digit(item.get("value"), size, f"grid {rules.cell_name(cell)}")
        if value and item.get("given") is True:
            givens[cell] = value
        elif value:
            entered[cell] = value
        pencil = item.get("centerPencilMarks")
        if pencil:
            where = f"grid {rules.cell_name(cell)} centerPencilMarks"
            marks[cell] = frozenset(_digit(d, size, where) for d in _items(pencil, where))
    puzzle = checked(Grid(rules, tuple(givens)), options)
    solution = None
    if data.get("solution") is not None:
        solution = check_solution(puzzle, _solution(data["solution"], puzzle.rules))
    state = None
    if any(entered) or any(marks):
        values = tuple(g or e for g, e in zip(puzzle.values, entered, strict=True))
        state = PlayerState(Grid(puzzle.rules, values), tuple(marks))
    metadata = {key: data[key] for key in METADATA_KEYS if data.get(key)}
    return PuzzleEntry(entry_id, puzzle, solution, metadata, state)


def rules_of(data: Mapping[str, Any], *, ignore_cosmetics: bool = False) -> Rules:
    """The rules an f-puzzles object states, each kind reading its own keys
    (`Constraint.from_fpuzzles`); an error names what the model cannot hold."""
    data = _without_cosmetics(data, ignore_cosmetics)
    _refuse_unknown(data)
    size = data.get("size")
    if type(size) is not int:
        raise PuzzleFormatError(f'f-puzzles "size" is a whole number, not {size!r}')
    try:
        if usual_box_shape(size) is None:  # 7x7: a jigsaw, or nothing
            layout = _layout(_grid_cells(data, size), size)
            if layout is None:
                raise RulesError(
                    f"a {size}x{size} grid has no box shape: its cells need their regions"
                )
            base = Rules.from_constraints(GridShape.jigsaw(size, layout))
        else:
            base = Rules.of_size(size)
    except RulesError as error:
        raise PuzzleFormatError(f"f-puzzles size {size}: {error}") from None
    try:
        shape = base.shape
        layout = _layout(_grid_cells(data, size), size)
        if layout is not None and not shape.no_boxes:
            boxes = _boxes_drawn(layout, size)
            shape = boxes.shape if boxes is not None else shape.with_layout(layout)
        reader = _Reader(data, size)
        constraints = [c for kind in all_kinds() for c in kind.from_fpuzzles(reader, shape)]
        return Rules.from_constraints(shape, constraints)
    except RulesError as error:
        raise PuzzleFormatError(f"f-puzzles rules: {error}") from None


def _without_cosmetics(data: Mapping[str, Any], ignore_all: bool) -> dict[str, Any]:
    """The object without the cosmetic entries that carry no rule of their own (see the
    module's table), and with cells' `parity` read as `odd` / `even` entries."""
    kept = dict(data)
    drawn = {
        frozenset(line)
        for key in RULE_KEYS
        for entry in _listed(data.get(key))
        for line in _listed(entry.get("lines") if isinstance(entry, dict) else None)
        if isinstance(line, list)
        for line in [[str(name).upper() for name in line]]
    }
    for entry in _listed(data.get("cage")):
        value = entry.get("value") if isinstance(entry, dict) else None
        if isinstance(value, str) and _DIGITAL_ROOT.search(value):
            raise PuzzleFormatError(
                f"f-puzzles cage with the digital-root sum {value.strip()!r} cannot be "
                "represented here (a cage whose sum's digital root is given)"
            )
    for key in COSMETIC_KEYS:
        if not isinstance(data.get(key), list):
            continue
        left = [entry for entry in data[key] if not (ignore_all or _draws_a_rule(entry, drawn))]
        if left:
            kept[key] = left
        else:
            kept.pop(key)
    grid = data.get("grid")
    if isinstance(grid, list) and all(isinstance(row, list) for row in grid):
        for r, row in enumerate(grid):
            for c, item in enumerate(row):
                parity = item.get("parity") if isinstance(item, dict) else None
                if parity in ("Even", "Odd"):
                    key = parity.lower()
                    kept[key] = [*_listed(kept.get(key)), {"cell": f"R{r + 1}C{c + 1}"}]
                elif parity not in (None, ""):
                    raise PuzzleFormatError(
                        f"f-puzzles grid r{r + 1}c{c + 1}: parity {parity!r} is not Even or Odd"
                    )
    return kept


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _draws_a_rule(entry: Any, drawn: set[frozenset[str]]) -> bool:
    if not isinstance(entry, dict):
        return False
    if any(entry.get(mark) for mark in DRAWS_A_RULE):
        return True
    lines = entry.get("lines")
    return (
        isinstance(lines, list)
        and bool(lines)
        and all(
            isinstance(line, list) and frozenset(str(n).upper() for n in line) in drawn
            for line in lines
        )
    )


def _refuse_unknown(data: Mapping[str, Any]) -> None:
    for key, value in data.items():
        if key in RULE_KEYS or key in NO_RULE_KEYS:
            continue
        if _empty(value):  # an editor's empty list, or false, is no rule
            continue
        if key in COSMETIC_KEYS:
            raise PuzzleFormatError(
                f"f-puzzles constraint {key!r} cannot be represented here: a cosmetic that "
                "draws no rule's cells may mean a rule of the setter's own; --ignore-cosmetics "
                "passes it over, as f-puzzles' own solver does"
            )
        raise PuzzleFormatError(
            f"f-puzzles constraint {key!r} cannot be represented here (the f-puzzles rules "
            f"read are regions, {', '.join(RULE_KEYS[2:])})"
        )


def _empty(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, str | list | dict) and not value)


def _grid_cells(data: Mapping[str, Any], size: int) -> list[dict[str, Any]]:
    grid = data.get("grid")
    if (
        not isinstance(grid, list)
        or len(grid) != size
        or not all(isinstance(row, list) and len(row) == size for row in grid)
    ):
        raise PuzzleFormatError(f'f-puzzles "grid" is {size} rows of {size} cell objects')
    cells = [item for row in grid for item in row]
    for cell, item in enumerate(cells):
        if not isinstance(item, dict):
            raise PuzzleFormatError(
                f"f-puzzles grid r{cell // size + 1}c{cell % size + 1}: "
                'expected an object such as {"value": 5, "given": true}'
            )
        for key, value in item.items():
            if key not in CELL_KEYS and not _empty(value):
                raise PuzzleFormatError(
                    f"f-puzzles grid r{cell // size + 1}c{cell % size + 1}: {key!r} "
                    "cannot be represented here"
                )
    return cells


def _layout(cells: Sequence[Mapping[str, Any]], size: int) -> tuple[int, ...] | None:
    """Each cell's region, if any cell says one (f-puzzles numbers regions from 0)."""
    if not any("region" in item for item in cells):
        return None
    default = default_regions(size)
    layout = []
    for cell, item in enumerate(cells):
        name = f"r{cell // size + 1}c{cell % size + 1}"
        if "region" not in item:
            layout.append(default[cell])
            continue
        region = item["region"]
        if region is None:
            raise PuzzleFormatError(
                f"f-puzzles grid {name} is in no region: here every cell is in one of "
                f"{size} regions"
            )
        if type(region) is not int or not 0 <= region < size:
            raise PuzzleFormatError(
                f"f-puzzles grid {name}: region {region!r} is not a number from 0 to {size - 1}"
            )
        layout.append(region)
    return tuple(layout)


def default_regions(size: int) -> tuple[int, ...]:
    """Each cell's region where the f-puzzles grid names none: its box, or on a size no box
    tiles (7x7) its row, as f-puzzles and its solver draw them."""
    if usual_box_shape(size) is None:
        return tuple(cell // size for cell in range(size * size))
    return _boxes(Rules.of_size(size))


def _boxes(rules: Rules) -> tuple[int, ...]:
    """Each cell's region (box) number, as f-puzzles numbers them: row-major from 0."""
    return tuple(rules.region_of(cell) for cell in rules.cells)


def _boxes_drawn(layout: tuple[int, ...], size: int) -> Rules | None:
    """Rules with boxes of some shape (6x6 of 3x2), if that is what the regions are."""
    for rows in range(2, size // 2 + 1):
        if size % rows == 0 and layout == _boxes(Rules(size, rows, size // rows)):
            return Rules(size, rows, size // rows)
    return None


def disjoint_groups(rules: Rules) -> list[tuple[int, ...]]:
    """The N groups of cells at the same position within each box."""
    return [group.members for group in ExtraRegion.disjoint_groups(rules.shape)]


def main_diagonal(size: int) -> tuple[int, ...]:
    """f-puzzles' `diagonal-`: r1c1 down to rN cN."""
    return ExtraRegion.main_diagonal(Rules.of_size(size).shape).members


def anti_diagonal(size: int) -> tuple[int, ...]:
    """f-puzzles' `diagonal+`: r1cN down to rNc1 (it rises from bottom left to top right)."""
    return ExtraRegion.anti_diagonal(Rules.of_size(size).shape).members


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise PuzzleFormatError(f"f-puzzles {key!r} is true or false, not {value!r}")
    return value


def _entries(data: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    entries = data.get(key) or []
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PuzzleFormatError(f"f-puzzles {key!r} is a list of objects")
    return entries


def _items(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PuzzleFormatError(f"f-puzzles {what} is a list")
    return value


def _digit(value: Any, size: int, what: str) -> int:
    """A cell's value: a number (or numeric text) from 1 to N; absent or 0: empty."""
    if value is None or value == "":
        return 0
    number = int(value) if isinstance(value, str) and value.isdigit() else value
    if type(number) is not int or not 0 <= number <= size:
        raise PuzzleFormatError(f"f-puzzles {what}: {value!r} is not a digit from 1 to {size}")
    return number


def _sum(entry: Mapping[str, Any], key: str, names: _Cells) -> int | None:
    value = entry.get("value")
    if value is None or value == "":
        return None
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    where = "+".join(str(c) for c in entry.get("cells", [])[:3])
    raise PuzzleFormatError(
        f"f-puzzles {key} {where}: its value {value!r} is not a sum (a whole number)"
    )


def _solution(value: Any, rules: Rules) -> Grid:
    digits = _items(value, "solution")
    if len(digits) != rules.cell_count:
        raise PuzzleFormatError(
            f"f-puzzles solution has {len(digits)} digits; a {rules.size}x{rules.size} grid "
            f"has {rules.cell_count}"
        )
    values = tuple(_digit(d, rules.size, "solution") for d in digits)
    if 0 in values:
        raise PuzzleFormatError("f-puzzles solution has empty cells: a solution is a full grid")
    return Grid(rules, values)


class _Cells:
    """f-puzzles cell names (`R1C1`) of an N x N grid."""

    def __init__(self, size: int) -> None:
        self.size = size

    def cell(self, name: Any, what: str) -> int:
        match = _CELL_NAME.fullmatch(str(name).strip())
        row, col = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        if not (1 <= row <= self.size and 1 <= col <= self.size):
            raise PuzzleFormatError(
                f"f-puzzles {what}: {name!r} is not a cell R1C1 to R{self.size}C{self.size}"
            )
        return (row - 1) * self.size + col - 1

    def group(self, entry: Mapping[str, Any], what: str) -> tuple[int, ...]:
        return tuple(self.cell(name, what) for name in _items(entry.get("cells"), what))


class _Reader:
    """An f-puzzles object as the kinds read it (`sudoku_bench.puzzles.constraints.FpuzzlesReader`)."""

    def __init__(self, data: Mapping[str, Any], size: int) -> None:
        self.data = data
        self.names = _Cells(size)

    def flag(self, key: str) -> bool:
        return _flag(self.data, key)

    def entries(self, key: str) -> list[dict[str, Any]]:
        return _entries(self.data, key)

    def cell(self, name: Any, what: str) -> int:
        return self.names.cell(name, what)

    def group(self, entry: Mapping[str, Any], what: str) -> tuple[int, ...]:
        return self.names.group(entry, what)

    def number(self, entry: Mapping[str, Any], key: str) -> int | None:
        return _sum(entry, key, self.names)

    def words(self, key: str) -> list[str]:
        value = self.data.get(key) or []
        if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
            raise PuzzleFormatError(f"f-puzzles {key!r} is a list of words")
        return value

    def refuse(self, message: str) -> NoReturn:
        raise PuzzleFormatError(message)


# ----- writing ------------------------------------------------------------------------------


def fpuzzles_object(entry: PuzzleEntry) -> dict[str, Any]:
    """The f-puzzles object of an entry: what `entry_from_object` reads back to it."""
    puzzle = entry.puzzle
    rules = puzzle.rules
    n = rules.size
    if n > LARGEST:
        raise PuzzleFormatError(
            f"f-puzzles draws grids up to {LARGEST}x{LARGEST}; {entry.id} is {rules.name}"
        )
    default = default_regions(n)
    values = entry.state.values if entry.state is not None else puzzle
    grid: list[list[dict[str, Any]]] = []
    for row in range(n):
        grid.append([])
        for col in range(n):
            cell = rules.cell(row, col)
            item: dict[str, Any] = {}
            if values[cell]:
                item["value"] = values[cell]
                if puzzle[cell]:
                    item["given"] = True
            if entry.state is not None and entry.state.candidates[cell]:
                item["centerPencilMarks"] = sorted(entry.state.candidates[cell])
            if rules.region_of(cell) != default[cell]:
                item["region"] = rules.region_of(cell)
            grid[row].append(item)
    data: dict[str, Any] = {"size": n}
    for key in METADATA_KEYS:
        if entry.metadata.get(key):
            data[key] = entry.metadata[key]
    data["grid"] = grid
    for kind, items in rules.by_kind():
        written = kind.to_fpuzzles(items, rules.shape)
        if not written:
            raise PuzzleFormatError(
                f"{entry.id}: f-puzzles has no key for the {kind.title} rule, so a link "
                "cannot carry it; convert to a format with JSON rules (jsonl) instead"
            )
        for key, value in written.items():
            if isinstance(data.get(key), list) and isinstance(value, list):
                data[key] = [*data[key], *value]  # "negative": ["ratio"] + ["xv"]
            else:
                data[key] = value
    _check_written(data, rules, entry.id)
    if entry.solution is not None:
        data["solution"] = list(entry.solution.values)
    order = {key: rank for rank, key in enumerate(WRITTEN_ORDER)}
    return dict(sorted(data.items(), key=lambda item: order.get(item[0], len(order) - 1)))


def _check_written(data: Mapping[str, Any], rules: Rules, entry_id: str) -> None:
    """Refuse rules that f-puzzles would read otherwise: a negative rule reads its exceptions
    from the dots beside it, so one whose exceptions are not exactly those dots cannot be
    written (f-puzzles would open a different puzzle)."""
    read = rules_of(data).constraints
    if read != rules.constraints:
        differ = sorted({c.title for c in set(read) ^ set(rules.constraints)})
        raise PuzzleFormatError(
            f"{entry_id}: f-puzzles cannot state these rules as they are ({', '.join(differ)}: "
            "f-puzzles would read them otherwise)"
        )


def write_fpuzzles(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """One f-puzzles object for one puzzle, else a list with one object per line."""
    objects = [json.dumps(fpuzzles_object(entry)) for entry in entries]
    if len(objects) == 1:
        return objects[0] + "\n"
    return "[\n" + ",\n".join(objects) + "\n]\n"


def write_fpuzzles_url(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """One f-puzzles link per line."""
    return "".join(url_of(fpuzzles_object(entry)) + "\n" for entry in entries)
