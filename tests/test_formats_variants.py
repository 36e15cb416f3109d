"""Puzzles with rules in the formats and the CLI: the JSON "rules" key, what other formats
lose, `--rules`, the `rules` key of `--json` records, and `show`'s pictures of the rules."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from solving_support import brute_force_solutions
from variant_support import puzzle_with_known_solution

from sudoku_bench.harness.cli import main
from sudoku_bench.puzzles import Cage, Grid, PuzzleFormatError, Rules
from sudoku_bench.puzzles.formats import FORMATS, PuzzleEntry, ReadOptions, read_text, write_text
from sudoku_bench.puzzles.picture import cage_legend, marks
from tests.cli_contract import SHOW, SOLVE, documentation

SEED = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
ANTI_KNIGHT = Rules.of_size(9).with_rules(anti_knight=True)
# 4x4 regions that are no boxes: region 1 takes r2c2 from region 3 and gives it r3c1
JIGSAW_4 = Rules.of_size(4).with_rules(layout=(0, 0, 1, 1, 0, 2, 1, 1, 0, 2, 3, 3, 2, 2, 3, 3))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ----- the JSON form ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_variant_puzzles_round_trip_through_json(fmt: str, seed: int) -> None:
    rng = random.Random(seed)
    puzzle = puzzle_with_known_solution(rng.choice([4, 6]), rng, 0.6)
    text = write_text([PuzzleEntry("t:1", puzzle)], fmt)
    (read,) = read_text(text, "t", fmt)
    assert read.puzzle == puzzle
    written = json.loads(text.splitlines()[0])
    if puzzle.rules.is_classic:  # classic rules are written as they always were
        assert "rules" not in written
    else:
        assert written["rules"] == puzzle.rules.to_json()


def test_classic_puzzles_are_written_as_before() -> None:
    entry = PuzzleEntry("t:1", Grid.from_string(SEED))
    assert json.loads(write_text([entry], "json")) == {
        "id": "t:1",
        "puzzle": SEED.replace("0", "."),
    }
    six = PuzzleEntry("t:1", Grid.empty(Rules(6, 3, 2)))
    assert json.loads(write_text([six], "json"))["geometry"] == "6x6:3x2"
    assert "rules" not in json.loads(write_text([six], "json"))


def test_the_rules_key_reads_the_json_form_or_its_text() -> None:
    killer = Rules.of_size(4).with_rules(cages=(Cage((0, 1), 3),))
    for rules in (killer.to_json(), killer.spec):
        text = json.dumps({"puzzle": "." * 16, "rules": rules})
        assert read_text(text, "t", "json")[0].puzzle.rules == killer


def test_geometry_and_rules_must_agree() -> None:
    rules = {"size": 9, "diagonals": True, "anti_knight": True}
    agreeing = json.dumps({"puzzle": "." * 81, "geometry": "9x9-x", "rules": rules})
    assert read_text(agreeing, "t", "json")[0].puzzle.rules.anti_knight
    clashing = json.dumps({"puzzle": "." * 81, "geometry": "9x9", "rules": rules})
    with pytest.raises(PuzzleFormatError, match='"geometry" 9x9 and "rules"'):
        read_text(clashing, "t", "json")
    bad = json.dumps({"puzzle": "." * 81, "rules": {"size": 9, "anti_bishop": True}})
    with pytest.raises(PuzzleFormatError, match="unknown rule 'anti_bishop'"):
        read_text(bad, "t", "json")


def test_formats_without_rules_say_what_they_lose() -> None:
    entry = PuzzleEntry("t:1", Grid.empty(ANTI_KNIGHT))
    for name in ("line", "grid", "sdk", "csv"):
        assert any("variant rules" in loss for loss in FORMATS[name].losses([entry])), name
    for name in ("json", "jsonl", "fpuzzles", "fpuzzles-url"):
        assert not FORMATS[name].losses([entry]), name


def test_convert_notes_the_rules_a_line_file_cannot_keep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "k.json"
    source.write_text(json.dumps({"puzzle": "." * 81, "rules": ANTI_KNIGHT.to_json()}))
    code, out, err = run(capsys, "convert", str(source), "--to", "line")
    assert (code, out) == (0, "." * 81 + "\n")
    assert "does not keep 1 puzzle's variant rules" in err


def test_sudoku_x_reading_keeps_the_other_rules() -> None:
    options = ReadOptions(rules=ANTI_KNIGHT, diagonals=True)
    (entry,) = read_text("." * 81, "t", "line", options)
    assert entry.puzzle.rules == ANTI_KNIGHT.with_rules(diagonals=True)


def test_a_jigsaw_grid_file_reads_back_under_its_rules() -> None:
    puzzle = Grid(JIGSAW_4, (1, 0, 0, 0) * 4)
    text = write_text([PuzzleEntry("t:1", puzzle)], "grid")
    options = ReadOptions(rules=JIGSAW_4, check_givens=False)
    assert read_text(text, "t", "grid", options)[0].puzzle == puzzle


# ----- the CLI: --rules, and the rules in --json records ------------------------------------


def test_rules_read_plain_lines_under_variant_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = '{"size": 9, "anti_knight": true}'
    code, out, _ = run(capsys, "show", "." * 81, "--rules", spec, "--json")
    assert code == 0
    record = json.loads(out)
    assert set(record) == SHOW
    assert record["rules"] == {"size": 9, "anti_knight": True}
    assert record["geometry"] == "9x9 anti-knight"
    rules_file = tmp_path / "rules.json"
    rules_file.write_text(spec)
    code, out, _ = run(capsys, "show", "." * 81, "--rules", str(rules_file), "--json")
    assert json.loads(out)["rules"] == {"size": 9, "anti_knight": True}
    assert run(capsys, "show", "." * 81, "--geometry", "9x9-x", "--json")[0] == 0


def test_bad_rules_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["show", "." * 81, "--rules", '{"size": 9, "knights": true}'])
    assert stopped.value.code == 2
    assert "unknown rule 'knights'" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{"size": 9, "odd": ["r10c1"]}')
    with pytest.raises(SystemExit):
        main(["show", "." * 81, "--rules", str(broken)])
    assert f"{broken}: odd: r10c1 is outside" in capsys.readouterr().err


def test_result_records_carry_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", SEED, "--json")
    assert code == 0
    record = json.loads(out)
    assert set(record) == SOLVE
    assert record["rules"] == {"size": 9}
    code, out, _ = run(capsys, "solve", "." * 81, "--rules", ANTI_KNIGHT.spec, "--json")
    assert json.loads(out)["rules"] == {"size": 9, "anti_knight": True}


def test_rules_option_never_silently_replaces_a_files_own_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--rules` dropped a killer's cages without a word; it adds rules to a classic puzzle,
    agrees with the same rules, and is refused beside other variant rules."""
    killer = json.dumps({"puzzle": "." * 16, "rules": {"size": 4, "cages": [
        {"cells": ["r1c1", "r1c2"], "sum": 3}]}})  # fmt: skip
    plain = json.dumps({"puzzle": "." * 16, "rules": {"size": 4}})
    path = tmp_path / "p.jsonl"
    path.write_text(f"{killer}\n")
    anti_king = '{"size": 4, "anti_king": true}'
    code, _, err = run(capsys, "count", str(path), "--rules", anti_king, "--limit", "1000")
    assert code == 2
    assert "carries its own rules (4x4 killer) and --rules gives others (4x4 anti-king)" in err
    same = json.dumps(json.loads(killer)["rules"])
    assert run(capsys, "count", str(path), "--rules", same, "--limit", "1000")[0] == 0
    path.write_text(f"{plain}\n")
    code, out, _ = run(capsys, "count", str(path), "--rules", anti_king, "--json", "--limit", "9")
    assert code == 0 and json.loads(out)["rules"] == {"size": 4, "anti_king": True}


def test_solve_takes_an_f_puzzles_link(capsys: pytest.CaptureFixture[str]) -> None:
    (entry,) = read_text(SEED, "t")
    url = write_text([entry], "fpuzzles-url").strip()
    code, out, _ = run(capsys, "solve", url, "--json")
    assert code == 0
    record = json.loads(out)
    assert (record["id"], record["status"]) == ("arg1", "solved")
    assert record["puzzle"] == SEED.replace("0", ".")


# ----- show: regions, extra regions, parity and cages ---------------------------------------


def test_a_jigsaw_is_drawn_with_its_region_borders() -> None:
    picture = Grid(JIGSAW_4, (1, 2, 0, 0) + (0,) * 12).picture()
    assert picture.splitlines() == [
        "+---+---+",
        "|1 2|. .|",
        "| +-+   |",
        "|.|.|. .|",
        "| | +---+",
        "|.|.|. .|",
        "+-+ |   |",
        "|. .|. .|",
        "+---+---+",
    ]


def test_classic_pictures_are_unchanged() -> None:
    assert Grid.from_string(SEED).picture().splitlines()[:4] == [
        "5 3 . | . 7 . | . . .",
        "6 . . | 1 9 5 | . . .",
        ". 9 8 | . . . | . 6 .",
        "------+-------+------",
    ]
    assert marks(Rules.of_size(9, diagonals=True)) == ""
    assert marks(ANTI_KNIGHT) == ""


def test_marks_show_extra_regions_parity_and_cages() -> None:
    rules = Rules.of_size(4).with_rules(
        extra_regions=((0, 5, 10, 15),),
        odd=frozenset({3}),
        even=frozenset({12}),
        cages=(Cage((0, 1), 3), Cage((14, 15))),
    )
    lines = marks(rules).splitlines()
    assert lines[0] == "extra regions (a letter each):"
    assert lines[2] == "|a .|. .|"
    start = lines.index("odd (o) and even (e) cells:")
    assert lines[start + 2] == "|. .|. o|"
    assert lines[start + 8] == "|e .|. .|"
    start = lines.index("cages (a letter each) and their sums:")
    assert lines[start + 1 :] == [
        "+---+---+",
        "|a a|. .|",
        "+---+   |",
        "|. . . .|",
        "|       |",
        "|. . . .|",
        "|   +---+",
        "|. .|b b|",
        "+---+---+",
        "a=3 b=any",
    ]


def test_the_cage_legend_names_cells_when_labels_come_round() -> None:
    cages = tuple(Cage((cell,), 1 + cell % 9) for cell in range(70))
    legend = " ".join(cage_legend(Rules.of_size(9).with_rules(cages=cages)))
    assert "a=1@r1c1" in legend and "a=9@r7c9" in legend


def test_show_draws_a_killer_with_its_legend(capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.of_size(4).with_rules(cages=(Cage((0, 1), 3), Cage((2, 3), 7)))
    code, out, _ = run(capsys, "show", "." * 16, "--rules", rules.spec)
    assert code == 0
    assert "4x4 killer, 0 givens" in out
    assert "|a a|b b|" in out
    assert out.rstrip().endswith("a=3 b=7")


# ----- the README's example per variant -----------------------------------------------------

_COUNT = re.compile(r"^sudoku-bench count (\S+) --rules '([^']+)' --limit \d+ +# [^:]+: (\d+)$")


def _readme_counts() -> list[Any]:
    """The README's `count PUZZLE --rules ... # variant: N` examples, each a test case."""
    cases = []
    for line in documentation().splitlines():
        match = _COUNT.match(line)
        if match:
            puzzle, spec, count = match.groups()
            slow = len(puzzle) > 16  # the 6x6 brute force takes most of a minute
            cases.append(pytest.param(puzzle, spec, int(count), marks=[pytest.mark.slow] * slow))
    return cases


@pytest.mark.parametrize(("line", "spec", "count"), _readme_counts())
def test_the_readme_counts_are_the_brute_force_counts(line: str, spec: str, count: int) -> None:
    assert len(brute_force_solutions(Grid.from_string(line, Rules.parse(spec)))) == count


def test_the_readme_has_a_count_example_for_each_small_variant() -> None:
    assert len(_readme_counts()) == 7


def test_cage_sums_out_of_reach_are_refused_and_clashing_cages_have_no_solution(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A cage sum past 64 bits reached cpsat, cpsat-onehot and milp-highs as raw library
    errors; two one-cell cages with different sums on one cell gave python-constraint a
    ValueError while `check` said OK."""
    huge = '{"size": 4, "cages": [{"cells": ["r1c1", "r1c2"], "sum": 123456789012345678901234567890}]}'
    with pytest.raises(SystemExit) as usage:  # an argument error, as argparse reports them
        main(["count", "." * 16, "--rules", huge])
    assert usage.value.code == 2
    assert "is out of reach (a 4x4 cage sums to at most 10" in capsys.readouterr().err
    clash = '{"size": 4, "cages": [{"cells": ["r1c1"], "sum": 1}, {"cells": ["r1c1"], "sum": 2}]}'
    names = "cpsat,cpsat-onehot,milp-highs,python-constraint,python-constraint-singles,dlx"
    code, out, _ = run(capsys, "check", "." * 16, "--rules", clash, "-s", names, "--json", "--quiet")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and {r["solver"] for r in records} == set(names.split(","))
    assert {(r["status"], r["verdict"]) for r in records} == {("no_solution", "none")}
