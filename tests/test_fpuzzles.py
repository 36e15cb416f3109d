"""f-puzzles: every key the reader maps, the errors for what it cannot, links in every form,
and `convert --to fpuzzles-url` links decoded here with the lzstring package itself."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from variant_support import puzzle_with_known_solution

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles import Cage, Grid, PuzzleFormatError, Rules, is_solution
from sudoku_bench.puzzles.formats import PuzzleEntry, read_file, read_text, write_text
from sudoku_bench.puzzles.formats.fpuzzles import (
    URL,
    anti_diagonal,
    entry_from_object,
    entry_from_text,
    fpuzzles_object,
    main_diagonal,
    rules_of,
)
from sudoku_bench.solvers.registry import create, select
from tests.cli_contract import documentation

lzstring = pytest.importorskip("lzstring")  # the fpuzzles extra
LZ = lzstring.LZString()

# Made for these tests (a throwaway solver checked that each has exactly one solution).
ANTI_KNIGHT = {
    "rules": {"size": 9, "anti_knight": True},
    "puzzle": "6......4........9.........5.......7..........3...4....9...2..8..748......2...9...",
    "solution": "639251748452687193187394265268935471745168932391742856916423587574816329823579614",
}
ANTI_KING = {  # the README's anti-king example
    "rules": {"size": 9, "anti_king": True},
    "puzzle": "2....9...9...1..7........1....6....2...4..9.....7...4..8.............6....51.2...",
    "solution": "214879356936215478857346219741698532328451967569723841482567193173984625695132784",
}
JIGSAW = {
    "rules": {
        "size": 9,
        "regions": [
            "111222333",
            "141522333",
            "141522363",
            "141552663",
            "444552666",
            "444558666",
            "777588999",
            "777888999",
            "777888999",
        ],
    },
    "puzzle": "4....7..37.......45...3...9.....1......2..9.1.......5..7...3..8..9.5....6...9.7..",
    "solution": "491827563723569184586134279852941637367285941914376852275613498149758326638492715",
}


def empty_grid(size: int) -> list[list[dict[str, Any]]]:
    return [[{} for _ in range(size)] for _ in range(size)]


def fpuzzle(size: int = 9, **keys: Any) -> dict[str, Any]:
    return {"size": size, "grid": empty_grid(size), **keys}


def link(data: dict[str, Any]) -> str:
    return URL + LZ.compressToBase64(json.dumps(data))


def rules_read(data: dict[str, Any]) -> Rules:
    return entry_from_object(data, "t").puzzle.rules


# ----- the mapping, key by key --------------------------------------------------------------


def test_givens_player_entries_and_pencil_marks() -> None:
    data = fpuzzle(4, title="Tiny", author="Me", ruleset="Normal sudoku rules apply.")
    data["grid"][0][0] = {"value": 1, "given": True}
    data["grid"][0][1] = {"value": 2}  # a player's entry, not a given
    data["grid"][1][0] = {"centerPencilMarks": [3, 4], "cornerPencilMarks": [1], "c": "#FFF"}
    entry = entry_from_object(data, "t")
    assert entry.puzzle.to_line() == "1..............."
    assert entry.state is not None
    assert entry.state.values.to_line() == "12.............."
    assert entry.state.candidates[4] == frozenset({3, 4})
    assert entry.metadata == {
        "title": "Tiny",
        "author": "Me",
        "ruleset": "Normal sudoku rules apply.",
    }


def test_regions_make_a_jigsaw_and_box_shaped_regions_make_boxes() -> None:
    data = fpuzzle(4)
    jigsaw = ["0011", "0011", "2233", "2233"]  # swap r2c2 and r3c2 below
    layout = [[int(r) for r in row] for row in jigsaw]
    layout[1][1], layout[2][1] = 2, 0
    for r in range(4):
        for c in range(4):
            data["grid"][r][c]["region"] = layout[r][c]
    rules = rules_read(data)
    assert rules.layout == tuple(v for row in layout for v in row)
    six = fpuzzle(6)  # regions drawing boxes of 3 rows x 2 columns: boxes, not a jigsaw
    for r in range(6):
        for c in range(6):
            six["grid"][r][c]["region"] = (r // 3) * 3 + c // 2
    assert rules_read(six) == Rules(6, 3, 2)


def test_diagonals_both_are_sudoku_x_one_alone_is_an_extra_region() -> None:
    assert rules_read(fpuzzle(**{"diagonal+": True, "diagonal-": True})) == Rules.of_size(
        9, diagonals=True
    )
    plus = rules_read(fpuzzle(**{"diagonal+": True}))
    assert plus.extra_regions == (anti_diagonal(9),)
    assert plus.cell_name(plus.extra_regions[0][0]) == "r1c9"  # rising from r9c1 to r1c9
    minus = rules_read(fpuzzle(**{"diagonal-": True}))
    assert minus.extra_regions == (main_diagonal(9),)
    for rules in (plus, minus):  # and they are written back as the diagonal they were
        data = fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))
        assert "extraregion" not in data
        assert rules_read(data) == rules


def test_pair_rules_parity_extra_regions_and_disjoint_groups() -> None:
    data = fpuzzle(
        antiknight=True,
        antiking=True,
        nonconsecutive=True,
        odd=[{"cell": "R1C1"}, {"cell": "r2c2"}],
        even=[{"cell": "R9C9"}],
        extraregion=[{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"]}],
        disjointgroups=True,
    )
    rules = rules_read(data)
    assert (rules.anti_knight, rules.anti_king, rules.non_consecutive) == (True, True, True)
    assert rules.odd == {0, 10} and rules.even == {80}
    assert rules.extra_regions[0] == (10, 11, 19, 20)
    groups = rules.extra_regions[1:]
    assert len(groups) == 9 and groups[0] == (0, 3, 6, 27, 30, 33, 54, 57, 60)
    assert rules_read(fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))) == rules
    assert fpuzzles_object(PuzzleEntry("t", Grid.empty(rules)))["disjointgroups"] is True


def test_killer_cages_become_cages_with_their_sums_and_a_cosmetic_cage_is_no_rule() -> None:
    data = fpuzzle(
        killercage=[
            {"cells": ["R1C1", "R1C2"], "value": "3"},
            {"cells": ["R2C1", "R2C2"], "value": 17, "outlineC": "#000"},
            {"cells": ["R3C1"]},
        ],
    )
    cages = (Cage((0, 1), 3), Cage((9, 10), 17), Cage((18,), None))
    assert rules_read(data).cages == cages
    # `cage` is f-puzzles' cosmetic cage: refused as a possible rule of the setter's own,
    # passed over on request, as Rangsk's solver passes it over
    data["cage"] = [{"cells": ["R4C1", "R4C2"], "value": "10", "fontC": "#000"}]
    with pytest.raises(PuzzleFormatError, match=r"'cage'.*--ignore-cosmetics"):
        rules_read(data)
    assert rules_of(data, ignore_cosmetics=True).cages == cages
    # with a digital root for its sum it is a rule no kind here holds
    data["cage"] = [{"cells": ["R4C1", "R4C2"], "value": "DR5"}]
    with pytest.raises(PuzzleFormatError, match="digital-root sum 'DR5'"):
        rules_of(data, ignore_cosmetics=True)


def test_a_solution_is_read_and_checked() -> None:
    solution = ANTI_KNIGHT["solution"]
    data = fpuzzle(antiknight=True, solution=[int(d) for d in solution])
    assert entry_from_object(data, "t").solution == Grid.from_string(
        solution, Rules.from_json(ANTI_KNIGHT["rules"])
    )
    data["solution"][0], data["solution"][1] = data["solution"][1], data["solution"][0]
    with pytest.raises(PuzzleFormatError, match="does not solve"):
        entry_from_object(data, "t")


# ----- what cannot be represented: one line naming it ---------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        # Rangsk's modular lines and double arrows, and nabner, which no kind here reads
        ("modularline", [{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
        ("doublearrow", [{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
        ("nabner", [{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
        ("line", [{"lines": [["R1C1", "R2C2"]], "outlineC": "#000"}]),
    ],
)
def test_a_constraint_the_model_lacks_is_a_one_line_error_naming_it(key: str, value: Any) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        entry_from_text(link(fpuzzle(**{key: value})), "t")
    message = str(caught.value)
    assert f"f-puzzles constraint {key!r} cannot be represented" in message
    assert "\n" not in message


def test_the_cli_names_a_constraint_it_lacks_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = link(fpuzzle(modularline=[{"lines": [["R1C1", "R1C2"]]}]))
    assert main(["show", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'modularline'" in err


def test_empty_constraint_lists_are_no_rule() -> None:
    data = fpuzzle(thermometer=[], arrow=[], antiknight=False)
    assert rules_read(data) == Rules.of_size(9)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["grid"][0][0].update(region=None), "r1c1 is in no region"),
        (lambda d: d["grid"][0][0].update(givenPencilMarks=[1, 2]), "'givenPencilMarks'"),
        (lambda d: d.update(killercage=[{"cells": ["R1C1"], "value": "x"}]), "not a sum"),
        (lambda d: d.update(odd=[{"cell": "R10C1"}]), "'R10C1' is not a cell"),
        (lambda d: d.update(size=7, grid=empty_grid(7)), "size 7"),
        (lambda d: d.update(antiknight="yes"), "true or false"),
    ],
)
def test_bad_f_puzzles_data_is_named(change: Any, words: str) -> None:
    data = fpuzzle()
    change(data)
    with pytest.raises(PuzzleFormatError, match=words):
        entry_from_object(data, "t")


def test_a_missing_lzstring_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    real = importlib.import_module

    def no_lzstring(name: str, *args: Any) -> Any:
        if name == "lzstring":
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_lzstring)
    with pytest.raises(PuzzleFormatError, match=r"sudoku-bench\[fpuzzles\]"):
        entry_from_text(link(fpuzzle()), "t")
    load = link(fpuzzle()).removeprefix(URL)  # bare ?load= text: also said to need it
    assert main(["show", load]) == 2
    assert "sudoku-bench[fpuzzles]" in capsys.readouterr().err
    # the decompressed JSON needs no lzstring
    assert entry_from_text(json.dumps(fpuzzle()), "t").puzzle == Grid.empty(Rules.of_size(9))


# ----- links in every form ------------------------------------------------------------------


def test_a_link_its_load_text_and_its_json_read_alike() -> None:
    data = fpuzzle(antiknight=True)
    data["grid"][0][0] = {"value": 6, "given": True}
    load = LZ.compressToBase64(json.dumps(data))
    forms = [
        URL + load,
        "https://f-puzzles.com/?load=" + load.replace("+", "%2B").replace("/", "%2F"),
        load,
        json.dumps(data),
        "https://sudokupad.app/fpuzzles" + load,
    ]
    entries = [entry_from_text(form, "t") for form in forms]
    assert all(e.puzzle == entries[0].puzzle for e in entries)
    assert entries[0].puzzle.rules.anti_knight and entries[0].puzzle[0] == 6


def test_a_short_link_is_explained() -> None:
    with pytest.raises(PuzzleFormatError, match="short link"):
        entry_from_text("https://f-puzzles.com/?id=abc123", "t")


def test_files_of_links_and_json_files(tmp_path: Path) -> None:
    data = fpuzzle(antiking=True)
    links = tmp_path / "links.txt"
    links.write_text(f"# two puzzles\n{link(data)}\n\n{link(fpuzzle())}\n")
    read = read_file(links)
    assert [e.id for e in read] == [f"{links}:2", f"{links}:4"]
    assert read[0].puzzle.rules.anti_king and read[1].puzzle.rules.is_classic
    as_json = tmp_path / "puzzle.json"  # an f-puzzles object in a .json file
    as_json.write_text(json.dumps(data, indent=2))
    assert read_file(as_json)[0].puzzle == read[0].puzzle


# ----- writing: what the reader reads back --------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_variant_puzzles_round_trip_through_f_puzzles(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = puzzle_with_known_solution(rng.choice([4, 6]), rng, 0.6)
    entry = PuzzleEntry("t:1", puzzle)
    for fmt in ("fpuzzles", "fpuzzles-url"):
        try:
            text = write_text([entry], fmt)
        except PuzzleFormatError as refused:
            if any(c.kind == "knightmare" for c in puzzle.rules.constraints):
                assert "f-puzzles has no key for the knightmare rule" in str(refused)
                return
            # a negative rule's exceptions are read from the dots beside it: beside dots of
            # another kind drawn at random, f-puzzles would read other exceptions
            assert "negative" in str(refused)
            assert any(c.kind.endswith("_negative") for c in puzzle.rules.constraints)
            return
        (read,) = read_text(text, "t", fmt)
        assert read.puzzle == puzzle


def test_grids_larger_than_f_puzzles_draws_are_refused() -> None:
    with pytest.raises(PuzzleFormatError, match="up to 16x16"):
        write_text([PuzzleEntry("t:1", Grid.empty(Rules.of_size(25)))], "fpuzzles")


# ----- must show: convert writes links; lzstring itself decodes them ------------------------


def decode_with_lzstring(url: str) -> dict[str, Any]:
    """The f-puzzles object in a link, decoded by the lzstring package, not by our reader."""
    prefix = "https://www.f-puzzles.com/?load="
    assert url.startswith(prefix)
    decoded = json.loads(LZ.decompressFromBase64(url[len(prefix) :]))
    assert isinstance(decoded, dict)
    return decoded


def given_line(data: dict[str, Any]) -> str:
    return "".join(
        str(cell["value"]) if cell.get("given") else "." for row in data["grid"] for cell in row
    )


@pytest.mark.parametrize("example", [ANTI_KNIGHT, JIGSAW], ids=["anti-knight", "jigsaw"])
def test_convert_writes_links_that_lzstring_decodes_to_the_same_puzzle(
    example: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "puzzle.json"
    source.write_text(json.dumps(example))
    (original,) = read_file(source)
    assert original.solution is not None and is_solution(original.puzzle, original.solution)
    assert main(["convert", str(source), "--to", "fpuzzles-url"]) == 0
    url = capsys.readouterr().out.strip()

    data = decode_with_lzstring(url)
    rules = original.puzzle.rules
    assert data["size"] == 9
    assert given_line(data) == original.puzzle.to_line()
    assert data["solution"] == list(original.solution.values)
    assert data.get("antiknight", False) == rules.anti_knight
    regions = [cell.get("region") for row in data["grid"] for cell in row]
    boxes = [Rules.of_size(9).region_of(c) for c in range(81)]
    assert [boxes[c] if r is None else r for c, r in enumerate(regions)] == [
        rules.region_of(c) for c in range(81)
    ]
    # read back by the reader, from the link and from the decoded JSON: the same puzzle
    for text in (url, json.dumps(data)):
        back = entry_from_text(text, "t")
        assert back.puzzle == original.puzzle
        assert back.solution == original.solution


FAST = ("propagating", "dlx", "sat", "cpsat")  # back-ends quick on a 9x9 of 15-25 givens


@pytest.mark.parametrize(
    "example", [ANTI_KNIGHT, ANTI_KING, JIGSAW], ids=["anti-knight", "anti-king", "jigsaw"]
)
def test_the_examples_have_one_solution_for_every_back_end_that_takes_them(
    example: dict[str, Any], tmp_path: Path
) -> None:
    source = tmp_path / "puzzle.json"
    source.write_text(json.dumps(example))
    (entry,) = read_file(source)
    available = [b.name for b in select("all") if b.name in FAST]
    solvers = [create(name) for name in available]
    solvers = [solver for solver in solvers if solver.accepts(entry.puzzle.rules)]
    if not solvers:
        pytest.skip(f"no back-end of {', '.join(FAST)} accepts {entry.puzzle.rules.name} yet")
    for solver in solvers:
        result = solver.solve(entry.puzzle, limit=2, timeout=30)
        assert result.exact and result.solutions == [entry.solution], solver.name


def test_the_readme_jigsaw_link_is_the_jigsaw_example(tmp_path: Path) -> None:
    text = documentation()
    (url,) = re.findall(r"sudoku-bench show '(https://www\.f-puzzles\.com/[^']+)' +# jigsaw", text)
    source = tmp_path / "jigsaw.json"
    source.write_text(json.dumps(JIGSAW))
    (expected,) = read_file(source)
    read = entry_from_text(url, "readme")
    assert (read.puzzle, read.solution) == (expected.puzzle, expected.solution)
