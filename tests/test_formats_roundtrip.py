"""Every format reads back what it wrote, for every common geometry and alphabet."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_bench.puzzles import Rules, is_solution
from sudoku_bench.puzzles.formats import (
    FORMATS,
    PlayerState,
    PuzzleEntry,
    ReadOptions,
    WriteOptions,
    read_text,
    write_text,
)
from sudoku_bench.puzzles.formats.fpuzzles import LARGEST
from tests.formats_strategies import GEOMETRIES, SEEDS, alphabets_for, entries, random_solution

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_options(fmt: str, rules: Rules, alphabet: Any) -> ReadOptions:
    """What the reader must be told: the geometry, unless the format itself records it."""
    keeps = FORMATS[fmt].keeps
    if "diagonals" in keeps:
        return ReadOptions(alphabet=alphabet)
    if "box" in keeps and not rules.diagonals:
        return ReadOptions(alphabet=alphabet)
    return ReadOptions(alphabet=alphabet, rules=rules)


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("rules", GEOMETRIES, ids=str)
@SETTINGS
@given(data=st.data())
def test_round_trip(fmt: str, rules: Rules, data: st.DataObject) -> None:
    keeps = FORMATS[fmt].keeps
    if fmt.startswith("fpuzzles") and rules.size > LARGEST:
        pytest.skip(f"f-puzzles draws grids up to {LARGEST}x{LARGEST}")
    alphabet = data.draw(st.sampled_from(alphabets_for(rules)))
    written = data.draw(
        st.lists(
            entries(
                rules,
                solutions="solution" in keeps,
                metadata="metadata" in keeps,
                state="state" in keeps,
            ),
            min_size=1,
            max_size=3,
        )
    )
    text = write_text(written, fmt, WriteOptions(alphabet))
    read = read_text(text, "t", fmt, read_options(fmt, rules, alphabet))
    assert [e.puzzle for e in read] == [e.puzzle for e in written]
    assert [e.puzzle.rules for e in read] == [rules] * len(written)
    assert [e.solution for e in read] == [e.solution for e in written]
    assert [e.state for e in read] == [_kept_state(fmt, e) for e in written]
    if "metadata" in keeps:
        kept = FORMATS[fmt].metadata_keys
        for before, after in zip(written, read, strict=True):
            expected = {k: v for k, v in before.metadata.items() if kept is None or k in kept}
            assert expected.items() <= after.metadata.items()
    # writing what was read gives the same text: nothing drifts on a second trip
    assert write_text(read, fmt, WriteOptions(alphabet)) == text


def _kept_state(fmt: str, entry: PuzzleEntry) -> PlayerState | None:
    """The player state a format gives back: f-puzzles has no state apart from the cells'
    entries and pencil marks, so a state with neither reads back as none."""
    if fmt.startswith("fpuzzles") and entry.state == PlayerState.blank(entry.puzzle):
        return None
    return entry.state


@pytest.mark.parametrize("rules", GEOMETRIES, ids=str)
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_random_grids_are_solutions(rules: Rules, seed: int) -> None:
    grid = random_solution(rules, random.Random(seed))
    assert is_solution(grid, grid)


def test_grid_blanks_and_ids() -> None:
    text = "\n# a comment\n..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n"
    (entry,) = read_text(text, "f.txt")
    assert entry.id == "f.txt:3"
    zeros = text.replace(".", "0")
    assert read_text(zeros, "z")[0].puzzle == entry.puzzle
