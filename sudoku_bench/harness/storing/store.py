"""Where runs and their results live: a small interface, and SQLite behind it.

`Store` is all the harness uses, so a larger store (a server database) can replace SQLite.
The SQLite file is written as each task finishes, in WAL mode, one committed row per task:
a run killed at any moment (even with SIGKILL) keeps every result it had written, and
`--resume` runs exactly the tasks that have no row yet.

Tables:
- `runs`: one row per run: id, started, finished, command, host, cpu, cores, os, python, load,
  versions (JSON: back-end -> "library version"), git_commit, seed, settings (JSON);
  from schema version 2 also conditions (JSON: load and CPU clock sampled while it ran).
- `tasks`: the run's plan, in execution order (`position`): task, collection, puzzle_id,
  rules (the serialised rules, `Rules.spec`; called geometry up to schema version 4),
  puzzle, solver, configuration (JSON: target and options), repeat.
- `resumes`: one row per `--resume` of a run: run, started, command, host, cpu, cores, os,
  python, load, versions, git_commit (where and with what the run went on), settings (JSON:
  the resumption's own, `jobs`).
- `locks`: one row per run being executed: run, pid, host, since, process (the process's
  start, to tell a reused pid). A second `bench` on the same run refuses while the row's
  process lives; a row left by a killed process on this host is taken over.
- `results`: one row per finished task: the task's columns plus status, count, exact,
  verdict, solution, solutions (JSON), build_s, solve_s, total_s, nodes, guesses,
  counters (JSON), error, worker, finished; from schema version 2 also wall_s, cpu_s,
  peak_rss_mb (measured by the worker) and permutation (the seed of a `--permute` isomorph);
  from version 3 host (the machine that ran the task); from version 5 `rules` for geometry,
  and `guesses` NULL where the back-end does not count guesses (before: 0, with no
  "guesses" in counters).
- `hosts` (schema version 3): one row per machine that ran tasks of a run: run, host, cpu,
  cores, os, python, load, versions, git_commit (as in `runs`); from version 6 also
  conditions (JSON, as in `runs`: the host's load and clock sampled while it ran tasks).
- `certificates` (schema version 7): one row per task `bench --certify` certified: run, task,
  certified (yes / no / failed), method (drat / grids), proof_bytes, solve_s, check_s (the
  DRAT proof's size, CaDiCaL's and the checker's CPU time), second_checker (drat-trim's
  verdict, or NULL), message.

Inserts of results are idempotent where a task may come twice (a cluster chunk that ran again
after its worker was lost): the first row of a task stays, a second is ignored.
"""

from __future__ import annotations

import json
import math
import os
import socket
import sqlite3
import urllib.parse
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, wraps
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from sudoku_bench.harness.results import Outcome, Task
from sudoku_bench.puzzles.errors import SudokuBenchError

DEFAULT_PATH = Path("sudoku-bench.sqlite")


class StoreError(SudokuBenchError):
    """A store that cannot be opened, or a run that is not in it."""


class RunLockedError(StoreError):
    """The run is being executed by another process."""


@dataclass(frozen=True)
class LockOwner:
    """Who executes a run: a process on a host. `process` tells a reused pid from the original
    (the process's start time since boot, and the boot); empty where that cannot be read."""

    pid: int
    host: str
    process: str = ""
    since: str = ""

    @classmethod
    def here(cls) -> LockOwner:
        return cls(os.getpid(), socket.gethostname(), process_identity(os.getpid()))

    def gone(self) -> bool:
        """Whether the owner surely no longer runs: a process of this host that has ended
        (or whose pid now belongs to another process). One on another host may be alive."""
        if self.host != socket.gethostname():
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # alive, another user's
            pass
        return bool(self.process) and process_identity(self.pid) not in ("", self.process)

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}" + (f" (since {self.since})" if self.since else "")


def process_identity(pid: int) -> str:
    """The boot and the start time of process `pid` (Linux), else empty: a pid is reused."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    fields = stat.rpartition(")")[2].split()  # the name, in parentheses, may hold spaces
    return f"{boot}:{fields[19]}" if len(fields) > 19 else ""


# What a report compares between a run's first start and a resumption: timings from two
# machines, Pythons, checkouts or library versions are not one measurement.
_SAME_MACHINE_KEYS = ("host", "cpu", "cores", "os", "python")
# What makes two hosts of one run machines of different kinds (their names differ anyway).
_SAME_KIND_KEYS = ("cpu", "cores", "os", "python")


class _Setup(Protocol):
    """What `differences` compares: a machine, library versions and a checkout."""

    @property
    def machine(self) -> dict[str, Any]: ...
    @property
    def versions(self) -> dict[str, str]: ...
    @property
    def git_commit(self) -> str: ...


def differences(
    first: _Setup, later: _Setup, keys: Sequence[str] = _SAME_MACHINE_KEYS
) -> list[str]:
    """What `later` changed from `first`: e.g. ["cpu", "ortools version"]."""
    changed = [key for key in keys if first.machine.get(key) != later.machine.get(key)]
    if first.git_commit != later.git_commit:
        changed.append("sudoku-bench commit")
    libraries = {
        first.versions[name].rsplit(" ", 1)[0]
        for name in first.versions.keys() & later.versions.keys()
        if first.versions[name] != later.versions[name]
    }
    changed += [f"{library} version" for library in sorted(libraries)]
    return changed


@dataclass
class Resumption:
    """A later start of a run (`bench --resume`): when and where it went on, and with which
    settings of its own (`jobs`: the other settings are the run's)."""

    started: str
    command: str
    machine: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    git_commit: str = ""
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunInfo:
    """A run's description: what was asked, on which machine, with which versions."""

    command: str
    seed: int
    settings: dict[str, Any]
    machine: dict[str, Any] = field(default_factory=dict)  # host, cpu, cores, os, python
    versions: dict[str, str] = field(default_factory=dict)
    git_commit: str = ""
    started: str = ""
    finished: str = ""
    id: int = 0
    resumes: list[Resumption] = field(default_factory=list)
    conditions: dict[str, Any] = field(default_factory=dict)  # sampled while it ran

    def differences(self, later: Resumption) -> list[str]:
        """What a resumption changed from the first start: e.g. ["cpu", "ortools version"]."""
        changed = differences(self, later)
        for key in RESUMPTION_SETTINGS:
            if key in later.settings and later.settings[key] != self.settings.get(key, 1):
                changed.append(f"{key} setting")
        return changed

    def is_complete(self, finished_tasks: int, planned: int) -> bool:
        """Finished, with a result for every planned task: nothing left to resume."""
        return bool(self.finished) and finished_tasks >= planned


@dataclass
class HostInfo:
    """A machine that ran tasks of a run (the driver's machine is the run's own `machine`)."""

    machine: dict[str, Any]  # host, cpu, cores, os, python, load (when it first reported)
    versions: dict[str, str] = field(default_factory=dict)
    git_commit: str = ""
    # sampled while it ran the run's tasks, as a run's own `conditions`: load_max, mhz_min,
    # mhz_max, samples (a cluster node: at the start and end of each chunk)
    conditions: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.machine.get("host") or "")

    def kind_differences(self, other: HostInfo) -> list[str]:
        """What makes `other` a machine of another kind: CPU, cores, OS, Python, versions."""
        return differences(self, other, _SAME_KIND_KEYS)


# What a resumption may set for itself (the rest of a run's settings are fixed at its start).
RESUMPTION_SETTINGS = ("jobs",)


class Store(ABC):
    """The store's interface: runs, their planned tasks, and one result per task."""

    @abstractmethod
    def create_run(
        self,
        info: RunInfo,
        tasks: Sequence[Task],
        configurations: dict[str, Any],
        positions: Sequence[int] | None = None,
    ) -> int:
        """Record a new run and its plan (in execution order); return its id. `positions`
        numbers the tasks' order when it is not 0, 1, 2, ... (a shard: its places in the
        whole run's order)."""

    @abstractmethod
    def run(self, run_id: int | None = None) -> RunInfo:
        """A run by id; the latest one when `run_id` is None."""

    @abstractmethod
    def runs(self) -> list[RunInfo]: ...

    @abstractmethod
    def tasks(self, run_id: int) -> list[Task]:
        """The run's plan in execution order."""

    @abstractmethod
    def configurations(self, run_id: int) -> dict[str, Any]:
        """Back-end name -> its stored configuration (target, options, library)."""

    @abstractmethod
    def finished_tasks(self, run_id: int) -> set[int]:
        """Keys of the tasks that have a result."""

    @abstractmethod
    def statuses(self, run_id: int) -> dict[int, str]:
        """Key -> status of the tasks that have a result."""

    @abstractmethod
    def add(self, run_id: int, outcome: Outcome) -> None:
        """Store one result, durably, before returning."""

    def add_all(self, run_id: int, outcomes: Sequence[Outcome]) -> None:
        """Store results as `add` does, all or none (one transaction where the store has
        them): a task that has a result already is an error, as with `add`."""
        for outcome in outcomes:
            self.add(run_id, outcome)

    @abstractmethod
    def add_many(
        self, run_id: int, outcomes: Sequence[Outcome], host: HostInfo | None = None
    ) -> int:
        """Store results (and the host that ran them) in one transaction, durably; a task that
        has a result already keeps it (the new one is ignored). Return how many were new."""

    @abstractmethod
    def copy_results(self, run_id: int, rows: Sequence[dict[str, Any]]) -> int:
        """Store result rows read from another store (`results()` rows) unchanged, in one
        transaction, idempotently like `add_many`; return how many were new."""

    @abstractmethod
    def timings(
        self, solvers: Sequence[str], collections: Sequence[str]
    ) -> list[tuple[str, str, str, float, float]]:
        """Every stored result of these back-ends on these collections, in any run:
        (solver, collection, status, total_s, the run's time limit)."""

    @abstractmethod
    def add_host(self, run_id: int, host: HostInfo) -> None:
        """Record a machine that ran tasks of the run (once per run and host name)."""

    @abstractmethod
    def hosts(self, run_id: int) -> list[HostInfo]:
        """The machines that ran tasks of the run, in the order they were recorded."""

    @abstractmethod
    def add_certificates(self, run_id: int, rows: Sequence[dict[str, Any]]) -> None:
        """Record the certificates of tasks of the run (`CERTIFICATE_COLUMNS` keys), in one
        transaction; a task certified already keeps its row."""

    @abstractmethod
    def certificates(self, run_id: int) -> dict[int, dict[str, Any]]:
        """The run's certificates by task (empty for a store older than version 7)."""

    @abstractmethod
    def add_resumption(self, run_id: int, resumption: Resumption) -> None:
        """Record that the run goes on, from now, where `resumption` says."""

    @abstractmethod
    def finish_run(self, run_id: int, when: str = "") -> None:
        """Mark the run finished, now or at `when` (ISO 8601)."""

    @abstractmethod
    def positions(self, run_id: int) -> dict[int, int]:
        """Task key -> its position in the run's order."""

    @abstractmethod
    def record_conditions(self, run_id: int, conditions: dict[str, Any]) -> None:
        """Keep what the machine was like while the run ran (replacing what was kept)."""

    @abstractmethod
    def lock_run(
        self, run_id: int, owner: LockOwner, *, take_over: bool = False
    ) -> LockOwner | None:
        """Record that `owner` executes the run, or raise `RunLockedError` naming the process
        that does. A lock whose owner is `gone()` (or any, with `take_over`) is taken over and
        returned; None when there was none."""

    @abstractmethod
    def unlock_run(self, run_id: int, owner: LockOwner) -> None:
        """Remove `owner`'s lock on the run (another owner's is left alone)."""

    @abstractmethod
    def run_lock(self, run_id: int) -> LockOwner | None:
        """Who holds the run's lock, if anyone (perhaps a process that is gone)."""

    @abstractmethod
    def results(self, run_id: int) -> list[dict[str, Any]]:
        """Every result row of the run, in task order, as `Outcome.record()` keys plus `run`."""

    def outcomes(self, run_id: int) -> list[Outcome]:
        """Every result of the run, in task order, as the harness's record (`Outcome`)."""
        return [Outcome.from_row(row) for row in self.results(run_id)]

    def close(self) -> None:
        return None


_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL,
    finished TEXT,
    command TEXT NOT NULL,
    host TEXT, cpu TEXT, cores INTEGER, os TEXT, python TEXT, load REAL,
    versions TEXT NOT NULL,
    git_commit TEXT,
    seed INTEGER NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
    run INTEGER NOT NULL REFERENCES runs(id),
    task INTEGER NOT NULL,
    position INTEGER NOT NULL,
    collection TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    geometry TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    solver TEXT NOT NULL,
    configuration TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    PRIMARY KEY (run, task)
);
CREATE TABLE IF NOT EXISTS resumes (
    run INTEGER NOT NULL REFERENCES runs(id),
    started TEXT NOT NULL,
    command TEXT NOT NULL,
    host TEXT, cpu TEXT, cores INTEGER, os TEXT, python TEXT, load REAL,
    versions TEXT NOT NULL,
    git_commit TEXT
);
CREATE TABLE IF NOT EXISTS results (
    run INTEGER NOT NULL REFERENCES runs(id),
    task INTEGER NOT NULL,
    collection TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    geometry TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    solver TEXT NOT NULL,
    configuration TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    status TEXT NOT NULL,
    count INTEGER NOT NULL,
    exact INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    solution TEXT NOT NULL,
    solutions TEXT NOT NULL,
    build_s REAL NOT NULL,
    solve_s REAL NOT NULL,
    total_s REAL NOT NULL,
    nodes INTEGER NOT NULL,
    guesses INTEGER NOT NULL,
    counters TEXT NOT NULL,
    error TEXT NOT NULL,
    worker INTEGER NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (run, task)
);
"""

# Later versions of the schema only add columns, each with a default, listed here in order:
# (table, column, SQL type and default). A store of an earlier version is brought up to date
# when it is opened (`ALTER TABLE ... ADD COLUMN`); the rows it already has take the default.
# `_SCHEMA` above is version 1, the first released one; PRAGMA user_version holds the version.
# Version 5 renames and loosens columns: `_RENAMED` and `_migrate_to_5`.
ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    # version 2: measured by the worker around each solve (NULL where it was killed first)
    ("results", "wall_s", "REAL DEFAULT NULL"),
    ("results", "cpu_s", "REAL DEFAULT NULL"),
    ("results", "peak_rss_mb", "REAL DEFAULT NULL"),
    ("results", "permutation", "INTEGER DEFAULT NULL"),  # `bench --permute`: the isomorph's seed
    ("runs", "conditions", "TEXT DEFAULT NULL"),  # JSON: load_max, mhz_min, mhz_max, samples
    # version 3: the machine that ran the task (a cluster run has several)
    ("results", "host", "TEXT NOT NULL DEFAULT ''"),
    # version 4: a resumption's own settings (`jobs`)
    ("resumes", "settings", "TEXT NOT NULL DEFAULT '{}'"),
    # version 6: each host's load and clock, sampled while it ran tasks (JSON, as runs')
    ("hosts", "conditions", "TEXT DEFAULT NULL"),
)
# Tables added after version 1, created in an older store when it is opened: (name, SQL).
ADDED_TABLES: tuple[tuple[str, str], ...] = (
    (
        "hosts",  # version 3: the machines that ran a run's tasks
        """CREATE TABLE IF NOT EXISTS hosts (
            run INTEGER NOT NULL REFERENCES runs(id),
            host TEXT NOT NULL,
            cpu TEXT, cores INTEGER, os TEXT, python TEXT, load REAL,
            versions TEXT NOT NULL,
            git_commit TEXT,
            PRIMARY KEY (run, host)
        )""",
    ),
    (
        "locks",  # version 4: the process executing a run (see `Store.lock_run`)
        """CREATE TABLE IF NOT EXISTS locks (
            run INTEGER PRIMARY KEY REFERENCES runs(id),
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            process TEXT NOT NULL,
            since TEXT NOT NULL
        )""",
    ),
    (
        "certificates",  # version 7: `bench --certify`, one row per certified task
        """CREATE TABLE IF NOT EXISTS certificates (
            run INTEGER NOT NULL REFERENCES runs(id),
            task INTEGER NOT NULL,
            certified TEXT NOT NULL,
            method TEXT NOT NULL,
            proof_bytes INTEGER,
            solve_s REAL,
            check_s REAL,
            second_checker TEXT,
            message TEXT NOT NULL,
            PRIMARY KEY (run, task)
        )""",
    ),
)
# Version 5: the serialised rules are called `rules` in every table (`geometry` before), and
# `results.guesses` may be NULL (not counted). (table, old name, new name).
_RENAMED: tuple[tuple[str, str, str], ...] = (
    ("tasks", "geometry", "rules"),
    ("results", "geometry", "rules"),
)
# The results table of version 5, built by `_migrate_to_5` (SQLite cannot drop NOT NULL in
# place): version 1's columns with the renames, then the added columns in their order.
_RESULTS_V5 = """CREATE TABLE results (
    run INTEGER NOT NULL REFERENCES runs(id),
    task INTEGER NOT NULL,
    collection TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    rules TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    solver TEXT NOT NULL,
    configuration TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    status TEXT NOT NULL,
    count INTEGER NOT NULL,
    exact INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    solution TEXT NOT NULL,
    solutions TEXT NOT NULL,
    build_s REAL NOT NULL,
    solve_s REAL NOT NULL,
    total_s REAL NOT NULL,
    nodes INTEGER NOT NULL,
    guesses INTEGER,
    counters TEXT NOT NULL,
    error TEXT NOT NULL,
    worker INTEGER NOT NULL,
    finished TEXT NOT NULL,
    wall_s REAL DEFAULT NULL,
    cpu_s REAL DEFAULT NULL,
    peak_rss_mb REAL DEFAULT NULL,
    permutation INTEGER DEFAULT NULL,
    host TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run, task)
)"""
# Up to version 4 a back-end that does not count guesses stored 0 and no "guesses" counter.
_GUESSES_BEFORE_5 = "CASE WHEN instr(counters, '\"guesses\"') > 0 THEN guesses END"

# The version of a store written now.
SCHEMA_VERSION = 7

_JSON_COLUMNS = ("solutions", "counters")
# `certificates` (version 7): what `bench --certify` stored of each task's certificate
CERTIFICATE_COLUMNS = (
    "task",
    "certified",
    "method",
    "proof_bytes",
    "solve_s",
    "check_s",
    "second_checker",
    "message",
)
_MACHINE_COLUMNS = ("host", "cpu", "cores", "os", "python", "load")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


P = ParamSpec("P")
R = TypeVar("R")


def _reported(
    method: Callable[Concatenate[SQLiteStore, P], R],
) -> Callable[Concatenate[SQLiteStore, P], R]:
    """SQLite's errors after opening (a full disk, a lock held too long) as a `StoreError`
    naming the file; the results written before it stay (each is its own transaction)."""

    @wraps(method)
    def reported(self: SQLiteStore, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: the results store failed: {error}") from None

    return reported


class SQLiteStore(Store):
    """One SQLite file; every write is its own committed transaction.

    `read_only=True` opens an existing store without writing anything to it (no WAL switch, no
    upgrade, no `-wal` or `-shm` file left beside it): a store of an older schema version reads
    with the added columns' defaults and the added tables empty."""

    def __init__(
        self, path: Path | str = DEFAULT_PATH, *, create: bool = True, read_only: bool = False
    ) -> None:
        self.path = Path(path)
        self.read_only = read_only
        _check_path(self.path, create and not read_only)
        try:
            if read_only:
                self.db = _open_read_only(self.path)
                _check_ours(self.db, self.path)
                if "runs" not in _columns(self.db):
                    raise StoreError(f"{self.path} is empty: not a results store")
                _upgrade_in_views(self.db)
            else:
                self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
                _check_ours(self.db, self.path)  # before WAL mode, which would change the file
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a kill
                self.db.executescript(_SCHEMA)
                _upgrade(self.db)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: cannot open as a results store: {error}") from None
        self.db.row_factory = sqlite3.Row

    def close(self) -> None:
        self.db.close()

    @_reported
    def create_run(
        self,
        info: RunInfo,
        tasks: Sequence[Task],
        configurations: dict[str, Any],
        positions: Sequence[int] | None = None,
    ) -> int:
        if positions is not None and len(positions) != len(tasks):
            raise ValueError(f"{len(positions)} positions for {len(tasks)} tasks")
        order = range(len(tasks)) if positions is None else positions
        machine = info.machine
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO runs (started, command, host, cpu, cores, os, python, load, versions,"
                " git_commit, seed, settings) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    info.started or now(),
                    info.command,
                    *(machine.get(key) for key in _MACHINE_COLUMNS),
                    json.dumps(info.versions),
                    info.git_commit,
                    info.seed,
                    json.dumps(info.settings),
                ),
            )
            run_id = int(cursor.lastrowid or 0)
            encoded = {name: json.dumps(config) for name, config in configurations.items()}
            self.db.executemany(
                "INSERT INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    (
                        run_id,
                        t.key,
                        position,
                        t.collection,
                        t.puzzle_id,
                        t.rules,
                        t.puzzle,
                        t.solver,
                        encoded.get(t.solver, "{}"),  # once per back-end, not per task
                        t.repeat,
                    )
                    for position, t in zip(order, tasks, strict=True)
                ),
            )
        return run_id

    @_reported
    def run(self, run_id: int | None = None) -> RunInfo:
        if run_id is None:
            row = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreError(f"{self.path} holds no runs yet: run `sudoku-bench bench` first")
        else:
            row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                known = ", ".join(str(info.id) for info in self.runs()) or "none"
                raise StoreError(f"{self.path} has no run {run_id} (runs: {known})")
        return self._with_resumes(_run_info(row))

    @_reported
    def runs(self) -> list[RunInfo]:
        rows = self.db.execute("SELECT * FROM runs ORDER BY id").fetchall()
        return [self._with_resumes(_run_info(row)) for row in rows]

    @_reported
    def add_resumption(self, run_id: int, resumption: Resumption) -> None:
        machine = resumption.machine
        self.db.execute(
            "INSERT INTO resumes (run, started, command, host, cpu, cores, os, python, load,"
            " versions, git_commit, settings) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                resumption.started or now(),
                resumption.command,
                *(machine.get(key) for key in _MACHINE_COLUMNS),
                json.dumps(resumption.versions),
                resumption.git_commit,
                json.dumps(resumption.settings),
            ),
        )

    def _with_resumes(self, info: RunInfo) -> RunInfo:
        rows = self.db.execute("SELECT * FROM resumes WHERE run = ? ORDER BY rowid", (info.id,))
        info.resumes = [
            Resumption(
                started=row["started"],
                command=row["command"],
                machine=_machine(row),
                versions=json.loads(row["versions"]),
                git_commit=row["git_commit"] or "",
                settings=json.loads(row["settings"]),
            )
            for row in rows
        ]
        return info

    @_reported
    def tasks(self, run_id: int) -> list[Task]:
        rows = self.db.execute(
            "SELECT task, collection, puzzle_id, rules, puzzle, solver, repeat FROM tasks"
            " WHERE run = ? ORDER BY position",
            (run_id,),
        )
        return [Task(*row) for row in rows]

    @_reported
    def configurations(self, run_id: int) -> dict[str, Any]:
        rows = self.db.execute(
            "SELECT DISTINCT solver, configuration FROM tasks WHERE run = ?", (run_id,)
        )
        return {row[0]: json.loads(row[1]) for row in rows}

    @_reported
    def finished_tasks(self, run_id: int) -> set[int]:
        rows = self.db.execute("SELECT task FROM results WHERE run = ?", (run_id,))
        return {row[0] for row in rows}

    @_reported
    def statuses(self, run_id: int) -> dict[int, str]:
        rows = self.db.execute("SELECT task, status FROM results WHERE run = ?", (run_id,))
        return {row[0]: row[1] for row in rows}

    @_reported
    def add(self, run_id: int, outcome: Outcome) -> None:
        self._insert(run_id, outcome, "INSERT")

    @_reported
    def add_all(self, run_id: int, outcomes: Sequence[Outcome]) -> None:
        with self._transaction():
            for outcome in outcomes:
                self._insert(run_id, outcome, "INSERT")

    @_reported
    def add_many(
        self, run_id: int, outcomes: Sequence[Outcome], host: HostInfo | None = None
    ) -> int:
        with self._transaction():
            if host is not None:
                self._add_host(run_id, host)
            return sum(self._insert(run_id, outcome, "INSERT OR IGNORE") for outcome in outcomes)

    @_reported
    def copy_results(self, run_id: int, rows: Sequence[dict[str, Any]]) -> int:
        with self._transaction():
            added = 0
            for row in rows:
                values = {
                    **row,
                    "run": run_id,
                    "exact": int(row["exact"]),
                    **{key: json.dumps(row[key]) for key in (*_JSON_COLUMNS, "configuration")},
                }
                added += self._write("INSERT OR IGNORE", values)
            return added

    def _insert(self, run_id: int, outcome: Outcome, verb: str) -> int:
        record = outcome.record()
        configuration = self._configuration(run_id, outcome.task.key)
        values = {
            **record,
            "run": run_id,
            "configuration": configuration,
            "exact": int(record["exact"]),
            "finished": now(),
            **{key: json.dumps(record[key]) for key in _JSON_COLUMNS},
        }
        return self._write(verb, values)

    def _write(self, verb: str, values: dict[str, Any]) -> int:
        columns = list(values)
        cursor = self.db.execute(
            f"{verb} INTO results ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [values[column] for column in columns],
        )
        return cursor.rowcount

    @_reported
    def timings(
        self, solvers: Sequence[str], collections: Sequence[str]
    ) -> list[tuple[str, str, str, float, float]]:
        timeouts = {info.id: float(info.settings.get("timeout", math.inf)) for info in self.runs()}
        solvers, collections = list(solvers), list(collections)
        rows = self.db.execute(
            "SELECT run, solver, collection, status, total_s FROM results"
            f" WHERE solver IN ({', '.join('?' * len(solvers))})"
            f" AND collection IN ({', '.join('?' * len(collections))})",
            [*solvers, *collections],
        )
        found = [
            (solver, collection, status, float(total), timeouts.get(run, math.inf))
            for run, solver, collection, status, total in rows
        ]
        return found

    @_reported
    def add_host(self, run_id: int, host: HostInfo) -> None:
        self._add_host(run_id, host)

    def _add_host(self, run_id: int, host: HostInfo) -> None:
        machine = host.machine
        self.db.execute(
            "INSERT OR IGNORE INTO hosts (run, host, cpu, cores, os, python, load, versions,"
            " git_commit) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                host.name,
                *(machine.get(key) for key in _MACHINE_COLUMNS[1:]),
                json.dumps(host.versions),
                host.git_commit,
            ),
        )
        if host.conditions:  # the host's samples so far, merged by the caller
            self.db.execute(
                "UPDATE hosts SET conditions = ? WHERE run = ? AND host = ?",
                (json.dumps(host.conditions), run_id, host.name),
            )

    @_reported
    def add_certificates(self, run_id: int, rows: Sequence[dict[str, Any]]) -> None:
        with self._transaction():
            self.db.executemany(
                f"INSERT OR IGNORE INTO certificates (run, {', '.join(CERTIFICATE_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (len(CERTIFICATE_COLUMNS) + 1))})",
                [(run_id, *(row[key] for key in CERTIFICATE_COLUMNS)) for row in rows],
            )

    @_reported
    def certificates(self, run_id: int) -> dict[int, dict[str, Any]]:
        if "certificates" not in _columns(self.db):  # an older store opened read-only
            return {}
        rows = self.db.execute("SELECT * FROM certificates WHERE run = ?", (run_id,))
        return {row["task"]: {key: row[key] for key in CERTIFICATE_COLUMNS} for row in rows}

    @_reported
    def hosts(self, run_id: int) -> list[HostInfo]:
        if "hosts" not in _columns(self.db):  # an older store opened read-only
            return []
        rows = self.db.execute("SELECT * FROM hosts WHERE run = ? ORDER BY rowid", (run_id,))
        return [
            HostInfo(
                _machine(row),
                json.loads(row["versions"]),
                row["git_commit"] or "",
                json.loads(_get(row, "conditions") or "{}"),
            )
            for row in rows
        ]

    @_reported
    def finish_run(self, run_id: int, when: str = "") -> None:
        self.db.execute("UPDATE runs SET finished = ? WHERE id = ?", (when or now(), run_id))

    @_reported
    def positions(self, run_id: int) -> dict[int, int]:
        rows = self.db.execute("SELECT task, position FROM tasks WHERE run = ?", (run_id,))
        return {row[0]: row[1] for row in rows}

    @_reported
    def record_conditions(self, run_id: int, conditions: dict[str, Any]) -> None:
        self.db.execute(
            "UPDATE runs SET conditions = ? WHERE id = ?", (json.dumps(conditions), run_id)
        )

    @_reported
    def lock_run(
        self, run_id: int, owner: LockOwner, *, take_over: bool = False
    ) -> LockOwner | None:
        # BEGIN IMMEDIATE takes SQLite's write lock first: two processes cannot both read
        # "no lock" and both insert one
        with _Transaction(self.db, "BEGIN IMMEDIATE"):
            held = self._lock_row(run_id)
            theirs = held is not None and (held.pid, held.host) != (owner.pid, owner.host)
            if held is not None and theirs and not held.gone():
                if held.host == owner.host:  # alive here: --take-over would run its tasks twice
                    raise RunLockedError(
                        f"run {run_id} is being run by {held.describe()}, which is still running "
                        "on this host: wait for it to end or stop it (--take-over is for a lock "
                        "left by a process on another host that is gone)"
                    )
                if not take_over:
                    raise RunLockedError(
                        f"run {run_id} is being run by {held.describe()}: wait for it to end "
                        "or stop it (if it was killed on another host, --take-over resumes it)"
                    )
            self.db.execute(
                "INSERT OR REPLACE INTO locks (run, pid, host, process, since) VALUES (?,?,?,?,?)",
                (run_id, owner.pid, owner.host, owner.process, owner.since or now()),
            )
        return held

    @_reported
    def unlock_run(self, run_id: int, owner: LockOwner) -> None:
        self.db.execute(
            "DELETE FROM locks WHERE run = ? AND pid = ? AND host = ?",
            (run_id, owner.pid, owner.host),
        )

    @_reported
    def run_lock(self, run_id: int) -> LockOwner | None:
        if "locks" not in _columns(self.db):  # a store opened read-only before locks existed
            return None
        return self._lock_row(run_id)

    def _lock_row(self, run_id: int) -> LockOwner | None:
        row = self.db.execute(
            "SELECT pid, host, process, since FROM locks WHERE run = ?", (run_id,)
        ).fetchone()
        return None if row is None else LockOwner(row[0], row[1], row[2], row[3])

    @_reported
    def results(self, run_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM results WHERE run = ? ORDER BY task", (run_id,))
        found = []
        for row in rows:
            record = dict(row)
            record.pop("geometry", None)  # an older store opened read-only: `rules` has it
            record.setdefault("host", "")
            record["exact"] = bool(record["exact"])
            for key in (*_JSON_COLUMNS, "configuration"):
                record[key] = json.loads(record[key])
            found.append(record)
        return found

    def _configuration(self, run_id: int, task: int) -> str:
        row = self.db.execute(
            "SELECT configuration FROM tasks WHERE run = ? AND task = ?", (run_id, task)
        ).fetchone()
        if row is None:
            raise StoreError(f"run {run_id} has no task {task}")
        return str(row[0])

    def _transaction(self) -> _Transaction:
        # IMMEDIATE: the write lock is taken (waited for) at the start; a deferred transaction
        # that read first fails at once with "database is locked" when another process
        # (a refused resumption, a report) wrote in between
        return _Transaction(self.db, "BEGIN IMMEDIATE")


class _Transaction:
    """BEGIN ... COMMIT (or ROLLBACK on an exception) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection, begin: str = "BEGIN") -> None:
        self.db = db
        self.begin = begin

    def __enter__(self) -> None:
        self.db.execute(self.begin)

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _run_info(row: sqlite3.Row) -> RunInfo:
    return RunInfo(
        command=row["command"],
        seed=row["seed"],
        settings=json.loads(row["settings"]),
        machine=_machine(row),
        versions=json.loads(row["versions"]),
        git_commit=row["git_commit"] or "",
        started=row["started"],
        finished=row["finished"] or "",
        id=row["id"],
        conditions=json.loads(_get(row, "conditions") or "{}"),
    )


def _quoted(name: str) -> str:
    """An SQL identifier as SQLite reads any name: a foreign table may be called `my table`."""
    return '"' + name.replace('"', '""') + '"'


def _get(row: sqlite3.Row, column: str) -> Any:
    """A column that an older store opened read-only may lack (None there)."""
    return row[column] if column in row.keys() else None  # noqa: SIM118 (`in row` reads values)


def _machine(row: sqlite3.Row) -> dict[str, Any]:
    return {key: row[key] for key in _MACHINE_COLUMNS}


def _check_path(path: Path, create: bool) -> None:
    """Say what is wrong with a store's path in words (SQLite says 'unable to open')."""
    if path.is_dir():
        raise StoreError(f"{path} is a folder: --db takes a file, e.g. {path / DEFAULT_PATH}")
    if path.exists():
        if not path.is_file():  # SQLite says "disk I/O error" of /dev/null
            raise StoreError(f"{path} is not a regular file: --db takes an SQLite file")
        return
    if not create:  # reading (report, --resume) must not leave an empty store behind
        raise StoreError(f"{path}: no such results store (run `sudoku-bench bench` first)")
    if not path.parent.is_dir():
        raise StoreError(f"{path}: the folder {path.parent} does not exist")


def _check_ours(db: sqlite3.Connection, path: Path) -> None:
    """A database with tables of its own is someone else's: never add ours to it. Ours from
    another version of the schema would fail at the first missing column: say so instead."""
    tables = _columns(db)
    if tables and "runs" not in tables:
        db.close()
        raise StoreError(
            f"{path} is an SQLite database but not a results store (its tables: "
            f"{', '.join(sorted(tables))}): give --db a new file or a sudoku-bench store"
        )
    renamed = {(table, old): new for table, old, new in _RENAMED}
    for table, wanted in _schema_columns().items():
        missing = [
            column
            for column in wanted
            if table in tables
            and column not in tables[table]
            and renamed.get((table, column)) not in tables[table]
        ]
        if missing:
            db.close()
            raise StoreError(
                f"{path} is a results store of another version: its table {table} has no "
                f"{', '.join(missing)}; give --db a new file to start another"
            )


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the file or leave anything beside it.

    SQLite's read-only mode still creates the write-ahead log's `-wal` and `-shm` files of a
    WAL store (and fails where the folder is read-only). So a store with no `-wal` file, which
    then holds everything in its main file, is opened `immutable` (no locking, nothing
    created); one with a `-wal` file (a run going on, or killed) is opened read-only, sharing
    the writer's log, so its latest results are read.
    """
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    wal = path.with_name(path.name + "-wal")
    if not wal.exists():
        uri += "&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens the file now
    except sqlite3.OperationalError as error:
        if wal.exists():  # a log cannot be read without its `-shm` beside it
            raise StoreError(
                f"{path}: cannot read it read-only while its write-ahead log {wal.name} is "
                f"there ({error}): let the run that writes it end, or copy the store and its "
                "-wal file to a folder you can write"
            ) from None
        raise
    return db


def _upgrade_in_views(db: sqlite3.Connection) -> None:
    """The upgrade of `_upgrade`, for a store opened read-only: each table that lacks columns
    of later versions is shadowed by a temporary view (temporary objects live in memory and
    are found before the file's) that adds them with their defaults."""
    tables = _columns(db)
    missing: dict[str, list[str]] = {}
    for table, column, declaration in ADDED_COLUMNS:
        if table in tables and column not in tables[table]:
            default = declaration.partition(" DEFAULT ")[2] or "NULL"
            missing.setdefault(table, []).append(f"{default} AS {column}")
    for table, old, new in _RENAMED:
        if table in tables and old in tables[table]:
            missing.setdefault(table, []).append(f"{old} AS {new}")
    for table, added in missing.items():
        columns = "*"
        if table == "results" and "geometry" in tables[table]:  # before version 5
            kept = sorted(tables[table] - {"guesses"})
            columns = ", ".join([*kept, f"{_GUESSES_BEFORE_5} AS guesses"])
        db.execute(
            f"CREATE TEMP VIEW {table} AS SELECT {columns}, {', '.join(added)} FROM main.{table}"
        )
    for table, create in ADDED_TABLES:  # empty, in memory, as in a store of its version
        if table not in tables:
            db.execute(create.replace("CREATE TABLE", "CREATE TEMP TABLE", 1))


def _upgrade(db: sqlite3.Connection) -> None:
    """Bring the store to the current schema version: add the columns and tables of later
    versions that it lacks, make version 5's renames, and record the version. In one
    transaction that holds SQLite's write lock from the start, so two processes opening one
    old store do not both upgrade it. A store of the current version is not written to
    (a second process opening it must not disturb the one running it)."""
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    with _Transaction(db, "BEGIN IMMEDIATE"):
        for _, create in ADDED_TABLES:  # first: later versions add columns to them too
            db.execute(create)
        tables = _columns(db)
        for table, column, declaration in ADDED_COLUMNS:
            if column not in tables[table]:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
        if "geometry" in _columns(db)["results"]:
            _migrate_to_5(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _migrate_to_5(db: sqlite3.Connection) -> None:
    """Version 4 -> 5, inside the caller's transaction: `geometry` becomes `rules`, and the
    results table is rebuilt so that `guesses` may be NULL (set where it was not counted)."""
    db.execute("ALTER TABLE tasks RENAME COLUMN geometry TO rules")
    db.execute("ALTER TABLE results RENAME TO results_v4")
    db.execute(_RESULTS_V5)
    columns = [
        row[1] for row in db.execute("PRAGMA table_info(results)")
    ]  # the new table's, in order
    sources = {"rules": "geometry", "guesses": _GUESSES_BEFORE_5}
    db.execute(
        f"INSERT INTO results ({', '.join(columns)}) "
        f"SELECT {', '.join(sources.get(column, column) for column in columns)} FROM results_v4"
    )
    db.execute("DROP TABLE results_v4")


def _columns(db: sqlite3.Connection) -> dict[str, set[str]]:
    """Table -> its column names (SQLite's own tables left out)."""
    names = db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    return {
        name: {row[1] for row in db.execute(f"PRAGMA table_info({_quoted(name)})")}
        for (name,) in names
        if not name.startswith("sqlite_")
    }


@cache
def _schema_columns() -> dict[str, list[str]]:
    """The columns of schema version 1: every store of ours has at least these."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.executescript(_SCHEMA)
        return {table: sorted(columns) for table, columns in _columns(db).items()}


def open_store(path: Path | str | None, *, create: bool = True, read_only: bool = False) -> Store:
    """The store at `path`; with `create=False` (resuming a run) it must exist already.

    `read_only=True` (reports, comparisons, the inputs of a merge) opens an existing store
    without writing anything: no schema created or upgraded, no `-wal`/`-shm` files left
    beside it, so stores in read-only folders and read-only files can be read.
    """
    return SQLiteStore(path or DEFAULT_PATH, create=create, read_only=read_only)
