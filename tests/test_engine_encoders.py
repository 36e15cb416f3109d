"""The engines this project writes: their encoder tables, the logic solver's unit families,
and the bounded two-part caches of their per-rules tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from sudoku_bench.puzzles.constraints import (
    KINDS,
    Cage,
    PairConstraint,
    Shape,
    TableConstraint,
    UnitConstraint,
)
from sudoku_bench.puzzles.constraints.base import Conflict
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Solver, Status
from sudoku_bench.solvers.engines.backtracking import BacktrackingSolver
from sudoku_bench.solvers.engines.logic.solver import LogicSolver
from sudoku_bench.solvers.engines.logic.state import boxes_first
from sudoku_bench.solvers.engines.logic.structure import families, logic_tables
from sudoku_bench.solvers.engines.propagating.solver import (
    PropagatingSolver,
    tables_for,
    unit_tables,
)
from sudoku_bench.solvers.tables import PUZZLE_CACHE

pytest.importorskip("sympy")
from sudoku_bench.solvers.engines.groebner import GroebnerSolver
from tests.solving_support import UnwrittenKind

ENGINES = (PropagatingSolver, BacktrackingSolver, GroebnerSolver, LogicSolver)


@dataclass(frozen=True)
class FarApart(PairConstraint, UnwrittenKind):
    """A pair kind no engine was written for: orthogonal neighbours differ by 3 or more.
    (No `kind` name, so it stays out of the registry of kinds other tests walk.)"""

    title = "far apart"

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        n = shape.size
        return tuple((c, c + 1) for c in range(n * n) if (c + 1) % n)

    def allows(self, first: int, second: int) -> bool:
        return abs(first - second) >= 3

    def broken(self, rules: Any, a: int, b: int, values: Sequence[int]) -> Conflict:
        text = f"{rules.cell_name(a)} and {rules.cell_name(b)} differ by less than 3"
        return Conflict(self.title, values[a], (a, b), text)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_each_engine_encodes_every_kind(engine: type[Solver[Any]]) -> None:
    """groebner excepted for tables of fillings, which it answers unsupported."""
    missing = [k for k, kind in KINDS.items() if not engine.encoders.encodes(kind)]
    tables = [k for k, kind in KINDS.items() if issubclass(kind, TableConstraint)]
    assert missing == (tables if engine is GroebnerSolver else [])


def test_the_compiled_engine_encodes_units_and_pair_relations_only() -> None:
    from sudoku_bench.solvers.engines.propagating.jit import ENCODERS

    encoded = {name for name, kind in KINDS.items() if ENCODERS.encodes(kind)}
    families = (UnitConstraint, PairConstraint)
    assert encoded == {name for name, kind in KINDS.items() if issubclass(kind, families)}
    assert ENCODERS.missing([Cage((0, 1), 3)]) == ("killer cage",)
    assert ENCODERS.accepts([FarApart()])  # any relation: a digit table per relation


def test_a_family_encoder_takes_a_new_kind_and_a_kind_encoder_does_not() -> None:
    # every hand-written engine takes any pair relation: backtracking (the placement check),
    # propagating and logic (its support), groebner (the indicator polynomial of its
    # forbidden pairs)
    for engine in (BacktrackingSolver, PropagatingSolver, LogicSolver, GroebnerSolver):
        assert engine.encoders.accepts([FarApart()]), engine.name


def test_logic_finds_units_by_family_name() -> None:
    rules = Rules.parse("9x9-x")
    shape = families(rules)
    assert [shape.names[i] for i in shape.extras] == ["diagonal", "anti-diagonal"]
    assert [shape.names[i] for i in (shape.rows[0], shape.columns[0], shape.regions[0])] == [
        "row 1",
        "column 1",
        "box 1",
    ]
    order = boxes_first(rules)
    assert [shape.names[i] for i in order[:2]] == ["box 1", "box 2"]
    assert [shape.names[i] for i in order[-2:]] == ["diagonal", "anti-diagonal"]
    knight = logic_tables(Rules.parse('{"size": 4, "anti_knight": true}'))
    assert knight.techniques == {"distinct_pairs"}
    assert knight.partners[0] == ((6, "a knight's move"), (9, "a knight's move"))


def _killer(number: int) -> Rules:
    """A distinct 4x4 killer per number: one two-cell cage whose sum changes."""
    return Rules.of_size(4).with_rules(
        cages=(Cage((0, 1), 3 + number % 5), Cage((2,), 1 + number // 5))
    )


def test_killer_tables_are_bounded_and_the_shape_is_shared() -> None:
    solver = PropagatingSolver()
    tables_for.cache_clear()
    unit_tables.cache_clear()
    unit_tables.__wrapped__.cache_clear()  # type: ignore[attr-defined]  # the shape's part
    for number in range(PUZZLE_CACHE + 4):
        result = solver.solve(Grid.empty(_killer(number)), limit=1)
        assert result.status in (Status.SOLVED, Status.LIMIT, Status.NO_SOLUTION)
    assert tables_for.cache_info().currsize == PUZZLE_CACHE
    # every one of them has the 4x4 shape: its unit tables were built once
    assert unit_tables.cache_info().misses == PUZZLE_CACHE + 4  # the per-rules front
    assert len(unit_tables.__wrapped__.found) == 1  # type: ignore[attr-defined]
