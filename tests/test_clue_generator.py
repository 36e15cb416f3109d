"""The clue generator (`generate --kind`, `--setter`): unique puzzles made of a kind's clues,
reproducible from a seed, with no clue or given it does not need."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.clues import ClueGenerator, generatable_kinds
from sudoku_bench.harness.generating.generator import GeneratorError
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import KINDS, Cage, Constraint
from sudoku_bench.puzzles.constraints.dots import NegativeRule
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from tests.cli_contract import GENERATE_CLUES
from tests.solving_support import UnwrittenKind, brute_force_solutions

pytest.importorskip("ortools")


def _solutions(puzzle: Grid) -> list[Grid]:
    return brute_force_solutions(puzzle, limit=2)


@pytest.mark.parametrize("kind", ["killer_cage", "parity", "extra_region", "diagonal"])
def test_a_4x4_puzzle_of_each_kind_is_unique_and_needs_every_clue_and_given(kind: str) -> None:
    made = ClueGenerator(Rules.of_size(4), [kind], seed=3).one()
    puzzle = made.puzzle
    assert made.kinds == (kind,)
    assert {c.kind for c in puzzle.rules.constraints} == {kind}
    assert _solutions(puzzle) == [made.solution]
    assert is_solution(puzzle, made.solution)
    for cell in puzzle.rules.cells:  # no given can go
        if puzzle.values[cell]:
            assert len(_solutions(puzzle.with_values({cell: 0}))) == 2
    clues = puzzle.rules.constraints
    if kind == "killer_cage" and len(clues) > 1:  # no cage can go (one is always kept)
        for cage in clues:
            rest = Rules.from_constraints(puzzle.rules.shape, [c for c in clues if c != cage])
            assert len(_solutions(Grid(rest, puzzle.values))) == 2


def test_the_same_seed_gives_the_same_puzzles() -> None:
    first = ClueGenerator(Rules.of_size(6), ["killer_cage"], seed=8).generate(2)
    again = ClueGenerator(Rules.of_size(6), ["killer_cage"], seed=8).generate(2)
    assert [m.puzzle for m in first] == [m.puzzle for m in again]
    assert [m.puzzle.rules for m in first] == [m.puzzle.rules for m in again]


def test_a_whole_grid_rule_is_drawn_into_the_grid_and_kept() -> None:
    made = ClueGenerator(Rules.of_size(6), ["anti_knight"], seed=2).one()
    assert made.puzzle.rules.anti_knight
    assert is_solution(made.puzzle, made.solution)


def test_setter_style_mixes_the_kinds_asked_for() -> None:
    made = ClueGenerator(Rules.of_size(6), ["killer_cage", "parity"], setter=True, seed=5).one()
    assert made.kinds == ("killer_cage", "parity")
    assert {c.kind for c in made.puzzle.rules.constraints} == set(made.kinds)
    assert is_solution(made.puzzle, made.solution)


@pytest.mark.slow  # some draws are whole-grid rules with rare grids: seconds each
def test_setter_style_mixes_two_to_four_kinds_with_few_givens() -> None:
    generator = ClueGenerator(Rules.of_size(6), setter=True, seed=5)
    for made in generator.generate(3):
        assert 2 <= len(made.kinds) <= 4
        constraints = made.puzzle.rules.constraints
        # a negative rule stands with the marks it reads its exceptions from
        marks = {
            kind.kind
            for c in constraints
            if isinstance(c, NegativeRule)
            for kind in type(c).marking_kinds()
        }
        assert {c.kind for c in constraints} <= set(made.kinds) | marks
        assert is_solution(made.puzzle, made.solution)
        assert made.counted_by


def test_the_cages_partition_the_grid_with_the_grids_sums() -> None:
    rules = Rules.of_size(6)
    solution = ClueGenerator(rules, ["killer_cage"], seed=1).one().solution
    cages = Cage.candidates(solution.values, rules.shape, random.Random(4))
    cells = sorted(c for cage in cages for c in cage.scope(rules))  # type: ignore[attr-defined]
    assert cells == list(rules.cells)
    for cage in cages:
        assert isinstance(cage, Cage)
        assert cage.total == sum(solution.values[c] for c in cage.cells)


def test_unknown_kinds_and_kinds_without_candidates_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @dataclass(frozen=True)
    class NoClues(UnwrittenKind):  # no `kind` of its own: registered by hand, for this test
        title = "no clues"

        def scope(self, shape: object) -> tuple[int, ...]:
            return ()

        def violations(self, rules: object, values: object) -> object:
            return iter(())

    monkeypatch.setitem(KINDS, "no_clues", NoClues)
    with pytest.raises(GeneratorError, match="kind 'no_clues' offers no candidate clues"):
        ClueGenerator(Rules.of_size(4), ["no_clues"])
    with pytest.raises(GeneratorError, match="unknown kind 'spiral'"):
        ClueGenerator(Rules.of_size(4), ["spiral"])
    assert "no_clues" not in generatable_kinds()
    assert issubclass(NoClues, Constraint)


def test_the_cli_writes_the_documented_keys_and_refuses_what_does_not_apply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["generate", "--size", "4", "--kind", "killer_cage", "--seed", "1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert set(record) == GENERATE_CLUES
    assert record["kinds"] == ["killer_cage"]
    assert Rules.from_json(record["rules"]).cages
    assert main(["generate", "--kind", "spiral"]) != 0
    assert "unknown kind 'spiral'" in capsys.readouterr().err
    assert main(["generate", "--kind", "parity", "--minimal"]) != 0
    assert "--minimal is for the givens-only generator" in capsys.readouterr().err


def test_the_python_api_makes_the_clis_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_bench.harness.api import generate

    made = generate(1, size=4, kind="parity", seed=6)
    assert main(["generate", "--size", "4", "--kind", "parity", "--seed", "6", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert made.loc[0, "puzzle"] == record["puzzle"]
    assert made.loc[0, "rules"] == record["rules"]
    assert isinstance(made.loc[0, "grid"], Grid)
