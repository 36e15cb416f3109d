"""`sudoku-bench`: the command line. Each sub-command lives in `sudoku_bench.harness.cli.commands.<name>`.

Errors a user can act on (`SudokuBenchError`) become one line on stderr and exit code 2
(or the error's own `exit_code`); never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from sudoku_bench.harness.cli.streams import OutputError, guard_standard_streams, silence_stdout
from sudoku_bench.puzzles.errors import SudokuBenchError

# Sub-command modules, in the order `--help` lists them. Each has `add_parser(subparsers)`,
# which sets `run=function(args) -> exit code` as the parser's default.
COMMANDS = (
    "sudoku_bench.harness.cli.commands.solve",
    "sudoku_bench.harness.cli.commands.count",
    "sudoku_bench.harness.cli.commands.check",
    "sudoku_bench.harness.cli.commands.bench",
    "sudoku_bench.harness.cli.commands.report",
    "sudoku_bench.harness.cli.commands.compare",
    "sudoku_bench.harness.cli.commands.merge",
    "sudoku_bench.harness.cli.commands.solvers_list",
    "sudoku_bench.harness.cli.commands.convert",
    "sudoku_bench.harness.cli.commands.show",
    "sudoku_bench.harness.cli.commands.collections_list",
    "sudoku_bench.harness.cli.commands.reduce",
    "sudoku_bench.harness.cli.commands.explain",
    "sudoku_bench.harness.cli.commands.rate",
    "sudoku_bench.harness.cli.commands.generate",
    "sudoku_bench.harness.cli.commands.facts4x4",
    "sudoku_bench.harness.cli.commands.facts",
    "sudoku_bench.harness.cli.commands.minimum_clues",
    "sudoku_bench.harness.cli.commands.experiment",
)

DESCRIPTION = """\
Many ways of solving Sudoku behind one interface: solve, count, cross-check and time them.

Puzzles are given as bundled collection names (top95, 17clue, 4x4, ...), files, or
puzzle strings (81 characters for 9x9, '.' or '0' for an empty cell).
"""

EPILOG = """\
examples:
  sudoku-bench solve 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
  sudoku-bench count top95 -s dlx --limit 2 --json
  sudoku-bench check top95 hardest -s all            # do the back-ends agree?
  sudoku-bench bench                                  # the main job: default suite, all back-ends
  sudoku-bench report --format md --plots plots/      # tables and plots of the last run
  sudoku-bench explain 004036927100005000000200004005000060640000085070000200500001000000700002437920500
  sudoku-bench solvers
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line like every other error (argparse prints the
    whole usage block first, which for `bench` is eight lines above the one that matters)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sudoku-bench",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(name).add_parser(subparsers)
    return parser


class _VersionAction(argparse.Action):
    """`--version`, looked up only when asked: argparse's own action needs the string when
    the parser is built, so every command paid for reading the distribution's metadata."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sudoku-bench")
    except PackageNotFoundError:
        return "(not installed)"


class Terminated(KeyboardInterrupt):
    """SIGTERM (a `kill`, a batch system's time limit), handled as Ctrl-C is: every command's
    interrupt path keeps what was done (generate's puzzles, bench's finished tasks)."""


def _terminated(signum: int, frame: object) -> NoReturn:
    raise Terminated


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises `Terminated` while a command runs, where nothing else handles it (the
    main thread of a program that left it at its default); the handler is put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    guard_standard_streams()
    with _sigterm_as_interrupt():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # the command line, for records
        code: int = args.run(args)
        sys.stdout.flush()  # here, so that a full disk is reported like any other error
    except SudokuBenchError as error:
        print(f"sudoku-bench: error: {error}", file=sys.stderr)
        return error.exit_code
    except Terminated:
        print("sudoku-bench: terminated", file=sys.stderr)
        return 143  # 128 + SIGTERM, as a shell reports a process it ended
    except KeyboardInterrupt:
        print("sudoku-bench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sudoku-bench ... | head` is not an error
        silence_stdout()
        sys.stderr.close()
        return 0
    except OutputError as error:
        silence_stdout()
        print(
            f"sudoku-bench: error: writing standard output failed: {error.strerror}",
            file=sys.stderr,
        )
        return 2
    except OSError as error:  # a full disk, a device gone: the system's words, no traceback
        silence_stdout()
        where = f"{error.filename}: " if error.filename else "cannot write the output: "
        print(f"sudoku-bench: error: {where}{error.strerror or error}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
