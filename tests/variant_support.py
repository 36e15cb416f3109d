"""Random small puzzles under random variant rules, for the registry-driven agreement tests.

4x4 puzzles take any rules at all (their solutions are then enumerated in full by the brute
force of `solving_support`, which shares no code with the solvers and asks only the rule
checker). 6x6 puzzles are built around a known solution, so that they have at least one: the
jigsaw regions, extra regions, parity cells and cages are drawn from that solution, and the
pair rules are switched on only where the solution keeps them.
"""

from __future__ import annotations

import random

from solving_support import brute_force_solutions, shuffled_grid

from sudoku_bench.puzzles.checker import conflicts
from sudoku_bench.puzzles.constraints import KINDS
from sudoku_bench.puzzles.constraints.knightmare import Knightmare
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Cage, Rules

PAIR_RULES = ("anti_knight", "anti_king", "non_consecutive")
# the kinds drawn above by hand; every other kind is drawn from its own `candidates`
DRAWN_BY_HAND = frozenset(
    {*PAIR_RULES, "diagonal", "extra_region", "parity", "killer_cage", "knightmare"}
)
CLUE_KINDS = tuple(sorted(set(KINDS) - DRAWN_BY_HAND))


def random_partition_layout(solution: Grid, rng: random.Random) -> tuple[int, ...]:
    """Regions that `solution` keeps: region k takes one cell of each digit, at random."""
    n = solution.rules.size
    layout = [0] * (n * n)
    for digit in range(1, n + 1):
        cells = [cell for cell in solution.rules.cells if solution[cell] == digit]
        rng.shuffle(cells)
        for region, cell in enumerate(cells):
            layout[cell] = region
    return tuple(layout)


def distinct_group(solution: Grid, rng: random.Random, size: int) -> tuple[int, ...]:
    """`size` random cells whose digits in `solution` differ."""
    cells = list(solution.rules.cells)
    rng.shuffle(cells)
    group: list[int] = []
    for cell in cells:
        if len(group) < size and all(solution[other] != solution[cell] for other in group):
            group.append(cell)
    return tuple(sorted(group))


def random_cages(solution: Grid, rng: random.Random, count: int) -> tuple[Cage, ...]:
    """Up to `count` disjoint cages of 1-3 orthogonally connected cells, with their sums."""
    rules, used = solution.rules, set[int]()
    cages = []
    for _ in range(count):
        start = rng.choice([c for c in rules.cells if c not in used] or [None])
        if start is None:
            break
        cells = [start]
        for _ in range(rng.randint(0, 2)):
            around = [
                c
                for cell in cells
                for c in _orthogonal(rules, cell)
                if c not in used
                and c not in cells
                and all(solution[c] != solution[o] for o in cells)
            ]
            if around:
                cells.append(rng.choice(around))
        used.update(cells)
        total = sum(solution[c] for c in cells) if rng.random() < 0.85 else None
        cages.append(Cage(tuple(sorted(cells)), total))
    return tuple(cages)


def _orthogonal(rules: Rules, cell: int) -> list[int]:
    row, col = divmod(cell, rules.size)
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
    return [
        rules.cell(row + dr, col + dc)
        for dr, dc in steps
        if 0 <= row + dr < rules.size and 0 <= col + dc < rules.size
    ]


def variant_rules_around(solution: Grid, rng: random.Random) -> Rules:
    """Random variant rules that `solution` satisfies."""
    rules = solution.rules
    changes: dict[str, object] = {}
    if rng.random() < 0.4:
        changes["layout"] = random_partition_layout(solution, rng)
    if rng.random() < 0.4:
        groups = rng.randint(1, 2)
        changes["extra_regions"] = tuple(
            distinct_group(solution, rng, rng.randint(2, rules.size)) for _ in range(groups)
        )
    if rng.random() < 0.3:
        cells = rng.sample(list(rules.cells), rng.randint(1, rules.size))
        changes["odd"] = frozenset(c for c in cells if solution[c] % 2)
        changes["even"] = frozenset(c for c in cells if solution[c] % 2 == 0)
    if rng.random() < 0.4:
        changes["cages"] = random_cages(solution, rng, rng.randint(1, 4))
    for flag in PAIR_RULES:
        if rng.random() < 0.35:
            trial = rules.with_rules(**{flag: True})
            if not conflicts(Grid(trial, solution.values)):
                changes[flag] = True
    chosen = rules.with_rules(**changes)
    if rng.random() < 0.2:
        chosen = with_knightmare_kept_by(solution, chosen, rng)
    for _ in range(2):  # now and then one or two clues of another kind, from the solution
        if rng.random() < 0.5:
            kind = KINDS[rng.choice(CLUE_KINDS)]
            # candidates draw many numbers: from a private generator seeded here, so that a
            # hypothesis-driven `rng` records one draw, not hundreds
            walker = random.Random(rng.getrandbits(64))
            clues = kind.candidates(solution.values, chosen.shape, walker)[: rng.randint(1, 2)]
            # a negative rule's exceptions stand beside it as its dots, as f-puzzles states it
            marks = [m for c in clues if hasattr(c, "marks") for m in c.marks(solution.values)]
            chosen = Rules.from_constraints(chosen.shape, [*chosen.constraints, *clues, *marks])
    return chosen


def with_knightmare_kept_by(solution: Grid, rules: Rules, rng: random.Random) -> Rules:
    """`rules` and a knightmare rule over one or two sums that no knight's move of `solution`
    adds up to (the default sums are hardly ever kept by a random grid); `rules` where every
    sum is reached."""
    rule = Knightmare()
    reached = {solution[a] + solution[b] for a, b in rule.pairs(rules.shape)}
    avoided = sorted(set(range(2, 2 * rules.size + 1)) - reached)
    if not avoided:
        return rules
    sums = tuple(rng.sample(avoided, min(len(avoided), rng.randint(1, 2))))
    return Rules.from_constraints(rules.shape, [*rules.constraints, Knightmare(sums)])


def puzzle_with_known_solution(size: int, rng: random.Random, empty: float) -> Grid:
    """A puzzle under random variant rules with at least one solution (a classic grid's)."""
    solution = shuffled_grid(Rules.of_size(size), rng)
    rules = variant_rules_around(solution, rng)
    cells = list(rules.cells)
    rng.shuffle(cells)
    emptied = cells[: int(len(cells) * empty)]
    values = list(solution.values)
    for cell in emptied:
        values[cell] = 0
    return Grid(rules, tuple(values))


def random_4x4_rules(rng: random.Random) -> Rules:
    """Any 4x4 rules, maybe with no solution at all: the brute force counts them in full."""
    base = Rules.of_size(4)
    solution = shuffled_grid(base, rng)
    rules = variant_rules_around(solution, rng)
    for flag in PAIR_RULES:  # also rules that no grid may keep
        if rng.random() < 0.15:
            rules = rules.with_rules(**{flag: True})
    return rules


def random_4x4_puzzle(rng: random.Random) -> Grid:
    """A 4x4 puzzle under `random_4x4_rules`, givens from one of its solutions if it has any."""
    rules = random_4x4_rules(rng)
    solutions = brute_force_solutions(Grid.empty(rules), limit=1)
    if not solutions:
        return Grid.empty(rules)
    cells = rng.sample(list(rules.cells), rng.randint(0, 6))
    return Grid(rules, tuple(solutions[0][c] if c in cells else 0 for c in rules.cells))
