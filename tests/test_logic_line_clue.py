"""`line_clue`: sandwich, X-sum and skyscraper clues past 9x9 (where their tables are not
listed), read along their line as automata. Each position is one a run of the logic solver
reached on a generated 12x12 puzzle (`tests/data/line_clues_12x12.jsonl`, each line with the
command that made it) just before a `line_clue` step: it is the first technique of the table
to act there, its words and moves are exact, and every move keeps the puzzle's solution. Then
whole runs, every step replayed against the solution (one of them a 10x10 solved to the
end); and up to 9x9 the clues stay tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.puzzles import GridShape, Rules
from sudoku_bench.puzzles.constraints import Sandwich, Skyscraper, XSum
from sudoku_bench.puzzles.formats import PuzzleEntry, read_file
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.solver import run_logic
from sudoku_bench.solvers.engines.logic.state import Candidates
from sudoku_bench.solvers.engines.logic.structure import logic_tables
from sudoku_bench.solvers.engines.logic.techniques import TECHNIQUES, next_step
from tests.test_logic_advanced import only_first
from tests.test_regular_propagation import _clue_puzzle

HERE = Path(__file__).parent
POSITIONS = json.loads((HERE / "logic_line_clue_positions.json").read_text())


def _entries() -> list[PuzzleEntry]:
    return read_file(HERE / "data" / "line_clues_12x12.jsonl")


@pytest.mark.parametrize("key", sorted(POSITIONS))
def test_a_position_from_a_generated_12x12_puzzle(key: str) -> None:
    case = POSITIONS[key]
    entry = _entries()[case["line"] - 1]
    rules = entry.puzzle.rules
    assert rules.size == 12 and key in {c.kind for c in rules.constraints}
    state = Candidates.from_marks(rules, case["marks"])
    step = only_first("line_clue", state)
    assert step.describe(rules) == case["text"]
    assert sorted(map(list, step.placements)) == case["placements"]
    assert sorted(map(list, step.eliminations)) == case["eliminations"]
    assert entry.solution is not None and step.eliminations
    assert all(entry.solution[c] != d for c, d in step.eliminations)


@pytest.mark.parametrize("line", [1, 2, 3])
def test_whole_runs_replay_soundly(line: int) -> None:
    """Every step of a run without forcing keeps the puzzle's solution; `line_clue` acts."""
    entry = _entries()[line - 1]
    assert entry.solution is not None
    rules = entry.puzzle.rules
    chosen = [t for t in TECHNIQUES if t.default and t.level != "extreme" and t.applies(rules)]
    state = Candidates.from_grid(entry.puzzle)
    used: dict[str, int] = {}
    while not state.solved:
        step = next_step(state, chosen)
        if step is None:
            break
        used[step.technique] = used.get(step.technique, 0) + 1
        assert all(entry.solution[c] == d for c, d in step.placements), step
        assert all(entry.solution[c] != d for c, d in step.eliminations), step
        state.apply(step)
    assert used.get("line_clue", 0) >= 10, used
    assert all(state.values[c] in (0, entry.solution[c]) for c in rules.cells)


def test_a_10x10_sandwich_puzzle_is_solved_with_line_clue_steps_all_sound() -> None:
    """16 sandwich clues of a random 10x10 grid, 60% of its cells emptied: the default
    techniques solve it (so it has one solution), and every step keeps the grid."""
    puzzle, grid = _clue_puzzle(Sandwich, 10, 1, clues=16, empty=0.6)
    run = run_logic(puzzle)
    assert run.end == "solved" and run.grid() == grid
    assert run.counts()["line_clue"] >= 3
    for step in run.steps:
        assert all(grid[c] == d for c, d in step.placements), step
        assert all(grid[c] != d for c, d in step.eliminations), step


def test_a_full_line_that_breaks_its_clue_is_a_contradiction() -> None:
    """A 12x12 row holding 1..10 from the left and 11 and 12 in its last two cells has a
    sandwich of 2+...+11 = 65 or 2+...+10 = 54: a clue of 64 leaves no filling, so the
    step takes every candidate of the open cells."""
    rules = Rules.from_constraints(GridShape.of_size(12), [Sandwich((0, -1), 64)])
    marks = {f"r1c{c}": f"={c}" for c in range(1, 11)} | {"r1c11": "BC", "r1c12": "BC"}
    step = only_first("line_clue", Candidates.from_marks(rules, marks))
    assert step.describe(rules) == (
        "sandwich sum 64 at r1c0 (no filling of row 1 with distinct digits keeps it) "
        "removes 11 from r1c11, r1c12; 12 from r1c11, r1c12"
    )


@pytest.mark.parametrize("kind", [Sandwich, XSum, Skyscraper])
def test_up_to_9x9_the_clues_stay_tables_and_past_it_become_automata(kind: type) -> None:
    nine = Rules.from_constraints(GridShape.of_size(9), [kind((-1, 0), 3)])
    twelve = Rules.from_constraints(GridShape.of_size(12), [kind((-1, 0), 3)])
    assert logic_tables(nine).fillings and not logic_tables(nine).automata
    assert "line_clue" not in logic_tables(nine).techniques
    assert logic_tables(twelve).automata and not logic_tables(twelve).fillings
    assert LogicSolver().accepts(twelve)
    (rule,) = logic_tables(twelve).automata
    assert rule.line == "column 1" and rule.cells == tuple(range(0, 144, 12))


def test_the_solver_reports_line_clue_steps() -> None:
    entry = _entries()[1]
    result = LogicSolver().solve(entry.puzzle)
    assert result.counters["line_clue"] >= 10
    texts = [step["text"] for step in result.details["steps"]]
    assert any(text.startswith("X-sum ") for text in texts)
    partial = result.partial or Grid(entry.puzzle.rules, entry.puzzle.values)
    assert entry.solution is not None
    assert all(v in (0, entry.solution[c]) for c, v in enumerate(partial.values))
