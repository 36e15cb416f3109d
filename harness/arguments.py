"""Argument types shared by the commands, and the options of those that run tasks."""

from __future__ import annotations

import argparse

from harness.store import DEFAULT_PATH


def _whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


def natural(text: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    return _whole_number(text, 0)


def positive_int(text: str) -> int:
    """An argparse type: a whole number, 1 or more (a count, a limit, a number of jobs)."""
    return _whole_number(text, 1)


def positive_float(text: str) -> float:
    """An argparse type: a number of seconds, more than 0 (`nan` is refused too)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def add_task_arguments(parser: argparse.ArgumentParser, timeout_help: str) -> None:
    """-s (also spelled --solver or --solvers, as in solve and count), --timeout, -j, --quiet."""
    parser.add_argument(
        "-s",
        "--solvers",
        "--solver",
        dest="solvers",
        default="all",
        metavar="NAMES",
        help="comma-separated back-ends, or 'all' (every available one; default)",
    )
    parser.add_argument("--timeout", type=positive_float, metavar="S", help=timeout_help)
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        metavar="N",
        help="tasks run at a time, each in its own worker process (default 1)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=str(DEFAULT_PATH),
        metavar="PATH",
        help=f"the results store, an SQLite file (default {DEFAULT_PATH})",
    )
