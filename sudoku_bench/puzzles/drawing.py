"""A grid as SVG, for notebooks and pages: regions, givens, and what each constraint draws.

What is drawn comes from the rules' shape (rows, columns, regions) and from the constraint
kinds: each kind draws its own marks on a `Canvas` (`Constraint.svg`); a kind that draws none
falls back to its family's look (a unit's cells shaded, a sum constraint's dashed cage), and
failing that is named in words below the grid (its `title`), never silently left out. When a
kind has clues outside the grid (`outside_clues`), the picture leaves a margin of one cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from sudoku_bench.puzzles.constraints import marks
from sudoku_bench.puzzles.constraints.base import Canvas, Constraint, SumConstraint, UnitConstraint
from sudoku_bench.puzzles.constraints.extra_region import shaded_units
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT

if TYPE_CHECKING:
    from sudoku_bench.puzzles.grid import Grid

CELL = 36  # pixels per cell at 9x9; bigger grids get smaller cells (see `cell_size`)
MARGIN = 4
SHADES = ("#e8eef8", "#f6ecd9", "#e6f2e4", "#f3e3ee", "#eeeeee", "#fdf5cc", "#e0f0f0")


def cell_size(size: int) -> int:
    """Pixels per cell: the whole grid stays about 330-500 px wide."""
    return max(18, min(CELL, 460 // size))


def canvas_of(rules: Rules) -> Canvas:
    """Where the grid of these rules is drawn: one cell's margin round it when a kind draws
    clues outside the grid."""
    unit = cell_size(rules.size)
    outside = any(kind.outside_clues for kind, _ in rules.by_kind())
    offset = MARGIN + (unit if outside else 0)
    return Canvas(rules.size, unit, offset, offset)


def kind_marks(
    kind: type[Constraint], items: Sequence[Constraint], rules: Rules, canvas: Canvas
) -> list[str] | None:
    """A kind's SVG marks: its own (`svg`), else its family's, else None (named in words)."""
    own = kind.svg(items, rules.shape, canvas)
    if own is not None:
        return own
    if issubclass(kind, UnitConstraint):
        cells = sorted({c for item in items for c in item.scope(rules.shape)})
        return shaded_units(canvas, cells)
    if issubclass(kind, SumConstraint):
        return [
            mark
            for item in items
            if isinstance(item, SumConstraint)
            for mark in marks.cage(canvas, item.summed, item.target)
        ]
    return None


def grid_svg(grid: Grid, *, given: Sequence[bool] | None = None) -> str:
    """The grid as a standalone SVG document. `given[cell]` marks the cells drawn bold (by
    default every filled cell: a puzzle's givens)."""
    rules = grid.rules
    n = rules.size
    canvas = canvas_of(rules)
    unit = cell_size(n)
    side = n * unit
    left = canvas.left
    bold = [v != 0 for v in grid.values] if given is None else list(given)
    region = [rules.region_of(cell) for cell in rules.cells]
    unknown: list[str] = []
    parts: list[str] = []
    if rules.layout is not None:  # jigsaw: each region its own shade
        for cell in rules.cells:
            fill = SHADES[region[cell] % len(SHADES)]
            parts += marks.shaded(canvas, (cell,), fill, "region")
    for kind, items in rules.by_kind():
        drawn = kind_marks(kind, items, rules, canvas)
        if drawn is None:
            unknown.append(_title(kind))
        else:
            parts += drawn
    parts += _borders(rules, region, canvas)
    parts.append(
        f'<rect x="{left}" y="{left}" width="{side}" height="{side}" fill="none" '
        'stroke="black" stroke-width="3"/>'
    )
    symbols = list(DEFAULT.symbols[:n]) if DEFAULT.covers(n) else [str(d) for d in range(1, n + 1)]
    font = round(unit * 0.55)
    for cell, value in enumerate(grid.values):
        if value:
            x, y = canvas.cell_centre(cell)
            weight = "bold" if bold[cell] else "normal"
            colour = "black" if bold[cell] else "#2456a8"
            parts.append(
                f'<text x="{x:g}" y="{y:g}" font-size="{font}" '
                f'font-weight="{weight}" fill="{colour}" text-anchor="middle" '
                f'dominant-baseline="central">{escape(symbols[value - 1])}</text>'
            )
    height = side + 2 * left
    note = ""
    if unknown:
        words = ", ".join(dict.fromkeys(unknown))
        note = (
            f'<text x="{MARGIN}" y="{height + 12}" font-size="12" fill="#444">'
            f"also: {escape(words)}</text>"
        )
        height += 18
    width = side + 2 * left
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
        f"<title>{escape(rules.name)}</title>" + "".join(parts) + note + "</svg>"
    )


def grid_png(grid: Grid, *, given: Sequence[bool] | None = None, scale: float = 2.0) -> bytes:
    """The grid's SVG (`grid_svg`) rendered as PNG, `scale` times its pixel size, by cairosvg
    (`pip install 'sudoku-bench[pictures]'`; without it a `SudokuBenchError` says so)."""
    try:
        import cairosvg
    except (ImportError, OSError):  # OSError: the package is there but not the cairo library
        raise SudokuBenchError(
            "PNG pictures need cairosvg (and the cairo library): "
            "pip install 'sudoku-bench[pictures]'"
        ) from None
    png: bytes = cairosvg.svg2png(bytestring=grid_svg(grid, given=given).encode(), scale=scale)
    return png


def _title(kind: type[Constraint]) -> str:
    return kind.title or kind.__name__


def _borders(rules: Rules, region: Sequence[int], canvas: Canvas) -> list[str]:
    """Thin lines between cells, thick ones where the region changes."""
    n, unit = rules.size, canvas.unit
    thin: list[str] = []
    thick: list[str] = []
    for row in range(n):
        for col in range(n):
            cell = row * n + col
            x, y = canvas.corner(row, col)
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
