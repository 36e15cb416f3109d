"""Unique variant puzzles made of a kind's clues (thermometers, cages, dots, ...), givens only
where the clues do not suffice.

For each puzzle: a random full grid is drawn (under the chosen rules that hold for the whole
grid, such as anti-knight, which a random grid hardly ever keeps); each chosen kind offers the
clues the grid keeps (`Constraint.candidates`, in random order); while the puzzle has a second
solution, a clue that the second solution breaks is added (the first such in the random
order), or, when no clue left breaks it, the grid's digit at a random cell where the two
differ becomes a given. Then givens, and then clues, are dropped in random order while the
puzzle keeps exactly one solution; each chosen kind keeps at least one clue. Solutions are
counted by the first available back-end whose encoder tables accept the rules (`COUNTERS`:
cpsat first). Everything random comes from one `random.Random(seed)`, and the counting
back-ends are deterministic, so a seed gives the same puzzles every time.

The setter-style mode mixes 2-4 kinds per puzzle (drawn from the kinds asked for, or from
every kind with candidates) and prefers no givens: a puzzle that needs more than a few is
made again from a new grid (up to 5 grids), and the one with fewest givens is kept; a random
mix has at least one kind whose clues come from the grid (not only whole-grid rules).

A negative rule (negative kropki dots, negative XV) is offered with the marks of its
exceptions, which stand and go with it; once the puzzle is made, its exceptions become exactly
the marks on the grid of the kinds it reads them from (a black dot is an exception to the
white dots' rule too), as f-puzzles states the rule, so that `convert` writes every generated
puzzle as an f-puzzles link. Where that leaves a second solution, givens are added as above.
The non-consecutive rule is the white dots' negative rule without exceptions (f-puzzles writes
both as `nonconsecutive`): beside white or black dots it is stated as that negative rule, whose
exceptions are the dotted pairs, and a negative white-dot rule left without dots is stated as
non-consecutive, each as f-puzzles reads the flag.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sudoku_bench.harness.generating.generator import (
    GeneratorError,
    SolutionCounter,
    _random_search,
)
from sudoku_bench.harness.generating.uniqueness import Group, Undecided, UniquenessOracle
from sudoku_bench.harness.generating.uniqueness import available as oracle_available
from sudoku_bench.puzzles.constraints import (
    KINDS,
    Constraint,
    Diagonal,
    DifferenceNegative,
    NonConsecutive,
    SingletonRule,
)
from sudoku_bench.puzzles.constraints.dots import Dot, NegativeRule
from sudoku_bench.puzzles.errors import RulesError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.encoding import UnsupportedConstraintError
from sudoku_bench.solvers.registry import get

# the back-ends that count, in the order tried: the first available one that accepts the
# rules counts them (cpsat and sat are fast on every kind they encode)
# the default: the incremental SAT oracle (`uniqueness.py`), its last answer recounted by COUNTERS
INCREMENTAL = "sat-incremental"
COUNTERS = ("cpsat", "sat", "propagating", "milp", "python-constraint", "dlx", "backtracking")
# the other solutions gathered per added clue: the clue that breaks most of them is added
# (a counting back-end finds one, which the first clue breaking it answers)
COUNTEREXAMPLES = 4
SETTER_KINDS = (2, 4)  # a setter-style puzzle mixes this many kinds, at least and at most
# a setter-style puzzle with more givens than this (per 81 cells, at least 1) is made again
# from a new grid, up to SETTER_TRIES grids in all; the one with fewest givens is kept
SETTER_GIVENS_9X9 = 2
SETTER_TRIES = 5
# a grid under rules that hold for the whole grid (anti-king on 4x4 has none) is searched
# with restarts; this many before the kinds are called impossible on this size
GRID_RESTARTS = 30
GRID_NODES = 5_000


def has_candidates(kind: type[Constraint]) -> bool:
    """Whether the kind offers clues to the generator (overrides `Constraint.candidates`)."""
    return kind.candidates.__func__ is not Constraint.candidates.__func__  # type: ignore[attr-defined]


def generatable_kinds() -> tuple[str, ...]:
    """The kinds the generator can make puzzles of, sorted."""
    return tuple(sorted(name for name, kind in KINDS.items() if has_candidates(kind)))


def kinds_named(names: Sequence[str]) -> tuple[type[Constraint], ...]:
    """The kinds by name (`thermometer`; a dash reads as `_`); an unknown kind, or one
    without candidates, is a `GeneratorError` naming it."""
    found = []
    for name in names:
        key = name.strip().replace("-", "_")
        if key not in KINDS:
            raise GeneratorError(
                f"unknown kind {name!r}: choose from {', '.join(generatable_kinds())}"
            )
        kind = KINDS[key]
        if not has_candidates(kind):
            raise GeneratorError(
                f"kind {key!r} offers no candidate clues (Constraint.candidates), so it cannot "
                f"be generated; kinds that can: {', '.join(generatable_kinds())}"
            )
        if kind not in found:
            found.append(kind)
    return tuple(found)


def imposed(kind: type[Constraint]) -> tuple[Constraint, ...]:
    """The constraints of a kind that holds for the whole grid, drawn into the full grid's
    search (a random grid hardly ever keeps them); () for kinds whose clues come from the grid."""
    if kind is Diagonal:
        return Diagonal.pair()
    if issubclass(kind, SingletonRule):
        return (kind(),)
    return ()


class CountingBackends:
    """Counts solutions (0, 1, 2 meaning two or more) with the first back-end of `order` that
    is available and accepts the rules, or with the one named."""

    def __init__(self, name: str | None = None) -> None:
        self.incremental = name in (None, INCREMENTAL) and oracle_available()
        if name == INCREMENTAL and not self.incremental:
            raise GeneratorError(
                f"--counter {INCREMENTAL} needs python-sat: pip install 'sudoku-bench[sat]'"
            )
        name = None if name == INCREMENTAL else name
        self.order = (name,) if name else COUNTERS
        if name:
            backend = get(name)  # an unknown name is the registry's error
            if not backend.available():
                raise GeneratorError(backend.not_installed())
        self._counters: dict[str, SolutionCounter] = {}
        self.used: set[str] = set()

    def counter(self, rules: Rules) -> SolutionCounter:
        for name in self.order:
            backend = get(name)
            if not backend.available():
                continue
            if name not in self._counters:
                self._counters[name] = SolutionCounter(name)
            counter = self._counters[name]
            if counter.solver.accepts(rules):
                self.used.add(name)
                return counter
        kinds = ", ".join(sorted({c.title for c in rules.constraints}))
        raise GeneratorError(
            f"no available back-end among {', '.join(self.order)} accepts {kinds}: "
            "install ortools (cpsat) or python-sat (sat)"
        )

    def other(self, puzzle: Grid, solution: Grid) -> Grid | None:
        """A solution of `puzzle` other than `solution`, or None when it is the only one."""
        return self.counter(puzzle.rules).other(puzzle, solution)

    def unique(self, puzzle: Grid) -> bool:
        return self.counter(puzzle.rules)(puzzle) == 1

    def query(
        self,
        base: Rules,
        rules: Rules,
        solution: Sequence[int],
        clues: Sequence[Group],
        fixed: int,
    ) -> UniquenessQuery:
        """How the generator asks about this grid's clues: `rules` are `base` with the first
        `fixed` clues (whole-grid rules) in force. The incremental SAT oracle unless a back-end was
        named or the CNF encoding lacks one of the kinds, else a counting back-end."""
        grid = Grid(rules, tuple(solution))
        if self.incremental:
            try:
                oracle = _Oracle(rules, solution, [() for _ in clues[:fixed]] + list(clues[fixed:]))
            except UnsupportedConstraintError:
                pass
            else:
                self.used.add(INCREMENTAL)
                return oracle
        return _Recounted(self, base, clues, grid)


class UniquenessQuery(Protocol):
    """ "Has the puzzle of these clues and givens a solution other than the known grid?",
    asked of one full grid's candidate clues (`clues[i]` named by `i`)."""

    name: str
    recount: bool  # whether the final puzzle is counted again by an ordinary back-end

    def others(
        self, chosen: Sequence[int], givens: Sequence[int], most: int
    ) -> list[tuple[int, ...]]: ...

    def other(self, chosen: Sequence[int], givens: Sequence[int]) -> tuple[int, ...] | None: ...

    def core(self) -> tuple[set[int], set[int]] | None: ...

    def __enter__(self) -> UniquenessQuery: ...

    def __exit__(self, *exc: object) -> None: ...


class _Oracle(UniquenessOracle):
    """The incremental SAT oracle as the generator asks it."""

    name = INCREMENTAL
    recount = True

    def __enter__(self) -> _Oracle:
        return self


class _Recounted:
    """The question put to a counting back-end: the puzzle built and counted afresh each
    time, one other solution at most; no core."""

    name = "counting"
    recount = False

    def __init__(
        self, count: CountingBackends, base: Rules, clues: Sequence[Group], solution: Grid
    ) -> None:
        self.count, self.base, self.clues, self.solution = count, base, clues, solution

    def other(self, chosen: Sequence[int], givens: Sequence[int]) -> tuple[int, ...] | None:
        rules = self.base.with_constraints(*(c for i in chosen for c in self.clues[i]))
        found = self.count.other(Grid(rules, tuple(givens)), Grid(rules, self.solution.values))
        return None if found is None else found.values

    def others(
        self, chosen: Sequence[int], givens: Sequence[int], most: int
    ) -> list[tuple[int, ...]]:
        found = self.other(chosen, givens)
        return [] if found is None else [found]

    def core(self) -> None:
        return None

    def __enter__(self) -> _Recounted:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@dataclass(frozen=True)
class CluePuzzle:
    """One generated variant puzzle: its clues are the constraints of `puzzle.rules`."""

    puzzle: Grid
    solution: Grid
    kinds: tuple[str, ...]  # the kinds its clues are of
    attempts: int  # full grids drawn
    seconds: float = 0.0
    counted_by: tuple[str, ...] = ()  # the back-ends that counted its solutions

    @property
    def givens(self) -> int:
        return sum(1 for v in self.puzzle.values if v)

    @property
    def clues(self) -> int:
        """The clue constraints (a parity mark per cell counted once per `Parity`)."""
        return len(self.puzzle.rules.constraints)


class ClueGenerator:
    """Unique puzzles whose clues are of the chosen kinds, from one seed. The rules of `base`
    (a shape, maybe with constraints such as the diagonals) hold in every puzzle."""

    def __init__(
        self,
        base: Rules,
        kinds: Sequence[str] = (),
        *,
        seed: int | None = None,
        setter: bool = False,
        counter: str | None = None,
        attempts: int = 20,
        counterexamples: int = COUNTEREXAMPLES,
    ) -> None:
        if not kinds and not setter:
            raise GeneratorError("name the kind to generate (for example thermometer)")
        self.base = base
        self.kinds = kinds_named(kinds)
        self.setter = setter
        if setter and len(self.kinds) == 1:
            raise GeneratorError("a setter-style mix takes 2-4 kinds, or none to draw them")
        self.pool = self.kinds or kinds_named(generatable_kinds())
        self.rng = random.Random(seed)
        self.count = CountingBackends(counter)
        self.attempts = attempts
        self.counterexamples = counterexamples
        self.most_givens = max(1, round(SETTER_GIVENS_9X9 * base.cell_count / 81))

    def generate(self, count: int) -> list[CluePuzzle]:
        return [self.one() for _ in range(count)]

    def _chosen_kinds(self) -> tuple[type[Constraint], ...]:
        if not self.setter or len(self.pool) <= SETTER_KINDS[0]:
            return self.pool
        low, high = SETTER_KINDS
        if self.kinds:  # the kinds asked for are mixed as they are
            return self.pool
        while True:  # at least one kind of clues: whole-grid rules alone need givens
            drawn = self.rng.sample(self.pool, self.rng.randint(low, min(high, len(self.pool))))
            if any(not imposed(kind) for kind in drawn):
                return tuple(sorted(drawn, key=lambda kind: kind.kind))  # one name per mix

    def one(self) -> CluePuzzle:
        """A unique puzzle; in the setter-style mode the attempt with fewest givens (the
        first with few enough)."""
        start = time.perf_counter()
        self.count.used.clear()
        best: CluePuzzle | None = None
        impossible: list[str] = []
        for attempt in range(1, self.attempts + 1):
            kinds = self._chosen_kinds()
            made = self._attempt(kinds, attempt)
            if made is None:
                impossible.append("+".join(kind.kind for kind in kinds))
                continue
            if best is None or made.givens < best.givens:
                best = made
            if not self.setter or best.givens <= self.most_givens or attempt >= SETTER_TRIES:
                break
        if best is None:
            raise GeneratorError(
                f"no {self.base} grid keeps clues of {', '.join(dict.fromkeys(impossible))} "
                f"in {self.attempts} attempts"
            )
        return CluePuzzle(
            best.puzzle,
            best.solution,
            best.kinds,
            best.attempts,
            time.perf_counter() - start,
            tuple(sorted(self.count.used)),
        )

    def _full_grid(self, rules: Rules) -> Grid | None:
        for _ in range(GRID_RESTARTS):
            found = _random_search(rules, self.rng, GRID_NODES)
            if found is not None:
                return found
        return None

    def _attempt(self, kinds: Sequence[type[Constraint]], attempt: int) -> CluePuzzle | None:
        fixed: list[Group] = [group for kind in kinds if (group := imposed(kind))]
        try:
            rules = self.base.with_constraints(*(c for group in fixed for c in group))
        except RulesError:
            return None
        solution = self._full_grid(rules)
        if solution is None:
            return None
        values = solution.values
        offered: dict[type[Constraint], list[Group]] = {}
        for kind in kinds:
            if imposed(kind):
                continue
            groups: list[Group] = []
            for clue in kind.candidates(values, self.base.shape, self.rng):
                groups.append(with_marks(clue, values))
            if not groups:
                return None  # this grid keeps no clue of the kind: another grid may
            offered[kind] = groups
        # clues[i] is named by i: the fixed rules, one clue of each kind (so that every kind
        # appears), then the rest in random order, the pool the loop below adds from
        clues: list[Group] = list(fixed) + [groups[0] for groups in offered.values()]
        chosen = list(range(len(clues)))
        rest = [group for groups in offered.values() for group in groups[1:]]
        self.rng.shuffle(rest)
        pool = list(range(len(clues), len(clues) + len(rest)))
        clues += rest
        givens = [0] * self.base.cell_count
        with self.count.query(self.base, rules, values, clues, len(fixed)) as query:
            while others := self._others(query, chosen, givens, values):
                best = _most_cutting(pool, clues, rules, others)
                if best is not None:
                    pool.remove(best)
                    chosen.append(best)
                else:  # no clue left breaks them: a given where the first differs
                    differ = [c for c in self.base.cells if others[0][c] != values[c]]
                    cell = self.rng.choice(differ)
                    givens[cell] = values[cell]
            chosen, givens = self._drop(query, clues, chosen, givens, len(fixed))
            puzzle = self._puzzle([clues[i] for i in chosen], givens)
            if query.recount and not self.count.unique(puzzle):  # the oracle's second opinion
                raise GeneratorError(
                    f"{query.name} found {puzzle} unique but the counting back-end does not: "
                    "a bug in the clue encoding; --counter cpsat avoids the oracle"
                )
        puzzle = self._as_fpuzzles_states_it(puzzle, values)
        return CluePuzzle(puzzle, Grid(puzzle.rules, values), self._named(kinds, puzzle), attempt)

    def _named(self, kinds: Sequence[type[Constraint]], puzzle: Grid) -> tuple[str, ...]:
        """The kinds' names as the puzzle states them: non-consecutive and the negative
        white-dot rule, each restated as the other (`fpuzzles_statement`), are named so; a
        drawn mix sorted."""
        present = {c.kind for c in puzzle.rules.constraints}
        restated = {
            NonConsecutive.kind: DifferenceNegative.kind,
            DifferenceNegative.kind: NonConsecutive.kind,
        }
        names = [
            restated[kind.kind] if kind.kind in restated and kind.kind not in present else kind.kind
            for kind in kinds
        ]
        if self.setter and not self.kinds:
            names.sort()
        return tuple(dict.fromkeys(names))

    def _as_fpuzzles_states_it(self, puzzle: Grid, values: Sequence[int]) -> Grid:
        """The puzzle with each negative rule's exceptions exactly the marks on the grid of
        the kinds it reads them from (its own marks kept), as f-puzzles reads the rule; more
        exceptions make the rule weaker, so givens are added while a second solution stands."""
        constraints = puzzle.rules.constraints
        stated = fpuzzles_statement(constraints, values)
        if set(stated) == set(constraints):
            return puzzle
        rules = Rules.from_constraints(puzzle.rules.shape, stated)
        givens = list(puzzle.values)
        solution = Grid(rules, tuple(values))
        while (other := self.count.other(Grid(rules, tuple(givens)), solution)) is not None:
            cell = self.rng.choice([c for c in rules.cells if other.values[c] != values[c]])
            givens[cell] = values[cell]
        return Grid(rules, tuple(givens))

    def _others(
        self,
        query: UniquenessQuery,
        chosen: Sequence[int],
        givens: list[int],
        values: Sequence[int],
    ) -> list[tuple[int, ...]]:
        """Other solutions of the puzzle so far; while the question is too hard to answer
        (`Undecided`), a given at a random empty cell first."""
        while True:
            try:
                return query.others(chosen, givens, self.counterexamples)
            except Undecided:
                cell = self.rng.choice([c for c in self.base.cells if not givens[c]])
                givens[cell] = values[cell]

    def _puzzle(self, chosen: Sequence[Group], givens: Sequence[int]) -> Grid:
        rules = self.base.with_constraints(*(c for group in chosen for c in group))
        return Grid(rules, tuple(givens))

    def _drop(
        self,
        query: UniquenessQuery,
        clues: Sequence[Group],
        chosen: list[int],
        givens: list[int],
        fixed: int,
    ) -> tuple[list[int], list[int]]:
        """Givens, then clues, removed in random order while the puzzle stays unique; each
        kind keeps at least one clue, and the first `fixed` groups (whole-grid rules) stay.
        Where the query names what its proof of uniqueness used (`core`), everything else
        goes at once, unasked."""
        chosen, givens = _within_core(query, clues, chosen, givens, fixed)
        cells = [cell for cell in self.base.cells if givens[cell]]
        self.rng.shuffle(cells)
        for cell in cells:
            if not givens[cell]:
                continue  # gone with a core
            trial = list(givens)
            trial[cell] = 0
            if _unique(query, chosen, trial):
                chosen, givens = _within_core(query, clues, chosen, trial, fixed)
        order = list(range(len(chosen)))
        self.rng.shuffle(order)
        kept: list[int | None] = list(chosen)  # by position in `chosen`; None once dropped
        for position in order:
            index = kept[position]
            if index is None:
                continue
            kind = type(clues[index][0])
            if (
                position < fixed
                or sum(1 for i in kept if i is not None and type(clues[i][0]) is kind) <= 1
            ):
                continue
            trial = [i for p, i in enumerate(kept) if i is not None and p != position]
            if _unique(query, trial, givens):
                kept[position] = None
                if query.core() is not None:
                    within, givens = _within_core(query, clues, trial, givens, fixed)
                    kept = [i if i in within else None for i in kept]
        return [i for i in kept if i is not None], givens


def _unique(query: UniquenessQuery, chosen: Sequence[int], givens: Sequence[int]) -> bool:
    """Whether the puzzle is known unique (a question past the budget: not known)."""
    try:
        return query.other(chosen, givens) is None
    except Undecided:
        return False


def _within_core(
    query: UniquenessQuery,
    clues: Sequence[Group],
    chosen: list[int],
    givens: list[int],
    fixed: int,
) -> tuple[list[int], list[int]]:
    """`chosen` and `givens` cut to what the query's last proof of uniqueness used (unchanged
    when it names none): the givens it used, the clues it used, the fixed groups, and for a
    kind none of whose clues it used, that kind's first chosen clue."""
    core = query.core()
    if core is None:
        return chosen, givens
    used_groups, used_cells = core
    kept = [i for i in chosen if i < fixed or i in used_groups]
    kinds_kept = {type(clues[i][0]) for i in kept}
    for i in chosen:
        if type(clues[i][0]) not in kinds_kept:
            kept.append(i)
            kinds_kept.add(type(clues[i][0]))
    order = {i: position for position, i in enumerate(chosen)}
    kept.sort(key=order.__getitem__)
    return kept, [v if c in used_cells else 0 for c, v in enumerate(givens)]


def _most_cutting(
    pool: Sequence[int], clues: Sequence[Group], rules: Rules, others: Sequence[Sequence[int]]
) -> int | None:
    """The clue of `pool` that the most of the grids `others` break (the first in the pool's
    order among equals, the first that breaks them all at once); None when none breaks any."""
    best, most = None, 0
    for index in pool:
        broken = sum(1 for values in others if _breaks(clues[index], rules, values))
        if broken > most:
            best, most = index, broken
            if most == len(others):
                break
    return best


def with_marks(clue: Constraint, solution: Sequence[int]) -> Group:
    """A clue with what must stand beside it: a negative rule's marks of its exceptions in the
    full grid `solution` (f-puzzles reads the exceptions from them)."""
    if isinstance(clue, NegativeRule):
        return (clue, *clue.marks(solution))
    return (clue,)


def fpuzzles_statement(
    constraints: Sequence[Constraint], solution: Sequence[int]
) -> tuple[Constraint, ...]:
    """The constraints as f-puzzles states them, for a puzzle whose solution is the full grid
    `solution` (which keeps them all): each negative rule's exceptions become exactly the marks
    on the grid of the kinds it reads them from, its own marks (`NegativeRule.marks`) added.
    Non-consecutive counts as the negative white-dot rule without exceptions, since f-puzzles
    writes both as one flag and reads it beside any white or black dot as that negative rule;
    a negative white-dot rule with no dot to read is the non-consecutive rule. Unchanged (the
    same tuple) when there is no such rule."""
    negatives = [c for c in constraints if isinstance(c, NegativeRule)]
    if any(isinstance(c, NonConsecutive) for c in constraints):
        negatives.append(DifferenceNegative(frozenset({1}), frozenset()))
    if not negatives:
        return tuple(constraints)
    marks: set[Constraint] = {c for c in constraints if isinstance(c, Dot)}
    marks.update(mark for rule in negatives for mark in rule.marks(solution))
    stated: list[Constraint] = []
    for kind in dict.fromkeys(type(rule) for rule in negatives):  # one rule per kind
        reads = [m for m in marks if isinstance(m, kind.marking_kinds())]
        if kind is DifferenceNegative and not reads:
            stated.append(NonConsecutive())
        else:
            stated.append(kind.of(kind.default_values(reads), reads))
    others = [c for c in constraints if not isinstance(c, (Dot, NegativeRule, NonConsecutive))]
    return (*others, *sorted(marks, key=repr), *stated)


def _breaks(group: Group, rules: Rules, values: Sequence[int]) -> bool:
    """Whether the full grid `values` breaks one of the clues."""
    return any(next(iter(clue.violations(rules, values)), None) is not None for clue in group)
