"""Time outside the engine when `solve` and `count` run many puzzles in one call.

Each command runs as users run it (the `sudoku-bench` CLI in a subprocess, output to a file)
on one puzzle and on N (the bundled 17clue repeated to N lines), best of --repeat runs. Per
puzzle, the whole command costs (wall(N) - wall(1)) / (N - 1): start-up (imports, the
worker, loading the compiled code) is paid once and left out. Of that, the engine's part is
the mean of `build_s + solve_s` over the `--json` records of the same puzzles; the rest is
outside the engine: reading, the worker's bookkeeping, the pipes, the rule checker on every
grid, the output.

    PYTHONPATH=. python benchmarks/bench_overhead.py [-s propagating-jit] [-n 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

from sudoku_bench.puzzles.collections import load

COMMANDS = {
    "solve --line": ["solve", "--line"],
    "solve": ["solve"],
    "solve --json": ["solve", "--json"],
    "count": ["count"],
    "count --json": ["count", "--json"],
}


def cli(args: list[str], out: Path) -> float:
    """Wall seconds of one run of the CLI, its output to `out`."""
    start = time.perf_counter()
    with out.open("w") as stream:
        subprocess.run(
            [sys.executable, "-m", "sudoku_bench.harness", *args],
            stdout=stream,
            check=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        )
    return time.perf_counter() - start


def best(args: list[str], out: Path, repeat: int) -> float:
    return min(cli(args, out) for _ in range(repeat))


def engine_seconds(records: Path) -> float:
    """The engine's time per puzzle: the mean of build_s + solve_s of the JSON records."""
    times = [
        record["build_s"] + record["solve_s"]
        for record in map(json.loads, records.read_text().splitlines())
    ]
    return sum(times) / len(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-s", "--solver", default="propagating-jit")
    parser.add_argument("-n", "--puzzles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per command; the best counts")
    args = parser.parse_args()
    lines = [entry.puzzle.to_line() for entry in load("17clue")]
    print(f"load average before: {os.getloadavg()}")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        many, one, out = Path(folder, "many.txt"), Path(folder, "one.txt"), Path(folder, "out")
        many.write_text("".join(lines[i % len(lines)] + "\n" for i in range(args.puzzles)))
        one.write_text(lines[0] + "\n")
        for name, words in COMMANDS.items():
            command = [words[0], "-s", args.solver, *words[1:]]
            start_up = best([*command[:1], str(one), *command[1:]], out, args.repeat)
            whole = best([*command[:1], str(many), *command[1:]], out, args.repeat)
            per_puzzle = (whole - start_up) / (args.puzzles - 1)
            json_command = command if "--json" in command else [*command, "--json"]
            cli([*json_command[:1], str(many), *json_command[1:]], out)
            engine = engine_seconds(out)
            rows.append(
                [
                    name,
                    f"{start_up:.2f} s",
                    f"{whole:.2f} s",
                    f"{per_puzzle * 1e6:.1f}",
                    f"{engine * 1e6:.1f}",
                    f"{(per_puzzle - engine) * 1e6:.1f}",
                    f"{(per_puzzle - engine) / engine:.2f}",
                ]
            )
    print(f"\n{args.solver}, {args.puzzles:,} puzzles (17clue repeated), best of {args.repeat}")
    headers = [
        "command",
        "1 puzzle",
        f"{args.puzzles:,} puzzles",
        "µs/puzzle",
        "in engine",
        "outside",
        "outside / inside",
    ]
    print(tabulate(rows, headers=headers))
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
