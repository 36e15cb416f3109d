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

from sudoku_bench.harness.generating.minimum_clues import grid_of_puzzle, minimum_clues
from sudoku_bench.puzzles.collections import load

PAPER_CPU_S = 7.1e6 * 3600 / 5_472_730_538  # core-seconds per grid, from the paper's totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[0, 400, 800])
    parser.add_argument("--state-dir", type=Path, default=None)
    parser.add_argument(
        "--known-task",
        action="store_true",
        help="with --state-dir: run only the 17-clue task that holds the list's puzzle, with "
        "the sets the grid's state file has learnt (the time to find it, not a whole stage)",
    )
    args = parser.parse_args()
    if args.known_task:
        for line in args.lines:
            known_task(line, args.state_dir)
        return
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
            "nodes_17": seventeen.nodes if seventeen else None,
            "tests_17": seventeen.tests if seventeen else None,
            # tasks of the 17-clue stage run (the last one holds the puzzle found), of all
            "tasks_17_run": _tasks_run(state, 17) if state is not None else None,
            "tasks_17": seventeen.tasks if seventeen else None,
            "paper_cpu_s": round(PAPER_CPU_S, 2),
            # the paper's figure is for the 16-clue proof: collecting the sets and the search
            "ratio_16_to_paper": round(
                (found.collect_cpu_s + (sixteen.cpu_s if sixteen else 0.0)) / PAPER_CPU_S, 1
            ),
            "ratio_to_paper": round(found.cpu_s / PAPER_CPU_S, 1),
            "wall_s": round(time.time() - started, 1),
            "load_before": load_before,
            "load_after": os.getloadavg(),
        }
        print(json.dumps(record), flush=True)


def _tasks_run(state_path: Path, clues: int) -> int:
    from sudoku_bench.harness.generating.minimum_clues import State

    stage = next(stage for stage in State.load(state_path).stages if stage.clues == clues)
    return stage.done


def known_task(line: int, state_dir: Path) -> None:
    """The 17-clue task (clues, dead cells) whose clue sets include the list's puzzle: its
    search, timed alone, says how long finding that puzzle takes once the search gets there."""
    import numpy as np

    from sudoku_bench.harness.generating import minimum_clues as search
    from sudoku_bench.harness.generating import minimum_clues_kernel as compiled

    puzzle = load("17clue")[line].puzzle.to_line()
    state = search.State.load(state_dir / f"grid-{line}.json")
    known = search.mask_of(c for c, ch in enumerate(puzzle) if ch not in ".0")
    stage = next(stage for stage in state.stages if stage.clues == 17)
    index, (clue_hex, dead_hex, placed) = next(
        (i, task)
        for i, task in enumerate(stage.tasks)
        if int(task[0], 16) & known == int(task[0], 16) and not int(task[1], 16) & known
    )
    sets = [int(s, 16) for s in state.sets]
    table = search._array(sets, len(sets) + search.LEARNT_ROOM)
    stats = np.zeros(compiled.STATISTICS, dtype=np.int64)
    stats[compiled.SETS] = len(sets)
    stats[compiled.STOP_AT_FIRST] = 1
    found = np.zeros((16, 2), dtype=np.int64)
    grid = np.array([int(ch) for ch in state.grid], dtype=np.uint8)
    started = time.process_time()
    _, table = compiled.hitting_search(
        grid, table, stats, *search._words(int(clue_hex, 16)), *search._words(int(dead_hex, 16)),
        int(placed), 17, found,
    )  # fmt: skip
    spent = time.process_time() - started
    first = search._mask(*found[0]) if stats[compiled.FOUND] else None
    record = {
        "line": line,
        "task": index,
        "tasks": len(stage.tasks),
        "found_known": first == known,
        "cpu_s": round(spent, 1),
        "nodes": int(stats[compiled.NODES]),
        "tests": int(stats[compiled.TESTS]),
        "sets_learnt": int(stats[compiled.ADDED]),
        "load": os.getloadavg(),
    }
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
