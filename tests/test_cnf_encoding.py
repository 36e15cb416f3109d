"""The CNF reduction: sizes by formula, the DIMACS export read back, models round-trip."""

from __future__ import annotations

import random

import pytest
from formats_strategies import GEOMETRIES, random_solution
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions import cnf
from sudoku_bench.reductions.cnf import Cnf, CnfReduction, placement, variable


def parse_dimacs(text: str) -> tuple[int, list[list[int]]]:
    """A minimal DIMACS CNF reader, independent of the exporter: (variables, clauses)."""
    header: tuple[int, int] | None = None
    clauses: list[list[int]] = []
    current: list[int] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("c"):
            continue
        if line.startswith("p"):
            kind, fmt, variables, count = line.split()
            assert (kind, fmt) == ("p", "cnf")
            header = (int(variables), int(count))
            continue
        for token in map(int, line.split()):
            if token == 0:
                clauses.append(current)
                current = []
            else:
                current.append(token)
    assert header is not None and not current
    assert len(clauses) == header[1]
    assert all(0 < abs(lit) <= header[0] for clause in clauses for lit in clause)
    return header[0], clauses


def satisfies(clauses: list[list[int]], grid: Grid) -> bool:
    """Whether the assignment "cell holds its digit" (everything else false) meets every clause."""
    n = grid.size
    true = {cell * n + digit for cell, digit in enumerate(grid.values)}
    return all(any((lit in true) if lit > 0 else (-lit not in true) for lit in c) for c in clauses)


def extended_counts(n: int, units: int, givens: int = 0) -> dict[str, int]:
    pairs = n * (n - 1) // 2
    return {
        "clauses_cell-at-least": n * n,
        "clauses_cell-at-most": n * n * pairs,
        "clauses_unit-at-least": units * n,
        "clauses_unit-at-most": units * n * pairs,
        "clauses_givens": givens,
    }


@pytest.mark.parametrize(
    "rules",
    [
        Rules.of_size(4),
        Rules.of_size(6),
        Rules.of_size(9),
        Rules.of_size(9, diagonals=True),
    ],
    ids=str,
)
def test_the_sizes_follow_the_formulas(rules: Rules) -> None:
    n = rules.size
    reduction = CnfReduction()
    model, _ = reduction.apply(Grid.empty(rules))
    size = reduction.size(model)
    expected = extended_counts(n, len(rules.units))
    assert {key: size[key] for key in expected} == expected
    assert size["variables"] == size["used_variables"] == n**3
    assert size["clauses"] == sum(expected.values())
    assert size["literals"] == n**4 + len(rules.units) * n**3


def test_the_9x9_numbers() -> None:
    seed = load("seeds")[0].puzzle
    assert cnf.describe(Grid.empty(Rules.of_size(9)))["clauses"] == 11988
    summary = cnf.describe(seed)
    assert summary["variables"] == 729
    assert summary["clauses"] == 11988 + seed.givens
    assert summary["unit_clauses"] == summary["clauses_givens"] == seed.givens
    assert len(Rules.of_size(9, diagonals=True).units) == 29  # two diagonals: 18 more clauses


def test_the_numbering_is_cell_times_n_plus_digit() -> None:
    rules = Rules.of_size(9)
    assert variable(rules, 0, 1) == 1 and variable(rules, 80, 9) == 729
    assert variable(rules, 1, 1) == 10
    assert all(
        placement(rules, variable(rules, c, d)) == (c, d) for c in rules.cells for d in rules.digits
    )


def test_the_dimacs_export_parses_back_and_the_solution_satisfies_it() -> None:
    entry = load("seeds")[2]
    assert entry.solution is not None
    text = cnf.export(entry.puzzle)
    assert text.startswith("c ") and f"c puzzle: {entry.puzzle.to_line()}" in text
    assert "c variables: v = cell*9 + d" in text
    variables, clauses = parse_dimacs(text)
    assert (variables, len(clauses)) == (729, 11988 + entry.puzzle.givens)
    assert satisfies(clauses, entry.solution)
    # another valid grid breaks the givens' unit clauses; a corrupted one breaks the rules
    swapped = entry.solution.with_values({0: entry.solution[1], 1: entry.solution[0]})
    assert not satisfies(clauses, swapped)
    relabelled = Grid(entry.solution.rules, tuple(v % 9 + 1 for v in entry.solution.values))
    assert is_solution(Grid.empty(relabelled.rules), relabelled)
    assert not satisfies(clauses, relabelled)
    _, clauses = parse_dimacs(cnf.export(Grid.empty(entry.puzzle.rules)))
    assert satisfies(clauses, relabelled) and not satisfies(clauses, swapped)


def test_the_simplified_formula_keeps_only_candidates() -> None:
    entry = load("seeds")[2]
    assert entry.solution is not None
    model, data = CnfReduction("simplify").apply(entry.puzzle)
    full, _ = CnfReduction().apply(entry.puzzle)
    assert model.variables == 729 and len(model.clauses) < len(full.clauses) / 3
    given_vars = {variable(entry.puzzle.rules, c, v) for c, v in enumerate(entry.puzzle) if v}
    assert not given_vars & data.used
    _, clauses = parse_dimacs(model.to_dimacs())
    assert satisfies(clauses, entry.solution)
    assert model.satisfied_by(_true(entry.solution))


def _true(grid: Grid) -> set[int]:
    return {variable(grid.rules, c, d) for c, d in enumerate(grid.values)}


def test_clashing_givens_give_the_empty_clause_when_simplified() -> None:
    model, _ = CnfReduction("simplify").apply(Grid.from_string("1100" + "0" * 12))
    assert model.has_empty_clause and "\n0\n" in model.to_dimacs()
    full, _ = CnfReduction().apply(Grid.from_string("1100" + "0" * 12))
    assert not full.has_empty_clause  # the textbook form: unsatisfiable, found by the solver


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([g for g in GEOMETRIES if g.size <= 16]), st.randoms(), st.booleans())
def test_invert_round_trips_any_valid_grid(
    rules: Rules, rng: random.Random, simplify: bool
) -> None:
    solution = random_solution(rules, rng)
    empties = rng.sample(range(rules.cell_count), rng.randrange(rules.cell_count + 1))
    puzzle = solution.with_values(dict.fromkeys(empties, 0))
    reduction = CnfReduction("simplify" if simplify else "units")
    model, data = reduction.apply(puzzle)
    true = _true(solution)
    assert model.satisfied_by(true)
    answer = [v if v in true else -v for v in range(1, model.variables + 1)]
    assert reduction.invert(answer, data) == solution
    blocking = reduction.blocking_clause(data, solution)
    assert len(blocking) == len(empties) and not Cnf(model.variables, (blocking,)).satisfied_by(
        true
    )


def test_reduce_to_cnf_on_the_command_line(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    out = tmp_path / "seed.cnf"
    puzzle = load("seeds")[0].puzzle.to_line()
    assert main(["reduce", puzzle, "--to", "cnf", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "clauses_unit-at-most: 8748" in printed
    variables, clauses = parse_dimacs(out.read_text())
    assert variables == 729 and len(clauses) == 11988 + load("seeds")[0].puzzle.givens
