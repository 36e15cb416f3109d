"""Exact cover with colours (Knuth's Algorithm C) in the `dlx` back-end: tables and linear
equations become items whose options colour the cells; every answer is checked against a
brute force written in the tests (`tests/solving_support.py`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from sudoku_bench.puzzles.constraints.base import Equation, Table
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.exact_cover import (
    MAX_OPTIONS,
    ExactCoverMatrix,
    SudokuExactCover,
    sudoku_matrix,
)
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.engines.dlx.engine import DancingLinks
from sudoku_bench.solvers.engines.dlx.solver import DlxSolver
from tests.solving_support import (
    XccEquations,
    XccRelation,
    XccTable,
    shuffled_grid,
    xcc_cases,
    xcc_completions,
)


def equations_around(grid: Sequence[int], rng: random.Random) -> XccEquations:
    """One to three equations the grid keeps: random cells, coefficients from an arrow's
    (+1 on the line, -1 or -10 on a bulb), the total read off the grid."""
    cells = len(grid)
    found = []
    for _ in range(rng.randint(1, 3)):
        chosen = rng.sample(range(cells), rng.randint(2, 4))
        terms = tuple((cell, rng.choice((1, 1, -1, 2, -10))) for cell in chosen)
        found.append(Equation(terms, sum(k * grid[cell] for cell, k in terms)))
    return XccEquations(tuple(found))


def table_around(grid: Sequence[int], rng: random.Random) -> XccTable:
    """A table the grid keeps, its rows exclusive because each gives its key cell (the first)
    another digit; the others fix a digit or leave it open (0)."""
    n = round(len(grid) ** 0.5)
    cells = tuple(rng.sample(range(len(grid)), rng.randint(2, 4)))
    rows = []
    for key in range(1, n + 1):
        if key == grid[cells[0]]:
            rest = tuple(grid[c] if rng.random() < 0.6 else 0 for c in cells[1:])
        elif rng.random() < 0.5:
            continue
        else:
            rest = tuple(rng.choice((0, rng.randint(1, n))) for _ in cells[1:])
        rows.append((key, *rest))
    return XccTable((Table(cells, tuple(rows)),))


def both_around(grid: Sequence[int], rng: random.Random) -> XccTable:
    """Two tables at once (their cells may overlap)."""
    first, second = table_around(grid, rng), table_around(grid, rng)
    return XccTable(first.given + second.given)


def check_dlx(puzzle: Grid, truth: frozenset[tuple[int, ...]]) -> None:
    result = DlxSolver().solve(puzzle, limit=len(truth) + 1)
    assert result.exact, (result.status, result.message)
    assert {g.values for g in result.solutions} == truth, puzzle.to_line()


@pytest.mark.parametrize("size", [4, 6])
@pytest.mark.parametrize("make", [equations_around, table_around, both_around])
def test_dlx_finds_exactly_the_brute_force_solutions(size: int, make: object) -> None:
    rng = random.Random(f"xcc-{size}-{getattr(make, '__name__', '')}")
    for _ in range(4 if size == 4 else 2):
        puzzle, truth = xcc_cases(size, rng, make)  # type: ignore[arg-type]
        check_dlx(puzzle, truth)


def test_equations_tables_and_pair_relations_together() -> None:
    rng = random.Random(7)
    for _ in range(3):
        grid = next(iter(xcc_cases(4, rng, table_around)[1]))
        rules = Rules.from_json({"size": 4})
        pairs = tuple((a, b) for a, b in [(0, 5), (10, 15), (3, 6)] if grid[a] < grid[b])
        constraints = (
            equations_around(grid, rng),
            table_around(grid, rng),
            XccRelation("less", pairs),
        )
        values = tuple(v if rng.random() < 0.3 else 0 for v in grid)
        truth = frozenset(
            g
            for g in xcc_completions(rules, values)
            if all(c.holds(g) for c in constraints)  # type: ignore[attr-defined]
        )
        check_dlx(Grid(rules.with_constraints(*constraints), values), truth)


@pytest.mark.parametrize("cages", ["fillings", "combinations"])
def test_colours_with_cages_and_parity(cages: str) -> None:
    """A killer cage filled by its fillings colours the cells it places too; parity leaves
    placements out: with an equation and a table on the same cells, still the brute force's
    solutions."""
    rng = random.Random(4)
    base = Rules.from_json({"size": 4})
    cage = [0, 1, 4]
    for _ in range(12):
        grid = shuffled_grid(base, rng).values
        total = sum(grid[c] for c in cage)
        odd = ["r4c4"] if grid[15] % 2 else []
        rules = Rules.from_json(
            {"size": 4, "cages": [{"cells": ["r1c1", "r1c2", "r2c1"], "sum": total}], "odd": odd}
        )
        equation = Equation(((0, 1), (5, 1), (10, -1)), grid[0] + grid[5] - grid[10])
        constraints = (XccEquations((equation,)), table_around(grid, rng))
        values = tuple(v if rng.random() < 0.25 else 0 for v in grid)
        truth = frozenset(
            g
            for g in xcc_completions(base, values)
            if sum(g[c] for c in cage) == total
            and len({g[c] for c in cage}) == len(cage)
            and (not odd or g[15] % 2)
            and all(c.holds(g) for c in constraints)
        )
        puzzle = Grid(rules.with_constraints(*constraints), values)
        result = DlxSolver(cages=cages).solve(puzzle, limit=len(truth) + 1)
        assert result.exact, (result.status, result.message)
        assert {g.values for g in result.solutions} == truth, puzzle.to_line()


def test_a_colour_column_is_met_by_agreeing_rows_and_the_export_reads_back() -> None:
    rng = random.Random(3)
    puzzle, truth = xcc_cases(4, rng, equations_around)
    reduction = SudokuExactCover()
    model, data = reduction.apply(puzzle)
    assert model.colours  # the equation's cells are coloured items
    assert any(name.startswith("@") for name in model.columns)
    described = reduction.describe(puzzle)
    assert described["coloured_options"] == len(data.cover.sudoku.fixes.keys() & set(data.kept))
    assert described["coloured_options"] > 0 and described["cage_options"] == 0
    for grid in truth:
        chosen = reduction.encode(Grid(puzzle.rules, grid), data)
        assert model.is_exact_cover(chosen)
        assert reduction.invert(chosen, data).values == grid
    text = model.to_text()
    assert ":" in text
    assert ExactCoverMatrix.from_text(text) == model


def test_classic_rules_have_no_colours() -> None:
    matrix = sudoku_matrix(Rules.from_json({"size": 9})).matrix
    assert matrix.colours == ()
    assert not DancingLinks(matrix.rows, matrix.primary, matrix.secondary).coloured


def test_an_equation_with_too_many_fillings_is_unsupported() -> None:
    """A little killer along the 9 cells of a 9x9's diagonal summing to 45 has far more
    fillings than an item may have options: `unsupported`, naming the bound, not a long run."""
    rules = Rules.from_json({"size": 9})
    diagonal = tuple((i * 10, 1) for i in range(8))
    puzzle = Grid(rules.with_constraints(XccEquations((Equation(diagonal, 36),))), (0,) * 81)
    result = DlxSolver().solve(puzzle, limit=1)
    assert result.status is Status.UNSUPPORTED
    assert str(MAX_OPTIONS) in result.message


def colour_brute_force(
    rows: Sequence[Sequence[int]], colours: Sequence[Sequence[int]], primary: int, width: int
) -> set[frozenset[int]]:
    """Every set of rows (each meeting a primary column) that covers each primary column once
    and each secondary column once uncoloured, or by rows that all give it one colour."""
    useful = [i for i, row in enumerate(rows) if min(row) < primary]
    found = set()
    for k in range(len(useful) + 1):
        for combo in itertools.combinations(useful, k):
            hits = [0] * width
            given: dict[int, set[int]] = {}
            for r in combo:
                for column, colour in zip(rows[r], colours[r], strict=True):
                    if colour:
                        given.setdefault(column, set()).add(colour)
                    else:
                        hits[column] += 1
            if (
                all(h == 1 for h in hits[:primary])
                and all(h <= 1 for h in hits)
                and all(len(cs) == 1 and not hits[c] for c, cs in given.items())
            ):
                found.add(frozenset(combo))
    return found


def test_algorithm_c_finds_exactly_the_covers_of_random_coloured_matrices() -> None:
    rng = random.Random(1)
    for _ in range(300):
        primary, secondary = rng.randint(1, 4), rng.randint(1, 3)
        width = primary + secondary
        rows, colours = [], []
        for _ in range(rng.randint(1, 9)):
            columns = rng.sample(range(width), rng.randint(1, min(4, width)))
            rows.append(columns)
            colours.append([rng.choice((0, 1, 2)) if c >= primary else 0 for c in columns])
        links = DancingLinks(rows, primary, secondary, colours)
        truth = colour_brute_force(rows, colours, primary, width)
        found = [frozenset(s) for s in links.solutions()]
        assert set(found) == truth and len(found) == len(truth)
        if truth:  # a row selected up front: the covers that hold it
            row = min(next(iter(truth)))
            twin = links.copy()
            twin.select([row])
            assert {frozenset(s) for s in twin.solutions()} == {s for s in truth if row in s}
            assert sum(1 for _ in links.solutions()) == len(truth)  # the original is intact


# ----- the compiled engines' pair relations ------------------------------------------------------


def relation_around(grid: Sequence[int], rng: random.Random) -> XccRelation:
    """A relation of `XCC_RELATIONS` on pairs of cells the grid keeps it on, read first cell
    first (so `less` is directed, as a thermometer's pairs are)."""
    from tests.solving_support import XCC_RELATIONS

    relation = rng.choice(sorted(XCC_RELATIONS))
    allows = XCC_RELATIONS[relation]
    cells = len(grid)
    pairs = set()
    for _ in range(rng.randint(2, 8)):
        a, b = rng.sample(range(cells), 2)
        if allows(grid[a], grid[b]):
            pairs.add((a, b))
    return XccRelation(relation, tuple(sorted(pairs)))


@pytest.mark.parametrize("name", ["propagating-jit", "dlx-jit"])
@pytest.mark.parametrize("size", [4, 6])
def test_the_compiled_engines_find_exactly_the_brute_force_solutions_of_pair_relations(
    size: int, name: str
) -> None:
    from sudoku_bench.solvers.registry import get

    if not get(name).available():
        pytest.skip(get(name).not_installed())
    solver = get(name).create()
    rng = random.Random(f"jit-pairs-{size}")
    for _ in range(8 if size == 4 else 4):
        puzzle, truth = xcc_cases(size, rng, relation_around)
        result = solver.solve(puzzle, limit=len(truth) + 1)
        assert result.exact, (result.status, result.message)
        assert {g.values for g in result.solutions} == truth, puzzle.to_line()


def test_propagating_jit_sees_a_relation_between_two_givens() -> None:
    """Two givens that break a relation: no solution, found at the root."""
    pytest.importorskip("numba")
    from sudoku_bench.solvers.engines.propagating.jit import PropagatingJitSolver

    rules = Rules.from_json({"size": 4}).with_constraints(XccRelation("less", ((0, 15),)))
    values = [0] * 16
    values[0], values[15] = 3, 2
    result = PropagatingJitSolver().solve(Grid(rules, tuple(values)), limit=2)
    assert result.status is Status.NO_SOLUTION


# ----- groebner: pair relations by interpolation, linear equations as linear polynomials ------


@pytest.mark.parametrize("strategy", ["basis", "split"])
@pytest.mark.parametrize("size", [4, 6])
@pytest.mark.parametrize("make", [relation_around, equations_around])
def test_groebner_finds_exactly_the_brute_force_solutions(
    size: int, make: object, strategy: str
) -> None:
    pytest.importorskip("sympy")
    from sudoku_bench.solvers.engines.groebner.solver import GroebnerSolver

    solver = GroebnerSolver(strategy=strategy, leaf_freedom=4)
    rng = random.Random(f"groebner-{size}-{getattr(make, '__name__', '')}-{strategy}")
    for _ in range(2 if size == 4 else 1):
        puzzle, truth = xcc_cases(size, rng, make)  # type: ignore[arg-type]
        result = solver.solve(puzzle, limit=len(truth) + 1, timeout=120)
        assert result.exact, (result.status, result.message)
        assert {g.values for g in result.solutions} == truth, puzzle.to_line()
