"""The bundled variant collections: each puzzle unique by two methods, every back-end agreeing."""

import pytest

from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import BUNDLED, load
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import create, select
from tests.solving_support import kinds_of

# Checked on 4x4 and 6x6 variants in test_variants_agree; a 9x9 killer takes it minutes.
SLOW_ON_9X9 = {"groebner"}
VARIANTS = [
    "jigsaw",
    "windoku",
    "anti-knight",
    "anti-king",
    "non-consecutive",
    "odd-even",
    "killer",
]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_puzzle_is_unique_by_two_methods(name: str) -> None:
    entries = load(name)
    assert len(entries) == 50
    kinds = set()
    for solver in (create("propagating"), create("dlx")):
        for entry in entries:
            assert entry.solution is not None and is_solution(entry.puzzle, entry.solution)
            result = solver.solve(entry.puzzle, limit=2, timeout=30)
            assert result.exact and result.solutions == [entry.solution], (solver.name, entry.id)
            kinds |= kinds_of(entry.puzzle.rules)
    assert kinds  # variant rules, read back from the file


@pytest.mark.parametrize("name", [*VARIANTS, "ortools-killer"])
def test_every_backend_that_accepts_the_rules_agrees(name: str) -> None:
    entry = load(name)[0]
    for backend in select("all"):
        if backend.name in SLOW_ON_9X9:
            continue
        solver = create(backend.name)
        result = solver.solve(entry.puzzle, limit=2, timeout=5)
        if not solver.accepts(entry.puzzle.rules):
            assert result.status is Status.UNSUPPORTED
            continue
        if result.status in (Status.TIMEOUT, Status.GAVE_UP):
            continue  # no answer is not a disagreement (groebner on a 9x9, logic stuck)
        assert result.status is Status.SOLVED, (backend.name, result.status, result.message)
        assert result.solutions == [entry.solution], backend.name


NINE = sorted(name for name in BUNDLED if name.endswith("-9x9"))


@pytest.mark.parametrize(
    ("name", "first"),
    [(name, 3) for name in NINE] + [pytest.param(n, None, marks=pytest.mark.slow) for n in NINE],
)
def test_the_9x9_clue_collections_are_unique_by_two_methods(name: str, first: int | None) -> None:
    pytest.importorskip("ortools")
    pytest.importorskip("pysat")
    entries = load(name)
    assert len(entries) == 30
    for entry in entries[:first]:
        assert entry.puzzle.rules.size == 9 and entry.solution is not None
        assert is_solution(entry.puzzle, entry.solution)
        for solver in (create("cpsat"), create("sat")):
            result = solver.solve(entry.puzzle, limit=2)
            assert result.exact and result.solutions == [entry.solution], (solver.name, entry.id)
