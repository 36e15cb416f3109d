"""The advanced techniques (chains, wings, finned fish, ALS, uniqueness, forcing) and the
variant and killer techniques, each on a pencil-mark position where no simpler technique
applies: the exact moves and the wording.

The positions of `logic_advanced_positions.json` are the pencil marks a run of the solver
reached on a real puzzle (named by `id`) just before the technique's first step, with the
puzzle's true solution: every move is also checked against it. The others are built by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules
from sudoku_bench.solvers.engines.logic import LogicSolver
from sudoku_bench.solvers.engines.logic.state import Candidates, Step
from sudoku_bench.solvers.engines.logic.techniques import BY_KEY, TECHNIQUES, for_rules, next_step
from tests.logic_positions import ALL, NINE, column_cells, position, row_cells, without

POSITIONS = json.loads((Path(__file__).parent / "logic_advanced_positions.json").read_text())

# Sue de Coq and Franken fish come after the chains in the table, which leave them few
# positions of their own; these positions (from top95, reached with them moved in front of
# the chains) test each one alone: its exact moves and wording, and every move against the
# puzzle's true solution.
HODOKU_POSITIONS = json.loads((Path(__file__).parent / "logic_hodoku_positions.json").read_text())
HODOKU_KEYS = ("sue_de_coq", "franken_x_wing", "franken_swordfish", "franken_jellyfish")


def only_first(key: str, state: Candidates, also: tuple[str, ...] = ()) -> Step:
    """The step of `key`, after checking that every simpler technique (of the full table,
    uniqueness included, those meant for these rules) but those named in `also` finds
    nothing."""
    for technique in for_rules(TECHNIQUES, state.rules):
        if technique.key in also:
            continue
        if technique.key == key:
            step = technique.find(state)
            assert step is not None, f"{key} finds nothing"
            assert step.technique == key
            return step
        assert technique.find(state) is None, f"{technique.key} applies before {key}"
    raise AssertionError(f"no technique {key} for {state.rules}")


@pytest.mark.parametrize("key", sorted(POSITIONS))
def test_a_position_from_a_real_puzzle(key: str) -> None:
    # a key "technique:variant" (a unique rectangle's type) names its technique apart
    case = POSITIONS[key]
    state = Candidates.from_marks(NINE, case["marks"])
    step = only_first(case.get("technique", key), state)
    assert step.describe(NINE) == case["text"]
    assert sorted(map(list, step.placements)) == sorted(case["placements"])
    assert sorted(map(list, step.eliminations)) == sorted(case["eliminations"])
    solution = Grid.from_string(case["solution"])
    assert all(solution[c] == d for c, d in step.placements)
    assert all(solution[c] != d for c, d in step.eliminations)


def test_remote_pairs() -> None:
    # 1/2 along r1c1 - r4c1 - r4c4 - r7c4 - r7c7 - r2c7; every link's unit holds 1 and 2 only
    # there, so naked pairs have nothing to do; the ends see r1c8, r1c9 (row 1, box 3) and
    # r2c2, r2c3 (box 1, row 2)
    chain = ["r1c1", "r4c1", "r4c4", "r7c4", "r7c7", "r2c7"]
    marks: dict[str, str] = {}
    for unit in (
        column_cells(1, range(1, 10)),
        row_cells(4, range(1, 10)),
        column_cells(4, range(1, 10)),
        row_cells(7, range(1, 10)),
        column_cells(7, range(1, 10)),
    ):
        marks |= {cell: "3456789" for cell in unit}
    marks |= dict.fromkeys(chain, "12")
    step = only_first("remote_pairs", position(marks))
    named = {(NINE.cell_name(c), d) for c, d in step.eliminations}
    assert named == {(cell, d) for cell in ("r1c8", "r1c9", "r2c2", "r2c3") for d in (1, 2)}
    assert step.reason == (
        "remote pair 1/2 along r1c1 - r4c1 - r4c4 - r7c4 - r7c7 - r2c7 "
        "(its ends hold different digits of the pair)"
    )


def test_nice_loop_places_the_candidate_where_two_strong_links_meet() -> None:
    # 1 has only two places in row 1 (r1c1, r1c5) and in column 1 (r1c1, r5c1), 2 only two
    # in column 5 (r1c5, r5c5), 3 only two in row 5 (r5c5, r5c1); every other mark is there.
    # If r1c1 were not 1, row 1 puts 1 in r1c5, so not 2 there; column 5 puts 2 in r5c5, so
    # not 3 there; row 5 puts 3 in r5c1, so not 1 there; and column 1 then needs 1 in r1c1.
    # No cell has fewer than eight candidates, so no subset, wing or XY-chain exists; each
    # digit has at most two strong links, which meet, so no X-chain or colouring acts. Only
    # the ALS-XY-wing over eight-cell sets (every ALS of a unit, as HoDoKu collects them) sees
    # the same loop from its other side: 1 leaves r1c5, the other place of 1 in row 1.
    marks: dict[str, str] = {}
    for digit, keep, cells in (
        ("1", ("r1c1", "r1c5"), row_cells(1, range(1, 10))),
        ("1", ("r1c1", "r5c1"), column_cells(1, range(1, 10))),
        ("2", ("r1c5", "r5c5"), column_cells(5, range(1, 10))),
        ("3", ("r5c5", "r5c1"), row_cells(5, range(1, 10))),
    ):
        for cell in cells:
            if cell not in keep:
                marks[cell] = without(marks.get(cell, ALL), digit)
    state = position(marks)
    wing = BY_KEY["als_xy_wing"].find(state)
    assert wing is not None and wing.eliminations == ((NINE.cell(0, 4), 1),)
    step = only_first("nice_loop", state, also=("als_xy_wing",))
    assert step.placements == ((NINE.cell(0, 0), 1),)
    assert step.eliminations == ()
    assert step.describe(NINE) == (
        "r1c1 = 1: nice loop 1r1c1 = 1r1c5 - 2r1c5 = 2r5c5 - 3r5c5 = 3r5c1 - 1r5c1 = 1r1c1 "
        "(assuming 1r1c1 false proves it true)"
    )


def test_nested_forcing_net_on_the_first_of_forum_hardest() -> None:
    # the givens' candidates of forum-hardest:1, where every other technique (forcing nets
    # included) finds nothing; r1c3 = 2 reaches a contradiction once the candidates that
    # contradict it by their own nets are taken out along the way
    puzzle = Grid.from_string(
        "98.7..6..5...9..7...7..6...43..2......86...5......34....98...6.....6...1.....12.."
    )
    solution = Grid.from_string(
        "981745623546392178327186945435928716198674352672513489219837564754269831863451297"
    )
    step = only_first("nested_forcing_net", Candidates.from_grid(puzzle))
    assert step.eliminations == ((NINE.cell(0, 2), 2),) and step.placements == ()
    assert solution[NINE.cell(0, 2)] != 2
    assert step.describe(NINE).startswith(
        "nested forcing net (if r1c3 were 2, 25 singles and 60 eliminations by inner forcing "
        "nets later r7c7 loses every candidate; singles: "
    )
    assert "removed by inner nets: " in step.describe(NINE)
    # Sudoku Explainer's nested level (dynamic chains inside) plus its length bonus
    assert step.weight is not None and 10.5 < step.weight < 13.0


def test_a_forcing_net_lists_singles_a_learner_can_replay() -> None:
    """Each single the net lists is, in order, a naked or a hidden single of the position
    with the assumption and the singles before it placed."""
    from sudoku_bench.solvers.engines.logic.forcing import propagate

    case = POSITIONS["forcing_net"]
    state = Candidates.from_marks(NINE, case["marks"])
    step = BY_KEY["forcing_net"].find(state)
    assert step is not None and step.weight is not None and step.weight >= 8.5
    cell, digit = step.eliminations[0]
    outcome = propagate(state, cell, digit)
    assert outcome.contradiction and len(outcome.singles) == outcome.placed > 0
    replay = state.copy()
    replay.place(cell, digit)
    for single_cell, single_digit in outcome.singles:
        naked = replay.masks[single_cell] == 1 << (single_digit - 1)
        hidden = any(
            replay.places(NINE.units[index], single_digit) == [single_cell]
            for index in NINE.houses
            if single_cell in NINE.units[index]
        )
        assert naked or hidden, NINE.cell_name(single_cell)
        replay.place(single_cell, single_digit)
    assert f"{NINE.cell_name(outcome.singles[0][0])}={outcome.singles[0][1]}" in step.reason


def test_forcing_steps_are_rated_as_sudoku_explainer_rates_chains() -> None:
    from sudoku_bench.solvers.engines.logic.forcing import length_bonus

    # SE's thresholds on the size less 2: 4, 6, 8, 12, 16, 24, 32, 48, 64, ...
    assert [length_bonus(size) for size in (6, 7, 9, 11, 14, 15, 19, 27, 35)] == [
        0.0, 0.1, 0.2, 0.3, 0.3, 0.4, 0.5, 0.6, 0.7,
    ]  # fmt: skip
    chain = BY_KEY["forcing_chain"].find(
        Candidates.from_marks(NINE, POSITIONS["forcing_chain"]["marks"])
    )
    assert chain is not None and chain.weight is not None and 8.0 <= chain.weight < 8.5 + 1


def test_bug_plus_one_on_a_deadly_grid_of_pairs() -> None:
    # every empty cell holds two candidates but r1c1 (1/2/3); 3 appears three times in row 1
    # (r1c1, r1c3, r1c4), column 1 (r1c1, r3c1, r4c1) and box 1 (r1c1, r1c3, r3c1)
    state = position({}, NINE)
    for cell in NINE.cells:
        state.values[cell] = 9  # a filled background (the technique reads only the marks)
        state.masks[cell] = 0
    marks = {"r1c1": "123", "r1c2": "12", "r2c1": "12", "r2c2": "12", "r1c3": "34",
             "r1c4": "34", "r3c1": "34", "r4c1": "34"}  # fmt: skip
    for name, digits in marks.items():
        cell = NINE.cell(int(name[1]) - 1, int(name[3]) - 1)
        state.values[cell] = 0
        state.masks[cell] = sum(1 << (int(d) - 1) for d in digits)
    step = BY_KEY["bug_plus_one"].find(state)
    assert step is not None and step.placements == ((0, 3),)
    assert step.reason == (
        "BUG+1: every other empty cell holds two candidates, and 3 appears three times in "
        "each unit of r1c1"
    )


# ----- variants and killer --------------------------------------------------------------------


def test_anti_knight_eliminations_are_logged() -> None:
    rules = NINE.with_rules(anti_knight=True)
    puzzle = Grid(rules, tuple(5 if cell == rules.cell(4, 4) else 0 for cell in rules.cells))
    state = Candidates.from_grid(puzzle)
    step = only_first("distinct_pairs", state)
    knights = ["r3c4", "r3c6", "r4c3", "r4c7", "r6c3", "r6c7", "r7c4", "r7c6"]
    assert {rules.cell_name(c) for c, _ in step.eliminations} == set(knights)
    assert step.describe(rules).startswith("r5c5 = 5: r3c4, r3c6, r4c3, r4c7, r6c3, r6c7, r7c4")
    assert "a knight's move away removes 5 from" in step.describe(rules)


def test_non_consecutive_neighbours_lose_the_next_digits() -> None:
    rules = NINE.with_rules(non_consecutive=True)
    puzzle = Grid(rules, tuple(5 if cell == 0 else 0 for cell in rules.cells))
    step = only_first("non_consecutive", Candidates.from_grid(puzzle))
    assert set(step.eliminations) == {(1, 4), (1, 6), (9, 4), (9, 6)}
    assert step.describe(rules) == (
        "r1c1 = 5: its neighbours cannot hold a digit next to 5 removes 4 from r1c2, r2c1; "
        "6 from r1c2, r2c1"
    )


def test_parity_is_in_the_starting_candidates() -> None:
    rules = NINE.with_rules(odd=frozenset({0}), even=frozenset({1}))
    state = Candidates.from_grid(Grid.empty(rules))
    assert state.candidates(0) == [1, 3, 5, 7, 9] and state.candidates(1) == [2, 4, 6, 8]


def test_cage_combinations() -> None:
    rules = NINE.with_rules(cages=(Cage((0, 1), 3),))
    step = only_first("cage_combinations", Candidates.from_grid(Grid.empty(rules)))
    assert step.reason == "cage r1c1+r1c2 = 3: only 1 and 2"
    assert set(step.eliminations) == {(c, d) for c in (0, 1) for d in range(3, 10)}


def test_cage_unit_interaction() -> None:
    # cage r1c1+r1c2+r1c3 = 7 must be 1+2+4: 4 (like 1 and 2) leaves the rest of row 1 and box 1
    rules = NINE.with_rules(cages=(Cage((0, 1, 2), 7),))
    state = Candidates.from_grid(Grid.empty(rules))
    state.apply(only_first("cage_combinations", state))
    step = only_first("cage_unit", state)
    assert (
        step.reason == "cage r1c1+r1c2+r1c3 = 7 must hold 1 (only 1, 2 and 4), in r1c1, r1c2, r1c3"
    )
    row_and_box = set(NINE.rows[0]) | set(NINE.regions[0])
    assert {c for c, _ in step.eliminations} == row_and_box - {0, 1, 2}


def test_innies_give_a_cell() -> None:
    # row 1: cages 1+2 = 3, 8+9 = 17 and four cells = 18 leave r1c9 alone: 45 - 38 = 7
    cages = (Cage((0, 1), 3), Cage((2, 3), 17), Cage((4, 5, 6, 7), 18))
    rules = NINE.with_rules(cages=cages)
    state = Candidates.from_grid(Grid.empty(rules))
    chosen = for_rules(TECHNIQUES, rules)
    for _ in range(20):
        step = next_step(state, chosen)
        assert step is not None
        if step.technique == "innies_outies":
            break
        state.apply(step)
    assert step.describe(rules) == "r1c9 = 7: 45 rule on row 1: the innie r1c9 = 7"
    assert only_first("innies_outies", state) == step


def test_a_killer_with_no_givens_is_never_answered_wrong() -> None:
    # the solution's rows, with cages of two cells side by side (the last cell alone)
    solution = Grid.from_string(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    )
    cages = []
    for row in range(9):
        for col in range(0, 8, 2):
            cells = (row * 9 + col, row * 9 + col + 1)
            cages.append(Cage(cells, solution[cells[0]] + solution[cells[1]]))
        cages.append(Cage((row * 9 + 8,), solution[row * 9 + 8]))
    rules = NINE.with_rules(cages=tuple(cages))
    result = LogicSolver().solve(Grid.empty(rules))
    # it may give up (no guessing), but what it finds is the solution
    assert result.solutions in ([], [Grid(rules, solution.values)])
    assert result.status.value in ("solved", "gave_up")
    assert result.counters["cage_combinations"] > 0


def test_an_impossible_cage_has_no_solution() -> None:
    rules = NINE.with_rules(cages=(Cage((0, 1), 18),))  # two distinct digits never make 18
    result = LogicSolver().solve(Grid.empty(rules))
    assert result.status.value == "no_solution" and result.exact


def test_a_small_extra_region_confines_nothing() -> None:
    # a digit with one place in a 3-cell extra region need not go there
    rules = NINE.with_rules(extra_regions=((0, 10, 20),))
    state = Candidates.from_marks(rules, {"r1c1": "12", "r2c2": "23", "r3c3": "34"}, default=ALL)
    step = BY_KEY["hidden_single"].find(state)
    assert step is None or step.placements[0][0] not in (0, 10, 20)


def test_uniqueness_techniques_are_off_by_default() -> None:
    assert "unique_rectangle" not in {t.key for t in LogicSolver().techniques}
    assert "unique_rectangle" in {t.key for t in LogicSolver(uniqueness=True).techniques}
    assert not BY_KEY["unique_rectangle"].applies(NINE.with_rules(anti_knight=True))


def test_every_new_technique_has_a_test() -> None:
    tested = {case.get("technique", key) for key, case in POSITIONS.items()}
    tested |= set(HODOKU_POSITIONS) | {
        "remote_pairs", "bug_plus_one", "nice_loop", "nested_forcing_net",
        "distinct_pairs", "non_consecutive",
        "cage_combinations", "cage_unit", "innies_outies",
        # tests/test_engine_families.py
        "pair_filter", "sum_bounds", "sum_combinations", "table",
        # tests/test_logic_joint.py
        "house_table", "rule_fillings", "rule_house", "cross_rules",
        # tests/test_logic_line_clue.py
        "line_clue",
    }  # fmt: skip
    older = {
        "naked_single", "hidden_single", "pointing", "box_line_reduction", "naked_pair",
        "hidden_pair", "naked_triple", "hidden_triple", "naked_quad", "x_wing", "xy_wing",
        "hidden_quad", "swordfish", "simple_colouring", "jellyfish",
    }  # fmt: skip
    assert {t.key for t in TECHNIQUES} == tested | older


def test_rules_of_every_kind_are_accepted() -> None:
    solver = LogicSolver()
    rules = Rules.of_size(9).with_rules(
        anti_knight=True, non_consecutive=True, odd=frozenset({0}), cages=(Cage((1, 2), 5),)
    )
    assert solver.accepts(rules)


@pytest.mark.parametrize("key", HODOKU_KEYS)
def test_a_hodoku_technique_on_a_position_from_a_real_puzzle(key: str) -> None:
    case = HODOKU_POSITIONS[key]
    state = Candidates.from_marks(NINE, case["marks"])
    step = BY_KEY[key].find(state)
    assert step is not None and step.technique == key
    assert step.describe(NINE) == case["text"]
    assert sorted(map(list, step.eliminations)) == sorted(case["eliminations"])
    solution = Grid.from_string(case["solution"])
    assert all(solution[c] != d for c, d in step.eliminations)


def test_the_hodoku_techniques_replay_soundly_on_whole_puzzles() -> None:
    """Every step of Sue de Coq and Franken fish, with them tried before the chains, on
    puzzles where they fire, is checked against the true solution."""
    from sudoku_bench.puzzles.collections import load
    from sudoku_bench.solvers.engines.logic.techniques import choose
    from sudoku_bench.solvers.engines.propagating.solver import PropagatingSolver

    base = [t for t in choose(None) if t.level != "extreme" and t.key not in HODOKU_KEYS]
    at = [t.key for t in base].index("finned_jellyfish") + 1
    chosen = (*base[:at], *(BY_KEY[key] for key in HODOKU_KEYS), *base[at:])
    fired: set[str] = set()
    for entry in [e for e in load("top95") if e.id in ("top95:12", "top95:14", "top95:22")]:
        solution = PropagatingSolver().solve(entry.puzzle).solutions[0]
        state = Candidates.from_grid(entry.puzzle)
        while not state.solved:
            step = next_step(state, chosen)
            if step is None:
                break
            if step.technique in HODOKU_KEYS:
                fired.add(step.technique)
                assert all(solution[c] != d for c, d in step.eliminations), (entry.id, step)
            state.apply(step)
    assert {"sue_de_coq", "franken_x_wing", "franken_swordfish"} <= fired


def test_the_techniques_added_after_hodoku_replay_soundly_on_whole_puzzles() -> None:
    """ALS-XY-chains, doubly linked ALS-XZ, ALS of up to eight cells, unique rectangles
    types 5-6 and hidden rectangles: every step of the table without forcing (uniqueness
    included) on puzzles where they fire is checked against the true solution."""
    from sudoku_bench.puzzles.collections import load
    from sudoku_bench.solvers.engines.propagating.solver import PropagatingSolver

    chosen = for_rules([t for t in TECHNIQUES if t.level != "extreme"], NINE)
    fired: set[str] = set()
    wanted = ("top95:8", "top95:11", "top95:31", "top95:87")
    for entry in [e for e in load("top95") if e.id in wanted]:
        solution = PropagatingSolver().solve(entry.puzzle).solutions[0]
        state = Candidates.from_grid(entry.puzzle)
        while not state.solved:
            step = next_step(state, chosen)
            if step is None:
                break
            fired.add(_kind(step))
            assert all(solution[c] == d for c, d in step.placements), (entry.id, step)
            assert all(solution[c] != d for c, d in step.eliminations), (entry.id, step)
            state.apply(step)
    assert {
        "als_xy_chain", "hidden_rectangle", "doubly linked ALS-XZ", "unique_rectangle type 6"
    } <= fired  # fmt: skip


def _kind(step: Step) -> str:
    """The technique's key, with a unique rectangle's type and ALS-XZ's double link."""
    if step.technique == "unique_rectangle":
        return f"unique_rectangle type {step.reason.split('(type ')[1][0]}"
    if step.reason.startswith("doubly linked"):
        return "doubly linked ALS-XZ"
    return step.technique
