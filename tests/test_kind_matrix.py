"""The (back-end x constraint kind) matrix: every available back-end of the registry, on small
random puzzles of every kind in `sudoku_bench.puzzles.constraints.KINDS` (and of the jigsaw shape), either
finds exactly the solutions a brute force written here finds, or answers `unsupported`.

The brute force shares nothing with the project: it enumerates the completions of a 4x4 (or a
6x6 with few blanks) under rows, columns and regions, and checks each kind from its
definition, written below from the rules' JSON form, not through the project's checker. A
kind in `KINDS` with no definition here fails loudly for every back-end that claims it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from sudoku_bench.puzzles.constraints import KINDS, Constraint, NonConsecutive, PairConstraint
from sudoku_bench.puzzles.constraints.base import Conflict
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Status
from sudoku_bench.solvers.registry import Backend, backends
from tests.kind_definitions_clues import definitions as clue_definitions
from tests.solving_support import UnwrittenKind

Check = Callable[[Sequence[int]], bool]  # a full grid (row-major values) -> the rule holds

# back-ends that may stop without an answer (human techniques, local search): what they
# return must still be solutions
INCOMPLETE = ("logic", "python-constraint-minconflicts")  # and the names that start so
# slow on these puzzles (a Groebner basis, pure-Python search): fewer puzzles by default
SLOW = ("groebner", "python-constraint", "backtracking")


# ----- the brute force --------------------------------------------------------------------------


def box_layout(size: int) -> tuple[int, ...]:
    rows = 2
    cols = size // rows
    return tuple((r // rows) * (size // cols) + c // cols for r in range(size) for c in range(size))


def completions(size: int, layout: Sequence[int], values: Sequence[int]) -> Iterator[list[int]]:
    """Every way to fill the blanks (0) so that rows, columns and regions hold distinct digits."""
    grid = list(values)
    blanks = [cell for cell, value in enumerate(grid) if not value]

    def clash(cell: int, digit: int) -> bool:
        row, col, region = cell // size, cell % size, layout[cell]
        return any(
            grid[other] == digit
            for other in range(size * size)
            if other != cell
            and (other // size == row or other % size == col or layout[other] == region)
        )

    if any(value and clash(cell, value) for cell, value in enumerate(grid)):
        return

    def fill(index: int) -> Iterator[list[int]]:
        if index == len(blanks):
            yield list(grid)
            return
        cell = blanks[index]
        for digit in range(1, size + 1):
            if not clash(cell, digit):
                grid[cell] = digit
                yield from fill(index + 1)
        grid[cell] = 0

    yield from fill(0)


def moves_apart(size: int, moves: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    pairs = []
    for row in range(size):
        for col in range(size):
            for dr, dc in moves:
                r, c = row + dr, col + dc
                if 0 <= r < size and 0 <= c < size:
                    pairs.append((row * size + col, r * size + c))
    return pairs


KNIGHT = [(1, 2), (2, 1), (1, -2), (2, -1)]
KING = [(0, 1), (1, 0), (1, 1), (1, -1)]
ORTHOGONAL = [(0, 1), (1, 0)]


def cell_name(size: int, cell: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


# ----- one generator and one definition per kind -------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """Rules of one kind around a known grid: their JSON fields and the rule's definition."""

    fields: dict[str, Any]
    holds: Check


def diagonal(size: int, grid: Sequence[int], rng: random.Random) -> Variant | None:
    main = [i * size + i for i in range(size)]
    anti = [i * size + size - 1 - i for i in range(size)]

    def holds(g: Sequence[int]) -> bool:
        return all(len({g[c] for c in line}) == size for line in (main, anti))

    return Variant({"diagonals": True}, holds) if rng.random() < 0.3 or holds(grid) else None


def extra_region(size: int, grid: Sequence[int], rng: random.Random) -> Variant:
    cells = list(range(size * size))
    rng.shuffle(cells)
    group: list[int] = []
    for cell in cells:  # cells whose digits differ in the known grid (so it keeps the rule)
        if len(group) < rng.randint(2, size) and all(grid[o] != grid[cell] for o in group):
            group.append(cell)
    members = sorted(group)

    def holds(g: Sequence[int]) -> bool:
        return len({g[c] for c in members}) == len(members)

    return Variant({"extra_regions": [[cell_name(size, c) for c in members]]}, holds)


def pair_rule(name: str, moves: Sequence[tuple[int, int]], apart: int) -> Callable[..., Any]:
    """A rule over pairs of cells `moves` apart: their digits differ by at least `apart`."""

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Variant | None:
        pairs = moves_apart(size, moves)

        def holds(g: Sequence[int]) -> bool:
            return all(abs(g[a] - g[b]) >= apart for a, b in pairs)

        # mostly around a grid that keeps it (solutions exist); sometimes regardless
        return Variant({name: True}, holds) if holds(grid) or rng.random() < 0.5 else None

    return make


def knightmare(size: int, grid: Sequence[int], rng: random.Random) -> Variant | None:
    """One or two sums that no two cells a knight's move apart may add up to."""
    pairs = moves_apart(size, KNIGHT)
    sums = sorted(rng.sample(range(3, 2 * size), rng.randint(1, 2)))

    def holds(g: Sequence[int]) -> bool:
        return all(g[a] + g[b] not in sums for a, b in pairs)

    return Variant({"knightmare": sums}, holds) if holds(grid) or rng.random() < 0.5 else None


def parity(size: int, grid: Sequence[int], rng: random.Random) -> Variant:
    marked = rng.sample(range(size * size), rng.randint(1, size))
    odd = sorted(c for c in marked if grid[c] % 2)
    even = sorted(c for c in marked if grid[c] % 2 == 0)
    if rng.random() < 0.2 and odd:  # now and then a mark the known grid breaks
        even.append(odd.pop())

    def holds(g: Sequence[int]) -> bool:
        return all(g[c] % 2 for c in odd) and not any(g[c] % 2 for c in even)

    fields: dict[str, Any] = {}
    if odd:
        fields["odd"] = [cell_name(size, c) for c in odd]
    if even:
        fields["even"] = [cell_name(size, c) for c in sorted(even)]
    return Variant(fields, holds)


def killer_cage(size: int, grid: Sequence[int], rng: random.Random) -> Variant:
    used: set[int] = set()
    cages: list[tuple[list[int], int | None]] = []
    for _ in range(rng.randint(1, 3)):
        free = [c for c in range(size * size) if c not in used]
        cells = [rng.choice(free)]
        for _ in range(rng.randint(0, 2)):
            around = [
                c
                for cell in cells
                for c in (cell - 1, cell + 1, cell - size, cell + size)
                if 0 <= c < size * size
                and c not in used
                and c not in cells
                and (abs(c - cell) == size or c // size == cell // size)
                and grid[c] not in {grid[x] for x in cells}
            ]
            if around:
                cells.append(rng.choice(around))
        used.update(cells)
        total = sum(grid[c] for c in cells) + (rng.random() < 0.15)  # now and then unreachable
        cages.append((sorted(cells), None if rng.random() < 0.2 else total))

    def holds(g: Sequence[int]) -> bool:
        return all(
            len({g[c] for c in cells}) == len(cells)
            and (total is None or sum(g[c] for c in cells) == total)
            for cells, total in cages
        )

    json_cages = [
        {"cells": [cell_name(size, c) for c in cells], **({} if total is None else {"sum": total})}
        for cells, total in cages
    ]
    return Variant({"cages": json_cages}, holds)


def jigsaw(size: int, grid: Sequence[int], rng: random.Random) -> Variant:
    """Regions the known grid keeps: region k takes one cell of each digit, at random."""
    layout = [0] * (size * size)
    for digit in range(1, size + 1):
        cells = [c for c in range(size * size) if grid[c] == digit]
        rng.shuffle(cells)
        for region, cell in enumerate(cells):
            layout[cell] = region
    rows = ["".join(str(layout[r * size + c] + 1) for c in range(size)) for r in range(size)]
    return Variant({"regions": rows}, lambda g: True)  # the brute force reads the layout


def cell_of(size: int, name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * size + int(col) - 1


def entropic_group(size: int, digit: int) -> int:
    """Low, middle, high: 4x4 1 | 2 3 | 4, 6x6 1 2 | 3 4 | 5 6 (Rangsk's groups)."""
    bounds = {4: (1, 3), 6: (2, 4)}[size]
    return 0 if digit <= bounds[0] else 1 if digit <= bounds[1] else 2


def line_holds(kind: str, size: int, entry: Any) -> Callable[[Sequence[int]], bool]:
    """The line kinds' rules, written here from their definitions on one JSON entry."""
    names = entry if isinstance(entry, list) else entry.get("cells", [])
    cells = [cell_of(size, name) for name in names]

    def sums_equal(g: Sequence[int], groups: Sequence[Sequence[int]]) -> bool:
        return len({sum(g[c] for c in group) for group in groups}) <= 1

    if kind == "thermometer":
        return lambda g: all(g[a] < g[b] for a, b in itertools.pairwise(cells))
    if kind == "slow_thermometer":
        return lambda g: all(g[a] <= g[b] for a, b in itertools.pairwise(cells))
    if kind == "whispers":
        least = entry["difference"]
        return lambda g: all(abs(g[a] - g[b]) >= least for a, b in itertools.pairwise(cells))
    if kind == "palindrome":
        return lambda g: [g[c] for c in cells] == [g[c] for c in reversed(cells)]
    if kind == "renban":
        return lambda g: (
            sorted(g[c] for c in cells)
            == list(range(min(g[c] for c in cells), min(g[c] for c in cells) + len(cells)))
        )
    if kind == "between_line":
        return lambda g: all(
            min(g[cells[0]], g[cells[-1]]) < g[c] < max(g[cells[0]], g[cells[-1]])
            for c in cells[1:-1]
        )
    if kind == "clone":
        clones = [cell_of(size, name) for name in entry["clones"]]
        return lambda g: all(g[a] == g[b] for a, b in zip(cells, clones, strict=True))
    if kind == "arrow":
        bulb = [cell_of(size, name) for name in entry["bulb"]]
        line = [cell_of(size, name) for name in entry["line"]]
        return lambda g: sum(g[c] for c in line) == int("".join(str(g[c]) for c in bulb))
    if kind == "entropic_line":
        return lambda g: all(
            len({entropic_group(size, g[c]) for c in cells[i : i + 3]}) == len(cells[i : i + 3])
            for i in range(len(cells))
        )
    if kind == "zipper_line":
        folded = [
            [cells[i]] if i == len(cells) - 1 - i else [cells[i], cells[len(cells) - 1 - i]]
            for i in range((len(cells) + 1) // 2)
        ]
        return lambda g: sums_equal(g, folded)
    assert kind == "region_sum_line", kind
    layout = box_layout(size)
    segments: list[list[int]] = []
    for index, cell in enumerate(cells):
        if index == 0 or layout[cell] != layout[cells[index - 1]]:
            segments.append([])
        segments[-1].append(cell)
    return lambda g: sums_equal(g, segments)


def line_kind(kind: str) -> Callable[[int, Sequence[int], random.Random], Variant]:
    """1-3 lines of the kind that a known grid keeps (the kind's own generator candidates),
    now and then one drawn from another grid, which this one may break."""

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Variant:
        shape = Rules.of_size(size).shape
        found = KINDS[kind].candidates(grid, shape, rng)
        if rng.random() < 0.2 or not found:
            other = list(rng.choice(known_grids(size)))
            found = KINDS[kind].candidates(other, shape, rng) + found
        chosen = found[: rng.randint(1, 3)]
        fields = Rules.from_constraints(shape, chosen).to_json()
        fields.pop("size", None)
        checks = [line_holds(kind, size, entry) for entry in fields[kind]]
        return Variant(fields, lambda g: all(check(g) for check in checks))

    return make


LINE_KINDS = (
    "thermometer", "slow_thermometer", "arrow", "whispers", "palindrome", "renban",
    "between_line", "clone", "entropic_line", "zipper_line", "region_sum_line",
)  # fmt: skip

DEFINITIONS: dict[str, Callable[[int, Sequence[int], random.Random], Variant | None]] = {
    "diagonal": diagonal,
    "extra_region": extra_region,
    "anti_knight": pair_rule("anti_knight", KNIGHT, 1),
    "anti_king": pair_rule("anti_king", KING, 1),
    "non_consecutive": pair_rule("non_consecutive", ORTHOGONAL, 2),
    "knightmare": knightmare,
    "parity": parity,
    "killer_cage": killer_cage,
    **{kind: line_kind(kind) for kind in LINE_KINDS},
    **clue_definitions(Variant),
}
SHAPES = {"jigsaw": jigsaw}


# ----- the puzzles --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    puzzle: Grid
    truth: frozenset[tuple[int, ...]]


@cache
def known_grids(size: int) -> tuple[tuple[int, ...], ...]:
    """Some full grids of the boxes (the first few hundred completions of the empty grid)."""
    found = []
    for grid in completions(size, box_layout(size), [0] * size * size):
        found.append(tuple(grid))
        if len(found) >= 300:
            break
    return tuple(found)


def make_case(kind: str, size: int, rng: random.Random) -> Case:
    """A puzzle of `kind` (rules made around a known grid, givens drawn from one of its
    solutions) with every solution counted by the brute force; few solutions, so counting
    back-ends stay quick."""
    make = DEFINITIONS.get(kind) or SHAPES[kind]
    while True:
        grid = list(rng.choice(known_grids(size)))
        rng.shuffle(digits := list(range(1, size + 1)))
        grid = [digits[v - 1] for v in grid]
        variant = make(size, grid, rng)
        if variant is None:
            continue
        rules = Rules.from_json({"size": size, **variant.fields})
        layout = box_layout(size)
        if "regions" in variant.fields:
            layout = tuple(int(ch) - 1 for row in variant.fields["regions"] for ch in row)
        solutions = (
            [g for g in completions(size, layout, [0] * size * size) if variant.holds(g)]
            if size == 4
            else [grid]
            if variant.holds(grid)
            else []
        )
        base = rng.choice(solutions) if solutions and rng.random() < 0.9 else grid
        order = list(range(size * size))
        rng.shuffle(order)
        blanks = 16 - rng.randint(3, 8) if size == 4 else rng.randint(6, 10)
        values = [0 if cell in order[:blanks] else base[cell] for cell in range(size * size)]
        truth = frozenset(tuple(g) for g in completions(size, layout, values) if variant.holds(g))
        if len(truth) <= 8:
            return Case(Grid(rules, tuple(values)), truth)


def cases(kind: str, count_4: int, count_6: int, seed: int) -> list[Case]:
    rng = random.Random(f"{kind}-{seed}")
    return [make_case(kind, 4, rng) for _ in range(count_4)] + [
        make_case(kind, 6, rng) for _ in range(count_6)
    ]


# ----- the check ----------------------------------------------------------------------------------


def claims(backend: Backend, kind: type[Constraint]) -> bool:
    """Whether the back-end says it can express the kind: its encoder table encodes it."""
    return backend.solver_class().encoders.encodes(kind)


def check_backend_on(backend: Backend, case: Case) -> None:
    """The back-end's answer for the case agrees with the brute force, or is `unsupported`."""
    solver = backend.create()
    result = solver.solve(case.puzzle, limit=len(case.truth) + 1, timeout=120)
    where = f"{backend.name} on {case.puzzle.rules.spec} {case.puzzle.to_line()}"
    if result.status is Status.UNSUPPORTED:
        assert not solver.accepts(case.puzzle.rules), f"{where}: unsupported, yet it accepts"
        return
    found = {g.values for g in result.solutions}
    assert found <= case.truth, f"{where}: a grid that breaks a rule: {found - case.truth}"
    # an incomplete method (logic, and its configurations that other tests register) may give
    # up, never guess: its grids, if any, were checked above
    if backend.name.startswith(INCOMPLETE) and result.status is Status.GAVE_UP:
        return
    assert result.exact, f"{where}: {result.status} {result.message}"
    assert found == case.truth, (
        f"{where}: {len(found)} solutions, the brute force finds {len(case.truth)}"
    )


def available_backends() -> list[Backend]:
    return [backend for backend in backends() if backend.available()]


def sample(backend: Backend, full: bool) -> tuple[int, int]:
    """Puzzles of 4x4 and of 6x6 per kind for this back-end."""
    if full:
        return (6, 3)
    if backend.name.startswith(SLOW):
        return (1, 0)
    return (2, 1)


KIND_NAMES = sorted(KINDS) + sorted(SHAPES)


def run_matrix(kind: str, full: bool) -> None:
    kind_class = KINDS.get(kind)
    for backend in available_backends():
        if kind not in DEFINITIONS and kind not in SHAPES:
            assert kind_class is not None
            assert not claims(backend, kind_class), (
                f"{backend.name} claims the kind {kind!r}, which this test has no definition "
                "of: add its generator and definition to DEFINITIONS"
            )
            continue
        count_4, count_6 = sample(backend, full)
        for case in cases(kind, count_4, count_6, seed=1 if full else 0):
            check_backend_on(backend, case)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_every_back_end_agrees_with_the_brute_force_or_says_unsupported(kind: str) -> None:
    run_matrix(kind, full=False)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KIND_NAMES)
def test_every_back_end_agrees_on_more_puzzles(kind: str) -> None:
    run_matrix(kind, full=True)


def test_the_brute_force_counts_the_empty_4x4() -> None:
    assert sum(1 for _ in completions(4, box_layout(4), [0] * 16)) == 288


def test_the_matrix_catches_a_back_end_that_ignores_a_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model whose table claims non-consecutive but whose encoder adds nothing returns grids
    that break the rule: the check must fail."""
    from sudoku_bench.reductions import cp_model

    ignored = cp_model.CpEncoder(lambda built, group: None, lambda built, group: None)
    lying = cp_model.EncoderTable({**_entries(cp_model.ENCODERS), NonConsecutive: ignored})
    monkeypatch.setattr(cp_model, "ENCODERS", lying)
    backend = next(b for b in available_backends() if b.name == "cpsat")
    rng = random.Random(5)
    with pytest.raises(AssertionError, match=r"breaks a rule|solutions"):
        for _ in range(10):
            case = make_case("non_consecutive", 6, rng)
            check_backend_on(backend, case)


def test_a_kind_no_table_has_is_answered_unsupported() -> None:
    """A constraint of a kind no model has an encoder for: every back-end with a table says
    `unsupported` and names it; none returns a grid. python-constraint is the exception: its
    generic encoder (keyed on `Constraint`) asks the kind's own check, so it takes every kind."""

    class Unheard(UnwrittenKind):  # no family: no model can have an encoder for it
        title = "unheard-of rule"

        def scope(self, shape: Any) -> tuple[int, ...]:
            return (0,)

        def violations(self, rules: Any, values: Sequence[int]) -> Iterator[Any]:
            return iter(())

    rules = Rules.from_json({"size": 4, "anti_knight": True}).with_constraints(Unheard())
    puzzle = Grid(rules, (0,) * 16)
    for backend in available_backends():
        solver = backend.create()
        result = solver.solve(puzzle, limit=2)
        if type(solver).encoders.lookup(Unheard()) is not None:
            assert backend.name.startswith("python-constraint"), backend.name
            assert result.status is not Status.UNSUPPORTED, backend.name
            continue
        assert result.status is Status.UNSUPPORTED, backend.name
        assert "unheard-of rule" in result.message, (backend.name, result.message)


def _entries(table: Any) -> dict[Any, Any]:
    return dict(table._encoders)


class _Increasing(PairConstraint, UnwrittenKind):
    """A kind of the pair family no model has an encoder of its own for: in each of a few
    pairs of cells the first holds the smaller digit (a thermometer of two cells)."""

    title = "increasing pair"

    def __init__(self, pairs: tuple[tuple[int, int], ...]) -> None:
        self._pairs = pairs

    def pairs(self, shape: Any) -> tuple[tuple[int, int], ...]:
        return self._pairs

    def allows(self, first: int, second: int) -> bool:
        return first < second

    def broken(self, rules: Any, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        text = f"{name(a)} holds {values[a]}, not less than {name(b)}'s {values[b]}"
        return Conflict(self.title, values[a], (a, b), text)


def test_a_new_pair_kind_is_encoded_by_every_model_of_the_family() -> None:
    """A kind unknown to every model but of the pair family: the models that encode the family
    (by the digit pairs its `allows` rules out) find exactly the brute force's solutions; the
    others say `unsupported`."""
    from sudoku_bench.reductions import cnf, exact_cover, polynomial

    def fresh() -> None:  # the rules-keyed model caches must not serve the rules without it
        exact_cover.sudoku_matrix.cache_clear()
        cnf._rules.cache_clear()
        cnf.CageSums.of.cache_clear()
        cnf.FamilyVariables.of.cache_clear()
        polynomial.ideal_parts.cache_clear()

    rng = random.Random(11)
    pairs = ((0, 1), (5, 9), (10, 14))
    increasing = _Increasing(pairs)
    checked = set()
    for _ in range(4):
        grid = list(rng.choice(known_grids(4)))
        values = [v if rng.random() < 0.3 else 0 for v in grid]
        # rules of their own (an even cell far off), so no cache holds their model already
        rules = Rules.from_json({"size": 4, "even": [cell_name(4, c) for c in (15,)]})
        rules.__dict__["constraints"] = (*rules.constraints, increasing)
        truth = frozenset(
            tuple(g)
            for g in completions(4, box_layout(4), values)
            if g[15] % 2 == 0 and all(g[a] < g[b] for a, b in pairs)
        )
        case = Case(Grid(rules, tuple(values)), truth)
        fresh()
        try:
            for backend in available_backends():
                table = backend.solver_class().encoders
                if table is None:
                    continue  # still declaring its kinds the older way
                if table.encodes(_Increasing):
                    checked.add(backend.name)
                check_backend_on(backend, case)
        finally:
            fresh()
    assert {"cpsat", "cpsat-onehot", "sat", "milp", "python-constraint", "dlx"} <= checked


def test_a_one_cell_cage_its_cell_cannot_hold_has_no_solution() -> None:
    """Found by the full matrix: python-constraint's sum crashed on a cell it emptied."""
    rules = Rules.from_json({"size": 4, "cages": [{"cells": ["r4c4"], "sum": 5}]})
    puzzle = Grid(rules, (0,) * 16)
    for backend in available_backends():
        if backend.name.startswith("python-constraint") and not backend.name.startswith(INCOMPLETE):
            assert backend.create().solve(puzzle, limit=2).status is Status.NO_SOLUTION
