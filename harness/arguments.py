"""Argument types and options shared by the commands that run tasks."""

from __future__ import annotations

import argparse

from harness.solving import positive_float, positive_int
from harness.store import DEFAULT_PATH

__all__ = ["add_db_argument", "add_task_arguments", "natural", "positive_float", "positive_int"]


def natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def add_task_arguments(parser: argparse.ArgumentParser, timeout_help: str) -> None:
    """-s, --timeout, -j and --quiet."""
    parser.add_argument(
        "-s",
        "--solvers",
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
