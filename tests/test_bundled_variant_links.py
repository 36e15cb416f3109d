"""Every puzzle of every bundled variant collection (the generated ones under `variants/`,
setter-style mixes included, and the hand-listed ones) is written by `convert --to
fpuzzles-url` as an f-puzzles link that the lzstring package itself decodes to an object
reading back to the same puzzle and solution: f-puzzles opens the puzzle the file holds."""

from __future__ import annotations

import json

import pytest

from sudoku_bench.puzzles.collections import load, variant_collections
from sudoku_bench.puzzles.formats import write_text
from sudoku_bench.puzzles.formats.fpuzzles import URL, entry_from_object

lzstring = pytest.importorskip("lzstring")  # the fpuzzles extra


@pytest.mark.parametrize("name", variant_collections())
def test_every_puzzle_of_a_variant_collection_converts_to_an_f_puzzles_link(name: str) -> None:
    entries = load(name)
    links = write_text(entries, "fpuzzles-url").split()
    assert len(links) == len(entries)
    decoder = lzstring.LZString()
    for entry, link in zip(entries, links, strict=True):
        assert link.startswith(URL)
        back = entry_from_object(json.loads(decoder.decompressFromBase64(link[len(URL) :])), "x")
        assert back.puzzle == entry.puzzle, entry.id
        assert back.solution == entry.solution, entry.id
