"""The SVG picture asks each kind for its marks on a Canvas, falls back to the family's look,
then to the kind's name in words, and leaves a margin for clues outside the grid."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.puzzles.constraints import Canvas, Conflict, Constraint, SumConstraint
from sudoku_bench.puzzles.constraints.marks import centred
from sudoku_bench.puzzles.drawing import canvas_of, cell_size, grid_svg
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from tests.solving_support import UnwrittenKind

SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class CornerClue(UnwrittenKind):
    """A test kind with a clue above the grid (no `kind`: never registered)."""

    title = "corner clue"
    outside_clues = True

    def scope(self, shape: Any) -> tuple[int, ...]:
        return (0,)

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        return iter(())

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: Any, canvas: Canvas) -> list[str] | None:
        return [centred(canvas, -1, 0, "7")]


@dataclass(frozen=True)
class PlainSum(UnwrittenKind, SumConstraint):
    """A sum kind that draws nothing of its own: the family's cage is drawn."""

    cells: tuple[int, ...] = (0, 1)
    title = "plain sum"

    @property
    def summed(self) -> tuple[int, ...]:
        return self.cells

    @property
    def target(self) -> int | None:
        return 3

    @property
    def distinct(self) -> bool:
        return True

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        return iter(())


@dataclass(frozen=True)
class Unseen(UnwrittenKind):
    title = "unseen rule"

    def scope(self, shape: Any) -> tuple[int, ...]:
        return ()

    def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Conflict]:
        return iter(())


def test_an_outside_clue_gets_a_margin_of_one_cell_and_is_drawn_in_it() -> None:
    plain = Rules.of_size(4)
    rules = plain.with_constraints(CornerClue())
    unit = cell_size(4)
    assert canvas_of(rules).left == canvas_of(plain).left + unit
    svg = ET.fromstring(grid_svg(Grid.empty(rules)))
    assert (
        int(svg.get("width", 0))
        == int(ET.fromstring(grid_svg(Grid.empty(plain))).get("width", 0)) + 2 * unit
    )
    clue = next(t for t in svg.iter(f"{SVG}text") if t.text == "7")
    assert float(clue.get("y", 0)) < canvas_of(rules).top  # above the grid


def test_a_kind_without_marks_falls_back_to_its_family_then_to_words() -> None:
    rules = Rules.of_size(4).with_constraints(PlainSum(), Unseen())
    svg = grid_svg(Grid.empty(rules))
    tree = ET.fromstring(svg)
    assert [p for p in tree.iter(f"{SVG}path") if p.get("class") == "cage"]
    assert "also: unseen rule" in svg
    assert "plain sum" not in svg


def test_show_writes_each_puzzles_picture_as_svg_and_png(tmp_path: Any) -> None:
    import importlib.util

    from sudoku_bench.harness.cli import main

    assert main(["show", "killer:1", "killer:2", "--svg", str(tmp_path / "svg")]) == 0
    pictures = sorted(p.name for p in (tmp_path / "svg").iterdir())
    assert pictures == ["1.svg", "2.svg"]
    drawn = ET.fromstring((tmp_path / "svg" / "1.svg").read_text())
    assert [p for p in drawn.iter(f"{SVG}path") if p.get("class") == "cage"]
    if importlib.util.find_spec("cairosvg") is None:
        assert main(["show", "killer:1", "--png", str(tmp_path / "png")]) != 0
        assert not (tmp_path / "png").exists()
    else:
        assert main(["show", "killer:1", "--png", str(tmp_path / "png")]) == 0
        assert (tmp_path / "png" / "1.png").read_bytes().startswith(b"\x89PNG")
