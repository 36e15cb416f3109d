"""Do two stored runs give the same answers? Task by task (puzzle, back-end, repeat).

For a change that must not change what the back-ends answer (a refactoring of the harness,
the reductions or an engine): store a run made before it and one made after it, with the same
puzzles, back-ends, repeats and `--limit`, then compare them here. For each task present in
either run:

- the same status class (answered, timed out, gave up, unsupported, error);
- the same verdict (none, unique, multiple, unknown) and count;
- the same solutions;
- for back-ends whose counters are deterministic (`DETERMINISTIC`: propagating, dlx and
  their compiled twins), the same nodes, guesses and counters.

Prints every difference and exits 1 if there is any, else 0. Stores of every schema version
are read (read-only: nothing is written to either). A timeout on one side is a difference
unless `--ignore-timeouts` is given (a loaded machine times out where an idle one did not).

    # before the change (e.g. in a checkout of main):
    sudoku-bench bench easy50 top95 hardest 16x16 \\
        -s propagating,propagating-jit,dlx,dlx-jit,cpsat,sat --limit 2 --timeout 10 \\
        --db before.sqlite
    # after it, the same command with --db after.sqlite; then
    PYTHONPATH=. python benchmarks/same_answers.py before.sqlite after.sqlite
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_bench.harness.results import TIMED_OUT
from sudoku_bench.harness.storing.store import open_store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.solvers.base import Status

# Back-ends whose counters depend only on the puzzle (no clock, no randomness, no threads).
DETERMINISTIC = frozenset({"propagating", "propagating-jit", "dlx", "dlx-jit"})

# A task, across runs: the puzzle (collection, id, rules, line), the back-end and the repeat.
Key = tuple[str, str, str, str, str, int]


def status_class(status: str) -> str:
    if Status(status).answered:
        return "answered"
    if Status(status) in TIMED_OUT or status == Status.MEMOUT:
        return "timed out"
    return str(status)


def rows_of(path: Path, run: int | None) -> dict[Key, dict[str, Any]]:
    store = open_store(path, create=False, read_only=True)
    try:
        info = store.run(run)
        rows = store.results(info.id)
    finally:
        store.close()
    return {
        (r["collection"], r["puzzle_id"], r["rules"], r["puzzle"], r["solver"], r["repeat"]): r
        for r in rows
    }


def differences(
    before: dict[str, Any], after: dict[str, Any], *, ignore_timeouts: bool = False
) -> list[str]:
    """What differs between two results of one task, in words (empty: the same answer)."""
    first, second = status_class(before["status"]), status_class(after["status"])
    if first != second:
        if ignore_timeouts and "timed out" in (first, second):
            return []
        return [f"status {before['status']} -> {after['status']}"]
    if first == "timed out":
        return []  # nothing was answered: nothing to compare
    found = []
    if before["verdict"] != after["verdict"] or before["count"] != after["count"]:
        found.append(
            f"verdict {before['verdict']} ({before['count']}) -> "
            f"{after['verdict']} ({after['count']})"
        )
    if sorted(before["solutions"]) != sorted(after["solutions"]):
        found.append("different solutions")
    if before["solver"] in DETERMINISTIC and first == "answered":
        for name in ("nodes", "guesses"):
            if before[name] != after[name]:
                found.append(f"{name} {before[name]} -> {after[name]}")
        changed = sorted(
            name
            for name in before["counters"].keys() | after["counters"].keys()
            if name not in ("nodes", "guesses")
            and before["counters"].get(name) != after["counters"].get(name)
        )
        found += [
            f"counter {name} {before['counters'].get(name)} -> {after['counters'].get(name)}"
            for name in changed
        ]
    return found


def compare(
    before: dict[Key, dict[str, Any]],
    after: dict[Key, dict[str, Any]],
    *,
    ignore_timeouts: bool = False,
) -> list[str]:
    """Every difference between two runs, one line per task."""
    lines = []
    for key in sorted(before.keys() | after.keys()):
        _, puzzle_id, _, _, solver, repeat = key
        where = f"{puzzle_id} {solver} repeat {repeat}"
        if key not in after:
            lines.append(f"{where}: only in BEFORE")
        elif key not in before:
            lines.append(f"{where}: only in AFTER")
        else:
            found = differences(before[key], after[key], ignore_timeouts=ignore_timeouts)
            if found:
                lines.append(f"{where}: {'; '.join(found)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the store of the run made before the change")
    parser.add_argument("after", type=Path, help="the store of the run made after it")
    parser.add_argument("--before-run", type=int, help="run id in BEFORE (default: the latest)")
    parser.add_argument("--after-run", type=int, help="run id in AFTER (default: the latest)")
    parser.add_argument(
        "--ignore-timeouts",
        action="store_true",
        help="a task timed out on one side only is not a difference",
    )
    args = parser.parse_args(argv)
    try:
        before = rows_of(args.before, args.before_run)
        after = rows_of(args.after, args.after_run)
    except SudokuBenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    lines = compare(before, after, ignore_timeouts=args.ignore_timeouts)
    for line in lines:
        print(line)
    shared = len(before.keys() & after.keys())
    deterministic = sum(1 for key in before.keys() & after.keys() if key[4] in DETERMINISTIC)
    print(
        f"{shared} tasks in both runs ({deterministic} with deterministic counters), "
        f"{len(before) - shared} only before, {len(after) - shared} only after: "
        + (f"{len(lines)} differ" if lines else "the same answers")
    )
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
