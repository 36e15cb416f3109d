"""Every bundled collection loads, with the number of puzzles sudoku_bench/puzzles/data/SOURCES.md gives."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from sudoku_bench.puzzles.collections import BUNDLED, load
from sudoku_bench.puzzles.errors import UnknownCollectionError


def documented_counts() -> dict[str, tuple[int, str]]:
    """name -> (puzzles, size) from the table in SOURCES.md (`1,000 of 49,158` -> 1000)."""
    text = resources.files("sudoku_bench.puzzles").joinpath("data", "SOURCES.md").read_text("utf-8")
    counts = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) >= 4 and cells[0] in BUNDLED:
            number = re.match(r"[\d,]+", cells[2])
            assert number, line
            counts[cells[0]] = (int(number.group().replace(",", "")), cells[3])
    return counts


def test_sources_documents_every_collection() -> None:
    assert set(documented_counts()) == set(BUNDLED)


@pytest.mark.parametrize("name", list(BUNDLED))
def test_collection_loads_with_documented_count(name: str) -> None:
    count, sizes = documented_counts()[name]
    entries = load(name)
    assert len(entries) == count
    assert {entry.puzzle.rules.name for entry in entries} == set(sizes.split(", "))
    assert entries[0].id.startswith(f"{name}:")
    assert len({entry.id for entry in entries}) == count


def test_an_id_given_back_loads_that_one_puzzle(tmp_path: Path) -> None:
    top95 = load("top95")
    assert load("top95:7") == [top95[6]]
    mine = tmp_path / "mine.txt"
    mine.write_text("# two 4x4 puzzles\n...3..4114..3...\n\n1...............\n")
    (chosen,) = load(f"{mine}:4")
    assert (chosen.id, chosen.puzzle.to_line()) == (f"{mine}:4", "1" + "." * 15)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "top95:96",
            "top95:96 names line 96 of top95, where no puzzle starts: an id names the line its "
            "puzzle starts on, and top95's run from top95:1 to top95:95",
        ),
        (  # line 1 of a CSV file is its header
            "seeds:1",
            "seeds:1 names line 1 of seeds, where no puzzle starts (the CSV header): an id names "
            "the line its puzzle starts on, and seeds's run from seeds:2 to seeds:6",
        ),
        ("top96:1", "'top96:1' is neither a file nor a bundled collection"),
    ],
)
def test_an_id_that_names_nothing_says_what_exists(spec: str, message: str) -> None:
    with pytest.raises(UnknownCollectionError) as raised:
        load(spec)
    assert str(raised.value).startswith(message)
