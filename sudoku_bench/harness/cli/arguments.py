"""Argument types shared by the commands, and the options of those that run tasks."""

from __future__ import annotations

import argparse
import os

from sudoku_bench.harness import defaults
from sudoku_bench.harness.storing.store import DEFAULT_PATH

# Bounds that keep a careless value from reaching the machinery as an overflow or a hang:
# SQLite stores whole numbers in 64 bits, a timeout is added to clock readings (and `inf`
# times 0 warm-ups is NaN), each job is a worker process, each repeat a task held in memory.
INT64_MAX = 2**63 - 1
MAX_SECONDS = 1e7  # about 116 days
MAX_RUNS = 10_000  # repeats or warm-ups of one task
JOBS_PER_CORE = 4


def _whole_number(text: str, minimum: int, maximum: int = INT64_MAX, why: str = "") -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    if value > maximum:
        raise argparse.ArgumentTypeError(f"must be at most {maximum}{why}, got {value}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number, 1 or more (a count, a limit)."""
    return _whole_number(text, 1)


def repeats(text: str) -> int:
    """An argparse type: runs of a task, 1 to `MAX_RUNS`."""
    return _whole_number(text, 1, MAX_RUNS)


def warmups(text: str) -> int:
    """An argparse type: untimed runs before the timed one, 0 to `MAX_RUNS`."""
    return _whole_number(text, 0, MAX_RUNS)


def job_count(text: str) -> int:
    """An argparse type: worker processes, 1 to `JOBS_PER_CORE` per core of this machine."""
    cores = os.cpu_count() or 1
    return _whole_number(text, 1, JOBS_PER_CORE * cores, f" ({JOBS_PER_CORE} per core)")


def int64(text: str) -> int:
    """An argparse type: any whole number the store can hold (a seed, a run's id)."""
    return _whole_number(text, -INT64_MAX - 1, INT64_MAX, " (64 bits)")


def positive_float(text: str) -> float:
    """An argparse type: a number of seconds, more than 0 and at most `MAX_SECONDS`
    (`nan` and `inf` are refused too)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    if not value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SECONDS:g} seconds (about 116 days), got {text}"
        )
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
        type=job_count,
        metavar="N",
        help="tasks run at a time, each in its own worker process (default 1)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def store_path(text: str) -> str:
    """An argparse type: the path of a results store (an empty one named the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"--db needs a path, e.g. {DEFAULT_PATH}; got {text!r}")
    return text


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=store_path,
        default=str(DEFAULT_PATH),
        metavar="PATH",
        help=f"the results store, an SQLite file (default {DEFAULT_PATH})",
    )


def add_solver_arguments(parser: argparse.ArgumentParser, *, default_limit: int) -> None:
    solving = parser.add_argument_group("solving")
    solving.add_argument(
        "-s",
        "--solver",
        "--solvers",  # the spelling of check and bench, so that either works everywhere
        default=defaults.SOLVER,
        metavar="NAME[,NAME...]",
        help=f"back-ends to run, comma-separated, or 'all' (default: {defaults.SOLVER}; "
        "see `sudoku-bench solvers`)",
    )
    solving.add_argument(
        "--limit",
        type=positive_int,
        default=default_limit,
        metavar="K",
        help=f"stop after K solutions (default: {default_limit}); the count is exact when "
        "the search ends before the limit",
    )
    solving.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle and back-end (default: none)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle per back-end per line (keys: docs/reference/json.md)",
    )
