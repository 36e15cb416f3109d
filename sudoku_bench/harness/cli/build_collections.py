"""Build the bundled variant collections: `python -m sudoku_bench.harness.cli.build_collections`
(`make variant-collections`).

For each kind the clue generator can make (`generate --kind list`) that has no bundled
collection yet, `--count` puzzles of its clues (`generate --kind KIND`), and as many
setter-style mixes (`generate --setter`, the file `mixed.jsonl`), each from `--seed`, written
as JSON Lines into `--dir` (`sudoku_bench/puzzles/data/variants/`, where `sudoku_bench.puzzles.collections` finds them by
name: `KIND.jsonl` at 6x6, `KIND-9x9.jsonl` at `--size 9`). Every puzzle of every file, new or kept, is then verified by two back-ends (cpsat and
sat by default): each must find exactly one solution, the file's. A file that exists is kept
(delete it to make it again), so an interrupted build picks up where it stopped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudoku_bench.harness.cli import main as cli
from sudoku_bench.harness.generating.clues import generatable_kinds
from sudoku_bench.puzzles.collections import load
from sudoku_bench.solvers.registry import create

# kinds bundled before the clue generator, with their own collections (killer, odd-even,
# anti-knight, anti-king, non-consecutive, windoku, sudoku-x)
BUNDLED_KINDS = (
    "killer_cage",
    "parity",
    "anti_knight",
    "anti_king",
    "non_consecutive",
    "extra_region",
    "diagonal",
)
MIXED = "mixed"


def collection_file(kind: str, size: int) -> str:
    """`thermometer.jsonl` for the 6x6 collections (the first ones), `thermometer-9x9.jsonl`
    for every other size, so that the sizes sit side by side."""
    return f"{kind}.jsonl" if size == 6 else f"{kind}-{size}x{size}.jsonl"


def build(
    folder: Path, kinds: list[str], *, size: int, count: int, seed: int, counter: str | None = None
) -> list[Path]:
    """The collections' files, each made unless it exists."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for kind in kinds:
        target = folder / collection_file(kind, size)
        files.append(target)
        if target.exists() and target.stat().st_size:
            print(f"{target}: kept", file=sys.stderr)
            continue
        what = ["--setter"] if kind == MIXED else ["--kind", kind]
        part = folder / f".{target.stem}.part.jsonl"  # renamed when whole
        arguments = ["generate", "--size", str(size), *what, "--count", str(count)]
        counting = ["--counter", counter] if counter else []
        status = cli([*arguments, "--seed", str(seed), *counting, "-o", str(part)])
        if status:
            raise SystemExit(f"{' '.join(arguments)} failed ({status})")
        part.rename(target)
    return files


def verify(path: Path, solvers: list[str]) -> list[str]:
    """What is wrong with the file's puzzles: each must have one solution, the file's, for
    every one of `solvers`."""
    problems = []
    engines = [create(name) for name in solvers]
    for entry in load(str(path)):
        for engine in engines:
            result = engine.solve(entry.puzzle, limit=2)
            if not (result.exact and result.solutions == [entry.solution]):
                problems.append(
                    f"{entry.id}: {engine.name} found {result.count} solution(s) "
                    f"(status {result.status.value})"
                )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--dir", type=Path, default=Path("sudoku_bench/puzzles/data/variants"))
    parser.add_argument("--size", type=int, default=6)  # 9x9 files get a -9x9 suffix
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--kinds", help="comma-separated kinds (and `mixed`) instead of every new one"
    )
    parser.add_argument("--verify-with", default="cpsat,sat", metavar="SOLVERS")
    parser.add_argument(
        "--counter",
        metavar="SOLVER",
        help="generate's --counter (default: its own, sat-incremental); the 6x6 files were "
        "made with cpsat counting every question, which --counter cpsat repeats",
    )
    args = parser.parse_args(argv)
    if args.kinds:
        kinds = args.kinds.split(",")
    else:
        kinds = [k for k in generatable_kinds() if k not in BUNDLED_KINDS] + [MIXED]
    files = build(
        args.dir, kinds, size=args.size, count=args.count, seed=args.seed, counter=args.counter
    )
    solvers = args.verify_with.split(",")
    bad = 0
    for path in files:
        problems = verify(path, solvers)
        bad += len(problems)
        print(
            f"{path}: "
            + (f"{len(problems)} problem(s)" if problems else f"unique by {', '.join(solvers)}")
        )
        for problem in problems:
            print(f"  {problem}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
