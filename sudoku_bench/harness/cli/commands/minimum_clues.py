"""`sudoku-bench minimum-clues GRID`: prove that a 9x9 grid has no 16-clue puzzle, and find its
17-clue puzzles (unavoidable sets and hitting sets, after McGuire, Tugemann and Civario 2012)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.puzzles.errors import SudokuBenchError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "minimum-clues",
        help="prove a 9x9 grid has no 16-clue puzzle and find its 17-clue ones (McGuire et al.)",
        description="For one complete 9x9 grid: collect its unavoidable sets (cells whose digits "
        "can be rearranged into another grid), then search every clue set of k cells that meets "
        "all of them, testing each for a unique solution with the compiled bitboard engine "
        "(numba). No unique clue set found proves the grid has no puzzle of k clues (nor fewer). "
        "By default k = 16, then 17, stopping at the first puzzle found; GRID is 81 digits, or a "
        "puzzle line with one solution (solved for its grid). Progress goes to stderr; with "
        "--state FILE the search keeps its progress there after every task, and --resume "
        "continues from it. Expect minutes of CPU per grid.",
    )
    parser.add_argument(
        "grid", metavar="GRID", help="a complete grid or a unique puzzle (81 cells)"
    )
    parser.add_argument(
        "--clues",
        default="16,17",
        metavar="K[,K...]",
        help="the clue counts to search, in order (default 16,17)",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="list every unique clue set of each k instead of stopping at the first",
    )
    parser.add_argument(
        "--require",
        default="",
        metavar="CELLS",
        help="cells (0-80, comma-separated) every clue set must contain: a bounded search",
    )
    parser.add_argument("--state", type=Path, metavar="FILE", help="keep the progress in FILE")
    parser.add_argument(
        "--resume", action="store_true", help="continue the search kept in --state FILE"
    )
    parser.add_argument("--json", action="store_true", help="the result as one JSON object")
    parser.set_defaults(run=run)


def _numbers(text: str, what: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SudokuBenchError(
            f"{what} is a comma-separated list of numbers, not {text!r}"
        ) from None


def run(args: argparse.Namespace) -> int:
    from sudoku_bench.harness.generating.minimum_clues import grid_of_puzzle, minimum_clues

    clues = _numbers(args.clues, "--clues")
    required = _numbers(args.require, "--require")
    if any(not 0 <= cell < 81 for cell in required):
        raise SudokuBenchError("--require cells are numbered 0-80 (row-major)")
    if args.resume and args.state is None:
        raise SudokuBenchError("--resume needs --state FILE, the file of the run to continue")
    text = args.grid
    if Path(text).is_file():
        text = Path(text).read_text(encoding="utf-8").split("\n", 1)[0]
    values = grid_of_puzzle(text)

    def progress(k: int, done: int, tasks: int, cpu: float) -> None:
        print(f"{k} clues: task {done}/{tasks}, {cpu:.1f} CPU s", file=sys.stderr, flush=True)

    found = minimum_clues(
        values,
        clues=clues,
        first_only=not args.all,
        required=required,
        state_path=args.state,
        resume=args.resume,
        progress=progress,
    )
    if args.json:
        print_json(
            {
                "grid": found.grid,
                "unavoidable_sets": found.unavoidable_sets,
                "set_sizes": {str(size): count for size, count in found.smallest_sets.items()},
                "collect_cpu_s": round(found.collect_cpu_s, 3),
                "cpu_s": round(found.cpu_s, 3),
                "stages": [
                    {
                        "clues": stage.clues,
                        "puzzles": list(stage.puzzles),
                        "exhaustive": stage.exhaustive,
                        "proven_none": stage.proven_none,
                        "tasks": stage.tasks,
                        "nodes": stage.nodes,
                        "tests": stage.tests,
                        "added_sets": stage.added_sets,
                        "cpu_s": round(stage.cpu_s, 3),
                    }
                    for stage in found.stages
                ],
            }
        )
        return 0
    print(f"grid: {found.grid}")
    sizes = ", ".join(f"{count} of {size}" for size, count in found.smallest_sets.items())
    print(
        f"unavoidable sets collected: {found.unavoidable_sets} ({sizes} cells), "
        f"{found.collect_cpu_s:.1f} CPU s"
    )
    for stage in found.stages:
        if stage.proven_none:
            verdict = f"none: no puzzle of {stage.clues} clues or fewer (exhaustive search)"
            if required:
                verdict += " among the clue sets that hold the --require cells"
        elif stage.puzzles:
            verdict = f"{len(stage.puzzles)} found" + (
                "" if stage.exhaustive else " (stopped at the first)"
            )
        else:
            verdict = "not finished (resume with --state FILE --resume)"
        print(
            f"{stage.clues} clues: {verdict}; {stage.nodes} nodes, {stage.tests} uniqueness "
            f"tests, {stage.added_sets} sets learnt, {stage.cpu_s:.1f} CPU s"
        )
        for puzzle in stage.puzzles:
            print(f"  {puzzle}")
    print(f"CPU time: {found.cpu_s:.1f} s")
    return 0
