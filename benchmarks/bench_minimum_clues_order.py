"""Where the 17-clue task that holds Royle's puzzle comes, in the split's order and in the run order.

    PYTHONPATH=. python benchmarks/bench_minimum_clues_order.py            # every 50th line of the list

For each chosen line of the bundled 17-clue collection (Royle's list) the puzzle is solved for
its grid, the grid's unavoidable sets are collected, and the 17-clue search's tasks are made
as `minimum-clues` makes them: `split` (the first two levels, lowest cell first) and `ordered`
(most constrained first, the order they run in). One JSON line per grid gives the position of
the task whose clue sets hold the list's puzzle in each order; the last line, the mean of the
positions as a fraction of the tasks. Only the sets are collected (seconds per grid): no search
is run, so this says where the puzzle lies, not how long the tasks before it take.
"""

from __future__ import annotations

import argparse
import json

from sudoku_bench.harness.generating import minimum_clues as search
from sudoku_bench.puzzles.collections import load

CLUES = 17


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", help="default: every 50th line")
    args = parser.parse_args()
    entries = load("17clue")
    lines = args.lines or list(range(0, len(entries), 50))
    fractions: dict[str, list[float]] = {"split": [], "ordered": []}
    for line in lines:
        puzzle = entries[line].puzzle.to_line()
        sets = search.unavoidable_sets(search.grid_of_puzzle(puzzle))
        known = search.mask_of(cell for cell, ch in enumerate(puzzle) if ch not in ".0")
        tasks = search.split(sets, 0, 0, 0, CLUES, search.TASK_DEPTH)
        holding = next(t for t in tasks if t[0] & known == t[0] and not t[1] & known)
        positions = {
            "split": tasks.index(holding),
            "ordered": search.ordered(sets, tasks).index(holding),
        }
        for name, position in positions.items():
            fractions[name].append(position / len(tasks))
        print(json.dumps({"line": line, "tasks": len(tasks), **positions}), flush=True)
    summary = {name: round(sum(v) / len(v), 3) for name, v in fractions.items()}
    earlier = sum(o < s for s, o in zip(fractions["split"], fractions["ordered"], strict=True))
    later = sum(o > s for s, o in zip(fractions["split"], fractions["ordered"], strict=True))
    print(
        json.dumps(
            {"grids": len(lines), "mean_fraction": summary, "earlier": earlier, "later": later}
        )
    )


if __name__ == "__main__":
    main()
