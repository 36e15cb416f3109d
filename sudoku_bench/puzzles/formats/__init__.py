"""Reading and writing puzzle files. Every reader yields `PuzzleEntry` items with an id.

Formats (`FORMATS`, by name) are chosen by file extension: `.txt` one puzzle per line (or
grids, when the file looks like grids: see `looks_like_grids`), `.grid` multi-line grids,
`.sdk` SadMan Sudoku, `.csv` Kaggle's `quizzes,solutions`, `.json` and `.jsonl`. Unknown
extensions are read like `.txt`. Ids are `source:line`, the line where the puzzle starts.
A bad entry raises `PuzzleFormatError` naming file, line and column, or, with
`skip_invalid=True`, is recorded in `ReadReport.skipped` and reading goes on.
"""

from __future__ import annotations

import codecs
import io
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.formats.common import (
    Format,
    PlayerState,
    PuzzleEntry,
    Reader,
    ReadOptions,
    ReadReport,
    WriteOptions,
    Writer,
    parse_puzzle,
)
from sudoku_bench.puzzles.formats.fpuzzles import (
    looks_like_fpuzzles,
    read_fpuzzles,
    write_fpuzzles,
    write_fpuzzles_url,
)
from sudoku_bench.puzzles.formats.grids import (
    SEPARATORS,
    keeps_grid_item,
    keeps_sdk_item,
    read_grids,
    read_sdk,
    row_values,
    write_grids,
    write_sdk,
)
from sudoku_bench.puzzles.formats.jsonfmt import read_json, read_jsonl, write_json, write_jsonl
from sudoku_bench.puzzles.formats.kaggle import (
    PUZZLE_COLUMNS,
    SOLUTION_COLUMNS,
    keeps_csv_item,
    read_csv,
    write_csv,
)
from sudoku_bench.puzzles.formats.lines import content, read_lines, write_lines
from sudoku_bench.puzzles.rules import Rules

_FPUZZLES_KEEPS = frozenset({"solution", "metadata", "state", "box", "diagonals", "rules"})
_FPUZZLES_METADATA = ("title", "author", "ruleset")

FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("line", (".txt",), "one puzzle per line, N² symbols", read_lines, write_lines),
        Format(
            "grid",
            (".grid",),
            "N lines of N cells, with | - + separators; blank line between puzzles",
            read_grids,
            write_grids,
            frozenset({"box"}),
            keeps_item=keeps_grid_item,
        ),
        Format(
            "sdk",
            (".sdk",),
            "SadMan Sudoku: #A author, #D description, ... lines, then the grid",
            read_sdk,
            write_sdk,
            frozenset({"metadata"}),
            keeps_item=keeps_sdk_item,
        ),
        Format(
            "csv",
            (".csv",),
            "Kaggle CSV: quizzes,solutions (and metadata columns)",
            read_csv,
            write_csv,
            frozenset({"solution", "metadata"}),
            keeps_item=keeps_csv_item,
        ),
        Format(
            "json",
            (".json",),
            "a puzzle object with metadata, solution and player state, or a list of them",
            read_json,
            write_json,
            frozenset({"solution", "metadata", "state", "box", "diagonals", "rules"}),
        ),
        Format(
            "jsonl",
            (".jsonl", ".ndjson"),
            "JSON Lines: one puzzle object per line",
            read_jsonl,
            write_jsonl,
            frozenset({"solution", "metadata", "state", "box", "diagonals", "rules"}),
        ),
        Format(
            "fpuzzles",
            (".fpuzzles",),
            "f-puzzles JSON (one object, or a list); reads links and ?load= text too",
            read_fpuzzles,
            write_fpuzzles,
            _FPUZZLES_KEEPS,
            frozenset(_FPUZZLES_METADATA),
        ),
        Format(
            "fpuzzles-url",
            (),
            "f-puzzles links (https://www.f-puzzles.com/?load=...), one per line",
            read_fpuzzles,
            write_fpuzzles_url,
            _FPUZZLES_KEEPS,
            frozenset(_FPUZZLES_METADATA),
        ),
    )
}

EXTENSIONS: dict[str, str] = {ext: f.name for f in FORMATS.values() for ext in f.extensions}


def format_named(spec: str) -> Format:
    """A format by name (`grid`) or by extension (`.grid`, `grid`); an error names the choices."""
    key = spec.lower()
    if key in FORMATS:
        return FORMATS[key]
    extension = key if key.startswith(".") else f".{key}"
    if extension in EXTENSIONS:
        return FORMATS[EXTENSIONS[extension]]
    raise PuzzleFormatError(
        f"unknown format {spec!r}: expected one of {', '.join(FORMATS)} "
        f"(or an extension: {', '.join(EXTENSIONS)})"
    )


def format_of_path(path: str | Path) -> Format:
    """The format a file name's extension says; `.txt` and unknown extensions are `line`."""
    return FORMATS[EXTENSIONS.get(Path(path).suffix.lower(), "line")]


def looks_like_grids(text: str, options: ReadOptions = ReadOptions()) -> bool:
    """Whether a `.txt` file holds multi-line grids rather than one puzzle per line.

    Decided by the first line that is not blank or a `#` comment: grids if it has `|`, `+`
    or `=`, is a rule (`-----`), or holds at most 25 characters that are not a whole puzzle
    (`530070000`: a row; `Grid 01`: a title). A line of 16 cells is read as a 4x4 puzzle,
    never as the first row of a 16x16 grid (name such files `.grid`, or give the geometry).
    """
    for line in io.StringIO(text, newline=None):
        stripped = content(line)
        if not stripped:
            continue
        if any(char in SEPARATORS for char in stripped.replace("-", "")):
            return True
        cells = len(row_values(stripped, options.alphabet))
        if options.rules is not None:  # then a 16x16 grid's rows are known for rows
            rules = options.rules
            return cells != rules.cell_count and cells <= max(25, rules.size)
        return cells == 0 or (cells <= 25 and not _is_puzzle_length(cells))
    return False


def _first_line_is_fpuzzles(text: str) -> bool:
    """A `.txt` file of f-puzzles links (or their ?load= text), one per line."""
    for line in io.StringIO(text):
        stripped = content(line) if "://" not in line else line.strip()
        if stripped:
            return looks_like_fpuzzles(stripped)
    return False


def _is_puzzle_length(cells: int) -> bool:
    try:
        Rules.for_cell_count(cells)
    except Exception:
        return False
    return True


def read_text(
    text: str,
    source: str,
    fmt: str = ".txt",
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
) -> list[PuzzleEntry]:
    """Every puzzle in `text`, read as `fmt` (a format name or an extension such as `.csv`).

    `.txt` (and unknown extensions) are sniffed: grids if `looks_like_grids`, else lines.
    """
    text = text.removeprefix("\ufeff")  # a BOM that came through a pipe is not a cell
    reader = _reader(text, fmt, options)
    # newline=None: a line ends at \n, \r\n or \r alone (old Mac files), as in Python's open
    lines = io.StringIO(text, newline=None)
    return list(reader(lines, source, options, report or ReadReport()))


def sniff_format(text: str) -> str:
    """The format of text that came without a file name (standard input): `json` or `jsonl`
    for a JSON object or list, `csv` for a Kaggle header line, else `.txt` (one puzzle per
    line, or grids: `read_text` tells those apart)."""
    start = text.removeprefix("\ufeff").lstrip()
    if start.startswith("["):
        return "json"
    if start.startswith("{"):
        first, _, rest = start.partition("\n")
        try:
            json.loads(first)
        except (ValueError, RecursionError):
            return "json"  # an object over several lines
        return "jsonl" if rest.strip() else "json"
    header = next((line for line in io.StringIO(start, newline=None) if line.strip()), "")
    names = {name.strip().strip('"').lower() for name in header.split(",")}
    if "," in header and names & {*PUZZLE_COLUMNS, *SOLUTION_COLUMNS}:
        return "csv"
    if names <= set(PUZZLE_COLUMNS):  # a one-column CSV: its header is the column's name
        return "csv"
    return ".txt"


def _reader(text: str, fmt: str, options: ReadOptions) -> Reader:
    key = fmt.lower()
    if key in FORMATS:
        return FORMATS[key].read
    extension = key if key.startswith(".") else f".{key}"
    name = EXTENSIONS.get(extension, "line")
    if name == "line" and _first_line_is_fpuzzles(text):
        name = "fpuzzles"
    elif name == "line" and looks_like_grids(text, options):
        name = "grid"
    return FORMATS[name].read


def read_file(
    path: Path,
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
    source: str | None = None,
    fmt: str | None = None,
) -> list[PuzzleEntry]:
    """Every puzzle in the file at `path`; ids are `source:line` (source defaults to the path)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PuzzleFormatError(f"cannot read: {error.strerror}", source=str(path)) from None
    text = decode(data, str(path), options)
    return read_text(text, source or str(path), fmt or path.suffix.lower(), options, report)


# Formats whose entries are one line each, so a file of them can be read as it is solved.
STREAMED_FORMATS = frozenset({"line", "csv"})
# How much of a file is looked at to choose its format and see how its lines end.
_HEAD_BYTES = 1 << 16


def stream_file(
    path: Path,
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
    source: str | None = None,
    fmt: str | None = None,
) -> Iterator[PuzzleEntry] | None:
    """The puzzles of the file at `path` read line by line as they are taken (`read_file`'s
    entries, ids and errors, in memory independent of the file's length), or None when the
    file cannot be streamed and must be read whole: a format whose entries span lines (grids,
    JSON), UTF-16 or UTF-32, or lines ended by a carriage return alone.

    A read error surfaces when the generator reaches its line."""
    try:
        with path.open("rb") as file:
            head = file.read(_HEAD_BYTES)
    except OSError as error:
        raise PuzzleFormatError(f"cannot read: {error.strerror}", source=str(path)) from None
    reader = _streamed_reader(head, lambda text: fmt or path.suffix.lower(), options)
    if reader is None:
        return None
    lines = _decoded_lines(_file_blocks(path), str(path), options)
    return reader(lines, source or str(path), options, report or ReadReport())


def stream_binary(
    stream: BinaryIO,
    source: str,
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
    fmt: str | None = None,
) -> tuple[Iterator[PuzzleEntry] | None, bytes]:
    """`stream_file` for an open binary stream (standard input), its format sniffed from its
    first lines unless `fmt` is given (`sniff_format`): the puzzles as they are taken and
    b"", or None and the bytes read so far when the stream must be read whole."""
    head = stream.read(_HEAD_BYTES)
    reader = _streamed_reader(head, lambda text: fmt or sniff_format(text), options)
    if reader is None:
        return None, head
    lines = _decoded_lines(_stream_blocks(head, stream), source, options)
    return reader(lines, source, options, report or ReadReport()), b""


def _streamed_reader(
    head: bytes, format_of: Callable[[str], str], options: ReadOptions
) -> Reader | None:
    """The reader of a file that begins with `head`, if it reads one line per entry."""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) or head.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    ):
        return None
    if b"\r" in head.replace(b"\r\n", b""):  # old Mac line ends (a lone \r at the cut is one)
        return None
    # the head's complete lines (a cut character or line would mislead the sniffing)
    cut = head.rfind(b"\n") + 1 if len(head) == _HEAD_BYTES else len(head)
    head_text = head[:cut].decode("utf-8-sig", errors="surrogateescape")
    reader = _reader(head_text, format_of(head_text), options)
    if not any(FORMATS[name].read is reader for name in STREAMED_FORMATS):
        return None
    return reader


def _file_blocks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as file:
        while block := file.read(_BLOCK_BYTES):
            yield block


def _stream_blocks(head: bytes, stream: BinaryIO) -> Iterator[bytes]:
    """`head`, then what the stream has as it comes (a pipe's lines are not held back
    until a whole block has come)."""
    read = getattr(stream, "read1", stream.read)
    yield head
    while block := read(_BLOCK_BYTES):
        yield block


def _decoded_lines(blocks: Iterator[bytes], source: str, options: ReadOptions) -> Iterator[str]:
    """The lines of a file's blocks as text, checked as `decode` checks a whole file; decoded
    a block of lines at a time (a decode per line costs a tenth of a fast engine's solve)."""
    before = 0  # lines yielded so far
    rest = b""  # the part of the last block after its last line end
    for number, block in enumerate(blocks):
        block = rest + (block.removeprefix(codecs.BOM_UTF8) if number == 0 else block)
        cut = block.rfind(b"\n") + 1
        rest = block[cut:]
        if cut:
            lines = _block_lines(block[:cut], before, source, options)
            before += len(lines)
            yield from lines
    if rest:  # a last line without a line end
        yield from _block_lines(rest + b"\n", before, source, options)


_BLOCK_BYTES = 1 << 18


def _block_lines(block: bytes, before: int, source: str, options: ReadOptions) -> list[str]:
    """The lines of `block` (whole lines, each ended by \\n), the first being line
    `before + 1` of the file; line by line only where a line is not clean UTF-8."""
    if b"\x00" not in block:
        try:
            return block.decode("utf-8").split("\n")[:-1]
        except UnicodeDecodeError:
            pass  # find the line, and the column, line by line
    return [
        _line_text(data, before + number, source, options)
        for number, data in enumerate(block.split(b"\n")[:-1], 1)
    ]


def _line_text(data: bytes, number: int, source: str, options: ReadOptions) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if not options.skip_invalid:
            raise PuzzleFormatError(
                f"not a UTF-8 text file (byte 0x{data[error.start]:02x}): save it as "
                "UTF-8, or --skip-invalid passes over the lines it spoils",
                source=source,
                line=number,
                column=error.start + 1,
            ) from None
        text = data.decode("utf-8", errors="surrogateescape")
    nul = data.find(b"\x00")
    if nul >= 0 and not options.skip_invalid:
        raise PuzzleFormatError(
            "a NUL byte: UTF-16 or UTF-32 without a byte-order mark, or not a text "
            "file; save it as UTF-8",
            source=source,
            line=number,
            column=nul + 1,
        )
    return text


def decode(data: bytes, source: str, options: ReadOptions = ReadOptions()) -> str:
    """The text of a file's bytes: UTF-8 (a BOM is dropped), or UTF-16 or UTF-32 with its BOM
    (what Windows PowerShell and some editors write); NUL bytes without a BOM are an error that
    says what the file probably is. A byte that is not UTF-8 is an error at its line and
    column; with `skip_invalid`, it spoils only the line it is in (that line's entry is skipped), and
    elsewhere (a comment, a CSV metadata field) it is kept as a surrogate, which `write_file`
    writes back as the same byte."""
    # UTF-32's little-endian BOM begins with UTF-16's: ask it first
    for boms, codec in (
        ((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE), "utf-32"),
        ((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE), "utf-16"),
    ):
        if data.startswith(boms):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                pass  # not that encoding after all: say where UTF-8 fails
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if options.skip_invalid:
            return data.decode("utf-8-sig", errors="surrogateescape")
        line_start = data.rfind(b"\n", 0, error.start) + 1
        raise PuzzleFormatError(
            f"not a UTF-8 text file (byte 0x{data[error.start]:02x}): save it as UTF-8, "
            "or --skip-invalid passes over the lines it spoils",
            source=source,
            line=data.count(b"\n", 0, error.start) + 1,
            column=error.start - line_start + 1,
        ) from None
    nul = data.find(b"\x00")
    if nul >= 0 and not options.skip_invalid:  # valid UTF-8, but no text file holds NULs
        line_start = data.rfind(b"\n", 0, nul) + 1
        raise PuzzleFormatError(
            "a NUL byte: UTF-16 or UTF-32 without a byte-order mark, or not a text file; "
            "save it as UTF-8",
            source=source,
            line=data.count(b"\n", 0, nul) + 1,
            column=nul - line_start + 1,
        )
    return text


def write_text(
    entries: Sequence[PuzzleEntry], fmt: str = "line", options: WriteOptions = WriteOptions()
) -> str:
    """The entries written as `fmt` (a format name or an extension)."""
    return format_named(fmt).write(entries, options)


def write_file(
    entries: Sequence[PuzzleEntry],
    path: Path,
    fmt: str | None = None,
    options: WriteOptions = WriteOptions(),
) -> None:
    """Write the entries to `path`, in `fmt` or the format its extension says."""
    writer = format_named(fmt) if fmt else format_of_path(path)
    text = writer.write(entries, options)
    try:
        path.write_text(text, encoding="utf-8", errors="surrogateescape")  # see `decode`
    except OSError as error:
        raise PuzzleFormatError(f"cannot write: {error.strerror}", source=str(path)) from None


__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "STREAMED_FORMATS",
    "Format",
    "PlayerState",
    "PuzzleEntry",
    "ReadOptions",
    "ReadReport",
    "Reader",
    "WriteOptions",
    "Writer",
    "decode",
    "format_named",
    "format_of_path",
    "looks_like_grids",
    "parse_puzzle",
    "read_file",
    "read_text",
    "sniff_format",
    "stream_binary",
    "stream_file",
    "write_file",
    "write_text",
]
