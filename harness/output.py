"""The `--json` records: the public contract researchers script against. Extend, never rename."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from puzzles.errors import SudokuBenchError
from puzzles.formats import PuzzleEntry
from puzzles.symbols import DEFAULT, Alphabet
from solvers.base import Result


def result_record(
    entry: PuzzleEntry, result: Result, alphabet: Alphabet = DEFAULT
) -> dict[str, Any]:
    """One JSON object per puzzle per solver.

    Keys: id, puzzle, solver, status, solutions (line strings), count, exact, verdict,
    build_s, solve_s, nodes, guesses, counters, message.
    """
    return {
        "id": entry.id,
        "puzzle": entry.puzzle.to_line(alphabet),
        "solver": result.solver,
        "status": result.status.value,
        "solutions": [grid.to_line(alphabet) for grid in result.solutions],
        "count": result.count,
        "exact": result.exact,
        "verdict": result.verdict,
        "build_s": round(result.build_s, 6),
        "solve_s": round(result.search_s, 6),
        "nodes": result.nodes,
        "guesses": result.guesses,
        "counters": result.counters,
        "message": result.message,
    }


def print_json(record: dict[str, Any], out: TextIO | None = None) -> None:
    """One object per line (JSON Lines) on stdout (or `out`), flushed so a pipe sees each."""
    stream = out or sys.stdout
    stream.write(json.dumps(record, sort_keys=False) + "\n")
    stream.flush()


def write_output(path: Path, text: str, *, make_folder: bool = False) -> None:
    """Write a command's output file; a path that cannot be written is a user error."""
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise SudokuBenchError(f"{path}: cannot write: {error.strerror}") from None
