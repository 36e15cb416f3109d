"""Kaggle-style CSV: a header `quizzes,solutions` (or `puzzle,solution`), one puzzle per row.

Solutions are optional and, when present, must solve their puzzle. Other columns (`id`,
`difficulty`, ...) are kept as metadata. Kaggle writes `0` for an empty cell; so does the writer.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.formats.common import (
    PuzzleEntry,
    ReadOptions,
    ReadReport,
    WriteOptions,
    check_solution,
    encode,
    located,
    parse_puzzle,
)
from sudoku_bench.puzzles.grid import Grid

PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles")
SOLUTION_COLUMNS = ("solutions", "solution")


def _fields(line: str) -> list[str]:
    text = line.rstrip("\r\n")
    if '"' not in text:  # the common case, and the columns of the fields are then exact
        return text.split(",")
    try:
        return next(csv.reader([text], strict=True), [])
    except csv.Error as error:  # a stray quote or line break inside a field
        raise PuzzleFormatError(f"not a CSV row: {error}") from None


def read_csv(
    lines: Iterable[str], source: str, options: ReadOptions, report: ReadReport
) -> Iterator[PuzzleEntry]:
    numbered = enumerate(lines, 1)
    number, line = next(((n, text) for n, text in numbered if text.strip()), (0, ""))
    if not number:
        return
    with located(source, number, ReadOptions(), ReadReport()):  # a bad header stops the read
        header = [name.strip().lower() for name in _fields(line)]
    puzzle_column = _find_column(header, PUZZLE_COLUMNS)
    solution_column = _find_column(header, SOLUTION_COLUMNS)
    if puzzle_column is None:
        raise PuzzleFormatError(
            "the CSV header has no column 'quizzes' (or 'puzzle'): expected e.g. "
            "'quizzes,solutions'",
            source=source,
            line=number,
        )
    extra = [
        (index, name)
        for index, name in enumerate(header)
        if index not in (puzzle_column, solution_column)
    ]
    for number, line in numbered:
        if not line.strip():
            continue
        with located(source, number, options, report):
            row = _fields(line)
            if len(row) <= puzzle_column:
                raise PuzzleFormatError(f"expected {len(header)} CSV fields, got {len(row)}")
            if any(field.strip() for field in row[len(header) :]):  # they were dropped unread
                raise PuzzleFormatError(
                    f"expected {len(header)} CSV fields ({', '.join(header)}), got {len(row)}",
                    column=sum(len(field) + 1 for field in row[: len(header)]) + 1,
                )
            puzzle = _field_grid(row, puzzle_column, options)
            solution = None
            if solution_column is not None and row[solution_column:] and row[solution_column]:
                solved = ReadOptions(options.alphabet, puzzle.rules, check_givens=False)
                solution = check_solution(puzzle, _field_grid(row, solution_column, solved))
            metadata = {name: row[i] for i, name in extra if i < len(row) and row[i] != ""}
            yield PuzzleEntry(f"{source}:{number}", puzzle, solution, metadata)


def _field_grid(row: list[str], index: int, options: ReadOptions) -> Grid:
    """The grid in field `index`; an error's column counts from the start of the line."""
    try:
        return parse_puzzle(row[index], options)
    except PuzzleFormatError as error:
        if error.column is not None:
            error.column += sum(len(field) + 1 for field in row[:index])
        raise


def _find_column(header: list[str], names: tuple[str, ...]) -> int | None:
    return next((header.index(name) for name in names if name in header), None)


def write_csv(entries: Sequence[PuzzleEntry], options: WriteOptions) -> str:
    """`quizzes[,solutions][,metadata...]`, blanks written as `0` unless `0` is a symbol."""
    with_solutions = any(entry.solution is not None for entry in entries)
    extra: list[str] = []
    for entry in entries:
        extra += [
            key for key, value in entry.metadata.items() if _scalar(value) and key not in extra
        ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["quizzes", *(["solutions"] if with_solutions else []), *extra])
    for entry in entries:
        row = [encode(entry.puzzle, options, "0")]
        if with_solutions:
            row.append(encode(entry.solution, options, "0") if entry.solution else "")
        row += [_text(entry.metadata.get(key)) for key in extra]
        writer.writerow(row)
    return out.getvalue()


def keeps_csv_item(key: str, value: Any) -> bool:
    """A metadata item the CSV writer keeps: one column per key, so scalars only."""
    return _scalar(value)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def _text(value: Any) -> str:
    return "" if value is None or not _scalar(value) else str(value)
