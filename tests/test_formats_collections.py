"""Every bundled collection loads, with the number of puzzles puzzles/data/SOURCES.md gives."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from puzzles.collections import BUNDLED, load


def documented_counts() -> dict[str, tuple[int, str]]:
    """name -> (puzzles, size) from the table in SOURCES.md (`1,000 of 49,158` -> 1000)."""
    text = resources.files("puzzles").joinpath("data", "SOURCES.md").read_text("utf-8")
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
    assert {entry.puzzle.geometry.name for entry in entries} == set(sizes.split(", "))
    assert entries[0].id.startswith(f"{name}:")
    assert len({entry.id for entry in entries}) == count
