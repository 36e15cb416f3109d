"""The Singular export (`reduce --to polynomials -o FILE`) read back by what the file says.

The header names the rules, the puzzle (with its symbols), the field, the digit of each root
and the cell of each variable; these tests rebuild the puzzle and every solution's full grid
from the file alone: its polynomials solved by sympy, and (when Singular is installed) by
Singular running the recipe the header gives.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("sympy")

from solving_support import brute_force_solutions, pattern_grid

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions.base import read_puzzle_header
from sudoku_bench.reductions.polynomial import PolynomialReduction, export

# jigsaw, an extra region, an even cell and two cages (one without a sum): 12 grids
MIXED = Rules.of_size(4).with_rules(
    layout=(2, 2, 2, 3, 0, 2, 3, 3, 0, 0, 1, 3, 0, 1, 1, 1),
    extra_regions=((3, 13),),
    even=frozenset({5}),
    cages=(Cage((10, 11), 6), Cage((0, 4))),
)
# a 4x4 killer with one solution and no givens
KILLER = Rules.parse(
    '{"cages":[{"cells":["r1c1","r1c2"],"sum":3},{"cells":["r1c3","r2c3","r3c3"],"sum":8},'
    '{"cells":["r1c4","r2c4"],"sum":6},{"cells":["r2c1","r3c1","r4c1"],"sum":9},'
    '{"cells":["r2c2","r3c2"],"sum":5},{"cells":["r3c4","r4c4"],"sum":4},'
    '{"cells":["r4c2","r4c3"],"sum":5}],"size":4}'
)


@dataclass
class Script:
    """What a exported script says, read back from its text only."""

    puzzle: Grid
    variables: dict[str, int]  # x6 -> its cell
    digit_of_root: dict[int, int]
    characteristic: int
    ring_variables: list[str]
    polynomials: list[str]
    recipe: list[str]


def read_script(text: str) -> Script:
    header: dict[str, str] = {}
    places: dict[str, tuple[int, int]] = {}  # x6 -> (row, column) from 1
    recipe: list[str] = []
    for line in text.splitlines():
        if line.startswith("//   "):
            recipe.append(line[5:])
        elif match := re.fullmatch(r"// (x\d+) = r(\d+)c(\d+)", line):
            places[match[1]] = (int(match[2]), int(match[3]))
        elif match := re.fullmatch(r"// (\w+): (.*)", line):
            header[match[1]] = match[2]
    rules = Rules.parse(header["rules"])
    variables = {name: rules.cell(row - 1, col - 1) for name, (row, col) in places.items()}
    symbols = dict(pair.split("=") for pair in header["symbols"].split())  # 1=1 ... .=empty
    values = tuple(0 if symbols[s] == "empty" else int(symbols[s]) for s in header["puzzle"])
    roots = header["field"].partition("digit -> root: ")[2]
    ring = re.search(r"^ring r = (\d+), \((.*)\), lp;$", text, re.M)
    assert ring is not None
    ideal = text[text.index("ideal I =") + len("ideal I =") :].strip().rstrip(";")
    return Script(
        puzzle=Grid(rules, values),
        variables=variables,
        digit_of_root={
            int(root): int(digit)
            for digit, root in (pair.split(" -> ") for pair in roots.split(", "))
        },
        characteristic=int(ring[1]),
        ring_variables=ring[2].split(", "),
        polynomials=[p.strip() for p in ideal.split(",")],
        recipe=recipe,
    )


def grid_from(script: Script, point: dict[str, int]) -> Grid:
    """The full grid: the puzzle's givens plus the digit of each variable's root."""
    modulus = script.characteristic
    values = list(script.puzzle.values)
    for name, root in point.items():
        values[script.variables[name]] = script.digit_of_root[root % modulus if modulus else root]
    return Grid(script.puzzle.rules, tuple(values))


@pytest.mark.parametrize(
    ("line", "rules", "options"),
    [
        ("0000302004010000", Rules.of_size(4), {}),
        ("1" + "." * 15, MIXED, {"modulus": 32003}),
        ("." * 16, KILLER, {"modulus": 5, "unity": True}),
        ("." * 36, Rules.of_size(6).with_rules(anti_knight=True), {}),
    ],
    ids=["thesis", "mixed-GF", "killer-unity", "6x6"],
)
def test_header_reads_back_to_the_puzzle_and_the_variable_map(
    line: str, rules: Rules, options: dict[str, object]
) -> None:
    puzzle = Grid.from_string(line, rules)
    script = read_script(export(puzzle, **options))  # type: ignore[arg-type]
    assert script.puzzle == puzzle  # the rules and the givens
    assert PolynomialReduction().accepts(rules)
    assert set(script.variables.values()) == set(puzzle.empty_cells)
    assert all(name == f"x{cell + 1}" for name, cell in script.variables.items())
    assert sorted(script.ring_variables) == sorted(script.variables)
    assert sorted(script.digit_of_root.values()) == list(rules.digits)
    assert script.characteristic == options.get("modulus", 0)
    assert script.recipe[0].startswith('< "sudoku.sing";')
    assert any("fglm(s, J)" in line for line in script.recipe)


def test_sixteen_by_sixteen_header_states_its_symbols() -> None:
    full = pattern_grid(Rules.of_size(16))
    puzzle = full.with_values({cell: 0 for cell in range(0, 256, 37)})
    assert "G" in puzzle.to_line()  # written in letters past 9
    text = export(puzzle)
    assert "// symbols: 1=1 2=2 " in text and " A=10 " in text and " G=16 .=empty" in text
    assert read_script(text).puzzle == puzzle
    # the header every export shares (reductions.base) reads it back too
    assert read_puzzle_header(line[3:] for line in text.splitlines()) == puzzle


def test_the_file_alone_solved_by_sympy_gives_every_grid() -> None:
    """QQ export: sympy solves the file's polynomials; the header turns each point into a grid."""
    import sympy

    puzzle = Grid.from_string("1..42.13..42...1", MIXED)  # 2 grids
    truth = set(brute_force_solutions(puzzle))
    script = read_script(export(puzzle))
    names = sympy.symbols(script.ring_variables)
    scope = dict(zip(script.ring_variables, names, strict=True))
    polys = [sympy.sympify(p.replace("^", "**"), locals=scope) for p in script.polynomials]
    points = sympy.solve(polys, names, dict=True)
    grids = {grid_from(script, {str(k): int(v) for k, v in point.items()}) for point in points}
    assert grids == truth and truth


# --- Singular, when installed (Debian: apt-get install singular) ---------------------------

SINGULAR = shutil.which("Singular")
needs_singular = pytest.mark.skipif(
    SINGULAR is None, reason="Singular is not installed (Debian package `singular`)"
)


def run_recipe(script_path: Path, text: str, tmp_path: Path) -> tuple[int, list[dict[str, int]]]:
    """Run the header's recipe in Singular: the number of solutions (vdim) and each point."""
    script = read_script(text)
    driver = tmp_path / "driver.sing"
    driver.write_text("\n".join([*script.recipe, "quit;", ""]), encoding="utf-8")
    assert SINGULAR is not None
    output = subprocess.run(
        [SINGULAR, "-q", str(driver)], capture_output=True, text=True, timeout=300, check=True
    ).stdout
    lines = output.splitlines()
    count = int(lines[0])
    points: list[dict[str, int]] = []
    for line in lines[1:]:
        if re.fullmatch(r"\[\d+\]:", line.strip()):
            points.append({})
        elif match := re.fullmatch(r"_\[\d+\]=(x\d+)([+-]\d+)?", line.strip()):
            points[-1][match[1]] = -int(match[2] or 0)
    if count == 0:
        points = []
    return count, points


@needs_singular
@pytest.mark.parametrize(
    ("line", "rules", "field"),
    [
        ("0000302004010000", Rules.of_size(4), "QQ"),
        ("." * 16, KILLER, "GF(32003)"),
        ("1" + "." * 15, MIXED, "QQ"),
        ("1....4....4....1", Rules.of_size(4).with_rules(non_consecutive=True), "GF(7)"),
    ],
    ids=["thesis", "killer", "mixed", "no-solution"],
)
def test_singular_runs_the_header_recipe_and_the_header_rebuilds_the_grids(
    line: str, rules: Rules, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_bench.harness.cli import main

    puzzle = Grid.from_string(line, rules)
    path = tmp_path / "puzzle.sing"
    args = ["reduce", line, "--geometry", rules.spec, "--to", "polynomials", "--field", field]
    assert main([*args, "-o", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["field"] == field
    text = path.read_text(encoding="utf-8")
    count, points = run_recipe(path, text, tmp_path)
    truth = set(brute_force_solutions(puzzle))
    assert count == len(truth) == len(points)
    assert {grid_from(read_script(text), point) for point in points} == truth


@needs_singular
@pytest.mark.slow
def test_singular_recipe_counts_the_288_grids(tmp_path: Path) -> None:
    """Issue 18: a lex std(I) of the empty 4x4 does not finish in 7 minutes; the recipe
    (slimgb, fglm, facstd) gives the 288 points in about 20 s."""
    path = tmp_path / "empty.sing"
    puzzle = Grid.empty(Rules.of_size(4))
    text = export(puzzle, script=str(path))
    path.write_text(text, encoding="utf-8")
    count, points = run_recipe(path, text, tmp_path)
    assert count == 288 == len({grid_from(read_script(text), p) for p in points})


def test_reduce_field_option(capsys: pytest.CaptureFixture[str]) -> None:
    from sudoku_bench.harness.cli import main

    thesis = "0000302004010000"
    assert main(["reduce", thesis, "--to", "polynomials", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["field"] == "QQ"  # the export's default
    assert main(["reduce", thesis, "--to", "polynomials", "--field", "gf(32003)", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["field"] == "GF(32003)"
    assert main(["reduce", thesis, "--to", "polynomials", "--field", "GF(32003)", "-o", "-"]) == 0
    assert "ring r = 32003, (" in capsys.readouterr().out
    cage = '{"size": 6, "cages": [{"cells": ["r1c1", "r1c2", "r1c3"], "sum": 8}]}'
    for args, words in [
        (["--field", "GF(4)"], "prime larger than 4"),
        (["--field", "RR"], "QQ (the rationals) or GF(p)"),
        (["--field", "QQ", "--to", "cnf"], "--field is for --to polynomials"),
        (["--geometry", cage, "--field", "GF(7)"], "GF(7) cannot tell the sums"),
    ]:
        puzzle = "." * 36 if "--geometry" in args else thesis
        to = [] if "--to" in args else ["--to", "polynomials"]
        assert main(["reduce", puzzle, *to, *args]) == 2
        error = capsys.readouterr().err.strip()
        assert words in error and "\n" not in error and "Traceback" not in error
