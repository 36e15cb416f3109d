"""The logic back-end's must-show figures: coverage, rating distribution, time per puzzle,
soundness, and the generator's hard puzzles.

    PYTHONPATH=. python benchmarks/bench_logic.py [--top1465 PATH] [--skip-generator]
        [--sets easy50,top95,hardest,top1465,forum-hardest] [--generated K]
        [--forum-hardest N] [--no-plain]

Coverage is the share of puzzles the logic solver finishes without guessing, with every
technique and again without the forcing chains and nets (the last resort). Every step of
every run is replayed against the true solution (found by `propagating`): a step that removes
a true digit or places a wrong one is counted as unsound. Sets: easy50, top95, hardest,
a 300-puzzle sample of magictour's top1465 (`random.Random(0)`, read from the shared data
folder, or `--top1465`), and the first 100 of forum-hardest (`--forum-hardest 300 --no-plain`
for the soundness figure on 300, without the second run). The generator part makes 20
hard 9x9 puzzles with seed 1 and checks each: 60 empty cells, unique by `propagating` and
`dlx`, rated hard or above; it reports the time per puzzle. Times are wall-clock, then the
process's CPU time (what other programs on a loaded machine do not inflate), with the load
average at the start and the end.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from sudoku_bench.harness.generating.generator import Generator
from sudoku_bench.harness.generating.rating import HARD_LEVELS, rating_of
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import read_file
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.techniques import TECHNIQUES
from sudoku_bench.solvers.registry import create

SETS = ("easy50", "top95", "hardest", "top1465", "forum-hardest")
TOP1465 = ("../shared/data/top1465.txt", "/work/shared/data/top1465.txt")


def top1465_sample(path: str | None) -> list[Grid]:
    candidates = [path] if path else list(TOP1465)
    for name in candidates:
        if name and Path(name).exists():
            puzzles = [entry.puzzle for entry in read_file(Path(name))]
            return random.Random(0).sample(puzzles, 300)
    return []


def measure(name: str, puzzles: list[Grid], plain: bool = True) -> None:
    """One run per puzzle with every default technique, timed, its steps replayed against
    the true solution; with `plain`, another without the forcing chains and nets."""
    truth = create("propagating")
    without_forcing = LogicSolver(
        [t.key for t in TECHNIQUES if t.default and t.level != "extreme"], explain=False
    )
    solver = LogicSolver()  # its step records are replayed: one run per puzzle
    times: list[float] = []
    cpu_times: list[float] = []  # the process's own time: what the load of others does not add
    ratings: Counter[str] = Counter()
    unsound = solved = solved_plain = 0
    estimates = []
    for puzzle in puzzles:
        solution = truth.solve(puzzle).solutions[0]
        cells = {puzzle.rules.cell_name(cell): cell for cell in puzzle.rules.cells}
        start, cpu_start = time.perf_counter(), time.process_time()
        result = solver.solve(puzzle)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
        rating = rating_of(result)
        ratings[rating.label] += 1
        if rating.estimate is not None:
            estimates.append(rating.estimate)
        solved += bool(result.solutions)
        if plain:
            solved_plain += bool(without_forcing.solve(puzzle).solutions)
        for step in result.details["steps"]:  # each step, replayed against the solution
            wrong = any(solution[cells[c]] != d for c, d in step["placements"]) or any(
                solution[cells[c]] == d for c, d in step["eliminations"]
            )
            unsound += wrong
    n = len(puzzles)
    print(
        f"{name:14s} {n:4d} puzzles: solved by logic {solved / n:6.1%} "
        f"(without forcing chains/nets {f'{solved_plain / n:6.1%}' if plain else 'not run'}); "
        f"time median "
        f"{statistics.median(times) * 1000:7.1f} ms, max {max(times):6.2f} s, "
        f"over 5 s: {sum(t > 5 for t in times)}; unsound steps: {unsound}"
    )
    print(
        f"{'':14s} CPU time: median {statistics.median(cpu_times) * 1000:7.1f} ms, max "
        f"{max(cpu_times):6.2f} s, over 5 s: {sum(t > 5 for t in cpu_times)}"
    )
    print(f"{'':14s} ratings: " + ", ".join(f"{k} {v}" for k, v in ratings.most_common()))
    if estimates:
        print(
            f"{'':14s} estimate: median {statistics.median(estimates):.1f}, "
            f"max {max(estimates):.1f}"
        )


def generator_figures(count: int) -> None:
    nine = Rules.of_size(9)
    generator = Generator(nine, "hard", seed=1)
    made = generator.generate(count)
    checkers = [create("propagating"), create("dlx")]
    unique = all(
        c.solve(m.puzzle, limit=2).verdict == "unique"
        and c.solve(m.puzzle).solutions == [m.solution]
        for m in made
        for c in checkers
    )
    empties = Counter(m.empty for m in made)
    labels = Counter(m.rating.label for m in made)
    seconds = [m.seconds for m in made]
    hard_or_above = sum(m.rating.label in HARD_LEVELS for m in made)
    print(
        f"generator: {count} hard 9x9, seed 1: empty cells {dict(sorted(empties.items()))}; "
        f"unique by propagating and dlx: {unique}; rated hard or above: {hard_or_above}/{count} "
        f"({', '.join(f'{k} {v}' for k, v in labels.most_common())}); time per puzzle median "
        f"{statistics.median(seconds):.1f} s, slowest {max(seconds):.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top1465", metavar="PATH", help="magictour top1465 (one per line)")
    parser.add_argument("--skip-generator", action="store_true")
    parser.add_argument("--generated", type=int, default=20, metavar="K")
    parser.add_argument(
        "--forum-hardest", type=int, default=100, metavar="N", help="the first N (default 100)"
    )
    parser.add_argument(
        "--no-plain",
        action="store_true",
        help="skip the second run without forcing chains and nets (for soundness runs)",
    )
    parser.add_argument(
        "--sets",
        default=",".join(SETS),
        metavar="NAMES",
        help=f"comma-separated, of {', '.join(SETS)}; empty for none (default: all)",
    )
    args = parser.parse_args()
    wanted = [name for name in args.sets.split(",") if name]
    unknown = set(wanted) - set(SETS)
    if unknown:
        parser.error(f"unknown set(s) {', '.join(sorted(unknown))}; known: {', '.join(SETS)}")
    sets = [
        ("easy50", [e.puzzle for e in load("easy50")]),
        ("top95", [e.puzzle for e in load("top95")]),
        ("hardest", [e.puzzle for e in load("hardest")]),
    ]
    if "top1465" in wanted:
        sample = top1465_sample(args.top1465)
        if sample:
            sets.append(("top1465", sample))
        else:
            print("top1465 not found: pass --top1465 PATH")
    forum = [e.puzzle for e in load("forum-hardest")[: args.forum_hardest]]
    sets.append(("forum-hardest", forum))
    print(f"load average at start: {_load()}")  # the timings depend on what else runs
    for name, puzzles in sets:
        if name in wanted:
            measure(name if name != "top1465" else "top1465 (300)", puzzles, not args.no_plain)
    if not args.skip_generator:
        generator_figures(args.generated)
    print(f"load average at end: {_load()}")


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg()) + f" ({os.cpu_count()} cores)"


if __name__ == "__main__":
    main()
