"""Rich display: short reprs, and grids drawn as SVG with what their rules mark."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers import create

SVG = "{http://www.w3.org/2000/svg}"


def first(name: str) -> Grid:
    return load(name)[0].puzzle


def drawn(grid: Grid) -> ET.Element:
    return ET.fromstring(grid.svg())  # well-formed XML, or this raises


def test_grid_repr_is_short_and_names_the_rules() -> None:
    grid = first("top95")
    assert repr(grid) == f"Grid({grid.to_line()[:18] + chr(0x2026)!r}, rules=9x9)"
    small = Grid.from_string("." * 16)
    assert repr(small) == f"Grid({'.' * 16!r}, rules=4x4)"


def test_givens_are_bold_and_every_given_is_drawn() -> None:
    grid = first("top95")
    texts = [t for t in drawn(grid).iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert len(texts) == grid.givens
    assert grid._repr_svg_() == grid.svg()
    assert grid.svg() in grid._repr_html_()


def test_killer_cages_are_dashed_with_their_sums() -> None:
    grid = first("killer")
    svg = drawn(grid)
    cages = [p for p in svg.iter(f"{SVG}path") if p.get("class") == "cage"]
    assert len(cages) == len(grid.rules.cages)
    assert all(p.get("stroke-dasharray") for p in cages)
    sums = {t.text for t in svg.iter(f"{SVG}text")}
    assert {str(c.total) for c in grid.rules.cages if c.total is not None} <= sums


def test_parity_jigsaw_diagonals_and_extra_regions_are_marked() -> None:
    odd_even = drawn(first("odd-even"))
    rules = first("odd-even").rules
    assert len([c for c in odd_even.iter(f"{SVG}circle") if c.get("class") == "odd"]) == len(
        rules.odd
    )
    assert len([r for r in odd_even.iter(f"{SVG}rect") if r.get("class") == "even"]) == len(
        rules.even
    )
    assert len(list(drawn(first("sudoku-x")).iter(f"{SVG}line"))) == 2
    jigsaw = drawn(first("jigsaw"))
    assert len({r.get("fill") for r in jigsaw.iter(f"{SVG}rect")} - {"none"}) > 2
    windoku = drawn(first("windoku"))
    assert [r for r in windoku.iter(f"{SVG}rect") if r.get("class") == "extra-unit"]


def test_a_rule_without_a_picture_is_named_below_the_grid() -> None:
    svg = first("anti-knight").svg()
    assert "also: anti-knight" in svg


def test_result_repr_holds_no_solutions() -> None:
    result = create("dlx").solve(Grid.from_string("." * 81), limit=2)
    text = repr(result)
    assert text.startswith("Result(solver='dlx'") and "count=2" in text
    assert len(text) < 200
    assert "<svg" in result._repr_html_()
