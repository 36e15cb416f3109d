"""Sandwich, X-sum and skyscraper clues as automata read along their line: the automaton
accepts exactly the fillings that give the clue, its unrolled layers spell exactly the words
it accepts, and the models that encode automata (CP-SAT, SAT, MILP; `propagating`,
`backtracking` and `logic` in their own ways) solve them past 9x9, where the models that
only list a clue's table answer `unsupported`."""

from __future__ import annotations

import itertools
import random

import pytest

from sudoku_bench.puzzles import GridShape, Rules
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.constraints import (
    Constraint,
    RegularConstraint,
    Sandwich,
    Skyscraper,
    TableConstraint,
    XSum,
)
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions import cnf, encoding
from sudoku_bench.reductions.encoding import layered
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import backends, create
from tests.solving_support import brute_force_solutions

CLUE_KINDS = (Sandwich, XSum, Skyscraper)
# the back-ends whose models unroll automata; every other one lists the clue's table
AUTOMATA_BACKENDS = ("cpsat", "cpsat-onehot", "sat", "milp")


def _installed(name: str) -> bool:
    return next(b for b in backends() if b.name == name).available()


@pytest.mark.parametrize("kind", CLUE_KINDS)
@pytest.mark.parametrize("size", [4, 6])
def test_the_automaton_accepts_exactly_the_lines_that_give_the_clue(kind: type, size: int) -> None:
    shape = GridShape.of_size(size)
    lines = list(itertools.permutations(range(1, size + 1)))
    for value in range(kind((-1, 0), 0).most(size) + 1):
        clue = kind((-1, 0), value)
        (automaton,) = clue.automata(shape)
        assert automaton.cells == clue.line(size)
        for digits in lines:
            assert automaton.accepts(digits) == (clue.value_of(digits) == value), (value, digits)


@pytest.mark.parametrize("kind", CLUE_KINDS)
def test_the_unrolled_layers_spell_exactly_the_accepted_words(kind: type) -> None:
    """Every word over 1..4 (repeats too: the layers know nothing of units), and with a cell
    whose domain is cut: a path through the layers is a word the automaton accepts."""
    shape = GridShape.of_size(4)
    for value in range(kind((-1, 0), 0).most(4) + 1):
        (automaton,) = kind((0, 4), value).automata(shape)
        for domains in ([(1, 2, 3, 4)] * 16, [(1, 2, 3, 4)] * 3 + [(2, 4)] + [(1, 2, 3, 4)] * 12):
            unrolled = layered(automaton, domains)
            spelled = set()
            if unrolled.feasible:
                paths: list[tuple[int, tuple[int, ...]]] = [(0, ())]
                for arcs in unrolled.arcs:
                    paths = [(v, (*word, d)) for state, word in paths for u, d, v in arcs if u == state]
                spelled = {word for _, word in paths}
            words = itertools.product(*(domains[c] for c in automaton.cells))
            assert spelled == {w for w in words if automaton.accepts(w)}, value


@pytest.fixture
def automata_only(monkeypatch: pytest.MonkeyPatch) -> object:
    """Every clue written as its automaton, even where its table is the smaller form (the
    CNF's numbering is cached per rules: cleared on both sides)."""
    monkeypatch.setattr(encoding, "TABLE_ROWS_AT_MOST", -1)
    cnf.FamilyVariables.of.cache_clear()
    cnf._rules.cache_clear()
    yield
    cnf.FamilyVariables.of.cache_clear()
    cnf._rules.cache_clear()


@pytest.mark.parametrize("seed", range(6))
def test_the_automaton_encodings_count_what_a_brute_force_counts_on_4x4(
    seed: int, automata_only: object
) -> None:
    """Random clues of the three kinds (true or not of any grid) and a few givens."""
    rng = random.Random(seed)
    shape = GridShape.of_size(4)
    places = [(r, s) for r in range(4) for s in (-1, 4)] + [(s, c) for c in range(4) for s in (-1, 4)]
    clues: list[Constraint] = []
    for place in rng.sample(places, 3):
        kind = rng.choice(CLUE_KINDS)
        clues.append(kind(place, rng.randint(0, kind(place, 0).most(4))))
    rules = Rules.from_constraints(shape, clues)
    values = [0] * 16
    for cell in rng.sample(range(16), 2):
        values[cell] = rng.randint(1, 4)
    puzzle = Grid(rules, tuple(values))
    truth = {grid.values for grid in brute_force_solutions(puzzle)}
    assert not any(encoding.as_table(rules, clue) for clue in clues)
    for name in AUTOMATA_BACKENDS:
        if not _installed(name):
            continue
        result = create(name).solve(puzzle, limit=len(truth) + 1)
        assert result.exact, name
        assert {grid.values for grid in result.solutions} == truth, name


def test_small_tables_are_written_as_tables_and_large_ones_as_automata() -> None:
    six, nine = Rules.of_size(6), Rules.of_size(9)
    assert encoding.as_table(six, Sandwich((-1, 0), 10))
    assert not encoding.as_table(nine, Skyscraper((-1, 0), 4))  # thousands of rows
    assert not encoding.as_table(Rules.of_size(12), Sandwich((-1, 0), 10))  # not listed


def _formula_grid(shape: GridShape, rng: random.Random) -> tuple[int, ...]:
    """A full grid of boxes of h rows and w columns (digits relabelled at random)."""
    n = shape.size
    h = len({shape.row_of(cell) for cell in shape.regions[0]})
    w = n // h
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return tuple(digits[(w * (r % h) + r // h + c) % n] for r in range(n) for c in range(n))


def _twelve() -> tuple[Grid, tuple[int, ...]]:
    """A 12x12 puzzle with four clues of each kind and half its cells given (seed 1: one
    solution, which the back-ends' agreement below confirms)."""
    shape = GridShape.of_size(12)
    rng = random.Random(1)
    solution = _formula_grid(shape, rng)
    clues: list[Constraint] = []
    for kind in CLUE_KINDS:
        clues += kind.candidates(solution, shape, rng)[:4]
    rules = Rules.from_constraints(shape, clues)
    values = list(solution)
    for cell in rng.sample(range(144), 72):
        values[cell] = 0
    return Grid(rules, tuple(values)), solution


@pytest.mark.parametrize(
    "name", [*AUTOMATA_BACKENDS, "python-constraint", "propagating", "backtracking", "logic"]
)
def test_a_12x12_with_every_clue_kind_has_one_solution_on_the_models_that_take_it(
    name: str,
) -> None:
    """python-constraint takes the clues past 9x9 through its check of any kind;
    `propagating` filters their automata, `backtracking` reads them in its check and
    `logic` reads them along their lines (`line_clue`)."""
    if not _installed(name):
        pytest.skip(f"{name} is not installed")
    puzzle, solution = _twelve()
    assert is_solution(puzzle, Grid(puzzle.rules, solution))
    result = create(name).solve(puzzle, limit=2, timeout=300)
    assert result.status is Status.SOLVED, result.message
    assert [grid.values for grid in result.solutions] == [solution]
    assert result.exact


def test_past_9x9_the_table_only_models_answer_unsupported_and_say_why() -> None:
    puzzle, _ = _twelve()
    for name in ("dlx",):
        solver = create(name)
        assert not solver.accepts(puzzle.rules), name
        result = solver.solve(puzzle, limit=2)
        assert result.status is Status.UNSUPPORTED, name
        assert "sandwich sum past 9x9 (its table of fillings)" in result.message, name
    nine = Rules.from_constraints(GridShape.of_size(9), [Sandwich((-1, 0), 10)])
    assert all(create(name).accepts(nine) for name in ("dlx", "propagating", "logic"))


@pytest.mark.parametrize("kind", CLUE_KINDS)
def test_the_encoder_tables_say_which_sides_a_model_takes(kind: type) -> None:
    assert issubclass(kind, RegularConstraint) and issubclass(kind, TableConstraint)
    for name in AUTOMATA_BACKENDS:
        if _installed(name):
            assert type(create(name)).encoders.encodes(kind, 16), name
    assert type(create("logic")).encoders.encodes(kind, 16)  # as automata past 9x9
    table_only = type(create("dlx")).encoders
    assert table_only.encodes(kind) and table_only.encodes(kind, 9)
    assert not table_only.encodes(kind, 10)
