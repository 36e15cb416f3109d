"""`report --format latex`: a full `table` float (booktabs, caption, label) and one
`\\newcommand` per figure a paper cites, so that the text quotes the run's numbers by name
(`\\sbDlxSgmTopNinetyFive`) and a re-run updates them.

Macro names are letters only (TeX's rule for a control word): each word of the back-end,
collection and measure capitalised, digits spelled out as a number in words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from sudoku_bench.harness.analysing.summary import ALL, Summary

# The measures that get a macro: the summary's field, the macro's word, the unit shown.
MACROS = (
    ("sgm_s", "Sgm", "ms"),
    ("par2_s", "ParTwo", "ms"),
    ("median_s", "Median", "ms"),
    ("mean_s", "Mean", "ms"),
    ("solved", "Solved", ""),
    ("tasks", "Tasks", ""),
    ("timeouts", "Timeouts", ""),
)
PREFIX = "sb"

_ONES = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"]
_TENS = ["_", "_", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"]
_SPECIAL = str.maketrans(
    {c: "\\" + c for c in "&%$#_{}"}
    | {"~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}
)


def number_words(number: int) -> str:
    """`95` -> `NinetyFive`, `17` -> `Seventeen`, `1000` -> `OneThousand` (below a million)."""
    if number < 20:
        return _ONES[number]
    if number < 100:
        return _TENS[number // 10] + (_ONES[number % 10] if number % 10 else "")
    if number < 1000:
        rest = number % 100
        return _ONES[number // 100] + "Hundred" + (number_words(rest) if rest else "")
    if number < 1_000_000:
        rest = number % 1000
        return number_words(number // 1000) + "Thousand" + (number_words(rest) if rest else "")
    return "".join(_ONES[int(d)] for d in str(number))


def macro_word(text: str) -> str:
    """A name as letters: `top95` -> `TopNinetyFive`, `dlx-jit` -> `DlxJit`, `(all)` -> `All`."""
    parts = re.findall(r"[A-Za-z]+|\d+", text)
    return "".join(p.capitalize() if p.isalpha() else number_words(int(p)) for p in parts)


def escape(text: str) -> str:
    """Text safe in a LaTeX caption."""
    return str(text).translate(_SPECIAL)


def macros(summaries: Sequence[Summary]) -> list[str]:
    """`\\newcommand{\\sbDlxSgmTopNinetyFive}{0.412}`-style lines, one per back-end,
    collection and measure; times in ms to three significant figures."""
    lines, seen = [], set()
    for s in summaries:
        collection = "All" if s.collection == ALL else macro_word(s.collection)
        for field, word, unit in MACROS:
            name = f"{PREFIX}{macro_word(s.solver)}{word}{collection}"
            if name in seen:
                continue  # two names that spell the same letters: the first one keeps it
            seen.add(name)
            value = getattr(s, field)
            if unit == "ms":
                shown = "--" if not math.isfinite(value) else f"{value * 1000:.3g}"
            else:
                shown = str(value)
            lines.append(f"\\newcommand{{\\{name}}}{{{shown}}}")
    return lines


def table(tabular: str, caption: str, label: str) -> str:
    """The tabular inside a `table` float with its caption and label."""
    return (
        "\\begin{table}[htbp]\n\\centering\n\\small\n"
        f"{tabular}\n\\caption{{{escape(caption)}}}\n\\label{{{label}}}\n\\end{{table}}"
    )
