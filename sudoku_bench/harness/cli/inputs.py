"""Command-line puzzle inputs: each argument is a bundled collection, a file, or a puzzle."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from sudoku_bench.puzzles.collections import BUNDLED, split_selector, stream
from sudoku_bench.puzzles.errors import PuzzleFormatError, RulesError
from sudoku_bench.puzzles.formats import (
    PuzzleEntry,
    ReadOptions,
    ReadReport,
    decode,
    format_named,
    parse_puzzle,
    read_text,
    sniff_format,
    stream_binary,
)
from sudoku_bench.puzzles.formats.fpuzzles import entry_from_text, looks_like_fpuzzles
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import Alphabet, alphabet_named, describe_char


def add_puzzle_arguments(parser: argparse.ArgumentParser, *, nargs: str | int = "+") -> None:
    """The PUZZLE arguments and the reading options every puzzle-taking command shares."""
    parser.add_argument(
        "inputs",
        nargs=nargs,
        metavar="PUZZLE",
        help="a bundled collection (e.g. top95; see `sudoku-bench collections`), "
        "a file (.txt one per line, .csv, .json, f-puzzles, ...), a puzzle string, or an "
        "f-puzzles link ('-' reads lines from stdin)",
    )
    reading = parser.add_argument_group("reading puzzles")
    reading.add_argument(
        "--alphabet",
        default="default",
        metavar="NAME",
        help="symbols for the values: default (1-9 then A-P, '.' or '0' blank), hex (0-F), "
        "letters (A-Y), or symbols:ABCD... spelled out",
    )
    reading.add_argument(
        "--rules",
        "--geometry",
        dest="geometry",
        type=rules_argument,
        metavar="RULES",
        help="read every puzzle under these rules: a geometry (6x6:3x2 box shape, 9x9-x "
        'Sudoku-X), the JSON form of variant rules (\'{"size": 9, "anti_knight": true}\'), '
        "or a file holding it; default: from each puzzle's length, or what its file says",
    )
    reading.add_argument(
        "-x",
        "--sudoku-x",
        action="store_true",
        help="treat the puzzles as Sudoku-X (both diagonals are units too)",
    )
    reading.add_argument(
        "--from",
        dest="input_format",
        metavar="FORMAT",
        help="read files and stdin as this format (line, grid, sdk, csv, json, jsonl) whatever "
        "their extension (default: from the extension; stdin: from its first line)",
    )
    reading.add_argument(
        "--blank",
        metavar="CHAR",
        help="one more character read as an empty cell (convert also writes it)",
    )
    reading.add_argument(
        "--skip-invalid",
        action="store_true",
        help="pass over bad entries (counted and named on stderr) instead of stopping",
    )
    reading.add_argument(
        "--ignore-cosmetics",
        action="store_true",
        help="f-puzzles: pass over cosmetic lines, shapes and texts that draw no rule, as "
        "f-puzzles' own solver does (by default they are refused: a setter may mean a rule)",
    )
    reading.add_argument(
        "--allow-conflicts",
        action="store_true",
        help="accept puzzles whose givens repeat a digit in a unit (they have no solution)",
    )


def geometry_argument(text: str) -> Rules:
    """`Rules.parse` for argparse: rules that makes no Sudoku is a usage error."""
    try:
        return Rules.parse(text)
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def rules_argument(text: str) -> Rules:
    """`--rules`: a geometry name, the JSON form of rules, or a file holding the JSON form."""
    if not text.lstrip().startswith("{"):
        path = Path(text)
        try:
            is_file = path.is_file()
        except OSError:  # a name too long to be a path
            is_file = False
        if is_file:
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as error:
                raise argparse.ArgumentTypeError(f"{path}: cannot read: {error}") from None
            try:
                return Rules.parse(text)
            except RulesError as error:
                raise argparse.ArgumentTypeError(f"{path}: {error}") from None
    return geometry_argument(text)


def alphabet_of(name: str) -> Alphabet:
    """The alphabet an --alphabet option names; an unknown name is a user error."""
    try:
        return alphabet_named(name, bare_symbols=False)
    except ValueError as error:
        message = str(error)  # "an alphabet's symbols must be distinct" did not say which
        raise PuzzleFormatError(
            message if repr(name) in message else f"the alphabet {name!r}: {message}"
        ) from None


# Characters that are the syntax of some format: a blank written as one of them reads back as
# something else (`#` starts a comment, `|` `-` `+` `=` draw boxes, `,` `"` split CSV fields,
# `//` starts a comment, `'` and `\` quote), and white space is skipped between cells.
FORMAT_SYNTAX = "#/|-+=,\"'\\"


def checked_blank(blank: str | None, alphabet: Alphabet) -> str | None:
    """The `--blank` character, refused when it cannot be read back as an empty cell."""
    if blank is None:
        return None
    if len(blank) != 1:
        raise PuzzleFormatError(f"--blank takes one character, got {blank!r}")
    if blank in FORMAT_SYNTAX or blank.isspace() or not blank.isprintable():
        raise PuzzleFormatError(
            f"--blank {describe_char(blank)} is part of a file format's syntax "
            f"({' '.join(FORMAT_SYNTAX)} and white space): it would not read back as an empty "
            "cell; choose another, e.g. '_' or 'x'"
        )
    if blank.upper() in alphabet.symbols.upper():
        raise PuzzleFormatError(
            f"--blank {blank!r} is a symbol of the {alphabet.name or 'chosen'} alphabet"
        )
    return blank


def read_options(args: argparse.Namespace) -> ReadOptions:
    alphabet = alphabet_of(args.alphabet)
    blank = checked_blank(getattr(args, "blank", None), alphabet)
    if blank is not None and blank not in alphabet.blanks:
        alphabet = Alphabet(alphabet.symbols, alphabet.blanks + blank, alphabet.name)
    return ReadOptions(
        alphabet=alphabet,
        rules=args.geometry,
        diagonals=args.sudoku_x,
        check_givens=not args.allow_conflicts,
        skip_invalid=args.skip_invalid,
        ignore_cosmetics=getattr(args, "ignore_cosmetics", False),
    )


def looks_like_puzzle(text: str) -> bool:
    """A command-line argument that is a puzzle string rather than a name or a path.

    Short strings of digits and dots count too (`.....`), so that their error is the
    puzzle's size, not "neither a file nor a bundled collection"."""
    short = len(text) < 16 and not text.strip("0123456789.")
    if (len(text) < 16 and not short) or "/" in text or text in BUNDLED:
        return False
    if split_selector(text) is not None:
        return False
    try:
        return not Path(text).exists()
    except OSError:  # a 16x16 or 25x25 puzzle is longer than a file name may be
        return True


def _is_fpuzzles(spec: str) -> bool:
    """An f-puzzles link, or its ?load= text, given on the command line (not a file's name)."""
    if spec in BUNDLED or split_selector(spec) is not None:
        return False
    try:
        if Path(spec).exists():
            return False
    except OSError:  # longer than a file name may be: ?load= text often is
        pass
    return looks_like_fpuzzles(spec)


def _stdin_text(options: ReadOptions, head: bytes = b"") -> str:
    """Standard input, decoded as files are (UTF-8 checked, a BOM dropped); `head`: what
    was read of it already."""
    if sys.stdin is None:  # `sudoku-bench count - <&-`
        raise PuzzleFormatError("standard input is closed: nothing to read for '-'")
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream put in place of stdin (tests, embedding)
        return sys.stdin.read()
    try:
        data = head + buffer.read()
    except OSError as error:
        raise PuzzleFormatError(f"cannot read: {error.strerror}", source="stdin") from None
    return decode(data, "stdin", options)


def _stdin_stream(
    options: ReadOptions, report: ReadReport, fmt: str | None
) -> tuple[Iterator[PuzzleEntry] | None, bytes]:
    """Standard input's puzzles as they are read, where its format reads one puzzle per
    line (`stream_binary`); else None and what was read of it."""
    buffer = getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None
    if buffer is None:
        return None, b""
    try:
        return stream_binary(buffer, "stdin", options, report, fmt)
    except OSError as error:
        raise PuzzleFormatError(f"cannot read: {error.strerror}", source="stdin") from None


def input_format(args: argparse.Namespace) -> str | None:
    """The `--from` format's name (checked), or None to go by extensions."""
    name = getattr(args, "input_format", None)
    return format_named(name).name if name else None


def read_inputs(args: argparse.Namespace) -> list[PuzzleEntry]:
    """Every puzzle named by the arguments, in order; reports skipped entries on stderr.

    Standard input (`-`) is read once; given twice, its puzzles come twice."""
    return list(stream_inputs(args))


def stream_inputs(args: argparse.Namespace) -> Iterator[PuzzleEntry]:
    """`read_inputs`'s puzzles as they are read: a file (or standard input, named once) of
    one puzzle per line or CSV is read as the caller takes its puzzles, so a file of
    millions is never held whole (other formats and collections are read whole). A bad entry raises when it is
    reached; the skipped entries are reported on stderr after the last puzzle."""
    options = read_options(args)
    fmt = input_format(args)
    report = ReadReport()
    found = False
    stdin: list[PuzzleEntry] | None = None
    for number, spec in enumerate(args.inputs, 1):
        if spec == "-":
            if stdin is None:
                head = b""
                if args.inputs.count("-") == 1:  # read once: it may be streamed
                    streamed, head = _stdin_stream(options, report, fmt)
                    if streamed is not None:
                        for entry in streamed:
                            found = True
                            yield entry
                        continue
                text = _stdin_text(options, head)
                stdin = read_text(text, "stdin", fmt or sniff_format(text), options, report)
            found = found or bool(stdin)
            yield from stdin
        elif _is_fpuzzles(spec):
            try:
                entry = entry_from_text(spec, f"arg{number}", options)
            except PuzzleFormatError as error:
                where = error.located(source=f"argument {number}")
                if not options.skip_invalid:
                    raise where from None
                report.skipped.append(where)
            else:
                found = True
                yield entry
        elif looks_like_puzzle(spec):
            try:
                entry = PuzzleEntry(f"arg{number}", parse_puzzle(spec, options))
            except PuzzleFormatError as error:
                where = error.located(source=f"argument {number}")
                if not options.skip_invalid:  # it was raised even with --skip-invalid
                    raise where from None
                report.skipped.append(where)
            else:
                found = True
                yield entry
        else:
            for entry in stream(spec, options, report, fmt):
                found = True
                yield entry
    for skipped in report.skipped:
        print(f"skipped {skipped}", file=sys.stderr)
    if report.skipped:
        count = len(report.skipped)
        print(f"skipped {count} invalid {'entry' if count == 1 else 'entries'}", file=sys.stderr)
    if not found:  # an empty file is a mistake to name, not a silent exit 0
        why = "every entry was invalid" if report.skipped else "no puzzles"
        raise PuzzleFormatError(f"{why} in {', '.join(args.inputs)}")
