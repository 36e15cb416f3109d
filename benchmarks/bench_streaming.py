"""`solve FILE` of a very large file: wall time, CPU time and peak memory of the command and
of every process it starts (its workers, the fork server), at two file lengths, to show
that memory does not grow with the file (`solve` streams it).

The files repeat the bundled 17-clue sample (1,000 puzzles) to the lengths asked for, in a
temporary folder (`--folder`, default /tmp). Each process's CPU time and high-water
resident memory (VmHWM) are read from /proc every few milliseconds while it runs.

    PYTHONPATH=. python benchmarks/bench_streaming.py [--lines 100000 1000000]
        [-s propagating-jit [bitboard-jit ...]] [--checkout NAME=PATH ...] [--repeats 1]
        [--folder /tmp]

Several back-ends (`-s A B`) and checkouts (`--checkout before=/tmp/before`: that tree's code
runs the command, e.g. the project before a change, exported with `git archive COMMIT | tar
-x -C /tmp/before`) are measured on the same file in turn, `--repeats` rounds of all of them
alternating. The command runs with its checkout as working directory and on PYTHONPATH, so
`python -m sudoku_bench.harness` is that checkout's; this tree is `--checkout` "this".
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from tabulate import tabulate

from sudoku_bench.puzzles.collections import load

TICKS = os.sysconf("SC_CLK_TCK")


def puzzle_file(folder: Path, lines: int) -> Path:
    """The 17-clue sample repeated to `lines` lines (made once, kept for later runs)."""
    path = folder / f"sudoku-bench-17clue-{lines}.txt"
    if not path.exists() or sum(1 for _ in path.open()) != lines:
        sample = [entry.puzzle.to_line() for entry in load("17clue")]
        with path.open("w") as out:
            for number in range(lines):
                out.write(sample[number % len(sample)] + "\n")
    return path


def descendants(root: int) -> set[int]:
    """`root` and every process below it."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found.update(children)
        frontier += children
    return found


def sample(pid: int) -> tuple[float, float] | None:
    """CPU seconds and peak resident MB of a running process, or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    peak = next(
        (int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmHWM")),
        0.0,
    )
    return (int(stat[11]) + int(stat[12])) / TICKS, peak


THIS_CHECKOUT = Path(__file__).resolve().parents[1]


def measured_solve(path: Path, solver: str, checkout: Path = THIS_CHECKOUT) -> dict[str, float]:
    """Run `solve FILE --line` with `checkout`'s code, output to /dev/null; its wall, CPU
    and peak memory."""
    seen: dict[int, tuple[float, float]] = {}
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "sudoku_bench.harness", "solve", str(path), "-s", solver, "--line"],
            stdout=sink,
            stderr=subprocess.PIPE,
            cwd=checkout,
            env=environment,
        )
        while process.poll() is None:
            for pid in descendants(process.pid):
                figures = sample(pid)
                if figures is not None:  # a process that has ended shows no VmHWM: keep maxima
                    cpu, peak = seen.get(pid, (0.0, 0.0))
                    seen[pid] = (max(cpu, figures[0]), max(peak, figures[1]))
            time.sleep(0.02)
        wall = time.perf_counter() - start
        error = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"solve failed ({process.returncode}): {error.strip()}")
    command = seen.get(process.pid, (0.0, 0.0))
    others = [figures for pid, figures in seen.items() if pid != process.pid]
    return {
        "wall": wall,
        "cpu": sum(cpu for cpu, _ in seen.values()),
        "command_cpu": command[0],
        "command_mb": command[1],
        "largest_other_mb": max((peak for _, peak in others), default=0.0),
    }


def checkout_of(text: str) -> tuple[str, Path]:
    """`NAME=PATH` of `--checkout`."""
    name, equals, path = text.partition("=")
    if not equals or not name or not (Path(path) / "sudoku_bench" / "harness").is_dir():
        raise argparse.ArgumentTypeError(f"expected NAME=PATH of a project checkout, got {text!r}")
    return name, Path(path).resolve()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("-s", "--solver", nargs="+", default=["propagating-jit"])
    parser.add_argument("--checkout", type=checkout_of, action="append", default=[])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--folder", type=Path, default=Path("/tmp"))
    args = parser.parse_args()
    checkouts = [("this", THIS_CHECKOUT), *args.checkout]
    load_before = os.getloadavg()[0]
    rows = []
    for lines in args.lines:
        path = puzzle_file(args.folder, lines)
        for _ in range(args.repeats):
            for solver in args.solver:
                for name, checkout in checkouts:
                    figures = measured_solve(path, solver, checkout)
                    rows.append(
                        [
                            lines,
                            solver,
                            name,
                            figures["wall"],
                            figures["cpu"],
                            figures["cpu"] / lines * 1e6,
                            figures["command_cpu"],
                            figures["command_mb"],
                            figures["largest_other_mb"],
                        ]
                    )
    print(
        f"solve FILE -s SOLVER --line; load average (1 min) before/after: "
        f"{load_before:.2f}/{os.getloadavg()[0]:.2f}, {os.cpu_count()} cores"
    )
    print(
        tabulate(
            rows,
            headers=[
                "puzzles",
                "back-end",
                "checkout",
                "wall s",
                "CPU s (all processes)",
                "CPU µs/puzzle",
                "CPU s: command",
                "peak RSS MB: command",
                "peak RSS MB: worker",
            ],
            floatfmt=".1f",
        )
    )


if __name__ == "__main__":
    main()
