"""Issue 18, items 3 and 4: the DIMACS and exact-cover exports carry their puzzle.

For each export, this test reads the file as an outsider would: its header gives the puzzle
(symbols and their numbers, the rules) and the variable or row map; another program solves
the model (PySAT's own DIMACS reader and MiniSat; the exact-cover listing read back and
searched by the general Dancing Links engine); and the full grid is rebuilt from that answer
using only what the file says. The exact-cover listing is also checked against the input
rules of Knuth's DLX1 as the README states them, and its pair columns follow the `|`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles.checker import is_solution
from sudoku_bench.puzzles.collections import load
from sudoku_bench.puzzles.constraints import EncoderTable
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.reductions import REDUCTIONS, ReductionEntry, cnf, exact_cover
from sudoku_bench.reductions.base import puzzle_header, read_puzzle_header
from sudoku_bench.reductions.exact_cover import ExactCoverMatrix, SudokuExactCover
from sudoku_bench.solvers.engines.dlx import DancingLinks
from sudoku_bench.solvers.registry import create


def killer_4x4() -> Grid:
    rules = Rules.of_size(4).with_rules(
        cages=(Cage((0, 1), 3), Cage((5, 6, 9), 9)), odd=frozenset({15})
    )
    return Grid(rules, (0, 0, 0, 4) + (0,) * 12)


def puzzles() -> list[Grid]:
    anti_knight = Rules.of_size(9).with_rules(anti_knight=True)
    return [
        Grid.from_string("....3.2..4.1...."),  # the thesis's 4x4
        load("16x16")[0].puzzle,  # letters A-G for 10-16
        Grid.from_string(  # unique; every 4th cell of an anti-knight grid
            "9...5...1...3...8...1...6...7...6...5...1...9...8...4...8...1...6...2...1...9...5",
            anti_knight,
        ),
        Grid(Rules.of_size(6).with_rules(non_consecutive=True), (1,) + (0,) * 35),
        killer_4x4(),
        Grid(Rules.of_size(4).with_rules(extra_regions=((0, 5), (10, 15, 12))), (0,) * 16),
        # the second cage shares r1c2 with the first: digit-set rows (`| cage`) for it
        Grid.empty(
            Rules.of_size(4).with_rules(
                cages=(Cage((0, 1, 4), 6), Cage((1, 2), 5), Cage((5, 6), 5))
            )
        ),
    ]


IDS = ["thesis", "16x16", "anti-knight", "non-consecutive", "killer", "extra-regions", "overlap"]


def header_of(comments: list[str]) -> tuple[Grid, dict[str, int]]:
    """The puzzle the `puzzle:`, `rules:` and `symbols:` lines describe, read here without the
    exporter's code, and the symbol -> number map."""
    fields = {}
    for line in comments:
        key, _, value = line.partition(": ")
        fields.setdefault(key.strip(), value.strip())
    numbers = {}
    for pair in fields["symbols"].split():
        symbol, number = pair.split("=")
        numbers[symbol] = 0 if number == "empty" else int(number)
    rules = Rules.parse(fields["rules"])
    return Grid(rules, tuple(numbers[s] for s in fields["puzzle"])), numbers


def test_the_shared_header_reads_back() -> None:
    for puzzle in puzzles():
        lines = puzzle_header(puzzle)
        assert read_puzzle_header(["noise: here", *lines]) == puzzle
        assert header_of(lines)[0] == puzzle
    sixteen = puzzle_header(load("16x16")[0].puzzle)
    assert sixteen[2].startswith("symbols: 1=1 2=2") and "A=10" in sixteen[2]
    assert sixteen[2].endswith("G=16 .=empty")


# ----- DIMACS ---------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", puzzles(), ids=IDS)
def test_the_dimacs_header_gives_the_puzzle_and_the_variables(puzzle: Grid) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver as PySatSolver

    text = cnf.export(puzzle)
    comments = [line[2:] for line in text.splitlines() if line.startswith("c ")]
    read, numbers = header_of(comments)
    assert read == puzzle
    rule = next(line for line in comments if line.startswith("variables: "))
    found = re.search(r"v = cell\*(\d+) \+ d for v in 1\.\.(\d+)", rule)
    assert found is not None
    n, placements = int(found.group(1)), int(found.group(2))
    assert (n, placements) == (max(numbers.values()), n**3)
    formula = CNF(from_string=text)
    with PySatSolver(name="minisat22", bootstrap_with=formula.clauses) as engine:
        assert engine.solve()
        model = engine.get_model()
    values = list(read.values)
    for v in model:
        if 0 < v <= placements:
            cell, digit = divmod(v - 1, n)
            assert values[cell] in (0, digit + 1)
            values[cell] = digit + 1
    grid = Grid(read.rules, tuple(values))
    assert is_solution(read, grid)
    if create("sat").solve(puzzle, limit=2).count == 1:
        assert grid == create("sat").solve(puzzle).solutions[0]


# ----- exact cover ------------------------------------------------------------------------------


def knuth_dlx1_problems(text: str) -> list[str]:
    """Where `text` breaks the input rules of Knuth's DLX1, as the README states them: item
    names of 1-8 nonblank characters other than `:` and `|`, each named once; the first line
    that is not a comment (a comment starts with `|`) lists the primary items, then `|` and
    the secondary ones; every other such line is an option: known items, none twice, at
    least one primary (DLX1 ignores an option without one)."""
    problems = []
    items: dict[str, bool] | None = None  # name -> primary?
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("|"):
            continue
        if items is None:
            if words.count("|") > 1:
                problems.append(f"line {number}: '|' twice in the item line")
            bar = words.index("|") if "|" in words else len(words)
            names = [word for word in words if word != "|"]
            items = {name: i < bar for i, name in enumerate(names)}
            for name in names:
                if not 1 <= len(name) <= 8 or ":" in name or "|" in name:
                    problems.append(f"line {number}: bad item name {name!r}")
            if len(items) != len(names):
                problems.append(f"line {number}: an item is named twice")
            continue
        if any(word not in items for word in words):
            problems.append(f"line {number}: unknown item")
        elif len(set(words)) != len(words):
            problems.append(f"line {number}: an item twice in one option")
        elif not any(items[word] for word in words):
            problems.append(f"line {number}: an option without a primary item")
    if items is None:
        problems.append("no item line")
    return problems


def options_with_notes(text: str) -> list[tuple[list[str], str]]:
    """Each option line's items and the comment line just before it ('' if none)."""
    found = []
    seen_items = False
    previous = ""
    for line in text.splitlines():
        if line.startswith("|"):
            previous = line[1:].strip()
            continue
        if seen_items:
            found.append((line.split(), previous))
        seen_items = True
        previous = ""
    return found


@pytest.mark.parametrize("puzzle", puzzles(), ids=IDS)
def test_the_exact_cover_header_gives_the_puzzle_and_the_row_map(puzzle: Grid) -> None:
    text = exact_cover.export(puzzle)
    assert knuth_dlx1_problems(text) == []
    comments = [line[2:] for line in text.splitlines() if line.startswith("| ")]
    read, _ = header_of(comments)
    assert read == puzzle and read_puzzle_header(comments) == puzzle
    matrix = ExactCoverMatrix.from_text(text)
    options = options_with_notes(text)
    assert len(options) == len(matrix.rows)
    links = DancingLinks(matrix.rows, matrix.primary, matrix.secondary)
    answer = next(links.solutions())
    values = list(read.values)
    digit_set_rows = 0
    for row in answer:
        items, note = options[row]
        if note.startswith("cage "):
            digit_set_rows += 1
            continue  # a cage's digit set: it places nothing
        if note.startswith("places "):
            placed = [word.split("=") for word in note.split()[1:]]
        else:  # the cell item rRcC, then the row-digit item rR#D
            cell, row_digit = items[0], items[1]
            assert re.fullmatch(r"r\d+c\d+", cell) and row_digit.startswith(cell.split("c")[0])
            placed = [[cell, row_digit.split("#")[1]]]
        for name, digit in placed:
            r, c = (int(part) for part in name[1:].split("c"))
            cell_number = (r - 1) * read.rules.size + c - 1
            assert values[cell_number] in (0, int(digit))
            values[cell_number] = int(digit)
    grid = Grid(read.rules, tuple(values))
    assert is_solution(read, grid)
    # each cage with digit-set rows chooses exactly one of them (its primary item kJ)
    assert digit_set_rows == len({note.split()[1] for _, note in options if "cage " in note})


@pytest.mark.parametrize(
    ("flag", "prefix"), [("anti_knight", "p"), ("anti_king", "p"), ("non_consecutive", "v")]
)
def test_pair_columns_are_secondary_after_the_bar(flag: str, prefix: str) -> None:
    puzzle = Grid.empty(Rules.of_size(9).with_rules(**{flag: True}))
    text = exact_cover.export(puzzle)
    item_line = next(line for line in text.splitlines() if not line.startswith("|"))
    primary, bar, secondary = item_line.partition(" | ")
    assert bar and secondary
    names = secondary.split()
    assert names and all(name.startswith(prefix) for name in names)
    assert not any(name.startswith(prefix) for name in primary.split())
    assert knuth_dlx1_problems(text) == []


def test_knuth_rules_catch_what_dlx1_refuses() -> None:
    assert knuth_dlx1_problems("a b | c\na\n") == []
    assert knuth_dlx1_problems("a b | c\nc\n") == ["line 2: an option without a primary item"]
    assert knuth_dlx1_problems("abcdefghi\nabcdefghi\n") == ["line 1: bad item name 'abcdefghi'"]
    assert knuth_dlx1_problems("a | b | c\na\n")[0] == "line 1: '|' twice in the item line"
    assert knuth_dlx1_problems("a:1 b\n")[0] == "line 1: bad item name 'a:1'"
    assert knuth_dlx1_problems("a b\na a\n") == ["line 2: an item twice in one option"]


def test_the_registry_serves_every_reduce_target() -> None:
    puzzle = Grid.from_string("....3.2..4.1....")
    assert next(iter(REDUCTIONS)) == "exact-cover"  # the default target
    assert set(REDUCTIONS) == {"exact-cover", "polynomials", "cp-model", "cnf", "milp", "csp"}
    for target, module in (("exact-cover", exact_cover), ("cnf", cnf)):
        reduction = REDUCTIONS[target].create()
        assert reduction.name == target
        assert reduction.export(puzzle) == module.export(puzzle)
        assert reduction.describe(puzzle) == module.describe(puzzle)


# ----- the tools of the field read the files --------------------------------------------------

PICOSAT = shutil.which("picosat")
DLX1 = os.environ.get("DLX1") or shutil.which("dlx1")


@pytest.mark.skipif(PICOSAT is None, reason="picosat is not installed (apt-get install picosat)")
@pytest.mark.parametrize("puzzle", puzzles(), ids=IDS)
def test_picosat_solves_the_dimacs_file_and_its_header_rebuilds_the_grid(
    puzzle: Grid, tmp_path: Path
) -> None:
    assert PICOSAT is not None
    path = tmp_path / "puzzle.cnf"
    path.write_text(cnf.export(puzzle))
    done = subprocess.run([PICOSAT, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 10 and done.stdout.startswith("s SATISFIABLE")  # 10: SAT
    model = [
        int(v) for line in done.stdout.splitlines() if line[:2] == "v " for v in line[2:].split()
    ]
    comments = [line[2:] for line in path.read_text().splitlines() if line.startswith("c ")]
    read, numbers = header_of(comments)
    n = max(numbers.values())
    values = list(read.values)
    for v in model:
        if 0 < v <= n**3:
            values[(v - 1) // n] = (v - 1) % n + 1
    assert is_solution(read, Grid(read.rules, tuple(values)))


@pytest.mark.skipif(DLX1 is None, reason="Knuth's DLX1 is not built (see the README: set DLX1)")
@pytest.mark.parametrize("puzzle", puzzles(), ids=IDS)
def test_knuths_dlx1_solves_the_listing_and_its_header_rebuilds_the_grid(puzzle: Grid) -> None:
    """DLX1 (`m1 t1`: print the first solution) names each chosen option by its items, in
    some rotation; the option is found in the file by that set of items."""
    assert DLX1 is not None
    text = exact_cover.export(puzzle)
    done = subprocess.run([DLX1, "m1", "t1"], input=text, capture_output=True, text=True)
    assert "Altogether 1 solution" in done.stderr
    by_items = {frozenset(items): (items, note) for items, note in options_with_notes(text)}
    chosen = [
        by_items[frozenset(line.split("(")[0].split())]
        for line in done.stdout.splitlines()
        if line.startswith(" ")
    ]
    comments = [line[2:] for line in text.splitlines() if line.startswith("| ")]
    read, _ = header_of(comments)
    values = list(read.values)
    for items, note in chosen:
        if note.startswith("cage "):
            continue
        if note.startswith("places "):
            placed = [word.split("=") for word in note.split()[1:]]
        else:
            placed = [[items[0], items[1].split("#")[1]]]
        for name, digit in placed:
            r, c = (int(part) for part in name[1:].split("c"))
            values[(r - 1) * read.rules.size + c - 1] = int(digit)
    assert is_solution(read, Grid(read.rules, tuple(values)))


class ClassicOnlyCover(SudokuExactCover):
    """A reduction that declares no variant rule (as one that ignored them would)."""

    name = "classic-only"
    encoders = EncoderTable({})


def test_reduce_refuses_a_model_that_would_leave_a_rule_out(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = ReductionEntry("classic-only", f"{__name__}:ClassicOnlyCover", "for this test")
    monkeypatch.setitem(REDUCTIONS, "classic-only", entry)
    anti_knight = '{"size": 4, "anti_knight": true}'
    command = ["reduce", "....3.2..4.1....", "--geometry", anti_knight, "--to", "classic-only"]
    assert main(command) == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith(
        "the classic-only reduction cannot express anti-knight: its model "
        "would leave those rules out"
    )
    assert "\n" not in error
    assert main([*command[:-1], "exact-cover"]) == 0


@pytest.mark.parametrize("target", sorted(REDUCTIONS))
def test_reduce_describes_a_variant_puzzle(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    killer = killer_4x4()
    rules = killer.rules.with_rules(anti_knight=True, non_consecutive=True)
    assert REDUCTIONS[target].create().accepts(rules)
    command = ["reduce", killer.to_line(), "--geometry", rules.spec, "--to", target, "--json"]
    assert main(command) == 0
    assert json.loads(capsys.readouterr().out)["target"] == target


@pytest.mark.parametrize("target", ["exact-cover", "cnf"])
def test_reduce_writes_a_killer_model(target: str, tmp_path: Path) -> None:
    killer = killer_4x4()
    out = tmp_path / "killer.txt"
    line = killer.to_line()
    command = ["reduce", line, "--geometry", killer.rules.spec, "--to", target, "-o", str(out)]
    assert main(command) == 0
    marker = "| " if target == "exact-cover" else "c "
    comments = [row[2:] for row in out.read_text().splitlines() if row.startswith(marker)]
    assert read_puzzle_header(comments) == killer
