"""The default suite: what `sudoku-bench bench` runs with no arguments (the README's main job).

A slice of each kind of bundled puzzle, every available back-end, and a time limit chosen so
that the whole run ends in a few minutes on a 2-core machine even when the slow back-ends
(the textbook backtracker, python-constraint, Groebner bases) time out on the hard puzzles.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_bench.puzzles.collections import BUNDLED, VARIANTS_FOLDER, load
from sudoku_bench.puzzles.formats import PuzzleEntry


@dataclass(frozen=True)
class Part:
    collection: str
    count: int | None = None  # the first `count` puzzles; None for all


DEFAULT_SUITE: tuple[Part, ...] = (
    Part("easy50"),
    Part("top95", 40),
    Part("hardest"),
    Part("17clue", 20),
    Part("multi", 10),
    Part("4x4", 20),
    Part("6x6", 10),
    Part("sudoku-x", 10),
    Part("12x12", 5),
    Part("16x16", 5),
    # variant rules: a few of each bundled collection (back-ends that cannot express them
    # answer `unsupported`, counted apart)
    Part("jigsaw", 3),
    Part("windoku", 3),
    Part("anti-knight", 3),
    Part("anti-king", 3),
    Part("non-consecutive", 3),
    Part("odd-even", 3),
    Part("killer", 5),
    Part("ortools-killer"),
    # the setters' variants (thermometers, arrows, dots, outside clues, ...): 2 of each
    # generated 6x6 collection and of the mixes, 1 of each 9x9 one (`*-9x9`)
    *(
        Part(name, 1 if name.endswith("-9x9") else 2)
        for name, bundled in sorted(BUNDLED.items())
        if bundled.file.startswith(f"{VARIANTS_FOLDER}/")
    ),
)


def describe() -> str:
    return ", ".join(
        p.collection if p.count is None else f"{p.collection} (first {p.count})"
        for p in DEFAULT_SUITE
    )


def entries() -> list[PuzzleEntry]:
    found: list[PuzzleEntry] = []
    for part in DEFAULT_SUITE:
        found += load(part.collection)[: part.count]
    return found
