"""Record every engine's answers and search counters on the bundled collections, and compare
two such records: a change to an engine's encoding must leave both the same.

    PYTHONPATH=/path/to/checkout python benchmarks/engine_answers.py record before.jsonl
    PYTHONPATH=/path/to/checkout python benchmarks/engine_answers.py record after.jsonl
    python benchmarks/engine_answers.py compare before.jsonl after.jsonl

`record` runs, on each bundled collection, `propagating`, `propagating-singles` and
`propagating-jit` on every puzzle (limits 1 and 2), and the slower engines (`backtracking`,
`logic`, `groebner`) on the first few puzzles of each; a timed-out answer is recorded as such
and left out of the comparison. `compare` prints each difference in status, solutions,
`nodes` or `guesses` and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

# back-end -> (limits, puzzles per collection (None: all), timeout in seconds)
PLAN: dict[str, tuple[tuple[int, ...], int | None, float]] = {
    "propagating": ((1, 2), None, 60.0),
    "propagating-singles": ((2,), 30, 60.0),
    "propagating-jit": ((1, 2), None, 60.0),
    "backtracking": ((2,), 8, 20.0),
    "logic": ((1,), 8, 30.0),
    "groebner": ((2,), 2, 20.0),
}
SKIP = {"seeds"}  # the source documents' boards are in other collections too
COUNTERS = ("nodes", "guesses")


def record(path: Path, solvers: list[str], collections: list[str] | None) -> None:
    from sudoku_bench.puzzles.collections import BUNDLED, load
    from sudoku_bench.solvers import create

    with path.open("w") as out:
        for name in collections or [n for n in BUNDLED if n not in SKIP]:
            entries = load(name)
            for solver_name in solvers:
                limits, count, timeout = PLAN[solver_name]
                solver = create(solver_name)
                for entry in entries[:count]:
                    for limit in limits:
                        result = solver.solve(entry.puzzle, limit=limit, timeout=timeout)
                        row = {
                            "id": entry.id,
                            "solver": solver_name,
                            "limit": limit,
                            "status": str(result.status),
                            "solutions": [str(grid) for grid in result.solutions],
                            "partial": None if result.partial is None else str(result.partial),
                            **{k: result.counters.get(k) for k in COUNTERS},
                            "message": result.message,
                        }
                        out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"{name} {solver_name}", file=sys.stderr, flush=True)


def rows(path: Path) -> Iterator[dict[str, object]]:
    with path.open() as lines:
        for line in lines:
            yield json.loads(line)


def compare(before: Path, after: Path) -> int:
    old = {(r["id"], r["solver"], r["limit"]): r for r in rows(before)}
    new = {(r["id"], r["solver"], r["limit"]): r for r in rows(after)}
    differences = compared = skipped = 0
    for key in sorted(set(old) & set(new), key=str):
        a, b = old[key], new[key]
        if "timeout" in (a["status"], b["status"]):
            skipped += 1
            continue
        compared += 1
        fields = ["status", "solutions", "partial", *COUNTERS]
        changed = [f for f in fields if a[f] != b[f]]
        if changed:
            differences += 1
            print(key, {f: (a[f], b[f]) for f in changed})
    missing = len(set(old) ^ set(new))
    print(
        f"{compared} answers compared, {differences} differ, {skipped} left out (a timeout), "
        f"{missing} in one record only"
    )
    return 1 if differences or missing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record")
    rec.add_argument("output", type=Path)
    rec.add_argument("-s", "--solvers", default=",".join(PLAN))
    rec.add_argument("-c", "--collections", default="")
    cmp = commands.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        chosen = [c for c in args.collections.split(",") if c] or None
        record(args.output, args.solvers.split(","), chosen)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
