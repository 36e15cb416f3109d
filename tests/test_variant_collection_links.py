"""Every puzzle of the bundled single-kind variant collections (6x6 and 9x9) is written by
`convert --to fpuzzles-url` as a link that the lzstring package itself decodes to an f-puzzles
object reading back to the same puzzle and solution. (The setter-style mixes, `mixed*`, are
checked by the setter generator's own tests.)"""

from __future__ import annotations

import json

import pytest

from sudoku_bench.puzzles.collections import BUNDLED, VARIANTS_FOLDER, load
from sudoku_bench.puzzles.formats import write_text
from sudoku_bench.puzzles.formats.fpuzzles import URL, entry_from_object

lzstring = pytest.importorskip("lzstring")  # the fpuzzles extra

SINGLE_KIND = sorted(
    name
    for name, bundled in BUNDLED.items()
    if bundled.file.startswith(f"{VARIANTS_FOLDER}/") and not name.startswith("mixed")
)


def test_the_new_9x9_collections_are_among_them() -> None:
    assert {"between-line-9x9", "little-killer-9x9"} <= set(SINGLE_KIND)


@pytest.mark.parametrize("name", SINGLE_KIND)
def test_every_puzzle_converts_to_an_f_puzzles_link_that_reads_back(name: str) -> None:
    for entry in load(name):
        url = write_text([entry], "fpuzzles-url").strip()
        assert url.startswith(URL)
        data = json.loads(lzstring.LZString().decompressFromBase64(url[len(URL) :]))
        back = entry_from_object(data, "link")
        assert back.puzzle == entry.puzzle, entry.id
        assert back.solution == entry.solution, entry.id
