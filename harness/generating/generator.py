"""The puzzle generator of the source documents: a random full grid, then cells removed in
random order while the puzzle keeps exactly one solution.

Targets (seed 001): easy ≈ 40 empty cells, medium ≈ 50, hard ≈ 60 on a 9x9, scaled by N²/81
for other sizes. Uniqueness is counted by a fast back-end (`propagating` by default). The
difficulty is checked with the rating (`harness.generating.rating`): while cells are removed a removal is
kept only if the logic solver, limited to the techniques of the requested difficulty, still
finishes the puzzle; once the target is reached the puzzle must also *need* that difficulty,
else up to `slack` more cells are removed, else a fresh grid is tried. Everything random comes
from one `random.Random(seed)`, so a seed gives the same puzzles every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from harness.generating.rating import Rating, rate, rating_of
from harness.generating.variants import VARIANTS, Variant
from puzzles.errors import SudokuBenchError
from puzzles.grid import Grid
from puzzles.rules import Rules
from solvers.base import Solver
from solvers.logic import LEVELS, TECHNIQUES, LogicSolver
from solvers.registry import create

TARGETS_9X9 = {"easy": 40, "medium": 50, "hard": 60}
DIFFICULTIES = tuple(TARGETS_9X9)
# the rating labels a generated puzzle of each difficulty may have
ACCEPTED = {"easy": ("easy",), "medium": ("medium",), "hard": ("hard", "expert")}

Counter = Callable[[Grid], int]  # number of solutions, stopping at 2


class GeneratorError(SudokuBenchError):
    """Generator settings that cannot work (unknown difficulty, unknown counting back-end)."""


def target_empty(size: int, difficulty: str) -> int:
    """The seeds' empty-cell target for a 9x9, scaled to an N x N grid."""
    return round(TARGETS_9X9[difficulty] * size * size / 81)


def solution_counter(backend: str = "propagating") -> Counter:
    """Count solutions (0, 1 or 2 meaning 'two or more') with the named back-end."""
    solver: Solver[object] = create(backend)

    def count(puzzle: Grid) -> int:
        result = solver.solve(puzzle, limit=2)
        if not result.exact and result.count < 2:
            raise GeneratorError(f"{backend} could not count the solutions of {puzzle}")
        return result.count

    return count


# A full-grid search restarts (with new random choices) after this many nodes, and gives
# up after this many restarts: the search is heavy-tailed under rules with rare grids
# (non-consecutive: restarts at 5,000 nodes find a 9x9 grid in about 2 s, one long search can
# take minutes), and rules with no grid at all (some jigsaw layouts) must not stop the run.
RESTART_NODES = 5_000
RESTARTS = 200


def random_full_grid(rules: Rules, rng: random.Random) -> Grid:
    """A random complete grid under any rules, by randomised search with restarts."""
    for _ in range(RESTARTS):
        found = _random_search(rules, rng, RESTART_NODES)
        if found is not None:
            return found
    raise GeneratorError(f"no complete {rules} grid found in {RESTARTS} randomised searches")


class _OutOfNodes(Exception):
    pass


def _random_search(rules: Rules, rng: random.Random, nodes: int) -> Grid | None:
    """Fewest-candidates cell first, its digits in random order; None past `nodes` nodes or
    when no grid exists. Candidates respect the peers (units, cages, pair rules),
    non-consecutive neighbours, parity and cage sums."""
    values = [0] * rules.cell_count
    peers, neighbours, cages_of, cages = rules.peers, rules.neighbours, rules.cages_of, rules.cages
    allowed = [sum(1 << (d - 1) for d in digits) for digits in rules.allowed]
    visited = 0

    def free(cell: int) -> int:
        used = 0
        for peer in peers[cell]:
            if values[peer]:
                used |= 1 << (values[peer] - 1)
        for other in neighbours[cell]:
            if values[other]:
                used |= 0b101 << values[other] >> 2  # the digits one below and one above
        mask = allowed[cell] & ~used
        for index in cages_of[cell]:
            cage = cages[index]
            if cage.total is not None:
                filled = [values[c] for c in cage.cells if values[c]]
                left = cage.total - sum(filled)
                last = len(filled) == len(cage.cells) - 1
                mask &= (
                    (1 << (left - 1))
                    if last and 1 <= left <= rules.size
                    else (0 if last else (1 << max(0, min(left - 1, rules.size))) - 1)
                )
        return mask

    def fill(left: int) -> bool:
        nonlocal visited
        visited += 1
        if visited > nodes:
            raise _OutOfNodes
        if not left:
            return True
        best, best_mask, best_count = -1, 0, rules.size + 1
        for cell in rules.cells:
            if not values[cell]:
                mask = free(cell)
                if mask.bit_count() < best_count:
                    best, best_mask, best_count = cell, mask, mask.bit_count()
                    if best_count <= 1:
                        break
        digits = [d for d in rules.digits if best_mask >> (d - 1) & 1]
        rng.shuffle(digits)
        for digit in digits:
            values[best] = digit
            if fill(left - 1):
                return True
        values[best] = 0
        return False

    try:
        return Grid(rules, tuple(values)) if fill(rules.cell_count) else None
    except _OutOfNodes:
        return None


@dataclass(frozen=True)
class Generated:
    """One generated puzzle, how close it came to the target, and its rating."""

    puzzle: Grid
    solution: Grid
    difficulty: str
    target: int  # empty cells aimed at (all removable ones with --minimal)
    rating: Rating
    attempts: int  # full grids tried
    minimal: bool = False

    @property
    def empty(self) -> int:
        return len(self.puzzle.empty_cells)

    @property
    def rating_ok(self) -> bool:
        return self.rating.label in ACCEPTED[self.difficulty]

    @property
    def note(self) -> str:
        """Empty when target and rating were met; else what was reached instead."""
        notes = []
        if not self.minimal and self.empty < self.target:
            notes.append(
                f"reached {self.empty} of {self.target} empty cells: no further cell could go "
                f"and keep one solution at this difficulty"
            )
        if not self.rating_ok:
            notes.append(f"rated {self.rating.label}, not {self.difficulty}")
        return "; ".join(notes)


class Generator:
    """Puzzles of one size and difficulty from one seed."""

    def __init__(
        self,
        rules: Rules,
        difficulty: str,
        *,
        seed: int | None = None,
        symmetric: bool = False,
        minimal: bool = False,
        counter: Counter | None = None,
        attempts: int = 50,
        variant: Variant = VARIANTS["classic"],
    ) -> None:
        if difficulty not in TARGETS_9X9:
            raise GeneratorError(
                f"unknown difficulty {difficulty!r}: choose {', '.join(DIFFICULTIES)}"
            )
        self.rules = rules
        self.variant = variant
        self.difficulty = difficulty
        self.rng = random.Random(seed)
        self.symmetric = symmetric
        self.minimal = minimal or not variant.givens
        self.count = counter or solution_counter()
        self.attempts = attempts
        self.target = target_empty(rules.size, difficulty)
        self.slack = round(5 * rules.cell_count / 81)
        ceiling = max(LEVELS.index(level) for level in ACCEPTED[difficulty])
        keys = [t.key for t in TECHNIQUES if LEVELS.index(t.level) <= ceiling]
        self.logic = LogicSolver(keys, explain=False)

    def generate(self, count: int) -> list[Generated]:
        return [self.one() for _ in range(count)]

    def one(self) -> Generated:
        """The first attempt whose rating fits the difficulty, else the closest one."""
        best: Generated | None = None
        for attempt in range(1, self.attempts + 1):
            try:
                rules = self.variant.before(self.rules, self.rng)
                solution = random_full_grid(rules, self.rng)
            except GeneratorError:  # these rules (a jigsaw layout) may have no grid: redraw
                continue
            rules = self.variant.after(rules, solution, self.rng)
            solution = Grid(rules, solution.values)
            puzzle, rating, exhausted = self.carve(solution)
            made = Generated(
                puzzle, solution, self.difficulty, self.target, rating, attempt, self.minimal
            )
            # a target this grid cannot reach is reported (Generated.note), not retried forever
            if made.rating_ok and (made.empty >= self.target or exhausted):
                return made
            if best is None or _closeness(made) > _closeness(best):
                best = made
        if best is None:
            raise GeneratorError(
                f"no {self.variant.name} {self.rules} grid found in {self.attempts} attempts"
            )
        return replace(best, attempts=self.attempts)

    def _orbits(self) -> list[tuple[int, ...]]:
        """Cells removed together: single cells, or pairs opposite through the centre."""
        last = self.rules.cell_count - 1
        orbits: list[tuple[int, ...]]
        if self.symmetric:
            orbits = [(c, last - c) if c != last - c else (c,) for c in range(last // 2 + 1)]
        else:
            orbits = [(c,) for c in self.rules.cells]
        self.rng.shuffle(orbits)
        return orbits

    def carve(self, solution: Grid) -> tuple[Grid, Rating, bool]:
        """Remove cells in random order while the puzzle stays unique (and, unless minimal,
        within the difficulty); stop at the target once the rating fits, or at target + slack.
        Also says whether every cell was tried (so no further cell can go)."""
        values = list(solution.values)
        rating = rate(solution, solver=self.logic)
        empty = 0
        exhausted = True
        for orbit in self._orbits():
            if not self.minimal:
                fits = rating.label in ACCEPTED[self.difficulty]
                if (empty >= self.target and fits) or empty >= self.target + self.slack:
                    exhausted = False
                    break
            trial = list(values)
            for cell in orbit:
                trial[cell] = 0
            puzzle = Grid(solution.rules, tuple(trial))
            if self.count(puzzle) != 1:  # first: counting is cheaper than rating
                continue
            if not self.minimal:
                result = self.logic.solve(puzzle)
                if not result.solutions:  # needs more than this difficulty's techniques
                    continue
                trial_rating = rating_of(result)
                # past the target, only a removal that makes the rating fit is worth keeping
                if empty >= self.target and trial_rating.label not in ACCEPTED[self.difficulty]:
                    continue
            values = trial
            empty += len(orbit)
            if not self.minimal:
                rating = trial_rating
        puzzle = Grid(solution.rules, tuple(values))
        if self.minimal:
            rating = rate(puzzle, solver=LogicSolver(explain=False))
        return puzzle, rating, exhausted


def _closeness(made: Generated) -> tuple[bool, int]:
    """Rating fits first, then empty cells nearer the target."""
    return made.rating_ok, -abs(made.empty - made.target)
