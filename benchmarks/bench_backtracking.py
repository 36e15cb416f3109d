"""The two backtracking back-ends against Norvig's constraint-propagation solver, in one run.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_backtracking.py

Goal (issue 2): `propagating` at least twice as fast as Norvig's solver on top95 on the
same machine. Both find the first solution (limit 1). Every grid either returns is checked
with the independent rule checker. Also timed: `propagating` on forum-hardest and the
faithful `backtracking` on easy50 (the seeds' algorithm; expect tens of seconds).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from typing import Literal

from tabulate import tabulate

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.registry import create

# ----- Norvig's solver -----------------------------------------------------------------------
# A faithful Python 3 port of https://norvig.com/sudoku.html ("Solving Every Sudoku Puzzle"):
# the same dictionaries of strings, assign/eliminate, and search on the square with the fewest
# possible values. Only print statements and Python 2 idioms changed; type hints added.

Values = dict[str, str]
MaybeValues = Values | Literal[False]


def cross(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """Cross product of elements in A and elements in B."""
    return [x + y for x in a for y in b]


digits = "123456789"
rows = "ABCDEFGHI"
cols = digits
squares = cross(rows, cols)
unitlist = (
    [cross(rows, c) for c in cols]
    + [cross(r, cols) for r in rows]
    + [cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")]
)
units = {s: [u for u in unitlist if s in u] for s in squares}
peers = {s: set(sum(units[s], [])) - {s} for s in squares}  # noqa: RUF017 (as Norvig wrote it)


def parse_grid(grid: str) -> MaybeValues:
    """Convert grid to a dict of possible values, {square: digits}, or
    return False if a contradiction is detected."""
    # To start, every square can be any digit; then assign values from the grid.
    values = {s: digits for s in squares}
    for s, d in grid_values(grid).items():
        if d in digits and not assign(values, s, d):
            return False  # (Fail if we can't assign d to square s.)
    return values


def grid_values(grid: str) -> dict[str, str]:
    """Convert grid into a dict of {square: char} with '0' or '.' for empties."""
    chars = [c for c in grid if c in digits or c in "0."]
    assert len(chars) == 81
    return dict(zip(squares, chars, strict=True))


def assign(values: Values, s: str, d: str) -> MaybeValues:
    """Eliminate all the other values (except d) from values[s] and propagate.
    Return values, except return False if a contradiction is detected."""
    other_values = values[s].replace(d, "")
    if all(eliminate(values, s, d2) for d2 in other_values):
        return values
    return False


def eliminate(values: Values, s: str, d: str) -> MaybeValues:
    """Eliminate d from values[s]; propagate when values or places <= 2.
    Return values, except return False if a contradiction is detected."""
    if d not in values[s]:
        return values  # Already eliminated
    values[s] = values[s].replace(d, "")
    # (1) If a square s is reduced to one value d2, then eliminate d2 from the peers.
    if len(values[s]) == 0:
        return False  # Contradiction: removed last value
    elif len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2) for s2 in peers[s]):
            return False
    # (2) If a unit u is reduced to only one place for a value d, then put it there.
    for u in units[s]:
        dplaces = [s for s in u if d in values[s]]
        if len(dplaces) == 0:
            return False  # Contradiction: no place for this value
        elif len(dplaces) == 1:  # noqa: SIM102 (as Norvig wrote it)
            # d can only be in one place in unit; assign it there
            if not assign(values, dplaces[0], d):
                return False
    return values


def solve(grid: str) -> MaybeValues:
    return search(parse_grid(grid))


def search(values: MaybeValues) -> MaybeValues:
    """Using depth-first search and propagation, try all possible values."""
    if values is False:
        return False  # Failed earlier
    if all(len(values[s]) == 1 for s in squares):
        return values  # Solved!
    # Chose the unfilled square s with the fewest possibilities
    _n, s = min((len(values[s]), s) for s in squares if len(values[s]) > 1)
    return some(search(assign(values.copy(), s, d)) for d in values[s])


def some(seq: Iterable[MaybeValues]) -> MaybeValues:
    """Return some element of seq that is true."""
    for e in seq:
        if e:
            return e
    return False


# ----- the measurements ----------------------------------------------------------------------


def norvig_solve(puzzle: Grid) -> Grid | None:
    values = solve(puzzle.to_line())
    if values is False:
        return None
    return Grid(puzzle.rules, tuple(int(values[s]) for s in squares))


def backend_solve(name: str) -> Callable[[Grid], Grid | None]:
    solver = create(name)

    def run(puzzle: Grid) -> Grid | None:
        result = solver.solve(puzzle, limit=1)
        return result.solutions[0] if result.solutions else None

    return run


def timed(solve_one: Callable[[Grid], Grid | None], puzzles: list[Grid]) -> list[float]:
    """Seconds per puzzle; stops the benchmark loudly if a returned grid is wrong."""
    seconds = []
    for puzzle in puzzles:
        start = time.perf_counter()
        grid = solve_one(puzzle)
        seconds.append(time.perf_counter() - start)
        if grid is None or not is_solution(puzzle, grid):
            sys.exit(f"WRONG: a solver returned no or a wrong solution for {puzzle.to_line()}")
    return seconds


def row(label: str, collection: str, seconds: list[float], reference: float | None) -> list[str]:
    total = sum(seconds)
    ratio = f"{reference / total:.2f}x" if reference else ""
    return [
        label,
        collection,
        str(len(seconds)),
        f"{statistics.median(seconds) * 1e3:.2f}",
        f"{max(seconds) * 1e3:.1f}",
        f"{total:.2f}",
        f"{len(seconds) / total:.0f}",
        ratio,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--skip-faithful", action="store_true", help="leave out backtracking on easy50 (slow)"
    )
    args = parser.parse_args()
    top95 = [entry.puzzle for entry in load("top95")]
    # warm up: the geometry's tables are built on first use
    backend_solve("propagating")(top95[0])

    norvig = timed(norvig_solve, top95)
    fast = timed(backend_solve("propagating"), top95)
    singles = timed(backend_solve("propagating-singles"), top95)
    table = [
        row("norvig (reference)", "top95", norvig, None),
        row("propagating", "top95", fast, sum(norvig)),
        row("propagating-singles", "top95", singles, sum(norvig)),
    ]
    forum = [entry.puzzle for entry in load("forum-hardest")]
    table.append(
        row("propagating", "forum-hardest", timed(backend_solve("propagating"), forum), None)
    )
    if not args.skip_faithful:
        easy = [entry.puzzle for entry in load("easy50")]
        table.append(
            row("backtracking", "easy50", timed(backend_solve("backtracking"), easy), None)
        )
    print(f"Python {platform.python_version()} on {platform.machine()}, first solution (limit 1)")
    headers = ["solver", "puzzles", "n", "median ms", "max ms", "total s", "puzzles/s", "vs norvig"]
    print(tabulate(table, headers=headers, disable_numparse=True, stralign="right"))


if __name__ == "__main__":
    main()
