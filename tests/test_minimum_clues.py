"""`minimum-clues`: unavoidable sets and the hitting-set search on grids of Royle's 17-clue list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating import minimum_clues as search
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.errors import SudokuBenchError
from tests.cli_contract import MINIMUM_CLUES, MINIMUM_CLUES_STAGE

PUZZLE = load("17clue")[0].puzzle.to_line()  # Royle's list: its grid's only 17-clue puzzle
GRID = search.grid_of_puzzle(PUZZLE)
CLUE_CELLS = [cell for cell, digit in enumerate(PUZZLE) if digit not in ".0"]


def _is_unavoidable(mask: int) -> bool:
    """A set is unavoidable when the grid with those cells emptied has another completion."""
    emptied = "".join("." if mask >> c & 1 else str(GRID[c]) for c in range(81))
    from sudoku_bench.solvers.engines.bitboard import jit

    return int(jit.solve_batch([emptied], limit=2).counts[0]) == 2


def test_the_collected_sets_are_minimal_unavoidable_sets() -> None:
    sets = search.unavoidable_sets(GRID, kept=60, random_regions=10)
    assert len(sets) == 60
    assert [s.bit_count() for s in sets] == sorted(s.bit_count() for s in sets)
    assert sets[0].bit_count() == 4  # an unavoidable rectangle
    for mask in sets[:20]:
        assert _is_unavoidable(mask)
        # minimal: no cell can be left out
        for cell in search.cells_of(mask):
            assert not _is_unavoidable(mask & ~(1 << cell))
    # the known puzzle is unique, so its clues hit every unavoidable set
    clues = search.mask_of(CLUE_CELLS)
    assert all(mask & clues for mask in sets)


def test_the_search_finds_the_known_17_clue_puzzle_among_its_supersets() -> None:
    found = search.minimum_clues(GRID, clues=(17,), required=CLUE_CELLS[:12], first_only=False)
    (stage,) = found.stages
    assert stage.exhaustive
    assert PUZZLE in stage.puzzles
    for puzzle in stage.puzzles:  # each one found is unique and has 17 clues
        assert sum(ch != "." for ch in puzzle) == 17
    assert stage.tests >= len(stage.puzzles)


def test_the_tasks_are_the_split_most_constrained_first() -> None:
    sets = search.unavoidable_sets(GRID, kept=60, random_regions=10)
    tasks = search.split(sets, 0, 0, 0, 17, 2)
    order = search.ordered(sets, tasks)
    assert sorted(order) == sorted(tasks)  # the same tasks: nothing lost, nothing doubled
    binding = [search.constraint(sets, task) for task in order]
    assert binding == sorted(binding, reverse=True) and binding[0] > binding[-1]
    # the clue sets of the tasks do not overlap: each is under exactly one task
    clues = search.mask_of(CLUE_CELLS)
    holding = [c for c, d, _ in tasks if c & clues == c and not d & clues]
    assert len(holding) == 1


def test_every_set_a_uniqueness_test_learns_is_kept_when_the_table_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # no room beyond the collected sets: the kernel must grow its table, not drop the sets
    # (a dropped set is met again, each time at the price of another uniqueness test)
    monkeypatch.setattr(search, "LEARNT_ROOM", 0)
    found = search.minimum_clues(GRID, clues=(17,), required=CLUE_CELLS[:12], first_only=False)
    (stage,) = found.stages
    assert stage.exhaustive and PUZZLE in stage.puzzles
    assert stage.added_sets > 0
    # each test either finds a puzzle or learns a set
    assert stage.tests == stage.added_sets + len(stage.puzzles)


def test_no_16_clue_puzzle_holds_twelve_of_its_clues() -> None:
    found = search.minimum_clues(GRID, clues=(16,), required=CLUE_CELLS[:12])
    (stage,) = found.stages
    assert stage.proven_none and stage.nodes > 0


def test_the_command_resumes_from_its_state_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json"
    require = ",".join(map(str, CLUE_CELLS[:12]))
    argv = ["minimum-clues", PUZZLE, "--require", require, "--state", str(state), "--json"]
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == MINIMUM_CLUES
    assert all(set(stage) == MINIMUM_CLUES_STAGE for stage in record["stages"])
    sixteen, seventeen = record["stages"]
    assert sixteen["proven_none"] and seventeen["puzzles"] == [PUZZLE]
    # a resumed run finds every task done and answers the same
    assert main([*argv, "--resume"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["stages"][1]["puzzles"] == [PUZZLE]
    assert again["stages"][0]["nodes"] == sixteen["nodes"]


def test_a_grid_that_is_no_grid_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["minimum-clues", "1" * 81]) == 2
    assert "1-9 once each" in capsys.readouterr().err
    with pytest.raises(SudokuBenchError, match="more than one solution"):
        search.grid_of_puzzle("." * 81)
    assert main(["minimum-clues", PUZZLE, "--resume"]) == 2


@pytest.mark.slow
@pytest.mark.parametrize("line", [0, 400, 800])
def test_three_grids_of_royles_list_have_no_16_and_their_17(line: int) -> None:
    puzzle = load("17clue")[line].puzzle.to_line()
    found = search.minimum_clues(search.grid_of_puzzle(puzzle), clues=(16, 17))
    sixteen, seventeen = found.stages
    assert sixteen.proven_none
    assert seventeen.puzzles == (puzzle,)


def test_the_python_api_answers_as_the_command() -> None:
    from sudoku_bench.harness.api import minimum_clues

    found = minimum_clues(PUZZLE, clues=(16, 17), require=CLUE_CELLS[:12])
    sixteen, seventeen = found.stages
    assert sixteen.proven_none and seventeen.puzzles == (PUZZLE,)
    assert found.cpu_s >= sixteen.cpu_s + seventeen.cpu_s
