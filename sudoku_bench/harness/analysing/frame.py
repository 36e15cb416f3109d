"""Results as a pandas DataFrame: one row per task, for analysis in Python (pandas optional).

    from sudoku_bench.harness import load_results
    frame = load_results("sudoku-bench.sqlite")          # the latest run
    frame = load_results("sudoku-bench.sqlite", run="all")
    frame.groupby("solver")["total_s"].median()

Columns (`COLUMNS`, in this order; the same names as `report --format csv`): run, task,
collection, puzzle_id, puzzle, geometry, solver, configuration (JSON text), repeat, status
and verdict (categoricals of `sudoku_bench.solvers.base.Status` / `Verdict` values), count, exact (bool),
solution, build_s, solve_s, total_s, nodes, guesses, error, worker, finished (UTC
timestamp), wall_s, cpu_s, peak_rss_mb (floats, NaN where not measured), permutation
(nullable integer), host, certified (`bench --certify`: yes / no / failed), proof_bytes
(nullable integer) and check_s (float).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudoku_bench.harness.analysing.report import RAW_KEYS, exported, with_certificates
from sudoku_bench.harness.storing.store import Store, open_store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.solvers.base import Status, Verdict

if TYPE_CHECKING:
    import pandas

COLUMNS = RAW_KEYS
INTEGER_COLUMNS = ("run", "task", "repeat", "count", "proof_bytes")
FLOAT_COLUMNS = ("build_s", "solve_s", "total_s", "nodes", "guesses", "check_s")
TEXT_COLUMNS = tuple(
    column
    for column in COLUMNS
    if column not in (*INTEGER_COLUMNS, *FLOAT_COLUMNS)
    and column
    not in (
        "status",
        "verdict",
        "exact",
        "finished",
        "wall_s",
        "cpu_s",
        "peak_rss_mb",
        "permutation",
    )
)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise SudokuBenchError(
            "loading results as a DataFrame needs pandas: pip install 'sudoku-bench[analysis]'"
        ) from None
    return pandas


def results_frame(store: Store, run: int | str | None = None) -> pandas.DataFrame:
    """The results of one run (None: the latest), or of every run (`"all"`), as a DataFrame."""
    pd = _pandas()
    if run == "all":
        ids = [info.id for info in store.runs()]
    else:
        ids = [store.run(None if run is None else int(run)).id]
    rows = [
        {
            **exported(row),
            "configuration": json.dumps(row["configuration"]),
        }
        for run_id in ids
        for row in with_certificates(store, run_id)
    ]
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame["status"] = pd.Categorical(frame["status"], categories=[s.value for s in Status])
    frame["verdict"] = pd.Categorical(frame["verdict"], categories=[v.value for v in Verdict])
    frame["exact"] = frame["exact"].astype(bool)
    frame["finished"] = pd.to_datetime(frame["finished"], utc=True)
    for column in ("wall_s", "cpu_s", "peak_rss_mb"):
        frame[column] = frame[column].astype(float)
    frame["permutation"] = frame["permutation"].astype("Int64")
    # Every column's type fixed whatever the data: a run without errors still has a string
    # `error` column, a back-end without guesses a float `guesses` (NaN), so files written
    # from different runs (Parquet keeps the types) read and concatenate alike.
    for column in INTEGER_COLUMNS:
        frame[column] = frame[column].astype("Int64")
    for column in FLOAT_COLUMNS:
        frame[column] = frame[column].astype(float)
    for column in TEXT_COLUMNS:
        frame[column] = frame[column].astype("string")
    return frame


def load_results(db: str | Path, run: int | str | None = None) -> pandas.DataFrame:
    """The results stored in `db` as a DataFrame (see the module's column list)."""
    store = open_store(db, read_only=True)  # reading results never writes to the store
    try:
        return results_frame(store, run)
    finally:
        store.close()
