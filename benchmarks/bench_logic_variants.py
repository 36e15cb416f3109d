"""How much of each bundled variant collection the logic back-end finishes by itself, with
which techniques, at what CPU cost, and whether every step it takes is sound.

    PYTHONPATH=. python benchmarks/bench_logic_variants.py [--sample K] [--jobs 2]
        [--timeout S] [--collections a,b,...] [--forcing] [--json PATH] [--compare PATH]

Every variant collection (`variant_collections()`: the hand-listed ones such as killer, and
every generated 6x6 `KIND` and 9x9 `KIND-9x9` collection) is read; `--sample K` takes the first
K puzzles of each. Each puzzle is solved by the logic back-end with every default technique
but the forcing chains and nets (level extreme: the last resort, a search in all but name),
so "solved" means solved by the techniques a setter explains; `--forcing` adds a second run
with them. Every step of the first run is replayed against the collection's solution: a step
that places a wrong digit or removes the true one is counted as unsound (there must be none).

It prints per collection the puzzles, the share solved without forcing, how many gave up
(no technique applied) and timed out, the solve's CPU seconds per puzzle (its own process
time, so the load of other programs does not inflate it: median and max), the unsound steps,
and the variant techniques the solved puzzles used (on how many puzzles each made a step).
`--json PATH` writes one record per puzzle; `--compare PATH` reads such a file from an
earlier run and prints, per collection, the share solved then and now side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from sudoku_bench.puzzles.collections import load, variant_collections
from sudoku_bench.puzzles.formats.common import PuzzleEntry
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.techniques import TECHNIQUES, always

WITHOUT_FORCING = tuple(t.key for t in TECHNIQUES if t.default and t.level != "extreme")
WITH_FORCING = tuple(t.key for t in TECHNIQUES if t.default)
# the techniques meant for rules beyond the houses (variants, cages): their use is listed
VARIANT_KEYS = tuple(t.key for t in TECHNIQUES if t.default and t.applies is not always)


@cache
def collection(name: str) -> list[PuzzleEntry]:
    """A collection, read once per worker process."""
    return load(name)


def solve(task: tuple[str, int, float, bool]) -> dict[str, Any]:
    """One puzzle: solved without forcing (and with, if asked), CPU seconds, techniques used,
    unsound steps."""
    name, index, timeout, forcing = task
    entry = collection(name)[index]
    puzzle, solution = entry.puzzle, entry.solution
    solver = LogicSolver(techniques=WITHOUT_FORCING, explain=True)
    start = time.process_time()
    result = solver.solve(puzzle, timeout=timeout)
    cpu = time.process_time() - start
    unsound = 0
    if solution is not None:
        cells = {puzzle.rules.cell_name(cell): cell for cell in puzzle.rules.cells}
        for step in result.details.get("steps", ()):
            unsound += any(solution[cells[c]] != d for c, d in step["placements"])
            unsound += any(solution[cells[c]] == d for c, d in step["eliminations"])
    record: dict[str, Any] = {
        "collection": name,
        "id": entry.id,
        "status": result.status.value,
        "solved": bool(result.solutions),
        "cpu_s": cpu,
        "steps": int(result.counters.get("steps", 0)),
        "used": sorted(k for k in WITHOUT_FORCING if result.counters.get(k)),
        "unsound": unsound,
    }
    if not result.solutions:
        record["left"] = sum(1 for v in (result.partial or puzzle).values if not v)
    if forcing:
        start = time.process_time()
        full = LogicSolver(techniques=WITH_FORCING, explain=False).solve(puzzle, timeout=timeout)
        record["forcing_solved"] = bool(full.solutions)
        record["forcing_cpu_s"] = time.process_time() - start
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="the first K of each (0: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per solve")
    parser.add_argument("--collections", help="comma-separated names (default: every one)")
    parser.add_argument("--forcing", action="store_true", help="also solve with forcing")
    parser.add_argument("--json", metavar="PATH", help="write one record per puzzle")
    parser.add_argument("--compare", metavar="PATH", help="an earlier --json file")
    args = parser.parse_args()
    names = args.collections.split(",") if args.collections else list(variant_collections())
    tasks = []
    for name in names:
        count = len(load(name))
        tasks += [
            (name, i, args.timeout, args.forcing)
            for i in range(min(count, args.sample) if args.sample else count)
        ]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}; {len(tasks)} puzzles")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        records = list(pool.map(solve, tasks, chunksize=1))
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=0) + "\n")
    before: dict[str, list[dict[str, Any]]] = defaultdict(list)
    if args.compare:
        for record in json.loads(Path(args.compare).read_text()):
            before[record["collection"]].append(record)
    by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_name[record["collection"]].append(record)
    keys = VARIANT_KEYS
    header = "| collection | puzzles | solved without forcing |"
    header += " before |" if args.compare else ""
    header += " with forcing |" if args.forcing else ""
    header += " gave up | timed out | CPU per puzzle: median, max | unsound | techniques used |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    totals: Counter[str] = Counter()
    for name in names:
        group = by_name[name]
        n = len(group)
        solved = sum(r["solved"] for r in group)
        totals["puzzles"] += n
        totals["solved"] += solved
        cpu = [r["cpu_s"] for r in group]
        used: Counter[str] = Counter(k for r in group if r["solved"] for k in r["used"])
        row = f"| {name} | {n} | {solved} ({solved / n:.0%}) |"
        if args.compare:
            ids = {r["id"] for r in group}
            old = [r for r in before[name] if r["id"] in ids]
            was = sum(r["solved"] for r in old)
            totals["before"] += was
            row += f" {was} of {len(old)} |"
        if args.forcing:
            forced = sum(r.get("forcing_solved", False) for r in group)
            totals["forcing"] += forced
            row += f" {forced} |"
        gave_up = sum(r["status"] == Status.GAVE_UP.value for r in group)
        timed_out = sum(r["status"] == Status.TIMEOUT.value for r in group)
        unsound = sum(r["unsound"] for r in group)
        totals["unsound"] += unsound
        techniques = ", ".join(f"{k} {used[k]}" for k in keys if used[k]) or "-"
        row += (
            f" {gave_up} | {timed_out} | {statistics.median(cpu):.3f} s, {max(cpu):.2f} s |"
            f" {unsound} | {techniques} |"
        )
        print(row)
    total = totals["puzzles"]
    print(
        f"\nall: {totals['solved']} of {total} solved without forcing "
        f"({totals['solved'] / max(total, 1):.1%})"
        + (f", {totals['before']} before" if args.compare else "")
        + (f", {totals['forcing']} with forcing" if args.forcing else "")
        + f"; unsound steps {totals['unsound']}"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
