"""Examples of the line kinds (issue 30) on a 9x9 grid, for the tests that walk every kind."""

from __future__ import annotations

from sudoku_bench.puzzles.constraints import (
    Arrow,
    BetweenLine,
    Clone,
    Constraint,
    EntropicLine,
    Palindrome,
    RegionSumLine,
    Renban,
    SlowThermometer,
    Thermometer,
    Whispers,
    ZipperLine,
)

# cells are numbered row by row from r1c1 = 0 (r2c1 = 9)
LINE_EXAMPLES: dict[str, list[Constraint]] = {
    # a branching thermometer: two lines from the bulb r1c1
    "thermometer": [Thermometer((0, 1, 2)), Thermometer((0, 9, 18))],
    "slow_thermometer": [SlowThermometer((30, 31, 40))],
    # a circle with a line of two, and a pill r7c7 r7c8 read as a two-digit number
    "arrow": [Arrow((40,), (41, 42)), Arrow((60, 61), (69, 78, 79))],
    "whispers": [Whispers((3, 4, 5), 5), Whispers((12, 13), 4)],
    "palindrome": [Palindrome((45, 46, 47, 48))],
    "renban": [Renban((50, 51, 52))],
    "between_line": [BetweenLine((63, 64, 65, 66))],
    "clone": [Clone((6, 7), (78, 79))],
    "entropic_line": [EntropicLine((19, 20, 21, 22), 9)],
    "zipper_line": [ZipperLine((27, 28, 29, 38, 37))],
    "region_sum_line": [RegionSumLine((21, 22, 23, 24, 25))],
}
