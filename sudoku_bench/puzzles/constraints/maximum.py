"""Maximum: a marked cell's digit is greater than each of its orthogonal neighbours' that
is not marked too.

f-puzzles writes `"maximum": [{"cell": "R1C1"}, ...]`; the rule is `minimum`'s turned round
(`sudoku_bench.puzzles.constraints.minimum.Extremum`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_bench.puzzles.constraints.minimum import Extremum, Minimum


@dataclass(frozen=True)
class Maximum(Extremum):
    kind = "maximum"
    title = "maximum"
    word = "maximum"
    json_keys = ("maximum",)
    fpuzzles_keys = ("maximum",)
    than = "greater"
    symbol = "^"
    shade = "#f5e3df"
    other = Minimum

    def allows(self, first: int, second: int) -> bool:
        return first > second


Minimum.other = Maximum
