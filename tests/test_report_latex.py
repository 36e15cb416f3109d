"""`report --format latex`: a table float with caption and label, and a macro per figure."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sudoku_bench.harness.analysing.latex import escape, macro_word, number_words
from sudoku_bench.harness.cli import main


def test_macro_names_are_letters_only() -> None:
    assert number_words(95) == "NinetyFive"
    assert number_words(17) == "Seventeen"
    assert number_words(1000) == "OneThousand"
    assert number_words(216) == "TwoHundredSixteen"
    assert macro_word("top95") == "TopNinetyFive"
    assert macro_word("dlx-jit") == "DlxJit"
    assert macro_word("17clue") == "SeventeenClue"
    assert escape("a_b & 10%") == r"a\_b \& 10\%"


def test_latex_is_a_table_float_with_macros(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "latex.sqlite"
    assert main(["bench", "--db", str(db), "--quiet", "seeds", "-s", "dlx", "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "latex"]) == 0
    text = capsys.readouterr().out
    assert "\\begin{table}" in text and "\\end{table}" in text
    assert re.search(r"\\caption\{sudoku-bench run 1: .*\}", text)
    assert "\\label{tab:sudoku-bench-run-1}" in text
    macros = dict(re.findall(r"\\newcommand\{\\(sb[A-Za-z]+)\}\{([^}]*)\}", text))
    assert macros["sbDlxSolvedSeeds"] == "5"  # the 5 seeds puzzles, every one solved
    assert float(macros["sbDlxSgmSeeds"]) > 0
