"""Generated puzzles with a negative rule (negative kropki dots, negative XV) carry every mark
the rule reads its exceptions from, so `convert` writes them as f-puzzles links: the lzstring
package itself decodes each link to an f-puzzles object that reads back to the same puzzle
and solution."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.clues import ClueGenerator
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints.dots import Dot, NegativeRule
from sudoku_bench.puzzles.formats import PuzzleEntry, write_text
from sudoku_bench.puzzles.formats.fpuzzles import URL, entry_from_object
from sudoku_bench.puzzles.rules import Rules

lzstring = pytest.importorskip("lzstring")  # the fpuzzles extra
pytest.importorskip("ortools")  # the generator counts with cpsat first


def decoded(url: str) -> dict[str, Any]:
    assert url.startswith(URL)
    data = json.loads(lzstring.LZString().decompressFromBase64(url[len(URL) :]))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    ("kinds", "setter"),
    [
        (["difference_negative"], False),
        (["ratio_negative"], False),
        (["xv_negative"], False),
        # the other dot kind's marks are exceptions too, as f-puzzles reads the rule
        (["difference_negative", "ratio"], True),
        (["ratio_negative", "difference"], True),
        (["xv_negative", "difference_negative"], True),
    ],
)
def test_a_generated_negative_rule_puzzle_is_written_as_an_f_puzzles_link(
    kinds: list[str], setter: bool
) -> None:
    made = ClueGenerator(Rules.of_size(6), kinds, seed=4, setter=setter).one()
    constraints = made.puzzle.rules.constraints
    negatives = [c for c in constraints if isinstance(c, NegativeRule)]
    assert negatives and is_solution(made.puzzle, made.solution)
    for rule in negatives:  # its exceptions are exactly the marks it reads them from
        reads = type(rule).marking_kinds()
        marked = {(d.first, d.second) for d in constraints if isinstance(d, reads)}
        assert rule.marked == marked
        assert all(isinstance(d, Dot) for d in rule.marks(made.solution.values))
    url = write_text([PuzzleEntry("g:1", made.puzzle, made.solution)], "fpuzzles-url").strip()
    data = decoded(url)
    assert data["solution"] == list(made.solution.values)
    back = entry_from_object(data, "link")
    assert back.puzzle == made.puzzle
    assert back.solution == made.solution


def test_generate_then_convert_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "negative.jsonl"
    command = ["generate", "--size", "6", "--kind", "difference_negative", "--seed", "2"]
    assert main([*command, "-o", str(made)]) == 0
    capsys.readouterr()
    assert main(["convert", str(made), "--to", "fpuzzles-url"]) == 0
    (url,) = capsys.readouterr().out.split()
    record = json.loads(made.read_text().splitlines()[0])
    data = decoded(url)
    back = entry_from_object(data, "link")
    assert back.puzzle.to_line() == record["puzzle"]
    assert back.puzzle.rules == Rules.from_json(record["rules"])
    assert back.solution is not None and back.solution.to_line() == record["solution"]
