"""SVG elements that kinds draw their marks with (`Constraint.svg`), on a `Canvas`: shaded
cells, a cage's dashed outline with its sum, circles and squares in cells, a line through cell
centres, a small number in a cell's corner or at an outside-clue place. Kinds compose these so
that every picture of the project has one look."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from sudoku_bench.puzzles.constraints.base import Canvas

CAGE_INSET = 4  # a cage's dashed outline sits this far inside its cells
INK = "#333"
GREY = "#dddddd"


def shaded(
    canvas: Canvas, cells: Iterable[int], fill: str, css: str, opacity: float = 1
) -> list[str]:
    """Each cell filled with `fill` (a rectangle of class `css`)."""
    unit = canvas.unit
    marks = []
    for cell in cells:
        x, y = canvas.corner(*divmod(cell, canvas.size))
        faded = f' opacity="{opacity}"' if opacity != 1 else ""
        marks.append(
            f'<rect x="{x:g}" y="{y:g}" width="{unit:g}" height="{unit:g}" fill="{fill}"{faded} '
            f'class="{css}"/>'
        )
    return marks


def circles(canvas: Canvas, cells: Iterable[int], css: str, scale: float = 0.38) -> list[str]:
    """A grey disc in each cell (an odd mark; a thermometer's bulb with another fill)."""
    radius = canvas.unit * scale
    return [
        f'<circle cx="{x:g}" cy="{y:g}" r="{radius:.1f}" fill="{GREY}" class="{css}"/>'
        for x, y in map(canvas.cell_centre, cells)
    ]


def squares(canvas: Canvas, cells: Iterable[int], css: str, scale: float = 0.38) -> list[str]:
    """A grey square in each cell (an even mark)."""
    half = canvas.unit * scale
    return [
        f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
        f'height="{2 * half:.1f}" fill="{GREY}" class="{css}"/>'
        for x, y in map(canvas.cell_centre, cells)
    ]


def polyline(
    canvas: Canvas, cells: Sequence[int], stroke: str, css: str, width: float = 0.2
) -> str:
    """A line through the centres of `cells` in order, `width` a fraction of a cell."""
    points = " ".join(f"{x:g},{y:g}" for x, y in map(canvas.cell_centre, cells))
    return (
        f'<polyline points="{points}" fill="none" stroke="{stroke}" '
        f'stroke-width="{canvas.unit * width:.1f}" stroke-linecap="round" '
        f'stroke-linejoin="round" class="{css}"/>'
    )


def label(canvas: Canvas, x: float, y: float, text: object, size: float = 0.25) -> str:
    """Small text at (x, y) pixels, anchored at its start and its baseline."""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{canvas.unit * size:.1f}" fill="#222">'
        f"{escape(str(text))}</text>"
    )


def centred(canvas: Canvas, row: int, col: int, text: object, size: float = 0.4) -> str:
    """Text centred in a cell's place (which may be an outside-clue place, row or column -1
    or N)."""
    x, y = canvas.centre(row, col)
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{canvas.unit * size:.1f}" fill="#222" '
        f'text-anchor="middle" dominant-baseline="central">{escape(str(text))}</text>'
    )


def cage(canvas: Canvas, cells: Iterable[int], total: int | None, css: str = "cage") -> list[str]:
    """A cage's dashed outline (inset, one unbroken line round its cells) and its sum in
    the corner of its first cell."""
    n, unit = canvas.size, canvas.unit
    inside_cells = set(cells)

    def inside(row: int, col: int) -> bool:
        return 0 <= row < n and 0 <= col < n and row * n + col in inside_cells

    path = []
    i, far, reach = CAGE_INSET, unit - CAGE_INSET, 2 * CAGE_INSET
    for cell in sorted(inside_cells):
        row, col = divmod(cell, n)
        x, y = canvas.corner(row, col)
        # an edge runs on into the next cell of the cage along it, so that the inset
        # outline is one unbroken line round the cage, inner corners included
        left = x + i - (reach if inside(row, col - 1) else 0)
        right = x + far + (reach if inside(row, col + 1) else 0)
        top = y + i - (reach if inside(row - 1, col) else 0)
        bottom = y + far + (reach if inside(row + 1, col) else 0)
        if not inside(row - 1, col):
            path.append(f"M{left:g} {y + i:g}H{right:g}")
        if not inside(row + 1, col):
            path.append(f"M{left:g} {y + far:g}H{right:g}")
        if not inside(row, col - 1):
            path.append(f"M{x + i:g} {top:g}V{bottom:g}")
        if not inside(row, col + 1):
            path.append(f"M{x + far:g} {top:g}V{bottom:g}")
    drawn = [
        f'<path d="{"".join(path)}" fill="none" stroke="{INK}" stroke-width="1" '
        f'stroke-dasharray="3 2" class="{css}"/>'
    ]
    if total is not None and inside_cells:
        x, y = canvas.corner(*divmod(min(inside_cells), n))
        drawn.append(
            f'<text x="{x + CAGE_INSET + 1:g}" y="{y + CAGE_INSET + 9:g}" font-size="9" '
            f'fill="#222">{total}</text>'
        )
    return drawn
