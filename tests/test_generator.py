"""The generator: seeded, unique by two back-ends, on target and on rating."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.generator import (
    ACCEPTED,
    Generator,
    random_full_grid,
    target_empty,
)
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create
from tests.cli_contract import GENERATE
from tests.logic_backends import second_counter

NINE = Rules.of_size(9)


def unique_by_two_backends(puzzles: list[Grid], solution: list[Grid]) -> None:
    first, second = create("propagating"), create(second_counter())
    for puzzle, expected in zip(puzzles, solution, strict=True):
        for solver in (first, second):
            result = solver.solve(puzzle, limit=2)
            assert result.status is Status.SOLVED, (solver.name, puzzle.to_line())
            assert result.verdict == "unique" and result.solutions == [expected]


def test_targets_scale_with_the_grid() -> None:
    assert [target_empty(9, d) for d in ("easy", "medium", "hard")] == [40, 50, 60]
    assert [target_empty(4, d) for d in ("easy", "medium", "hard")] == [8, 10, 12]
    assert [target_empty(16, d) for d in ("easy", "medium", "hard")] == [126, 158, 190]


@pytest.mark.parametrize("rules", ["4", "6", "9", "9x9-x", "12", "16"])
def test_random_full_grids_are_solutions(rules: str) -> None:
    import random

    shape = Rules.parse(rules)
    rng = random.Random(5)
    grids = [random_full_grid(shape, rng) for _ in range(2)]
    assert all(is_solution(Grid.empty(shape), grid) for grid in grids)
    assert grids[0] != grids[1]


def test_same_seed_same_puzzles() -> None:
    first = Generator(NINE, "easy", seed=11).generate(3)
    again = Generator(NINE, "easy", seed=11).generate(3)
    other = Generator(NINE, "easy", seed=12).generate(3)
    assert [g.puzzle for g in first] == [g.puzzle for g in again]
    assert [g.puzzle for g in first] != [g.puzzle for g in other]


@pytest.mark.parametrize(
    "difficulty", ["easy", "medium", pytest.param("hard", marks=pytest.mark.slow)]
)
def test_a_few_puzzles_per_difficulty(difficulty: str) -> None:
    made = Generator(NINE, difficulty, seed=3).generate(2)
    unique_by_two_backends([g.puzzle for g in made], [g.solution for g in made])
    for item in made:
        assert is_solution(item.puzzle, item.solution)
        assert item.rating.label in ACCEPTED[difficulty] and not item.note.startswith("rated")
        if difficulty != "hard":  # the target, or up to 5 more to make it need medium
            assert target_empty(9, difficulty) <= item.empty <= target_empty(9, difficulty) + 5
        else:  # 60 is rarely possible: the note says how far it got
            assert item.empty >= 50
            assert item.empty >= 60 or f"reached {item.empty} of 60" in item.note


def test_symmetric_puzzles_keep_rotational_symmetry() -> None:
    for item in Generator(NINE, "medium", seed=4, symmetric=True).generate(2):
        values = item.puzzle.values
        assert all(bool(values[c]) == bool(values[80 - c]) for c in range(81))
        assert 50 <= item.empty <= 55  # the target, or a few more to make it need medium


def test_minimal_puzzles_lose_uniqueness_without_any_given() -> None:
    counter = create("propagating")
    item = Generator(NINE, "easy", seed=5, minimal=True).one()
    assert counter.solve(item.puzzle, limit=2).verdict == "unique"
    for cell in range(81):
        if item.puzzle[cell]:
            assert counter.solve(item.puzzle.with_values({cell: 0}), limit=2).count == 2


def test_sudoku_x_and_six_by_six() -> None:
    x = Rules.of_size(9, diagonals=True)
    made = Generator(x, "easy", seed=6).generate(2)
    unique_by_two_backends([g.puzzle for g in made], [g.solution for g in made])
    six = Generator(Rules.of_size(6), "easy", seed=6).one()
    assert six.empty == target_empty(6, "easy") and six.rating.label == "easy"


def test_the_command_writes_a_file_that_reads_back(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "easy.txt"
    code = main(["generate", "--difficulty", "easy", "--count", "2", "--seed", "9", "-o", str(out)])
    assert code == 0
    entries = load(str(out))
    assert len(entries) == 2 and all(len(e.puzzle.empty_cells) == 40 for e in entries)
    assert "2 9x9 easy puzzles" in capsys.readouterr().out
    assert main(["generate", "--count", "1", "--seed", "9", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["puzzle"] == entries[0].puzzle.to_line() and record["rating"] == "easy"
    assert set(record) == GENERATE


def summarise(difficulty: str, count: int, seed: int) -> tuple[Counter[int], Counter[str]]:
    made = Generator(NINE, difficulty, seed=seed).generate(count)
    unique_by_two_backends([g.puzzle for g in made], [g.solution for g in made])
    return Counter(g.empty for g in made), Counter(g.rating.label for g in made)


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_a_hundred_generated_puzzles_per_difficulty(difficulty: str) -> None:
    empties, ratings = summarise(difficulty, 100, seed=2026)
    print(difficulty, sorted(empties.items()), dict(ratings))
    assert sum(ratings[label] for label in ACCEPTED[difficulty]) >= 95
    target = target_empty(9, difficulty)
    if difficulty == "easy":
        assert empties[target] == 100
    elif difficulty == "medium":
        assert sum(n for empty, n in empties.items() if target <= empty <= target + 5) == 100
