"""The peer's test suite through `cpsat`, one puzzle at a time: answer, seconds and kinds.

The 42 puzzles of `tests/data/rangsk_suite.json` (those for which Rangsk's SudokuSolver's own
tests assert a unique solution) are each read and solved exactly as
`tests/test_rangsk_suite.py` does (`cpsat_answer`: `solve(puzzle, limit=2)` with the test's
per-puzzle `TIMEOUT`, the answer compared with the asserted solution), each in a child process
of its own, so that a model that will not build is killed (`--kill-after` seconds past the
timeout) without stopping the run. Per puzzle: `solved`, `refused: ...` (a rule the model
lacks, or timed out) or `wrong: ...`; the CPU seconds of the child (`time.process_time`:
reading, building and solving; one CP-SAT worker) and its wall seconds; the f-puzzles keys
(and extra rules) it uses. The summary gives the count solved, the CPU range of the solved,
and the load average before and after.

    PYTHONPATH=. python benchmarks/bench_rangsk_suite.py [--cases NAME,...] [--kill-after 120]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent


def _suite_test() -> ModuleType:
    """The suite's test module, whose reading and check (`cpsat_answer`) this script runs
    (loaded from its file: the tests are no package)."""
    path = ROOT / "tests" / "test_rangsk_suite.py"
    spec = importlib.util.spec_from_file_location("test_rangsk_suite", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


suite_test = _suite_test()

PLAIN_KEYS = {"size", "grid", "author", "ruleset", "title"}


def kinds_of(case: dict[str, Any]) -> str:
    keys = [key for key in case["fpuzzles_keys"] if key not in PLAIN_KEYS]
    return ", ".join([*keys, *case.get("extra_rules", [])]) or "classic"


def one(name: str) -> dict[str, Any]:
    """Solve the named case here (the child's job)."""
    case = next(case for case in suite_test.suite() if case["name"] == name)
    cpu, wall = time.process_time(), time.perf_counter()
    answer = suite_test.cpsat_answer(case)
    return {
        "name": name,
        "answer": answer,
        "cpu_s": round(time.process_time() - cpu, 2),
        "wall_s": round(time.perf_counter() - wall, 2),
    }


def in_child(name: str, kill_after: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", name]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=suite_test.TIMEOUT + kill_after,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"name": name, "answer": "refused: killed (the model did not build in time)"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"name": name, "answer": f"error: {last}"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--kill-after", type=float, default=120.0, help="seconds past TIMEOUT")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child's job
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one)))
        return 0
    cases = suite_test.suite()
    if args.cases:
        wanted = {name.strip() for name in args.cases.split(",")}
        cases = [case for case in cases if case["name"] in wanted]
    load_before = os.getloadavg()
    rows = []
    for case in cases:
        result = in_child(case["name"], args.kill_after)
        result["kinds"] = kinds_of(case)
        rows.append(result)
        print(json.dumps(result), file=sys.stderr, flush=True)  # progress, one line a case
    load_after = os.getloadavg()
    headers = ["puzzle", "size", "kinds", "answer", "CPU s", "wall s"]
    sizes = {case["name"]: case["size"] for case in cases}
    table = [
        [r["name"], sizes[r["name"]], r["kinds"], r["answer"], r.get("cpu_s"), r.get("wall_s")]
        for r in rows
    ]
    print(tabulate(table, headers, tablefmt="github"))
    solved = [r for r in rows if r["answer"] == "solved"]
    wrong = [r["name"] for r in rows if r["answer"].startswith("wrong")]
    cpu = sorted(r["cpu_s"] for r in solved)
    print()
    print(f"solved: {len(solved)} of {len(rows)}; wrong: {len(wrong)} {wrong or ''}")
    if cpu:
        print(f"CPU seconds of the solved: {cpu[0]} to {cpu[-1]} (median {cpu[len(cpu) // 2]})")
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
