"""The techniques in order of difficulty, each with its level. The solver always applies the
first one in this table that finds something, so a log shows the simplest reasoning."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from solvers.logic.chains import simple_colouring, xy_wing
from solvers.logic.fish import jellyfish, swordfish, x_wing
from solvers.logic.intersections import box_line_reduction, pointing
from solvers.logic.singles import hidden_single, naked_single
from solvers.logic.state import Candidates, Step
from solvers.logic.subsets import (
    hidden_pair,
    hidden_quad,
    hidden_triple,
    naked_pair,
    naked_quad,
    naked_triple,
)

# Difficulty levels, easiest first; a puzzle no technique finishes is "beyond logic".
LEVELS = ("easy", "medium", "hard", "expert")
BEYOND_LOGIC = "beyond logic"


@dataclass(frozen=True)
class Technique:
    key: str  # the counter name and the `Step.technique` it produces
    name: str  # in words
    level: str  # one of LEVELS
    find: Callable[[Candidates], Step | None]


TECHNIQUES: tuple[Technique, ...] = (
    Technique("naked_single", "naked single", "easy", naked_single),
    Technique("hidden_single", "hidden single", "easy", hidden_single),
    Technique("pointing", "pointing pair / triple", "medium", pointing),
    Technique("box_line_reduction", "box/line reduction", "medium", box_line_reduction),
    Technique("naked_pair", "naked pair", "medium", naked_pair),
    Technique("hidden_pair", "hidden pair", "medium", hidden_pair),
    Technique("naked_triple", "naked triple", "medium", naked_triple),
    Technique("hidden_triple", "hidden triple", "hard", hidden_triple),
    Technique("naked_quad", "naked quad", "hard", naked_quad),
    Technique("x_wing", "X-wing", "hard", x_wing),
    Technique("xy_wing", "XY-wing", "hard", xy_wing),
    Technique("hidden_quad", "hidden quad", "expert", hidden_quad),
    Technique("swordfish", "swordfish", "expert", swordfish),
    Technique("simple_colouring", "simple colouring", "expert", simple_colouring),
    Technique("jellyfish", "jellyfish", "expert", jellyfish),
)

BY_KEY = {technique.key: technique for technique in TECHNIQUES}


def choose(keys: Iterable[str] | None) -> tuple[Technique, ...]:
    """The techniques named by `keys` (all when None), kept in the table's order."""
    if keys is None:
        return TECHNIQUES
    wanted = set(keys)
    unknown = wanted - BY_KEY.keys()
    if unknown:
        raise ValueError(
            f"unknown technique(s) {', '.join(sorted(unknown))}; known: {', '.join(BY_KEY)}"
        )
    return tuple(t for t in TECHNIQUES if t.key in wanted)


def next_step(state: Candidates, techniques: Iterable[Technique] = TECHNIQUES) -> Step | None:
    """The first deduction of the easiest technique that finds one, or None when stuck."""
    for technique in techniques:
        step = technique.find(state)
        if step is not None:
            return step
    return None
