"""One puzzle per line: N² symbols, `.` or `0` blank; `#` lines and `// ...` tails are comments."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.formats.common import (
    PuzzleEntry,
    ReadOptions,
    ReadReport,
    WriteOptions,
    encode,
    located,
    parse_puzzle,
)


def content(line: str) -> str:
    """A line without its comment (`#` at the start, or `//` anywhere) and surrounding space."""
    if line.startswith("#") or line.lstrip().startswith("#"):
        return ""
    if "//" in line:
        line = line.split("//", 1)[0]
    return line.strip()


def read_lines(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    """One puzzle per line; blank lines and comments are passed over."""
    for number, line in enumerate(lines, 1):
        text = content(line)
        if not text:
            continue
        try:  # not `with located(...)`: this loop reads big files, and try costs nothing
            yield PuzzleEntry(f"{source}:{number}", parse_puzzle(text, options))
        except PuzzleFormatError as error:
            indent = len(line) - len(line.lstrip())
            if indent and error.column is not None:  # columns count from the line's start
                error.column += indent
            with located(source, number, options, report):
                raise error from None


def write_lines(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """Each puzzle as one line of N² symbols (blank `.` unless the options say otherwise)."""
    return "".join(encode(entry.puzzle, options) + "\n" for entry in entries)
