"""`sudoku_bench.harness.load_results`: one DataFrame row per task, the documented columns, the CSV's values."""

import csv
import io
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main

pd = pytest.importorskip("pandas", reason="pandas is in the analysis extra")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("frame") / "runs.sqlite"
    args = ["bench", "--db", str(db), "--quiet", "easy50", "-s", "propagating,dlx", "--repeat", "2"]
    assert main(args) == 0
    return db


def test_one_row_per_task_with_the_documented_columns(run: Path) -> None:
    from sudoku_bench import harness
    from sudoku_bench.harness.analysing.frame import COLUMNS

    frame = harness.load_results(run)
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == 50 * 2 * 2
    assert str(frame["status"].dtype) == "category" and frame["exact"].dtype == bool
    assert frame["cpu_s"].notna().all() and frame["peak_rss_mb"].gt(0).all()


def test_aggregates_equal_the_csv_report(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_bench import harness

    frame = harness.load_results(run)
    capsys.readouterr()
    assert main(["report", "--db", str(run), "--format", "csv"]) == 0
    text = capsys.readouterr().out
    rows = list(csv.DictReader(line for line in io.StringIO(text) if not line.startswith("#")))
    for solver, group in frame.groupby("solver"):
        from_csv = [float(r["total_s"]) for r in rows if r["solver"] == solver]
        assert group["total_s"].sum() == pytest.approx(sum(from_csv))
        assert group["nodes"].sum() == sum(int(r["nodes"]) for r in rows if r["solver"] == solver)
        assert group["cpu_s"].sum() == pytest.approx(
            sum(float(r["cpu_s"]) for r in rows if r["solver"] == solver)
        )


def test_parquet_holds_the_same_rows(run: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is in the analysis extra")
    from sudoku_bench import harness

    out = tmp_path / "results.parquet"
    assert main(["report", "--db", str(run), "--format", "parquet", "-o", str(out)]) == 0
    back = pd.read_parquet(out)
    frame = harness.load_results(run)
    assert len(back) == len(frame) and list(back.columns) == list(frame.columns)
    assert back["total_s"].sum() == pytest.approx(frame["total_s"].sum())


def test_parquet_carries_the_run_and_fixed_column_types(run: Path, tmp_path: Path) -> None:
    """A Parquet file shared without its store still says what it measured, and its column
    types do not depend on the data (a run without errors or guesses types them alike)."""
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is in the analysis extra")
    import json

    from sudoku_bench.harness.cli.commands.report import PARQUET_METADATA_KEY
    from tests.cli_contract import REPORT_RUN

    out = tmp_path / "results.parquet"
    assert main(["report", "--db", str(run), "--format", "parquet", "-o", str(out)]) == 0
    schema = pq.read_schema(out)
    metadata = json.loads(schema.metadata[PARQUET_METADATA_KEY])
    assert set(metadata) == REPORT_RUN and metadata["command"].startswith("sudoku-bench bench")
    types = {name: str(schema.field(name).type) for name in schema.names}
    assert types["error"] in ("string", "large_string") and types["guesses"] == "double"
    assert types["nodes"] == "double" and types["count"] == "int64"


def test_parquet_wants_a_file(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--db", str(run), "--format", "parquet"]) == 2
    assert "give -o FILE.parquet" in capsys.readouterr().err
