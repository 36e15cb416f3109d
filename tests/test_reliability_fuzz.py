"""Issue 17: fuzzing the readers and the command line's puzzle arguments. Whatever the input,
reading gives entries or a `SudokuBenchError` (one located line on stderr, exit 2), never
another exception (a traceback).

Inputs are random text over characters that matter to some format (cells, separators,
quotes, braces, comment marks, line ends of every kind, invisible and control characters),
and valid files of each format with random edits. Bounded: a fixed number of examples each,
no deadline per example (a loaded machine is slow, not wrong).
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import FORMATS, ReadOptions, read_text, write_text
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT, HEX, LETTERS

# Characters that mean something to some format or reader, and some that mean trouble.
SYNTAX = "0123456789.ABCDEFGPYZaz|-+=#/,\"'\\{}[]:; \t\r\n\ufeff\u200b\u202e\x00\x0b\xa0é"
WORDS = [
    '"puzzle"',
    '"solution"',
    '"geometry"',
    '"alphabet"',
    '"state"',
    '"candidates"',
    '"values"',
    "quizzes",
    "solutions",
    "#A",
    "#C",
    "[Puzzle]",
    "Grid 01",
    "======",
    "------+------",
    "9x9",
    "6x6:3x2",
    "1e400",
    "NaN",
    "null",
    "true",
    "r1c1",
    "10",
    "25",
    "36",
    "\r\n",
]
FORMAT_NAMES = sorted(FORMATS)
SAMPLES = {name: write_text(load("seeds")[:2], name) for name in FORMAT_NAMES}

noise = st.text(alphabet=st.sampled_from(SYNTAX), max_size=300)
tokens = st.lists(st.one_of(st.sampled_from(WORDS), noise), max_size=20).map("".join)


@st.composite
def edited(draw: st.DrawFn, fmt: str) -> str:
    """A valid file of `fmt` with a few random edits: a cut, an insertion, a replacement."""
    text = SAMPLES[fmt]
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 12)))
        text = text[:start] + draw(st.one_of(noise, st.sampled_from(WORDS))) + text[end:]
    return text


def documents(fmt: str) -> st.SearchStrategy[str]:
    return st.one_of(noise, tokens, edited(fmt))


OPTIONS = st.builds(
    ReadOptions,
    alphabet=st.sampled_from([DEFAULT, HEX, LETTERS]),
    rules=st.sampled_from([None, Rules.of_size(4), Rules.of_size(9), Rules(6, 3, 2)]),
    diagonals=st.booleans(),
    check_givens=st.booleans(),
    skip_invalid=st.booleans(),
)
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("fmt", [*FORMAT_NAMES, ".txt"])
@FUZZ
@given(data=st.data())
def test_readers_raise_only_their_own_errors(fmt: str, data: st.DataObject) -> None:
    text = data.draw(documents(fmt if fmt in FORMATS else "line"))
    options = data.draw(OPTIONS)
    with contextlib.suppress(SudokuBenchError):
        entries = read_text(text, "fuzz", fmt, options)
        for entry in entries:  # what was read writes out again in every format
            for name in FORMAT_NAMES:
                with contextlib.suppress(SudokuBenchError):
                    written = write_text([entry], name)
                    if name in ("json", "jsonl"):  # JSON that JSON readers accept
                        for line in written.strip("[]\n").split(",\n"):
                            json.loads(line, parse_constant=_not_json)


def _not_json(name: str) -> None:
    raise AssertionError(f"{name} was written into JSON")


@FUZZ
@given(argument=st.one_of(noise, tokens, st.sampled_from(["top95:0", "top95:9999", "-", ""])))
def test_puzzle_arguments_never_give_a_traceback(argument: str) -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(
                ["show", "--", argument]
                if argument.startswith("-") and argument != "-"
                else ["show", argument]
            )
        except SystemExit as stop:  # argparse's usage errors
            code = stop.code  # type: ignore[assignment]
    assert code in (0, 2), (argument, stderr.getvalue())
    if code == 2:
        assert len(stderr.getvalue().strip().splitlines()) == 1, stderr.getvalue()


@FUZZ
@given(document=st.one_of(*(documents(fmt) for fmt in FORMAT_NAMES)))
def test_stdin_never_gives_a_traceback(document: str) -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    with (
        pytest.MonkeyPatch.context() as patch,
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
    ):
        patch.setattr("sys.stdin", io.StringIO(document))
        code = main(["convert", "-", "--to", "json", "--skip-invalid"])
    assert code in (0, 2), stderr.getvalue()
    if code == 2:
        assert stderr.getvalue().strip().splitlines()[-1].startswith("sudoku-bench: error: ")
