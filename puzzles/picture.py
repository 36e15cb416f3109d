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
mark on cells: extra regions (a letter per region), odd and even cells (`o`, `e`) and cages
(a letter per cage, with cage borders, then a legend of the sums).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from puzzles.rules import Rules

# Letters that name extra regions and cages in the pictures; past 62 they come round again
# (a border still parts two neighbouring cages, and the legend then names the first cell).
LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
OVERLAP = "#"  # a cell in two extra regions, or two cages
LEGEND_WIDTH = 72


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
    """Pictures of the extra regions, parity cells and cages, each under a title line;
    empty for rules that have none (classic Sudoku, Sudoku-X, pair rules only)."""
    parts = []
    if rules.extra_regions:
        owners: list[list[int]] = [[] for _ in rules.cells]
        for index, region in enumerate(rules.extra_regions):
            for cell in region:
                owners[cell].append(index)
        symbols = [_label_of(owner) for owner in owners]
        parts += ["extra regions (a letter each):", region_picture(rules, symbols)]
    if rules.odd or rules.even:
        symbols = ["o" if c in rules.odd else "e" if c in rules.even else "." for c in rules.cells]
        parts += ["odd (o) and even (e) cells:", region_picture(rules, symbols)]
    if rules.cages:
        symbols = [_label_of(list(owner)) for owner in rules.cages_of]
        parts += [
            "cages (a letter each) and their sums:",
            bordered(rules, symbols, lambda cell: rules.cages_of[cell]),
            *cage_legend(rules),
        ]
    return "\n".join(parts)


def _label_of(owners: Sequence[int]) -> str:
    if not owners:
        return "."
    return LABELS[owners[0] % len(LABELS)] if len(owners) == 1 else OVERLAP


def cage_legend(rules: Rules) -> list[str]:
    """`a=15 b=7 c=23 ...` wrapped to lines; a cage without a sum is `a=any`."""
    named_by_cell = len(rules.cages) > len(LABELS)
    words = []
    for index, cage in enumerate(rules.cages):
        word = f"{LABELS[index % len(LABELS)]}={'any' if cage.total is None else cage.total}"
        if named_by_cell:
            word += f"@{rules.cell_name(min(cage.cells))}"
        words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= LEGEND_WIDTH:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
