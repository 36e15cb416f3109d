"""CPU seconds per grid of `minimum-clues`, beside McGuire, Tugemann and Civario's 4.7.

    PYTHONPATH=. python benchmarks/bench_minimum_clues.py                 # lines 0 400 800
    PYTHONPATH=. python benchmarks/bench_minimum_clues.py --lines 5 --state-dir /tmp/mc

For each chosen line of the bundled 17-clue collection (Royle's list), the puzzle is solved
for its grid and the grid is searched: the 16-clue search must end with no puzzle (a proof),
and the 17-clue search (stopped at its first puzzle) must find the collection's puzzle. One
JSON line per grid: the CPU seconds of collecting the unavoidable sets and of each search
(`time.process_time`, so another process's load slows the clock less than the wall), the
nodes, the uniqueness tests, and the load average before and after. With --state-dir each
grid keeps its progress in a file there and a second start resumes it.

The paper's figure: 7.1 million core-hours for the 5,472,730,538 essentially different grids,
about 4.7 core-seconds per grid, in C on 2011-12 cluster cores (McGuire, Tugemann, Civario,
arXiv:1201.0749, section 1 and the abstract).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from harness.generating.minimum_clues import grid_of_puzzle, minimum_clues
from puzzles.collections import load

PAPER_CPU_S = 7.1e6 * 3600 / 5_472_730_538  # core-seconds per grid, from the paper's totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[0, 400, 800])
    parser.add_argument("--state-dir", type=Path, default=None)
    args = parser.parse_args()
    entries = load("17clue")
    for line in args.lines:
        puzzle = entries[line].puzzle.to_line()
        state = None
        if args.state_dir is not None:
            args.state_dir.mkdir(parents=True, exist_ok=True)
            state = args.state_dir / f"grid-{line}.json"
        load_before = os.getloadavg()
        started = time.time()
        found = minimum_clues(
            grid_of_puzzle(puzzle),
            clues=(16, 17),
            state_path=state,
            resume=state is not None and state.exists(),
        )
        stages = {stage.clues: stage for stage in found.stages}
        sixteen, seventeen = stages.get(16), stages.get(17)
        record = {
            "line": line,
            "puzzle": puzzle,
            "no_16": bool(sixteen and sixteen.proven_none),
            "found_17": bool(seventeen and puzzle in seventeen.puzzles),
            "collect_cpu_s": round(found.collect_cpu_s, 1),
            "cpu_s_16": round(sixteen.cpu_s, 1) if sixteen else None,
            "cpu_s_17": round(seventeen.cpu_s, 1) if seventeen else None,
            "cpu_s": round(found.cpu_s, 1),
            "nodes_16": sixteen.nodes if sixteen else None,
            "tests_16": sixteen.tests if sixteen else None,
            "paper_cpu_s": round(PAPER_CPU_S, 2),
            "ratio_to_paper": round(found.cpu_s / PAPER_CPU_S, 1),
            "wall_s": round(time.time() - started, 1),
            "load_before": load_before,
            "load_after": os.getloadavg(),
        }
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
