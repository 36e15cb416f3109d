"""Puzzles per CPU-second of versions of the bitboard kernel side by side, and tdoku's, in one
process: what a change to `sudoku_bench/solvers/engines/bitboard/kernel.py` buys, measured in one run.

Each `--kernel NAME=PATH` is a copy of `kernel.py` (for instance `git show REV:sudoku_bench/solvers/engines/
bitboard/kernel.py > /tmp/k_before.py`), copied to `--folder` and imported from there under a
module name of its own, compiled on first use (numba caches it beside the copy). Every version solves the same whole sets (top95,
500 forum-hardest, 1,000 17-clue) with its `solve_many`, limit 1, one thread, the contenders
alternating pass by pass, `--repeat` passes each, the best pass counted. tdoku, when `--tdoku
PATH` names its shared library (built as `bench_bitboard.py` says), is called per puzzle through
ctypes in the same alternation. Each version's solutions are checked against the first's
grids (puzzles with one solution) and its guesses per puzzle are printed.

    PYTHONPATH=. python benchmarks/bench_kernel_variants.py --kernel before=/tmp/k_before.py \\
        --kernel after=sudoku_bench/solvers/engines/bitboard/kernel.py [--tdoku PATH] [--repeat 5]
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import os
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from types import ModuleType

import numpy as np
from tabulate import tabulate

from sudoku_bench.puzzles.collections import load
from sudoku_bench.solvers.engines.bitboard.jit import as_digit_array

SETS = (("top95", 95), ("forum-hardest", 500), ("17clue", 1000))


def kernel_from(name: str, path: Path, folder: Path) -> ModuleType:
    """The kernel at `path` as module `kernel_variant_NAME`, from a copy in `folder` (numba's
    cache, kept beside the copy, records the module's name; the copy is rewritten only when the
    source differs, so later runs load the compiled code)."""
    module_name = f"kernel_variant_{name}"
    copy = folder / f"{module_name}.py"
    source = path.read_text()
    if not copy.is_file() or copy.read_text() != source:
        copy.write_text(source)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(module_name)


def kernel_pass(module: ModuleType, grids: np.ndarray) -> Callable[[], np.ndarray]:
    def run() -> np.ndarray:
        solutions = np.zeros((len(grids), 81), dtype=np.uint8)
        stats = np.zeros((len(grids), module.STATS), dtype=np.int64)
        module.solve_many(grids, 1, solutions, stats)
        return np.concatenate([solutions, stats[:, [module.STAT_GUESSES]]], axis=1)

    run()  # compiled or loaded before any timing
    return run


def tdoku_pass(library: ctypes.CDLL, lines: list[str]) -> Callable[[], None]:
    solve = library.TdokuSolverDpllTriadSimd
    solve.restype = ctypes.c_size_t
    solve.argtypes = [
        ctypes.c_char_p,
        ctypes.c_size_t,
        ctypes.c_uint32,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_size_t),
    ]
    encoded = [line.replace("0", ".").encode("ascii") for line in lines]

    def run() -> None:
        out = ctypes.create_string_buffer(82)
        guesses = ctypes.c_size_t(0)
        pointer = ctypes.byref(guesses)
        for line in encoded:
            solve(line, 1, 0, out, pointer)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--tdoku", type=Path, help="tdoku's libtdoku_shared.so")
    parser.add_argument("--repeat", type=int, default=5, help="passes per contender")
    parser.add_argument(
        "--folder",
        type=Path,
        default=Path("/tmp/kernel_variants"),
        help="where the copies (and their compiled code) are kept",
    )
    args = parser.parse_args()
    kernels = {}
    for item in args.kernel:
        name, _, path = item.partition("=")
        args.folder.mkdir(parents=True, exist_ok=True)
        kernels[name] = kernel_from(name, Path(path), args.folder)
    library = ctypes.CDLL(str(args.tdoku)) if args.tdoku and args.tdoku.is_file() else None
    if library is None:
        print("tdoku skipped: no --tdoku PATH to its shared library")
    print(f"load average before: {os.getloadavg()}")
    rows = []
    for collection, count in SETS:
        lines = [entry.puzzle.to_line() for entry in islice(load(collection), count)]
        grids = as_digit_array(lines)
        passes: dict[str, Callable[[], object]] = {
            name: kernel_pass(module, grids) for name, module in kernels.items()
        }
        if library is not None:
            passes["tdoku"] = tdoku_pass(library, lines)
        best = dict.fromkeys(passes, float("inf"))
        answers: dict[str, np.ndarray] = {}
        for _ in range(args.repeat):
            for name, run in passes.items():
                start = time.process_time()
                result = run()
                best[name] = min(best[name], time.process_time() - start)
                if isinstance(result, np.ndarray):
                    answers[name] = result
        first = next(iter(answers.values()))
        for name, result in answers.items():
            assert np.array_equal(result[:, :81], first[:, :81]), f"{name} differs"
        for name, spent in best.items():
            guesses = f"{answers[name][:, 81].mean():.2f}" if name in answers else "-"
            ratio = f"{spent / best['tdoku']:.2f}" if "tdoku" in best else "-"
            rows.append([collection, name, f"{len(lines) / spent:,.0f}", guesses, ratio])
    print(
        tabulate(
            rows,
            headers=["set", "contender", "puzzles per CPU-second", "guesses", "time / tdoku's"],
            tablefmt="github",
        )
    )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
