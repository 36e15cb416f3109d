"""Text pictures of the rules a digit grid cannot show: irregular regions, extra regions,
parity cells and killer cages.

A bordered picture puts one character per cell with one character between cells, and draws
a border (`|`, `-`, `+`) wherever the cells on either side belong to different groups
(regions, or cages), with a frame around the grid:

    +-----+-+-------+
    |5 3 .|.|7 . . .|
    |     | +---+   |

Classic pictures (boxes of a box shape) are drawn by `Grid.picture` as they always were;
`Grid.picture` draws a jigsaw with `bordered`. `marks` adds, below a puzzle, what its rules
mark on cells, each kind as it says (`Constraint.drawing`): extra regions (a letter per
region), odd and even cells (`o`, `e`) and cages (a letter per cage, with cage borders, then
a legend of the sums).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from sudoku_bench.puzzles.constraints.base import LABELS, OVERLAP
from sudoku_bench.puzzles.constraints.killer_cage import LEGEND_WIDTH, legend
from sudoku_bench.puzzles.rules import Rules

__all__ = ["LABELS", "LEGEND_WIDTH", "OVERLAP", "bordered", "cage_legend", "marks"]


def bordered(rules: Rules, symbols: Sequence[str], group: Callable[[int], Hashable]) -> str:
    """The cells' `symbols` with a border between any two cells whose `group` differs."""
    n = rules.size
    groups = [group(cell) for cell in rules.cells]

    def parted(a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Whether a border runs between cells a and b (row, col); outside the grid is
        its own group, so the frame is drawn."""
        inside = [0 <= r < n and 0 <= c < n for r, c in (a, b)]
        if not any(inside):
            return False
        if not all(inside):
            return True
        return groups[a[0] * n + a[1]] != groups[b[0] * n + b[1]]

    lines = []
    for y in range(2 * n + 1):
        chars = []
        for x in range(2 * n + 1):
            row, col = (y - 1) // 2, (x - 1) // 2
            if y % 2 and x % 2:  # a cell
                chars.append(symbols[row * n + col])
            elif y % 2:  # between two cells of a row
                chars.append("|" if parted((row, col), (row, col + 1)) else " ")
            elif x % 2:  # between two cells of a column
                chars.append("-" if parted((row, col), (row + 1, col)) else " ")
            else:  # a corner where four cells meet
                up = parted((row, col), (row, col + 1))
                down = parted((row + 1, col), (row + 1, col + 1))
                left = parted((row, col), (row + 1, col))
                right = parted((row, col + 1), (row + 1, col + 1))
                chars.append(_corner(up or down, left or right))
        lines.append("".join(chars).rstrip())
    return "\n".join(lines)


def _corner(vertical: bool, horizontal: bool) -> str:
    if vertical and horizontal:
        return "+"
    return "|" if vertical else "-" if horizontal else " "


def region_picture(rules: Rules, symbols: Sequence[str]) -> str:
    """The symbols with the borders of the regions (boxes or jigsaw pieces)."""
    return bordered(rules, symbols, rules.region_of)


def marks(rules: Rules) -> str:
    """Pictures of what the constraints mark on cells, each under a title line, in the
    rules' order; empty for rules that have none (classic Sudoku, Sudoku-X, pair rules only)."""
    parts: list[str] = []
    for kind, items in rules.by_kind():
        drawing = kind.drawing(items, rules.shape)
        if drawing is None:
            continue
        groups = drawing.groups if drawing.groups is not None else rules.region_of
        parts += [drawing.title, bordered(rules, drawing.symbols, groups), *drawing.legend]
    return "\n".join(parts)


def cage_legend(rules: Rules) -> list[str]:
    """`a=15 b=7 c=23 ...` wrapped to lines; a cage without a sum is `a=any`."""
    return legend(rules.cages, rules)
