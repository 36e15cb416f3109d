"""The techniques that read a setter's rule whole (`house_table`, `rule_fillings`,
`rule_house`, `cross_rules`), each on a position that a run of the logic solver reached on a
bundled variant puzzle (named by `id`) just before the technique's first step: it is the
first technique of the table to act there, its words and moves are exact, and every move
keeps the puzzle's true solution. Then whole runs, every step replayed against the solution.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints import Equation
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.joint import joint_fillings
from sudoku_bench.solvers.engines.logic.state import Candidates
from sudoku_bench.solvers.engines.logic.structure import RuleGroup, logic_tables
from sudoku_bench.solvers.engines.logic.techniques import TECHNIQUES, next_step
from tests.solving_support import EngineEquations
from tests.test_logic_advanced import only_first

POSITIONS = json.loads((Path(__file__).parent / "logic_joint_positions.json").read_text())
NEW = ("house_table", "rule_fillings", "rule_house", "cross_rules")


@pytest.mark.parametrize("key", sorted(POSITIONS))
def test_a_position_from_a_bundled_variant_puzzle(key: str) -> None:
    case = POSITIONS[key]
    (entry,) = load(case["id"])
    rules = entry.puzzle.rules
    state = Candidates.from_marks(rules, case["marks"])
    step = only_first(case.get("technique", key), state)
    assert step.describe(rules) == case["text"]
    assert sorted(map(list, step.placements)) == case["placements"]
    assert sorted(map(list, step.eliminations)) == case["eliminations"]
    assert entry.solution is not None
    assert all(entry.solution[c] == d for c, d in step.placements)
    assert all(entry.solution[c] != d for c, d in step.eliminations)


def test_every_new_technique_has_a_position() -> None:
    assert {case.get("technique", key) for key, case in POSITIONS.items()} == set(NEW)


def test_the_joint_techniques_apply_to_variant_rules_only() -> None:
    classic = {t.key for t in LogicSolver().techniques if t.applies(Rules.of_size(9))}
    assert not classic & set(NEW)


def test_a_rule_of_two_equations_read_whole() -> None:
    # r1c1 + r1c2 = 3 and r1c2 + r1c3 = 3 on a 4x4 row: r1c2 is 1 or 2, so r1c1 = r1c3,
    # which a row forbids: no filling of the rule read whole is left
    equations = (Equation(((0, 1), (1, 1)), 3), Equation(((1, 1), (2, 1)), 3))
    rules = Rules.of_size(4).with_constraints(EngineEquations(equations))
    tables = logic_tables(rules)
    (group,) = tables.groups
    assert isinstance(group, RuleGroup) and group.cells == (0, 1, 2)
    state = Candidates.from_grid(Grid.empty(rules))
    joint = joint_fillings(state, [group])
    assert joint is not None and joint.fillings == ()


@pytest.mark.parametrize(
    "spec",
    ["arrow:1", "arrow:2", "entropic-line:1", "between-line:2", "box-indexer:1", "whispers:2"],
)
def test_whole_runs_replay_soundly(spec: str) -> None:
    """Every step of a run without forcing, the new techniques among them, keeps the
    collection's solution."""
    (entry,) = load(spec)
    assert entry.solution is not None
    chosen = [t for t in TECHNIQUES if t.default and t.level != "extreme"]
    chosen = [t for t in chosen if t.applies(entry.puzzle.rules)]
    state = Candidates.from_grid(entry.puzzle)
    used: set[str] = set()
    while not state.solved:
        step = next_step(state, chosen)
        if step is None:
            break
        used.add(step.technique)
        assert all(entry.solution[c] == d for c, d in step.placements), (spec, step)
        assert all(entry.solution[c] != d for c, d in step.eliminations), (spec, step)
        state.apply(step)
    assert used & set(NEW), spec
