"""The `variants` experiment: the collections it takes, the families of rules, what counts as
solved, the generalisation ratio, predictions whose verdicts can go either way, and its quick
mode (every section, a "paper vs us" table)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.experiments.variants import (
    CLASSIC,
    Cell,
    Findings,
    Kind,
    Variants,
    cell_of,
    ending,
    family,
    prediction_rows,
    sum_ratios,
)
from sudoku_bench.puzzles.collections import (
    BUNDLED,
    VARIANTS_FOLDER,
    load,
    variant_collections,
)
from sudoku_bench.puzzles.formats import PuzzleEntry
from tests.experiment_support import assert_complete, run_quick, tables


def test_variant_collections_are_the_generated_ones_and_the_hand_listed_variants() -> None:
    names = variant_collections()
    generated = {n for n, b in BUNDLED.items() if b.file.startswith(f"{VARIANTS_FOLDER}/")}
    assert generated and generated <= set(names)
    assert {"killer", "jigsaw", "anti-knight"} <= set(names)
    assert not {"easy50", "6x6", "17clue", "4x4"} & set(names)  # classic rules only
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("thermometer", "pairs"),
        ("anti-knight", "pairs"),
        ("arrow", "sums"),
        ("killer", "sums"),
        ("box-indexer", "tables"),
        ("sandwich", "tables"),
        ("odd-even", "cell digits"),
        ("sudoku-x", "units"),
        ("jigsaw", "regions"),
        ("mixed", "mixed"),
        ("6x6", "classic"),
    ],
)
def test_each_collection_has_its_family_of_rules(name: str, expected: str) -> None:
    assert family(load(name)) == expected


def _row(entry: PuzzleEntry, status: str, seconds: float, solution: str | None = None) -> Any:
    if solution is None and status == "solved":
        assert entry.solution is not None
        solution = entry.solution.to_line()
    return {
        "puzzle_id": entry.id,
        "collection": entry.id.rpartition(":")[0],
        "solver": "x",
        "status": status,
        "count": 1 if solution else 0,
        "solution": solution or "",
        "total_s": seconds,
    }


def test_only_the_checked_unique_solution_counts_and_unsolved_tasks_cost_the_limit() -> None:
    entries = load("thermometer")[:5]
    assert entries[0].solution is not None
    # a full grid that breaks the thermometers (and differs from the file's solution)
    wrong = entries[1].solution
    assert wrong is not None and wrong.values != entries[0].solution.values
    rows = [
        _row(entries[0], "solved", 0.01),
        _row(entries[0], "solved", 0.02, solution=wrong.to_line()),
        _row(entries[1], "timeout", 5.0),
        _row(entries[2], "gave_up", 0.001),
        _row(entries[3], "unsupported", 0.0),
    ]
    by_id = {e.id: e for e in entries}
    cell = cell_of(rows, by_id, timeout=5.0)
    assert (cell.puzzles, cell.solved, cell.wrong, cell.unsupported) == (5, 1, 1, 1)
    # supported tasks: 0.01 solved, three unsolved at the limit -> median 5.0, censored
    assert cell.cost == 5.0 and cell.censored
    assert not cell.takes_all and cell.accepted


def test_a_stop_by_the_node_budget_is_told_from_a_stop_by_the_clock() -> None:
    entry = load("thermometer")[0]
    budget = {**_row(entry, "timeout", 5.0), "nodes": 50_001, "counters": {"node_budget": 50_000}}
    clock = {**budget, "nodes": 20_000}
    no_budget = {**_row(entry, "timeout", 5.0), "nodes": 0, "counters": {}}
    assert ending(budget, entry) == "node budget"
    assert ending(clock, entry) == ending(no_budget, entry) == "time limit"
    assert ending({**_row(entry, "gave_up", 0.1), "counters": {}}, entry) == "gave up"
    assert ending({**_row(entry, "solved", 0.1), "counters": {}}, entry) == "solved"


def _cell(cost: float | None, solved: int = 4, unsupported: int = 0) -> Cell:
    censored = cost is not None and solved * 2 <= 4 - unsupported
    return Cell(4, unsupported, solved, 0, cost, censored)


def _findings(cells: dict[tuple[str, str], Cell]) -> Findings:
    kinds = [
        Kind(CLASSIC[6], 6, "classic", classic=True),
        Kind("thermometer", 6, "pairs"),
        Kind("arrow", 6, "sums"),
        Kind("box-indexer", 6, "tables"),
    ]
    methods = sorted({method for _, method in cells})
    return Findings(kinds, methods, cells, {6: 5.0})


def _classic_and(method: str, classic: float, **kinds: Cell) -> dict[tuple[str, str], Cell]:
    found = {(CLASSIC[6], method): _cell(classic)}
    found.update({(name.replace("_", "-"), method): cell for name, cell in kinds.items()})
    return found


def test_the_ratio_is_against_the_method_s_own_classic_cost_and_none_without_one() -> None:
    cells = _classic_and("cpsat", 0.002, thermometer=_cell(0.004), arrow=_cell(0.02))
    cells.update(_classic_and("groebner", 5.0, thermometer=_cell(0.1)))
    cells[(CLASSIC[6], "groebner")] = _cell(5.0, solved=0)  # failed the yardstick itself
    found = _findings(cells)
    thermometer = found.kinds[1]
    assert found.ratio(thermometer, "cpsat") == pytest.approx(2.0)
    assert found.ratio(thermometer, "groebner") is None
    assert found.worst("cpsat") == ("arrow", pytest.approx(10.0))


def _verdicts(cells: dict[tuple[str, str], Cell]) -> list[str]:
    return [row.verdict for row in prediction_rows(_findings(cells))]


def test_the_predictions_can_go_either_way() -> None:
    unsupported = _cell(None, solved=0, unsupported=4)
    holds = {
        **_classic_and(
            "cpsat", 0.002, thermometer=_cell(0.004), arrow=_cell(0.01), box_indexer=_cell(0.01)
        ),
        **_classic_and(
            "sat", 0.002, thermometer=_cell(0.02), arrow=_cell(0.02), box_indexer=_cell(0.02)
        ),
        **_classic_and(
            "dlx", 0.001, thermometer=_cell(0.01), arrow=_cell(1.0), box_indexer=_cell(0.05)
        ),
        **_classic_and(
            "groebner", 0.001, thermometer=_cell(0.01), arrow=_cell(0.1), box_indexer=unsupported
        ),
    }
    assert _verdicts(holds) == ["agrees"] * 6
    fails = dict(holds)
    fails[("arrow", "cpsat")] = _cell(0.5)  # cpsat's worst kind now worse than sat's
    fails[("arrow", "groebner")] = _cell(5.0, solved=0)  # worse on sums than dlx
    fails[("box-indexer", "groebner")] = _cell(0.01)  # a table kind accepted
    assert _verdicts(fails) == ["disagrees"] * 6


def test_the_quick_design_has_a_classic_yardstick_and_few_puzzles() -> None:
    design = Variants().design(quick=True)
    (batch,) = design.batches
    collections = [entry.id.rpartition(":")[0] for entry in batch.entries]
    assert collections[0] == CLASSIC[6]
    assert {"thermometer", "arrow", "box-indexer"} <= set(collections)
    assert batch.limit == 2 and batch.node_limit is not None
    assert len(batch.entries) <= 10


def test_variants_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = run_quick("variants", tmp_path, capsys)
    assert_complete(record)
    text: str = record["text"]
    results = text.split("\n## Results\n")[1].split("\n## Compared with the paper\n")[0]
    found = tables(results)
    share = next(t for t in found if t[0][:2] == ["kind", "family"])
    header, *rows = share
    groebner = header.index("`groebner`")
    by_kind = {row[0]: row for row in rows}
    assert by_kind["box-indexer"][groebner] == "unsupported"  # no encoding of tables
    assert by_kind[f"classic ({CLASSIC[6]})"][1] == "classic"
    paper = next(t for t in found if t[0][:2] == ["measure", "paper"])
    assert len(paper) == 7  # three predictions, each a figure and what it is set against
    assert all(row[4] in ("agrees", "disagrees") for row in paper[1:])
    assert paper[5][3] == "100%" and paper[5][4] == "agrees"  # no table kind for groebner


def test_the_methods_are_ranked_on_sums_over_the_sum_kinds_every_one_accepts() -> None:
    kinds = [
        Kind(CLASSIC[6], 6, "classic", classic=True),
        Kind("arrow", 6, "sums"),
        Kind("killer", 6, "sums"),
    ]
    cells = {
        **_classic_and("dlx", 0.001, arrow=_cell(0.1), killer=_cell(None, 0, unsupported=1)),
        **_classic_and("logic", 0.001, arrow=_cell(0.01), killer=_cell(1.0)),
    }
    ratios = sum_ratios(Findings(kinds, ["dlx", "logic"], cells, {6: 5.0}))
    # dlx refuses a killer puzzle: killer is left out for both, not dlx left unranked
    assert ratios == {"dlx": pytest.approx(100.0), "logic": pytest.approx(10.0)}
