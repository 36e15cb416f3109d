"""Issue 17, solving commands: honest timeouts (defect 13), a wrong-size grid is a wrong answer
that stops nothing (14), guesses not counted are not zero (15), and `solve` says "solved"."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.tasks import Outcome
from sudoku_bench.harness.running.testing import registered
from tests.cli_process import ENV, run_cli

FOURS = "...3..4114..3..."  # a 4x4 puzzle with one solution
SEED = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
EMPTY = "." * 81

WITH_TEST_BACKENDS = """
import sys
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.solvers.registry import register
from sudoku_bench.harness.cli import main
for kind in ("reference", "sleeper", "wrong-size", "late"):
    register(backend(kind))
sys.exit(main(sys.argv[1:]))
"""


def run_with_test_backends(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITH_TEST_BACKENDS, *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def timed(function: object, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    done = function(*args)  # type: ignore[operator]
    return done, time.monotonic() - start


# ----- defect 13: the timeout bounds each puzzle's whole work -----------------------------------


@pytest.mark.parametrize("command", ["solve", "count"])
def test_a_back_end_that_ignores_its_deadline_is_stopped_from_outside(command: str) -> None:
    """It made `solve --timeout 1` run forever."""
    baseline, startup = timed(run_with_test_backends, command, FOURS, "-s", "reference")
    assert baseline.returncode == 0, baseline.stderr
    done, seconds = timed(run_with_test_backends, command, FOURS, "-s", "sleeper", "--timeout", "1")
    assert done.returncode == 0, done.stderr
    assert "timed out" in done.stdout or "timeout" in done.stdout
    # the pool's margin past the limit, and room for a loaded machine: the defect was forever
    assert seconds < 2 * startup + 1.1 * 1 + 6


def test_an_answer_after_the_limit_is_a_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    with registered("late"):
        assert main(["solve", FOURS, "-s", "late", "--timeout", "0.5", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "timeout" and "past the 0.5 s limit" in record["message"]


def test_checking_millions_of_grids_stays_within_the_timeout() -> None:
    """`count` of the empty grid with a huge limit took 93 s for `--timeout 40`: the grids found
    were checked after the time was up. Grids not checked in time are not part of the answer."""
    baseline, startup = timed(run_cli, ["count", SEED, "-s", "dlx"])
    assert baseline.returncode == 0
    limit = 2.0
    done, seconds = timed(
        run_cli,
        ["count", EMPTY, "-s", "dlx", "--limit", "100000000", "--timeout", str(limit), "--json"],
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "timeout" and record["verified"] is True
    assert record["count"] == len(record["solutions"]) > 0
    assert seconds < startup + 1.1 * limit + 0.25 + 1.5


# ----- defect 14: a grid of the wrong size is a wrong answer, recorded ---------------------------


def test_bench_json_records_a_wrong_size_grid_and_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    done = run_with_test_backends(
        "bench", SEED, FOURS, "-s", "wrong-size,dlx", "--db", str(db), "--json", "--quiet"
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 4  # every task, the wrong ones too
    wrong = [r for r in records if r["solver"] == "wrong-size" and r["id"] == "arg1"]
    assert len(wrong[0]["solutions"][0]) == 16  # a 4x4 grid for a 9x9 puzzle, as it came
    report = run_cli(["report", "--db", str(db), "--format", "json"])
    summary = json.loads(report.stdout)["summary"]
    wrong_row = next(
        s for s in summary if s["solver"] == "wrong-size" and s["collection"] == "arguments"
    )
    assert wrong_row["agree"] == 0


@pytest.mark.parametrize("command", ["solve", "count"])
def test_solve_and_count_call_a_wrong_size_grid_a_wrong_answer(command: str) -> None:
    done = run_with_test_backends(command, SEED, "-s", "wrong-size", "--json")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert (
        "WRONG ANSWER from wrong-size on arg1: grid 1 cannot be read as a 9x9 grid" in done.stderr
    )
    record = json.loads(done.stdout)
    assert record["verified"] is False
    # no count or verdict is claimed from what is left of it (it said `0 exact none`)
    assert (record["status"], record["exact"], record["verdict"]) == ("error", False, "unknown")
    plain = run_with_test_backends(command, SEED, "-s", "wrong-size")
    assert " 0  exact  none" not in plain.stdout and "error" in plain.stdout


# ----- defect 15: guesses that are not counted are not 0 -----------------------------------------


def test_guesses_not_counted_are_null_not_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", SEED, "-s", "cpsat,milp,python-constraint,dlx", "--json"]) == 0
    guesses = {
        json.loads(line)["solver"]: json.loads(line)["guesses"]
        for line in capsys.readouterr().out.splitlines()
    }
    assert guesses == {"cpsat": None, "milp": None, "python-constraint": None, "dlx": 0}
    assert main(["solve", SEED, "-s", "cpsat"]) == 0
    assert "guesses -" in capsys.readouterr().out
    db = tmp_path / "runs.sqlite"
    assert main(["bench", SEED, "-s", "cpsat,dlx", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--full"]) == 0
    table = capsys.readouterr().out.split("\n\n")[-1].splitlines()
    header = table[0]
    start = header.index("guesses")  # the column, by where its title stands
    cpsat_row = next(line for line in table if line.startswith("cpsat "))
    assert cpsat_row[start : start + len("guesses")].strip() == "-", (header, cpsat_row)
    assert main(["report", "--db", str(db), "--format", "csv"]) == 0
    text = capsys.readouterr().out  # the run's metadata first, as # lines
    rows = list(csv.DictReader(line for line in io.StringIO(text) if not line.startswith("#")))
    assert {row["solver"]: row["guesses"] for row in rows} == {"cpsat": "", "dlx": "0"}
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert {t["solver"]: t["guesses"] for t in document["tasks"]} == {"cpsat": None, "dlx": 0}
    assert {s["solver"]: s["guesses"] for s in document["summary"]} == {"cpsat": None, "dlx": 0}


# ----- friction: `solve` says "solved" ---------------------------------------------------------


def test_solve_says_solved_and_leaves_counting_to_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", SEED, "-s", "dlx", "--line"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("arg1  dlx  solved  build ")
    assert "limit" not in first and "at least" not in first
    assert main(["solve", FOURS.replace("4", "."), "-s", "dlx", "--limit", "2", "--line"]) == 0
    assert "solved: 2 solutions (the limit; there may be more)" in capsys.readouterr().out


# ----- batches: a worker gets many tasks in one message (solve and count) --------------------


def _batch_of_eight(kind: str) -> list[Outcome]:
    """Eight 4x4 tasks in one batch of one worker, the fourth the empty grid: the outcomes
    as they came."""
    from sudoku_bench.harness.running.runner import Pool
    from sudoku_bench.harness.running.tasks import Task
    from sudoku_bench.harness.running.testing import backend
    from sudoku_bench.harness.running.worker import Settings

    solver = backend(kind)
    puzzles = [FOURS] * 3 + ["." * 16] + [FOURS] * 4
    tasks = [
        Task(key, "arguments", f"arg{key}", "4x4", line, solver.name, 0)
        for key, line in enumerate(puzzles)
    ]
    outcomes: list[Outcome] = []
    with Pool(1, Settings(0.5, 1), {solver.name: solver}, batch=8) as pool:
        pool.prepare([solver.name])
        pool.run(tasks, outcomes.append)
    return outcomes


def test_a_batch_kills_only_the_task_that_overruns() -> None:
    """The quick answers before a task that hangs leave the worker at once (its outbox
    thread sends them); the hung task alone is killed, the rest go to a fresh worker."""
    outcomes = _batch_of_eight("stall-on-empty")
    assert [outcome.task.key for outcome in outcomes] == list(range(8))
    assert [outcome.status for outcome in outcomes] == ["limit"] * 3 + ["timeout"] + ["limit"] * 4
    assert "killed after" in outcomes[3].error
    assert len({outcome.worker for outcome in outcomes[:3]}) == 1
    assert outcomes[4].worker != outcomes[0].worker


def test_a_batch_killed_with_answers_inside_names_the_right_task() -> None:
    """A task that blocks every thread of its worker keeps the answers before it inside;
    the worker's shared count of finished tasks still names the task it was in, and the
    lost ones run again in a fresh worker."""
    outcomes = _batch_of_eight("block-on-empty")
    by_key = {outcome.task.key: outcome for outcome in outcomes}
    assert sorted(by_key) == list(range(8)) and len(outcomes) == 8
    assert [by_key[key].status for key in range(8)] == ["limit"] * 3 + ["timeout"] + ["limit"] * 4
    assert "killed after" in by_key[3].error
    killed, fresh = by_key[3].worker, by_key[4].worker
    assert fresh != killed  # what came after the blocked task ran in a fresh worker
    # the answers before it came from the killed worker if it had sent them (a loaded
    # machine sends sooner), else they were lost inside it and ran again in the fresh one
    assert all(by_key[key].worker in (killed, fresh) for key in (0, 1, 2))


def test_a_batch_without_shared_memory_sends_each_answer_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under `ulimit -f` no shared count can be made: each answer goes at once, so the
    first answer that did not come is the task the worker was in."""
    from multiprocessing.context import BaseContext

    def refuse(*args: object) -> None:
        raise OSError(27, "File too large")

    monkeypatch.setattr(BaseContext, "RawValue", refuse)
    outcomes = _batch_of_eight("block-on-empty")
    assert [outcome.task.key for outcome in outcomes] == list(range(8))
    assert [outcome.status for outcome in outcomes] == ["limit"] * 3 + ["timeout"] + ["limit"] * 4


def test_solve_hears_answers_in_puzzle_order_after_a_kill_in_a_batch() -> None:
    """Answers that run again after a kill still come out in the order of the puzzles."""
    from sudoku_bench.harness.running.solving import solve_all
    from sudoku_bench.harness.running.testing import backend
    from sudoku_bench.puzzles.formats import PuzzleEntry
    from sudoku_bench.puzzles.grid import Grid

    lines = [FOURS] * 3 + ["." * 16] + [FOURS] * 4
    entries = [PuzzleEntry(f"p{n}", Grid.from_string(line)) for n, line in enumerate(lines)]
    heard: list[tuple[str, str]] = []
    solve_all(
        entries,
        [backend("block-on-empty")],
        lambda answer: heard.append((answer.entry.id, answer.result.status.value)),
        limit=1,
        timeout=0.5,
    )
    assert heard == [(f"p{n}", "timeout" if n == 3 else "limit") for n in range(8)]


def test_a_packed_answer_is_its_outcome_less_the_task() -> None:
    """A batch's answers cross the pipe without their task, which the parent holds: packing
    and unpacking give the same outcome back, and an answer for another task is refused."""
    from dataclasses import replace

    from sudoku_bench.harness.running.tasks import Task
    from sudoku_bench.solvers.base import Status, Verdict

    task = Task(5, "seeds", "seeds:1", "9x9", SEED, "propagating", 0)
    outcome = Outcome(
        task, Status.SOLVED, count=1, exact=True, verdict=Verdict.UNIQUE, solutions=["1" * 81],
        build_s=0.25, solve_s=0.5, nodes=3, counters={"nodes": 3.0}, worker=7, wall_s=0.75,
    )  # fmt: skip
    packed = outcome.packed()
    assert not any(isinstance(item, Task) for item in packed)
    assert Outcome.unpacked(task, packed) == outcome
    with pytest.raises(RuntimeError, match="task 5 came for task 6"):
        Outcome.unpacked(replace(task, key=6), packed)


def test_a_solvers_result_is_packed_in_the_order_of_the_outcome() -> None:
    """The worker packs a result without making its Outcome (`packed_outcome`): unpacked,
    it is the outcome made field by field, by name."""
    import os

    from sudoku_bench.harness.results import Task, packed_outcome
    from sudoku_bench.harness.running.worker import Meter
    from sudoku_bench.puzzles.grid import Grid
    from sudoku_bench.solvers.registry import get

    task = Task(5, "seeds", "seeds:1", "9x9", SEED, "propagating", 0)
    result = get("propagating").create().solve(Grid.from_string(SEED), limit=2)
    with Meter(resources=True) as meter:
        pass
    packed = packed_outcome(task.key, result, meter, 17, os.getpid(), keep_result=True)
    assert Outcome.unpacked(task, packed) == Outcome(
        task,
        status=result.status,
        count=result.count,
        exact=result.exact,
        verdict=result.verdict,
        solutions=[grid.to_line() for grid in result.solutions],
        build_s=result.build_s,
        solve_s=result.search_s,
        nodes=result.nodes,
        guesses=result.guesses,
        counters=result.counters,
        error="",
        worker=os.getpid(),
        wall_s=meter.wall_s,
        cpu_s=meter.cpu_s,
        peak_rss_mb=meter.peak_mb,
        permutation=17,
        host="",
    )
    assert Outcome.unpacked(task, packed).result is result


def test_a_worker_that_dies_while_solving_is_said_to_die_while_solving(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It was reported as dying "while building the solver": the slot's phase was read after
    the slot had been freed."""
    from sudoku_bench.harness.running.testing import registered

    with registered("segfault-on-empty"):
        code = main(["solve", FOURS, "." * 16, "-s", "segfault-on-empty", "--json"])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1 and records[1]["status"] == "error"
    assert records[1]["message"].endswith("(killed by SIGSEGV) while solving")
