"""Generated puzzles with a negative rule (negative kropki dots, negative XV) carry every mark
the rule reads its exceptions from, so `convert` writes them as f-puzzles links: the lzstring
package itself decodes each link to an f-puzzles object that reads back to the same puzzle
and solution. The non-consecutive rule, which f-puzzles writes with the same flag as the white
dots' negative rule, is stated as f-puzzles reads that flag beside the dots of a mix."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.clues import ClueGenerator, fpuzzles_statement
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints import (
    DifferenceNegative,
    NonConsecutive,
    Ratio,
    RatioNegative,
)
from sudoku_bench.puzzles.constraints.dots import Dot, NegativeRule
from sudoku_bench.puzzles.formats import PuzzleEntry, write_text
from sudoku_bench.puzzles.formats.fpuzzles import URL, entry_from_object
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.registry import create

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


@pytest.mark.parametrize(
    ("kinds", "named"),
    [
        # f-puzzles reads `nonconsecutive` beside a black dot as the white dots' negative rule,
        # which exempts the dotted pair: the mix is stated (and named) so
        (["non_consecutive", "ratio"], ("difference_negative", "ratio")),
        (["non_consecutive", "ratio_negative"], ("difference_negative", "ratio_negative")),
        # in a non-consecutive grid the white dots' negative rule has no exception: it is the
        # non-consecutive rule, which f-puzzles reads from the flag without dots
        (["difference_negative", "non_consecutive"], ("non_consecutive",)),
        (["non_consecutive", "xv_negative"], ("non_consecutive", "xv_negative")),
    ],
)
def test_a_non_consecutive_mix_is_written_as_an_f_puzzles_link(
    kinds: list[str], named: tuple[str, ...]
) -> None:
    made = ClueGenerator(Rules.of_size(6), kinds, seed=1, setter=True).one()
    url = write_text([PuzzleEntry("g:1", made.puzzle, made.solution)], "fpuzzles-url").strip()
    back = entry_from_object(decoded(url), "link")
    assert back.puzzle == made.puzzle
    assert back.solution == made.solution
    result = create("cpsat").solve(back.puzzle, limit=2)  # still unique as f-puzzles reads it
    assert result.exact and result.solutions == [made.solution]
    assert made.kinds == named
    assert {c.kind for c in made.puzzle.rules.constraints} >= set(named)


def test_non_consecutive_beside_dots_is_stated_as_f_puzzles_reads_the_flag_at_9x9() -> None:
    solution = next(e.solution for e in load("non-consecutive") if e.solution is not None)
    shape = solution.rules.shape
    dots = Ratio.candidates(solution.values, shape, random.Random(3))[:4]
    assert dots  # a non-consecutive grid has pairs 2:4, 3:6, 4:8
    dotted = frozenset((d.first, d.second) for d in dots if isinstance(d, Dot))
    no_exception = DifferenceNegative(frozenset({1}), frozenset())
    for given in ([NonConsecutive(), *dots], [NonConsecutive(), no_exception, *dots]):
        stated = fpuzzles_statement(given, solution.values)
        assert set(stated) == {*dots, DifferenceNegative(frozenset({1}), dotted)}
        rules = Rules.from_constraints(shape, stated)
        solved = Grid(rules, solution.values)
        url = write_text([PuzzleEntry("g:1", Grid.empty(rules), solved)], "fpuzzles-url")
        back = entry_from_object(decoded(url.strip()), "link")
        assert (back.puzzle.rules, back.solution) == (rules, solved)
    # without a dot the negative white-dot rule is non-consecutive, as f-puzzles reads the flag
    assert fpuzzles_statement([no_exception], solution.values) == (NonConsecutive(),)
    ratio_rule = RatioNegative(frozenset({2}), dotted)
    stated = fpuzzles_statement([NonConsecutive(), ratio_rule, *dots], solution.values)
    assert set(stated) == {
        *dots,
        ratio_rule,
        DifferenceNegative(frozenset({1}), dotted),
    }
