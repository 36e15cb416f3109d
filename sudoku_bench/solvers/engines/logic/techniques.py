"""The techniques in order of difficulty, each with its level. The solver always applies the
first one in this table that finds something, so a log shows the simplest reasoning."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Deadline
from sudoku_bench.solvers.engines.logic import (
    clock,
    families,
    forcing,
    joint,
    killer,
    uniqueness,
    variants,
)
from sudoku_bench.solvers.engines.logic.als import als_xy_chain, als_xy_wing, als_xz
from sudoku_bench.solvers.engines.logic.chains import (
    aic,
    nice_loop,
    remote_pairs,
    simple_colouring,
    x_chain,
    xy_chain,
    xy_wing,
)
from sudoku_bench.solvers.engines.logic.fish import (
    finned_jellyfish,
    finned_swordfish,
    finned_x_wing,
    jellyfish,
    swordfish,
    x_wing,
)
from sudoku_bench.solvers.engines.logic.franken import (
    franken_jellyfish,
    franken_swordfish,
    franken_x_wing,
)
from sudoku_bench.solvers.engines.logic.intersections import box_line_reduction, pointing
from sudoku_bench.solvers.engines.logic.singles import hidden_single, naked_single
from sudoku_bench.solvers.engines.logic.state import Candidates, Step
from sudoku_bench.solvers.engines.logic.subsets import (
    hidden_pair,
    hidden_quad,
    hidden_triple,
    naked_pair,
    naked_quad,
    naked_triple,
)
from sudoku_bench.solvers.engines.logic.sue_de_coq import sue_de_coq
from sudoku_bench.solvers.engines.logic.wings import w_wing, wxyz_wing, xyz_wing

# Difficulty levels, easiest first; a puzzle no technique finishes is "beyond logic".
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
BEYOND_LOGIC = "beyond logic"


def always(rules: Rules) -> bool:
    return True


@dataclass(frozen=True)
class Technique:
    key: str  # the counter name and the `Step.technique` it produces
    name: str  # in words
    level: str  # one of LEVELS
    find: Callable[[Candidates], Step | None]
    weight: float  # the numeric rating of one step, on a scale in the spirit of Sudoku Explainer
    # (forcing: the least; each step adds to it by its size, `Step.weight`)
    default: bool = True  # uniqueness techniques are off unless asked for
    applies: Callable[[Rules], bool] = always  # the rules it is meant for (variants)


T = Technique
TECHNIQUES: tuple[Technique, ...] = (
    T("distinct_pairs", "anti-knight / anti-king", "easy", variants.distinct_pairs, 1.0,
      applies=variants.has_distinct_pairs),
    T("non_consecutive", "non-consecutive neighbours", "easy", variants.non_consecutive, 1.0,
      applies=variants.has_nonconsecutive),
    T("pair_filter", "pair filter (thermometers, dots, XV, lines)", "easy", families.pair_filter,
      1.0, applies=families.has_pair_relations),
    T("naked_single", "naked single", "easy", naked_single, 1.2),
    T("hidden_single", "hidden single", "easy", hidden_single, 1.5),
    T("sum_bounds", "sum bounds (arrows, little killers)", "easy", families.sum_bounds, 1.8,
      applies=families.has_equations),
    T("cage_combinations", "cage combinations", "easy", killer.cage_combinations, 2.0,
      applies=killer.has_cages),
    T("table", "table of fillings (sandwiches, between lines)", "medium", families.table, 2.5,
      applies=families.has_tables),
    T("house_table", "table of fillings with its house (sandwiches, X-sums, skyscrapers)",
      "medium", families.house_table, 2.55, applies=joint.has("house_table")),
    T("line_clue", "outside clue read along its line (sandwiches, X-sums, skyscrapers past 9x9)",
      "medium", families.line_clue, 2.55, applies=families.has_automata),
    T("pointing", "pointing pair / triple", "medium", pointing, 2.6),
    T("sum_combinations", "sum combinations (arrows, little killers)", "medium",
      families.sum_combinations, 2.7, applies=families.has_equations),
    T("rule_fillings", "a rule read whole (lines, arrows of several pieces)", "medium",
      joint.rule_fillings, 2.75, applies=joint.has("rule_fillings")),
    T("box_line_reduction", "box/line reduction", "medium", box_line_reduction, 2.8),
    T("innies_outies", "innies and outies (45 rule)", "medium", killer.innies_outies, 2.9,
      applies=killer.has_cages),
    T("cage_unit", "cage/house interaction", "medium", killer.cage_unit, 3.0,
      applies=killer.has_cages),
    T("rule_house", "a rule and a house (the digit a house must put on a line)", "medium",
      joint.rule_house, 3.1, applies=joint.has("rule_house")),
    T("naked_pair", "naked pair", "medium", naked_pair, 3.0),
    T("hidden_pair", "hidden pair", "medium", hidden_pair, 3.4),
    T("naked_triple", "naked triple", "medium", naked_triple, 3.6),
    T("cross_rules", "two rules read together (shared or seen cells)", "hard", joint.cross_rules,
      3.8, applies=joint.has("cross_rules")),
    T("hidden_triple", "hidden triple", "hard", hidden_triple, 4.0),
    T("naked_quad", "naked quad", "hard", naked_quad, 4.3),
    T("x_wing", "X-wing", "hard", x_wing, 4.1),
    T("xy_wing", "XY-wing", "hard", xy_wing, 4.2),
    T("remote_pairs", "remote pairs", "hard", remote_pairs, 4.5),
    T("w_wing", "W-wing", "hard", w_wing, 4.4),
    T("xyz_wing", "XYZ-wing", "hard", xyz_wing, 4.4),
    T("unique_rectangle", "unique rectangle (types 1-6)", "hard", uniqueness.unique_rectangle,
      4.5, default=False, applies=uniqueness.applies),
    T("hidden_rectangle", "hidden rectangle", "hard", uniqueness.hidden_rectangle, 4.5,
      default=False, applies=uniqueness.applies),
    T("bug_plus_one", "BUG+1", "hard", uniqueness.bug_plus_one, 5.6, default=False,
      applies=uniqueness.applies),
    T("hidden_quad", "hidden quad", "expert", hidden_quad, 6.0),
    T("swordfish", "swordfish", "expert", swordfish, 6.0),
    T("simple_colouring", "simple colouring", "expert", simple_colouring, 6.2),
    T("jellyfish", "jellyfish", "expert", jellyfish, 6.2),
    T("finned_x_wing", "finned / sashimi X-wing", "expert", finned_x_wing, 6.3),
    T("finned_swordfish", "finned / sashimi swordfish", "expert", finned_swordfish, 6.4),
    T("finned_jellyfish", "finned / sashimi jellyfish", "expert", finned_jellyfish, 6.6),
    T("x_chain", "X-chain", "expert", x_chain, 6.6),
    T("xy_chain", "XY-chain", "expert", xy_chain, 6.8),
    T("wxyz_wing", "WXYZ-wing", "expert", wxyz_wing, 6.8),
    T("als_xz", "ALS-XZ", "expert", als_xz, 7.0),
    T("als_xy_wing", "ALS-XY-wing", "expert", als_xy_wing, 7.2),
    T("nice_loop", "nice loop", "expert", nice_loop, 7.3),
    T("aic", "alternating inference chain (grouped)", "expert", aic, 7.4),
    T("als_xy_chain", "ALS-XY-chain", "expert", als_xy_chain, 7.5),
    T("franken_x_wing", "Franken X-wing (finned too)", "expert", franken_x_wing, 6.5),
    T("franken_swordfish", "Franken swordfish (finned too)", "expert", franken_swordfish, 6.7),
    T("franken_jellyfish", "Franken jellyfish (finned too)", "expert", franken_jellyfish, 6.9),
    T("sue_de_coq", "Sue de Coq", "expert", sue_de_coq, 6.5),
    # forcing: the base of Sudoku Explainer's rating; each step adds SE's length bonus
    T("forcing_chain", "forcing chains (last resort)", "extreme", forcing.forcing_chains,
      forcing.STATIC_BASE),
    T("forcing_net", "forcing nets (last resort)", "extreme", forcing.forcing_nets,
      forcing.DYNAMIC_BASE),
    T("nested_forcing_net", "nested forcing nets (last resort)", "extreme",
      forcing.nested_forcing_nets, forcing.NESTED_BASE),
)  # fmt: skip
del T

BY_KEY = {technique.key: technique for technique in TECHNIQUES}
DEFAULT_KEYS = tuple(t.key for t in TECHNIQUES if t.default)
UNIQUENESS_KEYS = tuple(t.key for t in TECHNIQUES if not t.default)


def choose(keys: Iterable[str] | None) -> tuple[Technique, ...]:
    """The techniques named by `keys` (the default ones when None), in the table's order."""
    if keys is None:
        return tuple(t for t in TECHNIQUES if t.default)
    wanted = set(keys)
    unknown = wanted - BY_KEY.keys()
    if unknown:
        raise ValueError(
            f"unknown technique(s) {', '.join(sorted(unknown))}; known: {', '.join(BY_KEY)}"
        )
    return tuple(t for t in TECHNIQUES if t.key in wanted)


def for_rules(techniques: Iterable[Technique], rules: Rules) -> tuple[Technique, ...]:
    """The techniques that are meant for these rules (pair and cage rules have their own)."""
    return tuple(t for t in techniques if t.applies(rules))


def next_step(
    state: Candidates,
    techniques: Iterable[Technique] | None = None,
    deadline: Deadline | None = None,
) -> Step | None:
    """The first deduction of the easiest technique that finds one, or None when stuck.

    With a `deadline`, raises SearchTimeout once it has passed: before a technique's turn,
    and inside the long ones (`clock`). One step may try dozens of techniques."""
    chosen = for_rules(choose(None), state.rules) if techniques is None else techniques
    with clock.until(deadline):  # the long techniques look at it inside their loops too
        for technique in chosen:
            clock.check()
            step = technique.find(state)
            if step is not None:
                return step
    return None
