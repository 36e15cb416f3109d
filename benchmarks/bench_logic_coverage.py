"""How much of a collection the logic back-end finishes without forcing chains and nets, with
and without its uniqueness techniques, and what HoDoKu's batch solver does on the same file.

    PYTHONPATH=. python benchmarks/bench_logic_coverage.py [--top1465 PATH] [--jobs 2]
        [--hodoku-output PATH]

Every puzzle of the file (magictour's top1465 from the shared data folder by default) is
solved by the logic back-end with every default technique but the forcing ones (level
extreme), and again with the uniqueness techniques added (HoDoKu applies its uniqueness tests
by default). It prints the share solved by each, the CPU seconds per puzzle of each run
(median, mean, max; the solver's own process time, so waiting on a loaded machine is not
counted), and on how many solved puzzles each technique of `COUNTED` made a step. The shares
count puzzles, so the load does not move them (the load average is printed all the same).

`--hodoku-output` reads the output of HoDoKu's batch solver on the same file, run with `/vp`
(every step printed), and prints the share whose solution path uses none of its forcing
chains, forcing nets or brute force (with HoDoKu's default settings the only steps beyond its
"unfair" ones that are enabled). HoDoKu's level is no verdict: a path of ordinary steps whose
score is high enough is also rated "Extreme". HoDoKu is not part of this project; to build it
from its source (github.com/PseudoFish/Hodoku) with a JDK and run it:

    javac --release 8 -encoding UTF-8 -d out $(find src -name '*.java')
    cp -r src/intl src/img out/
    java -Djava.awt.headless=true -cp out sudoku.Main /bs top1465.txt /vp

which writes `top1465.txt.out.txt`: per puzzle a line `PUZZLE #N LEVEL (SCORE)`, then one
line per step.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sudoku_bench.puzzles.formats import read_file
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.techniques import TECHNIQUES

TOP1465 = ("../shared/data/top1465.txt", "/work/shared/data/top1465.txt")
WITHOUT_FORCING = tuple(t.key for t in TECHNIQUES if t.default and t.level != "extreme")
WITH_UNIQUENESS = tuple(t.key for t in TECHNIQUES if t.level != "extreme")
# the techniques taken from HoDoKu's defaults, whose use is counted
COUNTED = (
    "als_xz", "als_xy_wing", "als_xy_chain", "sue_de_coq", "franken_x_wing",
    "franken_swordfish", "franken_jellyfish", "unique_rectangle", "hidden_rectangle",
    "bug_plus_one",
)  # fmt: skip
HODOKU_PUZZLE = re.compile(r"^([.0-9]{81}) #\d+ ")
HODOKU_STEP = re.compile(r"\(\d+/\d+\): (Forcing (Chain|Net)|Brute Force)")


def solve(line: str) -> tuple[bool, bool, float, float, tuple[str, ...]]:
    """(solved without forcing, solved with uniqueness too, CPU seconds of each, the counted
    techniques the second run used)."""
    puzzle = Grid.from_string(line)
    start = time.process_time()
    plain = LogicSolver(techniques=WITHOUT_FORCING, explain=False).solve(puzzle)
    middle = time.process_time()
    unique = LogicSolver(techniques=WITH_UNIQUENESS, explain=False).solve(puzzle)
    end = time.process_time()
    used = tuple(key for key in COUNTED if unique.solutions and unique.counters.get(key))
    return bool(plain.solutions), bool(unique.solutions), middle - start, end - middle, used


def hodoku_forcing(path: Path) -> dict[str, bool]:
    """Puzzle line -> whether HoDoKu's solution path uses forcing, from its batch output."""
    forcing: dict[str, bool] = {}
    puzzle = None
    for text in path.read_text(errors="replace").splitlines():
        match = HODOKU_PUZZLE.match(text)
        if match:
            puzzle = match.group(1)
            forcing[puzzle] = False
        elif text.startswith("Statistics"):
            puzzle = None
        elif puzzle is not None and HODOKU_STEP.search(text):
            forcing[puzzle] = True
    return forcing


def seconds(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.3f} s, mean {statistics.mean(values):.3f} s, "
        f"max {max(values):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top1465", metavar="PATH", help="one puzzle per line")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hodoku-output", metavar="PATH", help="HoDoKu's /bs output file")
    args = parser.parse_args()
    found = [Path(p) for p in ([args.top1465] if args.top1465 else TOP1465)]
    path = next((p for p in found if p.is_file()), None)
    if path is None:
        raise SystemExit("top1465 not found: pass --top1465 PATH")
    lines = [entry.puzzle.to_line().replace("0", ".") for entry in read_file(path)]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(solve, lines, chunksize=8))
    n = len(results)
    plain = sum(r[0] for r in results)
    unique = sum(r[1] for r in results)
    used = {key: sum(key in r[4] for r in results) for key in COUNTED}
    print(f"{path.name}: {n} puzzles")
    print(
        f"  logic without forcing chains/nets: {plain} ({plain / n:.1%}); CPU per puzzle "
        + seconds([r[2] for r in results])
    )
    print(
        f"  the same with the uniqueness techniques: {unique} ({unique / n:.1%}); CPU per "
        "puzzle " + seconds([r[3] for r in results])
    )
    print(
        "  solved puzzles (with uniqueness) whose solution used: "
        + ", ".join(f"{k} {v}" for k, v in used.items())
    )
    if args.hodoku_output:
        forcing = hodoku_forcing(Path(args.hodoku_output))
        known = [(line, r) for line, r in zip(lines, results, strict=True) if line in forcing]
        easy = [(line, r) for line, r in known if not forcing[line]]
        both = sum(1 for _, r in easy if r[1])
        print(
            f"  HoDoKu (batch, default settings) without forcing or brute force: {len(easy)} of "
            f"{len(known)} ({len(easy) / max(len(known), 1):.1%}); logic (with uniqueness) "
            f"also solves {both} of those, and {sum(r[1] for _, r in known) - both} that "
            "HoDoKu needs forcing for"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
