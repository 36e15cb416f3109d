"""A grid as SVG, for notebooks and pages: regions, givens, and what each constraint draws.

What is drawn comes from the rules' shape (rows, columns, regions) and from the constraint
objects (`Rules.constraints`), by family: a diagonal unit as a line, any other extra unit
shaded, a sum constraint (a killer cage) as a dashed outline with its total, parity marks as a
circle (odd) or a square (even). A kind this module does not know is named in words below
the grid (its `title`), never silently left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING

from puzzles.constraints.base import CellDigits, Constraint, SumConstraint, UnitConstraint
from puzzles.constraints.diagonal import Diagonal
from puzzles.constraints.parity import Parity
from puzzles.rules import Rules
from puzzles.symbols import DEFAULT

if TYPE_CHECKING:
    from puzzles.grid import Grid

Place = Callable[[int], tuple[int, int]]  # a cell's top-left corner in pixels

CELL = 36  # pixels per cell at 9x9; bigger grids get smaller cells (see `cell_size`)
MARGIN = 4
CAGE_INSET = 4  # a cage's dashed outline sits this far inside its cells
SHADES = ("#e8eef8", "#f6ecd9", "#e6f2e4", "#f3e3ee", "#eeeeee", "#fdf5cc", "#e0f0f0")


def cell_size(size: int) -> int:
    """Pixels per cell: the whole grid stays about 330-500 px wide."""
    return max(18, min(CELL, 460 // size))


def grid_svg(grid: Grid, *, given: Sequence[bool] | None = None) -> str:
    """The grid as a standalone SVG document. `given[cell]` marks the cells drawn bold (by
    default every filled cell: a puzzle's givens)."""
    rules = grid.rules
    n = rules.size
    unit = cell_size(n)
    side = n * unit
    bold = [v != 0 for v in grid.values] if given is None else list(given)
    region = [rules.region_of(cell) for cell in rules.cells]
    unknown: list[str] = []
    parts: list[str] = []

    def xy(cell: int) -> tuple[int, int]:
        return MARGIN + rules.col_of(cell) * unit, MARGIN + rules.row_of(cell) * unit

    if rules.layout is not None:  # jigsaw: each region its own shade
        for cell in rules.cells:
            x, y = xy(cell)
            fill = SHADES[region[cell] % len(SHADES)]
            parts.append(f'<rect x="{x}" y="{y}" width="{unit}" height="{unit}" fill="{fill}"/>')
    lines: list[str] = []
    cages: list[SumConstraint] = []
    for constraint in rules.constraints:
        if isinstance(constraint, Diagonal):
            a, b = (MARGIN + side, MARGIN) if constraint.anti else (MARGIN, MARGIN)
            c, d = (MARGIN, MARGIN + side) if constraint.anti else (MARGIN + side, MARGIN + side)
            lines.append(
                f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#6a8fd0" '
                'stroke-width="1.5" opacity="0.7"/>'
            )
        elif isinstance(constraint, UnitConstraint):  # extra regions, windows: shaded cells
            for cell in constraint.scope(rules):
                x, y = xy(cell)
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{unit}" height="{unit}" fill="#c9d8ef" '
                    'opacity="0.8" class="extra-unit"/>'
                )
        elif isinstance(constraint, SumConstraint):
            cages.append(constraint)
        elif isinstance(constraint, Parity):
            lines += _parity_marks(constraint, xy, unit)
        elif isinstance(constraint, CellDigits):
            unknown.append(_title(constraint))  # a digit restriction without a picture
        else:
            unknown.append(_title(constraint))  # pair rules (anti-knight, ...) have no marks
    parts += lines
    parts += _cage_outlines(cages, rules, xy, unit)
    parts += _borders(rules, region, unit)
    parts.append(
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{side}" height="{side}" fill="none" '
        'stroke="black" stroke-width="3"/>'
    )
    symbols = list(DEFAULT.symbols[:n]) if DEFAULT.covers(n) else [str(d) for d in range(1, n + 1)]
    font = round(unit * 0.55)
    for cell, value in enumerate(grid.values):
        if value:
            x, y = xy(cell)
            weight = "bold" if bold[cell] else "normal"
            colour = "black" if bold[cell] else "#2456a8"
            parts.append(
                f'<text x="{x + unit / 2}" y="{y + unit / 2}" font-size="{font}" '
                f'font-weight="{weight}" fill="{colour}" text-anchor="middle" '
                f'dominant-baseline="central">{escape(symbols[value - 1])}</text>'
            )
    height = side + 2 * MARGIN
    note = ""
    if unknown:
        words = ", ".join(dict.fromkeys(unknown))
        note = (
            f'<text x="{MARGIN}" y="{height + 12}" font-size="12" fill="#444">'
            f"also: {escape(words)}</text>"
        )
        height += 18
    width = side + 2 * MARGIN
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
        f"<title>{escape(rules.name)}</title>" + "".join(parts) + note + "</svg>"
    )


def _title(constraint: Constraint) -> str:
    return constraint.title or type(constraint).__name__


def _parity_marks(parity: Parity, place: Place, unit: int) -> list[str]:
    marks = []
    radius = unit * 0.38
    for cell in sorted(parity.odd):
        x, y = place(cell)
        marks.append(
            f'<circle cx="{x + unit / 2}" cy="{y + unit / 2}" r="{radius:.1f}" fill="#dddddd" '
            'class="odd"/>'
        )
    for cell in sorted(parity.even):
        x, y = place(cell)
        inset = unit / 2 - radius
        marks.append(
            f'<rect x="{x + inset:.1f}" y="{y + inset:.1f}" width="{2 * radius:.1f}" '
            f'height="{2 * radius:.1f}" fill="#dddddd" class="even"/>'
        )
    return marks


def _cage_outlines(
    cages: Sequence[SumConstraint], rules: Rules, place: Place, unit: int
) -> list[str]:
    """Each cage's outline (dashed, inset) along the edges where its cells meet others."""
    n = rules.size
    drawn = []
    for cage in cages:
        cells = set(cage.summed)

        def inside(row: int, col: int, cells: set[int] = cells) -> bool:
            return 0 <= row < n and 0 <= col < n and row * n + col in cells

        path = []
        i, far, reach = CAGE_INSET, unit - CAGE_INSET, 2 * CAGE_INSET
        for cell in cells:
            row, col = rules.row_of(cell), rules.col_of(cell)
            x, y = place(cell)
            # an edge runs on into the next cell of the cage along it, so that the inset
            # outline is one unbroken line round the cage, inner corners included
            left = x + i - (reach if inside(row, col - 1) else 0)
            right = x + far + (reach if inside(row, col + 1) else 0)
            top = y + i - (reach if inside(row - 1, col) else 0)
            bottom = y + far + (reach if inside(row + 1, col) else 0)
            if not inside(row - 1, col):
                path.append(f"M{left} {y + i}H{right}")
            if not inside(row + 1, col):
                path.append(f"M{left} {y + far}H{right}")
            if not inside(row, col - 1):
                path.append(f"M{x + i} {top}V{bottom}")
            if not inside(row, col + 1):
                path.append(f"M{x + far} {top}V{bottom}")
        drawn.append(
            f'<path d="{"".join(path)}" fill="none" stroke="#333" stroke-width="1" '
            'stroke-dasharray="3 2" class="cage"/>'
        )
        if cage.target is not None:
            x, y = place(min(cells))
            drawn.append(
                f'<text x="{x + CAGE_INSET + 1}" y="{y + CAGE_INSET + 9}" font-size="9" '
                f'fill="#222">{cage.target}</text>'
            )
    return drawn


def _borders(rules: Rules, region: Sequence[int], unit: int) -> list[str]:
    """Thin lines between cells, thick ones where the region changes."""
    n = rules.size
    thin: list[str] = []
    thick: list[str] = []
    for row in range(n):
        for col in range(n):
            cell = row * n + col
            x, y = MARGIN + col * unit, MARGIN + row * unit
            if col + 1 < n:
                edge = f"M{x + unit} {y}V{y + unit}"
                (thick if region[cell] != region[cell + 1] else thin).append(edge)
            if row + 1 < n:
                edge = f"M{x} {y + unit}H{x + unit}"
                (thick if region[cell] != region[cell + n] else thin).append(edge)
    return [
        f'<path d="{"".join(thin)}" stroke="#999" stroke-width="0.8" fill="none"/>',
        f'<path d="{"".join(thick)}" stroke="black" stroke-width="2.2" fill="none"/>',
    ]
