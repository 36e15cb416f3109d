"""How fast the formats read a big collection: puzzles per second, per format.

Reads the full 17-clue list (49,158 puzzles; ../shared/data/sudoku17.txt when present,
otherwise the bundled 1,000-puzzle sample repeated to the same size), written in every format,
and compares with the time Python takes just to split the file into stripped lines.

    PYTHONPATH=. python benchmarks/formats_read.py [FILE]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from tabulate import tabulate

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.formats import FORMATS, ReadOptions, WriteOptions, read_file, write_text

# The shared data folder sits beside a checkout in this project's workspace; optional.
FULL = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku17.txt"


def best_of(repeats: int, task: Callable[[], object]) -> tuple[float, float]:
    """The best wall-clock and CPU seconds of `repeats` runs (CPU time suffers less when
    other processes share the machine)."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        task()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else FULL
    with tempfile.TemporaryDirectory() as folder:
        if not source.is_file():
            sample = load("17clue")
            source = Path(folder) / "17clue-x49.txt"
            source.write_text(write_text(sample * 49, "line"))
        entries = read_file(source)
        count = len(entries)

        def split_only() -> list[str]:
            with source.open(encoding="utf-8") as lines:
                return [line.strip() for line in lines]

        reference, reference_cpu = best_of(3, split_only)
        rows = [
            [
                "split into lines (reference)",
                count,
                reference,
                reference_cpu,
                count / reference,
                1.0,
            ]
        ]
        cases: list[tuple[str, Path, ReadOptions]] = [
            ("line", source, ReadOptions()),
            ("line, givens not checked", source, ReadOptions(check_givens=False)),
        ]
        for fmt in FORMATS.values():
            if fmt.name != "line":
                path = Path(folder) / f"all.{fmt.name}"
                path.write_text(fmt.write(entries, WriteOptions()))
                cases.append((fmt.name, path, ReadOptions()))
        for name, path, options in cases:
            # f-puzzles links: lz-string in pure Python takes minutes per run, so one run
            runs = 1 if name == "fpuzzles-url" else 3
            named = None if name.startswith("line") else name
            seconds, cpu = best_of(runs, partial(read_file, path, options, fmt=named))
            rows.append([name, count, seconds, cpu, count / seconds, seconds / reference])
    busy = os.getloadavg()[0]
    print(
        f"reading {count:,} 9x9 puzzles ({source.name}); best of 3 runs (fpuzzles-url: one); "
        f"load {busy:.1f}"
    )
    print(
        tabulate(
            rows,
            headers=["format", "puzzles", "seconds", "cpu s", "puzzles/s", "x reference"],
            floatfmt=("", "", ".3f", ".3f", ",.0f", ".1f"),
        )
    )


if __name__ == "__main__":
    main()
