"""The readers on hand-written files: grids with separators and titles, .sdk, CSV, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.puzzles import Grid, Rules
from sudoku_bench.puzzles.formats import (
    FORMATS,
    PlayerState,
    PuzzleEntry,
    ReadOptions,
    WriteOptions,
    format_named,
    looks_like_grids,
    read_file,
    read_text,
    write_text,
)
from sudoku_bench.puzzles.symbols import HEX

SEED = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
PUZZLE = Grid.from_string(SEED)

EULER = """Grid 01
003020600
900305001
001806400
008102900
700000008
006708200
002609500
800203009
005010300
Grid 02
200080300
060070084
030500209
000105408
000000000
402706000
301007040
720040060
004010003
"""

ROWS = "\n".join(SEED[i : i + 9] for i in range(0, 81, 9)).replace("0", ".") + "\n"

NORVIG = (
    "\n"
    + ROWS
    + """========
8........
..36.....
.7..9.2..
.5...7...
....457..
...1...3.
..1....68
..85...1.
.9....4..
"""
)

PICTURE = """
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6

. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
"""


def test_project_euler_grids_with_titles() -> None:
    read = read_text(EULER, "p096.txt")
    assert [e.id for e in read] == ["p096.txt:2", "p096.txt:12"]
    assert [e.metadata["title"] for e in read] == ["Grid 01", "Grid 02"]
    assert read[0].puzzle.to_line() == (
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    )


def test_norvig_rules_between_grids() -> None:
    read = read_text(NORVIG, "n.grid")
    assert [e.id for e in read] == ["n.grid:2", "n.grid:12"]
    assert read[0].puzzle == PUZZLE


def test_picture_with_separators_and_blank_line_between_bands() -> None:
    (entry,) = read_text(PICTURE, "p.txt")  # .txt: sniffed as grids
    assert entry.puzzle == PUZZLE
    assert entry.id == "p.txt:2"


def test_picture_round_trips() -> None:
    assert read_text(PUZZLE.picture(), "x", "grid")[0].puzzle == PUZZLE


def test_box_shape_is_read_from_the_separators() -> None:
    tall = Rules(6, 3, 2)
    grid = Grid(tall, tuple([0] * 36)).with_values({0: 1, 7: 2})
    (entry,) = read_text(grid.picture(), "x", "grid")
    assert entry.puzzle.rules == tall
    assert entry.puzzle == grid


def test_numeric_rows_for_big_grids() -> None:
    rows = Grid.from_string(
        "1.D....4.A58.....E.........C...G.2.76.GBF..4....39F.1A.D7........4.6.31...B.58.C8C7E.69"
        "..F.....D...D..........2...A.G8C....7E.1426.G4....57F.A...B..........8...F.....B..3A.4"
        "2E1A.4C.5...E6.7.3........3D.C5.7B2....9..1GB.63.4.C...2.........6.....8FD.3....9.E"
    ).to_rows()
    text = "\n".join(" ".join(str(v) for v in row) for row in rows)
    (entry,) = read_text(text, "x", "grid")
    assert entry.puzzle.to_rows() == rows


@pytest.mark.parametrize(
    ("text", "grids"),
    [
        (SEED + "\n", False),
        ("0000302004010000\n", False),  # 16 cells: a 4x4 puzzle, not a 16x16 row
        ("530070000\n", True),
        ("Grid 01\n", True),
        ("# comment\n5 3 . | . 7 . | . . .\n", True),
        ("-------\n", True),
    ],
)
def test_txt_sniffing(text: str, grids: bool) -> None:
    assert looks_like_grids(text) is grids


def test_txt_sniffing_with_a_geometry() -> None:
    row = "1.D....4.A58...."
    assert looks_like_grids(row + "\n", ReadOptions(rules=Rules.of_size(16)))
    assert not looks_like_grids(row + "\n", ReadOptions(rules=Rules.of_size(4)))
    assert looks_like_grids("Grid 01\n", ReadOptions(rules=Rules.of_size(9)))


SDK = (
    """#ASadman Software
#DA classic from the source documents
#CFirst comment line
#CSecond comment line
#B2006-03-05
#SSudoku source
#LEasy
#Uhttps://example.org/sudoku
[Puzzle]
"""
    + ROWS
)


def test_sdk_metadata() -> None:
    (entry,) = read_text(SDK, "a.sdk", ".sdk")
    assert entry.puzzle == PUZZLE
    assert entry.id == "a.sdk:10"
    assert entry.metadata == {
        "author": "Sadman Software",
        "description": "A classic from the source documents",
        "comment": "First comment line\nSecond comment line",
        "date": "2006-03-05",
        "source": "Sudoku source",
        "level": "Easy",
        "url": "https://example.org/sudoku",
    }
    again = write_text([entry], "sdk")
    assert read_text(again, "b.sdk", "sdk")[0].metadata == entry.metadata


def test_kaggle_csv_with_and_without_solutions() -> None:
    text = f"quizzes,solutions\n{SEED},{SOLVED}\n{SEED},\n"
    first, second = read_text(text, "k.csv", ".csv")
    assert first.solution == Grid.from_string(SOLVED)
    assert second.solution is None
    assert (first.id, second.id) == ("k.csv:2", "k.csv:3")
    written = write_text([first], "csv")
    assert written == f"quizzes,solutions\n{SEED},{SOLVED}\n"


def test_csv_keeps_other_columns_as_metadata() -> None:
    text = f"id,puzzle,solution,difficulty\n7,{SEED},{SOLVED},2.5\n"
    (entry,) = read_text(text, "k.csv", ".csv")
    assert entry.metadata == {"id": "7", "difficulty": "2.5"}


def test_json_single_object_rows_form_and_metadata() -> None:
    obj = {"id": "mine", "puzzle": PUZZLE.to_rows(), "difficulty": "easy", "source": "seed 000"}
    (entry,) = read_text(json.dumps(obj), "p.json", "json")
    assert entry.puzzle == PUZZLE
    assert entry.id == "p.json:1"
    assert entry.metadata == {"id": "mine", "difficulty": "easy", "source": "seed 000"}


def test_json_list_ids_are_lines() -> None:
    entries = [PuzzleEntry(f"s:{i}", PUZZLE) for i in range(3)]
    text = write_text(entries, "json")
    assert [e.id for e in read_text(text, "l.json", "json")] == ["l.json:2", "l.json:3", "l.json:4"]
    pretty = json.dumps([{"puzzle": SEED}, {"puzzle": SEED}], indent=2)
    assert [e.id for e in read_text(pretty, "p.json", "json")] == ["p.json:2", "p.json:5"]


def test_json_player_state_with_pencil_marks() -> None:
    obj = {
        "puzzle": SEED,
        "state": {
            "values": "534" + SEED[3:],
            "candidates": {"r1c4": [2, 6], "r9c1": [1, 2, 3]},
        },
    }
    (entry,) = read_text(json.dumps(obj), "s.json", "json")
    assert entry.state is not None
    assert entry.state.values.to_line()[:3] == "534"
    assert entry.state.candidates[3] == {2, 6}
    assert entry.state.candidates[72] == {1, 2, 3}
    assert sum(1 for marks in entry.state.candidates if marks) == 2
    back = json.loads(write_text([entry], "json"))
    assert back["state"]["candidates"] == {"r1c4": [2, 6], "r9c1": [1, 2, 3]}


def test_json_geometry_and_alphabet_keys() -> None:
    x = Rules.of_size(9, diagonals=True)
    puzzle = Grid(x, PUZZLE.values)
    state = PlayerState.blank(puzzle)
    text = write_text([PuzzleEntry("a", puzzle, state=state)], "jsonl", WriteOptions(HEX))
    obj = json.loads(text)
    assert obj["geometry"] == "9x9-x" and obj["alphabet"] == "hex"
    assert obj["puzzle"][0] == "4"  # 5 is written as 4 in 0-F
    (entry,) = read_text(text, "a.jsonl", "jsonl")
    assert entry.puzzle == puzzle


def test_formats_by_name_or_extension(tmp_path: Path) -> None:
    assert format_named(".SDK") is FORMATS["sdk"]
    assert format_named("jsonl") is FORMATS["jsonl"]
    path = tmp_path / "p.grid"
    path.write_text(PUZZLE.picture())
    assert read_file(path)[0].puzzle == PUZZLE
    assert read_file(path, ReadOptions(), fmt="grid")[0].id == f"{path}:1"


def readme_blocks(language: str) -> list[str]:
    """The code blocks of the documentation's pages on formats, in order."""
    pages = Path(__file__).parent.parent / "docs" / "howto"
    text = "\n".join(
        (pages / name).read_text(encoding="utf-8") for name in ("formats.md", "variant-formats.md")
    )
    return [block.split("```", 1)[0] for block in text.split(f"```{language}\n")[1:]]


def test_readme_examples_read() -> None:
    json_example, rules_example = readme_blocks("json")
    (entry,) = read_text(json_example, "readme.json", "json")
    assert entry.solution is not None and entry.state is not None
    assert entry.metadata["difficulty"] == "hard"
    (killer,) = read_text(rules_example, "readme.json", "json")  # Formats for variants
    assert killer.puzzle.rules.name == "4x4 killer" and killer.puzzle.givens == 1
    plain = readme_blocks("")
    sdk = next(block for block in plain if block.startswith("#A"))
    assert read_text(sdk, "readme.sdk", "sdk")[0].puzzle.givens == 30
    kaggle = next(block for block in plain if block.startswith("quizzes"))
    assert read_text(kaggle, "readme.csv", "csv")[0].solution is not None
