"""The `--json` records: the public contract researchers script against. Extend, never rename."""

from __future__ import annotations

import errno
import json
import math
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from sudoku_bench.harness.results import RECORD_SCHEMA_VERSION, result_json
from sudoku_bench.puzzles.errors import SudokuBenchError

# The `--json` record of a solver's result: its one builder is `sudoku_bench.harness.results`'.
result_record = result_json


def print_json(record: dict[str, Any], out: TextIO | None = None, *, flush: bool = True) -> None:
    """One object per line (JSON Lines) on stdout (or `out`), led by its `schema_version`,
    flushed so a pipe sees each (unless the caller flushes: `solve` and `count` after each
    message of answers)."""
    stream = out or sys.stdout
    stream.write(json_line(versioned(record)) + "\n")
    if flush:
        stream.flush()


def versioned(record: dict[str, Any]) -> dict[str, Any]:
    """The record led by `schema_version`, the version of the records' key sets."""
    if "schema_version" in record:
        return record
    return {"schema_version": RECORD_SCHEMA_VERSION, **record}


def json_line(record: Any) -> str:
    """`record` as one line of JSON. A number that is not finite (a counter's NaN) is written
    as null: `NaN` and `Infinity` are not JSON, and readers of JSON Lines reject them."""
    try:  # the common case, at C speed: no such number (the encoder refuses them)
        return _encode_strict(record)
    except ValueError:
        return _STRICT.encode(_finite(record))


# made once: `json.dumps` with any option builds a new encoder per call; records are trees
# of fresh dicts and lists, never circular
_STRICT = json.JSONEncoder(allow_nan=False, check_circular=False)


def _strict_encoder() -> Callable[[Any], str]:
    """`_STRICT.encode`, without the C encoder it builds anew on every call (`solve FILE
    --json` writes thousands of records): json's own C encoder, made once with `_STRICT`'s
    settings, where this Python has one."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return _STRICT.encode
    encoder = make(
        None,  # no markers: the circular check is off
        _STRICT.default,
        json.encoder.encode_basestring_ascii,
        None,  # no indent
        _STRICT.key_separator,
        _STRICT.item_separator,
        _STRICT.sort_keys,
        _STRICT.skipkeys,
        _STRICT.allow_nan,
    )
    return lambda record: "".join(encoder(record, 0))


_encode_strict = _strict_encoder()


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


# Text read with --skip-invalid from a file that is not all UTF-8 carries its stray bytes
# (as surrogates, `sudoku_bench.puzzles.formats.decode`): they are written back as the bytes they were.
KEEP_BYTES = "surrogateescape"


def write_output(path: Path, text: str, *, make_folder: bool = False) -> None:
    """Write a command's output file; a path that cannot be written is a user error.

    The text goes to a temporary file beside `path`, renamed over it when complete: a full
    disk or a Ctrl-C leaves the old file (or none), never a cut one that looks whole.
    Devices, pipes and links (`-o /dev/stdout`) are written in place.
    """
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or (path.exists() and not path.is_file()):
            path.write_text(text, encoding="utf-8", errors=KEEP_BYTES)
        else:
            _replace(path, text)
    except OSError as error:
        raise SudokuBenchError(f"{path}: cannot write: {error.strerror}") from None


def _replace(path: Path, text: str) -> None:
    if path.exists() and not os.access(path, os.W_OK):  # a rename would overwrite it anyway
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8", errors=KEEP_BYTES)
        if path.exists():
            shutil.copymode(path, partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
