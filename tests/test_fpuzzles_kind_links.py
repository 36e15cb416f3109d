"""`convert --to fpuzzles-url` for every kind in `KINDS`: one puzzle per kind, its clues the
kind's generator candidates on a solved grid, written as an f-puzzles link that the lzstring
package itself (not this project's reader) decodes to an f-puzzles object that reads back to
the same puzzle and solution."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from solving_support import shuffled_grid

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.constraints import KINDS, Constraint
from sudoku_bench.puzzles.constraints.dots import NegativeRule
from sudoku_bench.puzzles.formats import PuzzleEntry, write_text
from sudoku_bench.puzzles.formats.fpuzzles import URL, entry_from_object
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.shape import GridShape

lzstring = pytest.importorskip("lzstring")  # the fpuzzles extra


def puzzle_of(kind: str, seed: int = 7) -> tuple[Grid, Grid] | None:
    """A 9x9 puzzle with up to five clues of `kind` that its solution keeps, half the cells
    given; None when the kind gives no candidates."""
    rng = random.Random(f"{kind}-{seed}")
    shape = GridShape.of_size(9)
    solution = shuffled_grid(Rules.from_constraints(shape), rng)
    found = KINDS[kind].candidates(solution.values, shape, rng)[:5]
    if not found:
        return None
    clues: list[Constraint] = []
    for clue in found:
        # a negative rule stands with the marks f-puzzles reads its exceptions from
        clues += [clue, *clue.marks(solution.values)] if isinstance(clue, NegativeRule) else [clue]
    rules = Rules.from_constraints(shape, clues)
    solved = Grid(rules, solution.values)
    cells = list(rules.cells)
    rng.shuffle(cells)
    puzzle = solved.with_values(dict.fromkeys(cells[: len(cells) // 2], 0))
    return puzzle, solved


def decoded(url: str) -> dict[str, Any]:
    assert url.startswith(URL)  # https://www.f-puzzles.com/?load=, the link f-puzzles opens
    data = json.loads(lzstring.LZString().decompressFromBase64(url[len(URL) :]))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_convert_writes_an_f_puzzles_link_per_kind_that_reads_back_the_same(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = puzzle_of(kind)
    if made is None:
        pytest.skip(f"{kind} gives no generator candidates (yet)")
    puzzle, solution = made
    assert kind in {type(c).kind for c in puzzle.rules.constraints}
    source = tmp_path / "puzzle.json"
    source.write_text(write_text([PuzzleEntry("t:1", puzzle, solution)], "json"))
    assert main(["convert", str(source), "--to", "fpuzzles-url"]) == 0
    (url,) = capsys.readouterr().out.split()
    data = decoded(url)
    assert data["solution"] == list(solution.values)
    back = entry_from_object(data, "link")
    assert back.puzzle == puzzle
    assert back.solution == solution
