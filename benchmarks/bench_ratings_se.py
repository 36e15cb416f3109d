"""The logic rating against Sudoku Explainer's, before and after SE-style forcing ratings.

    PYTHONPATH=. python benchmarks/bench_ratings_se.py [--forum-hardest N] [--jobs 2]

Rates, with the logic back-end under the `difficulty` experiment's step budget, every puzzle
of that experiment's design (easy50, top95, hardest, its 100 17-clue puzzles) and N puzzles
of forum-hardest evenly spread (100 by default, as the experiment; SE rates them all above
11). Against the SE ratings bundled in `sudoku_bench/puzzles/data/se-ratings.csv` it prints Spearman's rho
per set and overall, twice: with today's rating, and with the rating as it was before forcing
steps were rated by their size (the techniques' fixed weights: forcing chains 8.3, forcing
nets 9.0, nested nets 9.5, beyond logic 10.0), computed from the same runs. It also prints
how far the forum-hardest ratings spread. The figures count steps, not time: the load does
not move them.
"""

from __future__ import annotations

import argparse
import os
import statistics
from concurrent.futures import ProcessPoolExecutor

from sudoku_bench.harness.analysing.correlation import spearman
from sudoku_bench.harness.experiments.base import picked
from sudoku_bench.harness.experiments.difficulty import (
    FULL_COUNTS,
    HARDEST_SET,
    RATING_STEP_BUDGET,
    SETS,
    se_ratings,
)
from sudoku_bench.harness.generating.rating import rating_from
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.techniques import BY_KEY

# the weights the forcing techniques had before SE-style ratings, and the old "beyond" value
OLD_WEIGHTS = {"forcing_chain": 8.3, "forcing_net": 9.0, "nested_forcing_net": 9.5}
OLD_BEYOND = 10.0


def rated(line: str) -> tuple[float | None, float | None]:
    """(today's estimate, the estimate before SE-style forcing ratings) of one puzzle."""
    result = LogicSolver(explain=False).solve(Grid.from_string(line), node_limit=RATING_STEP_BUDGET)
    counters = dict(result.counters)
    now = rating_from(result.status, counters)
    if now.estimate is None:
        return None, None
    if now.label == "beyond logic":
        return now.estimate, OLD_BEYOND
    # before: the hardest technique's fixed weight, the forcing ones at their old values
    old = (
        max(OLD_WEIGHTS.get(key, BY_KEY[key].weight) for key in BY_KEY if counters.get(key))
        if any(counters.get(key) for key in BY_KEY)
        else BY_KEY["naked_single"].weight
    )
    return now.estimate, old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forum-hardest", type=int, default=100, metavar="N")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    entries, _ = picked([*((name, FULL_COUNTS[name]) for name in SETS),
                         (HARDEST_SET, args.forum_hardest)])  # fmt: skip
    published = se_ratings()
    lines = [entry.puzzle.to_line().replace("0", ".") for entry in entries]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(rated, lines, chunksize=2))
    by_set: dict[str, list[tuple[float, float, float | None]]] = {}
    for entry, line, (now, old) in zip(entries, lines, results, strict=True):
        if now is None or old is None:
            continue
        by_set.setdefault(entry.id.split(":")[0], []).append((now, old, published.get(line)))
    everyone = [item for items in by_set.values() for item in items]
    for name, items in [*by_set.items(), ("all", everyone)]:
        with_se = [(n, o, e) for n, o, e in items if e is not None]
        words = f"{name:14s} {len(items):4d} rated"
        if len(with_se) > 2:
            now_rho = spearman([n for n, _, _ in with_se], [e for _, _, e in with_se]).rho
            old_rho = spearman([o for _, o, _ in with_se], [e for _, _, e in with_se]).rho
            same = sum(abs(n - e) <= 0.05 for n, _, e in with_se)
            words += (
                f", {len(with_se)} with SE: rho now {now_rho:.3f}, before {old_rho:.3f}; "
                f"same value as SE {same}"
            )
        print(words)
    hardest = sorted(n for n, _, _ in by_set.get(HARDEST_SET, []))
    old_hardest = sorted(o for _, o, _ in by_set.get(HARDEST_SET, []))
    if hardest:
        print(
            f"{HARDEST_SET}: now {len(set(hardest))} distinct values, {hardest[0]:.1f} to "
            f"{hardest[-1]:.1f}, median {statistics.median(hardest):.1f}, above 11: "
            f"{sum(v > 11 for v in hardest)}/{len(hardest)}; before: "
            f"{len(set(old_hardest))} distinct value(s) {sorted(set(old_hardest))}"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
