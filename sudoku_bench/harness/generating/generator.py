"""The puzzle generator of the source documents, and what it takes to reach their targets.

Two ways to a unique puzzle, each from a random full grid (`--strategy`):
- `remove` (the source documents'): cells removed in random order while the puzzle keeps
  exactly one solution;
- `add` (their second strategy): a sparse random set of clues, about 17 on a 9x9 (N²·17/81),
  clues added where a second solution differs from the grid until only one solution is
  left, then clues that are no longer needed removed again.

Targets (seed 001): easy ≈ 40 empty cells, medium ≈ 50, hard ≈ 60 on a 9x9, scaled by N²/81
for other sizes; `extreme` (puzzles that need forcing chains) aims at 60 too. Plain removal
stalls before 60 (a random minimal puzzle has 22-26 clues), so when it stalls a local search
takes over: add one clue back and remove two (net one fewer), or swap one for another when
the count is right but the rating is not. A candidate move is tried only if the known second
solutions of the puzzle without each clue allow it: a clue r can go after clue c is added only
if the second solution found without r differs from the grid at c, which prunes most moves
before any solve.

Uniqueness is counted by a fast back-end (`propagating` by default). The difficulty is checked
with the rating (`sudoku_bench.harness.generating.rating`): a removal is kept only if the logic solver,
limited to the techniques of the requested difficulty, still finishes the puzzle, and the
final puzzle must *need* that difficulty. Everything random comes from one
`random.Random(seed)`, so a seed gives the same puzzles every time. Nothing assumes boxes:
the generator asks the `Rules` for cells and lets the back-ends and the rating apply them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from sudoku_bench.harness.generating.rating import Rating, rate, rating_of
from sudoku_bench.harness.generating.variants import VARIANTS, Variant
from sudoku_bench.puzzles.constraints import (
    Cage,
    Constraint,
    DistinctPairs,
    NonConsecutive,
    Parity,
    UnitConstraint,
)
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Solver
from sudoku_bench.solvers.engines.logic import LEVELS, TECHNIQUES, LogicSolver
from sudoku_bench.solvers.registry import create

TARGETS_9X9 = {"easy": 40, "medium": 50, "hard": 60, "extreme": 60}
DIFFICULTIES = tuple(TARGETS_9X9)
# not used to rate trial removals: it may search for a second before it gives up, on every
# trial, so an extreme puzzle made here needs (plain) forcing nets at most
NOT_WHILE_CARVING = ("nested_forcing_net",)
# the rating labels a generated puzzle of each difficulty may have
ACCEPTED = {
    "easy": ("easy",),
    "medium": ("medium",),
    "hard": ("hard", "expert"),
    "extreme": ("extreme",),
}
STRATEGIES = ("remove", "add")
SPARSE_9X9 = 17  # the add strategy starts from this many clues on a 9x9 (scaled by N²/81)
MOVES = 300  # local-search moves per grid before a fresh grid is tried


class GeneratorError(SudokuBenchError):
    """Generator settings that cannot work (unknown difficulty, unknown counting back-end)."""


def target_empty(size: int, difficulty: str) -> int:
    """The seeds' empty-cell target for a 9x9, scaled to an N x N grid."""
    return round(TARGETS_9X9[difficulty] * size * size / 81)


class SolutionCounter:
    """Counts solutions (0, 1 or 2 meaning 'two or more') with the named back-end, and finds
    a second solution where there is one (the generator's guide)."""

    def __init__(self, backend: str = "propagating") -> None:
        self.backend = backend
        self.solver: Solver[object] = create(backend)

    def solutions(self, puzzle: Grid) -> list[Grid]:
        result = self.solver.solve(puzzle, limit=2)
        if not result.exact and result.count < 2:
            raise GeneratorError(f"{self.backend} could not count the solutions of {puzzle}")
        return result.solutions

    def __call__(self, puzzle: Grid) -> int:
        return len(self.solutions(puzzle))

    def other(self, puzzle: Grid, solution: Grid) -> Grid | None:
        """A solution of `puzzle` other than `solution`, or None when it is the only one."""
        return next((grid for grid in self.solutions(puzzle) if grid != solution), None)


def solution_counter(backend: str = "propagating") -> SolutionCounter:
    """Count solutions (0, 1 or 2 meaning 'two or more') with the named back-end."""
    return SolutionCounter(backend)


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


# The kinds whose rules the search's tables hold (peers, neighbours, allowed digits, cages);
# any other constraint is asked its own check for each candidate of a cell in its scope.
_IN_THE_TABLES: tuple[type[Constraint], ...] = (
    UnitConstraint, DistinctPairs, NonConsecutive, Parity, Cage,
)  # fmt: skip


def _checked_by_their_own_check(rules: Rules) -> list[list[Constraint]]:
    """For each cell, the constraints about it that the tables do not hold."""
    found: list[list[Constraint]] = [[] for _ in rules.cells]
    for constraint in rules.constraints:
        if not isinstance(constraint, _IN_THE_TABLES):
            for cell in constraint.scope(rules.shape):
                found[cell].append(constraint)
    return found


class _OutOfNodes(Exception):
    pass


def _random_search(rules: Rules, rng: random.Random, nodes: int) -> Grid | None:
    """Fewest-candidates cell first, its digits in random order; None past `nodes` nodes or
    when no grid exists. Candidates respect the peers (units, cages, pair rules),
    non-consecutive neighbours, parity and cage sums."""
    values = [0] * rules.cell_count
    peers, neighbours, cages_of, cages = rules.peers, rules.neighbours, rules.cages_of, rules.cages
    allowed = [sum(1 << (d - 1) for d in digits) for digits in rules.allowed]
    checked_of = _checked_by_their_own_check(rules)
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
        for constraint in checked_of[cell]:
            for digit in rules.digits:
                if mask >> (digit - 1) & 1:
                    values[cell] = digit
                    if next(iter(constraint.violations(rules, values)), None) is not None:
                        mask &= ~(1 << (digit - 1))
            values[cell] = 0
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
    strategy: str = "remove"
    seconds: float = 0.0  # time spent on this puzzle

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
    """Puzzles of one rule set and difficulty from one seed."""

    def __init__(
        self,
        rules: Rules,
        difficulty: str,
        *,
        seed: int | None = None,
        symmetric: bool = False,
        minimal: bool = False,
        counter: SolutionCounter | None = None,
        attempts: int = 50,
        strategy: str = "remove",
        moves: int = MOVES,
        variant: Variant = VARIANTS["classic"],
    ) -> None:
        if difficulty not in TARGETS_9X9:
            raise GeneratorError(
                f"unknown difficulty {difficulty!r}: choose {', '.join(DIFFICULTIES)}"
            )
        if strategy not in STRATEGIES:
            raise GeneratorError(f"unknown strategy {strategy!r}: choose {', '.join(STRATEGIES)}")
        self.rules = rules
        self.variant = variant
        self.difficulty = difficulty
        self.rng = random.Random(seed)
        self.symmetric = symmetric
        self.minimal = minimal or not variant.givens
        self.count = counter or solution_counter()
        self.attempts = attempts
        self.strategy = strategy
        self.moves = moves
        self.target = target_empty(rules.size, difficulty)
        self.slack = round(5 * rules.cell_count / 81)
        ceiling = max(LEVELS.index(level) for level in ACCEPTED[difficulty])
        keys = [
            t.key
            for t in TECHNIQUES
            if t.default and LEVELS.index(t.level) <= ceiling and t.key not in NOT_WHILE_CARVING
        ]
        self.logic = LogicSolver(keys, explain=False)

    def generate(self, count: int) -> list[Generated]:
        return [self.one() for _ in range(count)]

    def one(self) -> Generated:
        """The first attempt whose rating fits the difficulty, else the closest one."""
        start = time.perf_counter()
        best: Generated | None = None
        for attempt in range(1, self.attempts + 1):
            try:
                rules = self.variant.before(self.rules, self.rng)
                solution = random_full_grid(rules, self.rng)
            except GeneratorError:  # these rules (a jigsaw layout) may have no grid: redraw
                continue
            solution = Grid(self.variant.after(rules, solution, self.rng), solution.values)
            if self.strategy == "add":
                puzzle, rating, exhausted = self.build_up(solution)
            else:
                puzzle, rating, exhausted = self.carve(solution)
            if not self.minimal and (
                len(puzzle.empty_cells) < self.target or not self.fits(rating)
            ):
                puzzle, rating = self.search(puzzle, solution, rating)
                exhausted = False  # the search gave up on this grid: another may do
            made = Generated(
                puzzle, solution, self.difficulty, self.target, rating, attempt, self.minimal,
                self.strategy,
            )  # fmt: skip
            # a target this grid cannot reach is reported (Generated.note), not retried forever
            if made.rating_ok and (made.empty >= self.target or exhausted):
                return replace(made, seconds=time.perf_counter() - start)
            if best is None or _closeness(made) > _closeness(best):
                best = made
        if best is None:
            raise GeneratorError(
                f"no {self.variant.name} {self.rules} grid found in {self.attempts} attempts"
            )
        return replace(best, attempts=self.attempts, seconds=time.perf_counter() - start)

    def fits(self, rating: Rating) -> bool:
        return rating.label in ACCEPTED[self.difficulty]

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

    def _orbit_of(self, cell: int) -> tuple[int, ...]:
        last = self.rules.cell_count - 1
        if self.symmetric and cell != last - cell:
            return (min(cell, last - cell), max(cell, last - cell))
        return (cell,)

    def within(self, puzzle: Grid) -> Rating | None:
        """The rating when the difficulty's techniques finish the puzzle, else None."""
        result = self.logic.solve(puzzle)
        return rating_of(result) if result.solutions else None

    def carve(self, solution: Grid) -> tuple[Grid, Rating, bool]:
        """Remove cells in random order while the puzzle stays unique (and, unless minimal,
        within the difficulty); stop at the target once the rating fits, or at target + slack.
        Also says whether every cell was tried (so no further cell can go)."""
        values = list(solution.values)
        return self._remove(values, solution, rate(solution, solver=self.logic))

    def _remove(
        self, values: list[int], solution: Grid, rating: Rating
    ) -> tuple[Grid, Rating, bool]:
        empty = sum(1 for v in values if not v)
        exhausted = True
        for orbit in self._orbits():
            if not all(values[cell] for cell in orbit):
                continue
            if not self.minimal:
                fits = self.fits(rating)
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
                trial_rating = self.within(puzzle)
                if trial_rating is None:  # needs more than this difficulty's techniques
                    continue
                # past the target, only a removal that makes the rating fit is worth keeping
                if empty >= self.target and not self.fits(trial_rating):
                    continue
                rating = trial_rating
            values = trial
            empty += len(orbit)
        puzzle = Grid(solution.rules, tuple(values))
        if self.minimal:
            rating = rate(puzzle, solver=LogicSolver(explain=False))
        return puzzle, rating, exhausted

    def build_up(self, solution: Grid) -> tuple[Grid, Rating, bool]:
        """The second strategy: a sparse random set of clues; while a second solution exists,
        add the grid's digit at a random cell where that solution differs; then remove the
        clues that are no longer needed (as `carve` does)."""
        rules = solution.rules
        sparse = max(1, round(SPARSE_9X9 * rules.cell_count / 81))
        values = [0] * rules.cell_count
        orbits = self._orbits()
        for orbit in orbits:
            if sum(1 for v in values if v) >= sparse:
                break
            for cell in orbit:
                values[cell] = solution.values[cell]
        while True:
            other = self.count.other(Grid(rules, tuple(values)), solution)
            if other is None:
                break
            differ = [c for c in rules.cells if other.values[c] != solution.values[c]]
            for cell in self._orbit_of(self.rng.choice(differ)):
                values[cell] = solution.values[cell]
        puzzle = Grid(rules, tuple(values))
        rating = self.within(puzzle) if not self.minimal else None
        if rating is None:  # too hard for the difficulty as it stands: remove from the grid
            return self.carve(solution)
        return self._remove(values, solution, rating)

    def search(self, puzzle: Grid, solution: Grid, rating: Rating) -> tuple[Grid, Rating]:
        """Local search from a puzzle where plain removal stalled: add one clue and remove two
        while that keeps one solution within the difficulty (one clue fewer each time); at
        the target, swap one clue for another until the rating fits."""
        rules = solution.rules
        values = list(puzzle.values)
        for _ in range(self.moves):
            empty = sum(1 for v in values if not v)
            if empty >= self.target and self.fits(rating):
                break
            moved = None
            if empty < self.target:
                moved = self._move(values, solution, remove_two=True)
            if moved is None:  # no clue can go: swap one for another, to look elsewhere
                moved = self._move(values, solution, remove_two=False)
            if moved is None:
                break
            values, rating = moved
        return Grid(rules, tuple(values)), rating

    def _move(
        self, values: list[int], solution: Grid, *, remove_two: bool
    ) -> tuple[list[int], Rating] | None:
        """One local-search move, the first in random order that works; None if none does."""
        rules = solution.rules
        clues = [c for c in rules.cells if values[c] and self._orbit_of(c)[0] == c]
        blanks = [c for c in rules.cells if not values[c] and self._orbit_of(c)[0] == c]
        # the second solution without each clue: clue r can go after c is added only if it
        # differs from the grid at c (else it is still a second solution)
        others: dict[int, Grid | None] = {}
        for clue in clues:
            trial = list(values)
            for cell in self._orbit_of(clue):
                trial[cell] = 0
            others[clue] = self.count.other(Grid(rules, tuple(trial)), solution)
        free = [c for c in clues if others[c] is None]  # removable as it is
        self.rng.shuffle(blanks)
        for added in blanks:
            movable = [
                c
                for c in clues
                if c in free
                or all(others[c].values[a] != solution.values[a] for a in self._orbit_of(added))  # type: ignore[union-attr]
            ]
            self.rng.shuffle(movable)
            groups: list[tuple[int, ...]] = (
                [(a, b) for i, a in enumerate(movable) for b in movable[i + 1 :]]
                if remove_two
                else [(a,) for a in movable]
            )
            for removed in groups[:40]:
                trial = list(values)
                for cell in self._orbit_of(added):
                    trial[cell] = solution.values[cell]
                for clue in removed:
                    for cell in self._orbit_of(clue):
                        trial[cell] = 0
                candidate = Grid(rules, tuple(trial))
                if self.count(candidate) != 1:
                    continue
                rating = self.within(candidate)
                if rating is None:
                    continue
                # a swap keeps a rating that fits, or now and then walks on regardless
                if not remove_two and not self.fits(rating) and self.rng.random() < 0.5:
                    continue
                return trial, rating
        return None


def _closeness(made: Generated) -> tuple[bool, int]:
    """Rating fits first, then empty cells nearer the target."""
    return made.rating_ok, -abs(made.empty - made.target)
