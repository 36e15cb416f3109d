"""Timed runs in chunks (`bench` sends a worker many tasks per message) and `solve`/`count`
of files read as they are solved: every task exactly once, whatever stops a worker or the
command, and memory bounded by what is in flight, not by the file."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.results import Outcome
from sudoku_bench.harness.running import session
from sudoku_bench.harness.running.runner import Pool, timing_pool
from sudoku_bench.harness.running.solving import Answer, Solving, solve_all
from sudoku_bench.harness.running.tasks import plan
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.puzzles.collections import stream
from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.formats import PuzzleEntry, parse_puzzle
from sudoku_bench.solvers.registry import register, unregister
from tests.cli_process import ENV
from tests.test_harness_resume import finished_rows

FOURS = ["...3..4114..3...", "1..4..1..3..4..3", "3....21..34....1"]
EMPTY = "." * 16


def entries(lines: list[str]) -> list[PuzzleEntry]:
    return [PuzzleEntry(f"p:{n}", parse_puzzle(line)) for n, line in enumerate(lines, 1)]


# ----- bench in chunks ----------------------------------------------------------------------


def chunked_run(
    kind: str, tmp_path: Path, repeat: int, monkeypatch: pytest.MonkeyPatch, timeout: float = 5.0
) -> tuple[list[dict[str, Any]], int, int]:
    """`bench` of three 4x4 puzzles and the empty grid with back-end `kind`, `repeat` times:
    the stored rows, the tasks planned and the largest chunk the run's pool sent."""
    solver = backend(kind)
    store = SQLiteStore(tmp_path / "runs.sqlite")
    work = session.start(
        store,
        entries([*FOURS[:2], EMPTY, FOURS[2]]),
        [solver],
        Settings(timeout),
        repeat=repeat,
        jobs=1,
        seed=3,
        inputs=["test"],
        command="test",
        repeat_timeouts=True,  # every repeat of the empty grid meets the back-end's fault
    )
    largest: list[int] = []
    close = Pool.close

    def watched_close(pool: Pool) -> None:
        largest.append(pool.largest_chunk)
        close(pool)

    monkeypatch.setattr(Pool, "close", watched_close)
    session.execute(store, work)
    return store.results(work.run_id), work.total, max(largest)


@pytest.mark.parametrize(
    ("kind", "status", "says"),
    [
        ("stall-on-empty", "timeout", "killed after"),
        ("segfault-on-empty", "error", "SIGSEGV"),
        ("killed-on-empty", "error", "SIGKILL"),
    ],
)
def test_a_chunk_stopped_mid_way_keeps_every_task_exactly_once(
    tmp_path: Path, kind: str, status: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker stopped in the middle of a chunk (its task overran, crashed, was killed):
    that task is recorded as such, the chunk's other tasks run again elsewhere, and every
    task has exactly one row."""
    # each stall costs the time limit; the others' limit is far above a 4x4 solve even on a
    # machine loaded 20 deep, so only the faulty tasks fail
    stalls = kind == "stall-on-empty"
    repeat = 3 if stalls else 40
    rows, total, largest = chunked_run(
        kind, tmp_path, repeat, monkeypatch, timeout=2.0 if stalls else 5.0
    )
    keys = [row["task"] for row in rows]
    assert sorted(keys) == list(range(total))  # none lost, none doubled
    empty = [row for row in rows if row["puzzle"] == EMPTY]
    assert len(empty) == repeat
    assert {row["status"] for row in empty} == {status}
    assert all(says in row["error"] for row in empty)
    assert {row["status"] for row in rows if row["puzzle"] != EMPTY} == {"limit"}
    if kind != "stall-on-empty":
        assert largest > 1, "the tasks should have gone in chunks"


def test_chunks_grow_for_fast_tasks_and_each_task_keeps_its_own_times() -> None:
    solver = backend("reference")
    tasks = plan(entries(FOURS), [solver.name], 100)
    outcomes: list[Outcome] = []
    with timing_pool(1, Settings(10.0), {solver.name: solver}) as pool:
        pool.run(tasks, outcomes.append)
        largest = pool.largest_chunk
    assert sorted(outcome.task.key for outcome in outcomes) == list(range(300))
    assert largest > 1
    assert all(o.cpu_s is not None and o.wall_s is not None for o in outcomes)
    assert len({outcome.worker for outcome in outcomes}) == 1


def test_slow_tasks_go_one_at_a_time() -> None:
    """Tasks longer than a chunk's worth are not queued ahead: with two workers, neither
    holds a queue while the other idles."""
    solver = backend("napper")  # sleeps 0.3 s per task
    tasks = plan(entries(FOURS), [solver.name], 2)
    outcomes: list[Outcome] = []
    with timing_pool(2, Settings(10.0), {solver.name: solver}) as pool:
        pool.run(tasks, outcomes.append)
        largest = pool.largest_chunk
    assert sorted(outcome.task.key for outcome in outcomes) == list(range(6))
    assert largest == 1


SCRIPT = """
import sys
from sudoku_bench.harness.running.testing import backend
from sudoku_bench.solvers.registry import register
from sudoku_bench.harness.cli import main
register(backend("reference", "quick", spin=20_000))  # well under a chunk's worth per task
sys.exit(main(["bench", "--db", sys.argv[1], sys.argv[2], "-s", "quick", "--quiet",
               "--repeat", sys.argv[3], "-j", "2", "--timeout", "20", "--seed", "5"]))
"""


def test_sigkill_in_the_middle_of_chunks_then_resume_runs_every_task_once(
    tmp_path: Path,
) -> None:
    """Fast tasks go in large chunks; the command killed part-way loses the answers still in
    its workers, and --resume runs exactly those again."""
    db = tmp_path / "runs.sqlite"
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(FOURS) + "\n")
    repeat = 1000
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(db), str(puzzles), str(repeat)],
        env=ENV,
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while finished_rows(db) < 300 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    store = SQLiteStore(db)
    run = store.run()
    before = {row["task"] for row in store.results(run.id)}
    assert 300 <= len(before) < 3 * repeat, "the kill should land part-way"
    register(backend("reference", "quick", spin=20_000))
    try:
        assert main(["bench", "--db", str(db), "--resume", "--quiet", "--json"]) == 0
    finally:
        unregister("quick")
    keys = [row["task"] for row in store.results(run.id)]
    assert sorted(keys) == list(range(3 * repeat))
    assert store.run(run.id).finished


# ----- solve_many: a batch to a back-end in one call -----------------------------------------


def test_solve_and_count_hand_a_batch_to_solve_many() -> None:
    solver = backend("many-at-once")
    register(solver)
    try:
        answers: list[Answer] = []
        puzzles = entries(FOURS * 30)
        solve_all(puzzles, [solver], answers.append, limit=2, timeout=None)
    finally:
        unregister(solver.name)
    assert [answer.entry.id for answer in answers] == [entry.id for entry in puzzles]
    assert not any(answer.failed for answer in answers)
    assert {answer.result.verdict for answer in answers} == {"unique"}
    sizes = [answer.result.counters["batch"] for answer in answers]
    assert max(sizes) > 1  # after the first task (which builds the solver) whole batches


def test_the_default_solve_many_is_solve_of_each_puzzle() -> None:
    from sudoku_bench.solvers.registry import get

    solver = get("propagating").create()
    grids = [entry.puzzle for entry in entries([*FOURS, EMPTY])]
    many = list(solver.solve_many(grids, limit=2))
    single = [solver.solve(grid, limit=2) for grid in grids]
    assert [r.status for r in many] == [r.status for r in single]
    assert [r.solutions for r in many] == [r.solutions for r in single]


# ----- solve FILE streamed ----------------------------------------------------------------


def big_file(path: Path, lines: int, bad_at: int | None = None) -> Path:
    with path.open("w") as out:
        for number in range(1, lines + 1):
            out.write("12x4" * 4 + "\n" if number == bad_at else FOURS[number % 3] + "\n")
    return path


def test_a_file_is_read_as_its_puzzles_are_taken(tmp_path: Path) -> None:
    """The first puzzles of a 50,000-line file come before its bad line is read."""
    path = big_file(tmp_path / "big.txt", 50_000, bad_at=40_000)
    read = stream(str(path))
    first = [next(read) for _ in range(10)]
    assert [entry.id for entry in first] == [f"{path}:{n}" for n in range(1, 11)]
    with pytest.raises(PuzzleFormatError, match=f"{path}:40000"):
        for _ in read:
            pass


def test_solving_holds_only_the_puzzles_in_flight(tmp_path: Path) -> None:
    path = big_file(tmp_path / "big.txt", 5_000)
    solver = backend("reference")
    register(solver)
    try:
        answered = 0

        def heard(answer: Answer) -> None:
            nonlocal answered
            answered += 1
            assert not answer.failed

        with Solving([solver], limit=1, timeout=None) as solving:
            count = solving.run(stream(str(path)), heard)
            held = solving.most_held
    finally:
        unregister(solver.name)
    assert count == answered == 5_000
    assert held <= 1_200  # a few batches' worth, whatever the file's length


def test_solve_file_with_a_bad_line_answers_the_puzzles_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = big_file(tmp_path / "big.txt", 2_000, bad_at=1_500)
    code = main(["solve", str(path), "--line", "-s", "propagating"])
    captured = capsys.readouterr()
    assert code != 0
    assert f"{path}:1500" in captured.err
    assert captured.out.count("  solved  ") == 1_499
    assert "Traceback" not in captured.err


def test_solve_file_with_a_bad_line_and_skip_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = big_file(tmp_path / "big.txt", 2_000, bad_at=1_500)
    code = main(["count", str(path), "--json", "--skip-invalid", "-s", "propagating"])
    captured = capsys.readouterr()
    assert code == 0
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert len(records) == 1_999
    ids = [record["id"] for record in records]
    assert f"{path}:1500" not in ids and ids[-1] == f"{path}:2000"
    assert all(record["verified"] for record in records)
    assert f"skipped {path}:1500" in captured.err


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + "\n".join(FOURS).encode() + b"\n",  # a UTF-8 BOM
        "\r\n".join(FOURS).encode(),  # Windows line ends, the last line unended
        b"# a comment\n\n" + FOURS[0].encode() + b"  // and a tail\n" + FOURS[1].encode(),
        b"quizzes,solutions\n" + FOURS[0].encode() + b",\n" + FOURS[2].encode() + b",\n",
    ],
)
def test_a_streamed_file_gives_what_reading_it_whole_gives(tmp_path: Path, data: bytes) -> None:
    from sudoku_bench.puzzles.formats import read_file, stream_file

    suffix = ".csv" if data.startswith(b"quizzes") else ".txt"
    path = tmp_path / f"p{suffix}"
    path.write_bytes(data)
    streamed = stream_file(path)
    assert streamed is not None
    assert [(e.id, e.puzzle) for e in streamed] == [(e.id, e.puzzle) for e in read_file(path)]


@pytest.mark.parametrize(("bad", "says"), [(b"\xff", "UTF-8"), (b"\x00", "NUL")])
def test_a_streamed_file_names_a_bad_byte_at_its_line(
    tmp_path: Path, bad: bytes, says: str
) -> None:
    from sudoku_bench.puzzles.formats import ReadOptions, ReadReport, read_file, stream_file

    path = tmp_path / "p.txt"
    lines = [line.encode() for line in FOURS * 1000]
    lines[2500] = lines[2500][:5] + bad + lines[2500][6:]
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(PuzzleFormatError, match=says) as streamed_error:
        list(stream_file(path) or [])
    with pytest.raises(PuzzleFormatError, match=says) as whole_error:
        read_file(path)
    assert (streamed_error.value.line, streamed_error.value.column) == (2501, 6)
    assert (whole_error.value.line, whole_error.value.column) == (2501, 6)
    report = ReadReport()
    kept = list(stream_file(path, ReadOptions(skip_invalid=True), report) or [])
    assert len(kept) == 2999 and [error.line for error in report.skipped] == [2501]


def test_solve_reads_standard_input_as_it_comes() -> None:
    """The first answers come out while standard input is still open; a bad line later is
    named as stdin:LINE after the puzzles before it are answered."""
    import select

    from tests.cli_process import COMMAND

    process = subprocess.Popen(
        [*COMMAND, "solve", "-", "--line", "-s", "propagating"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert process.stdin is not None and process.stdout is not None
    first = "".join(FOURS[n % 3] + "\n" for n in range(5_000))  # more than the sniffed head
    process.stdin.write(first)
    process.stdin.flush()
    ready, _, _ = select.select([process.stdout], [], [], 60)
    assert ready, "no answer while standard input was open"
    assert process.stdout.readline().startswith("stdin:1  propagating  solved")
    process.stdin.write("12x4" * 4 + "\n" + FOURS[0] + "\n")
    process.stdin.close()
    out = process.stdout.read()
    err = process.stderr.read() if process.stderr else ""
    process.wait(timeout=60)
    assert process.returncode != 0
    assert "stdin:5001" in err and "Traceback" not in err
    assert out.count("  solved  ") == 4_999  # the 5,000 before the bad line, less the first read
