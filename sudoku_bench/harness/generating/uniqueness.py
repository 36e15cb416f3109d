"""Is there a solution other than the known one? One SAT formula answers for any set of clues.

The clue generator asks this after every clue it adds and every clue or given it tries to
drop. Counting solutions from scratch each time (a model built, loaded and solved twice, to
the limit 2) costs a fresh reduction per question; here the question is put to one
incremental SAT solver (PySAT's CaDiCaL) that is loaded once per full grid:

- the rules every puzzle of the grid shares (`sudoku_bench.reductions.cnf`, the full formula);
- each candidate clue's own clauses (`cnf.constraint_clauses`), each clause guarded by the
  clue's selector literal s (the clause `¬s ∨ C`), so the clue holds exactly when s is assumed;
- one clause excluding the known solution: "some cell differs from it".

A question is one `solve` under assumptions: the selectors of the chosen clues and the
placements of the givens. Satisfiable: its model is a second solution. Unsatisfiable: the
known solution is the only one, and the solver's core names the assumptions the proof used,
a subset of the clues and givens that is unique on its own (the generator drops the rest
without asking again). What the solver learns carries over from one question to the next.

The clues of one kind are read as the conjunction of their own rules, as the checker reads
them (`Constraint.violations` clue by clue); the generator counts its final puzzle once more
with an ordinary back-end, so a kind for which that were not so would be caught there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sudoku_bench.puzzles.constraints import Constraint
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.cnf import CnfReduction, constraint_clauses, variable

SAT_SOLVER = "cadical153"  # deterministic, incremental, with assumptions and cores
# conflicts one question may take: a puzzle of weak clues close to unique (twenty little
# killers, no givens) can keep any solver busy for minutes, and a puzzle that hard would be
# no use in a benchmark suite either, so the generator is told `Undecided` and adds a given
CONFLICT_BUDGET = 3000


class Undecided(Exception):
    """The question took more than the conflict budget: neither answer is known."""


Group = tuple[Constraint, ...]  # clues switched on and off together (both diagonals)


def available() -> bool:
    """Whether PySAT is installed (the `sat` extra)."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


class UniquenessOracle:
    """For one full grid `solution` of `rules` and its candidate clue groups: whether the
    puzzle made of some of the groups and some givens has a solution other than `solution`.

    `rules` hold in every question (the shape and whole-grid rules such as anti-knight);
    `groups[i]` is switched on by naming `i`. Every group must hold in `solution`.
    """

    def __init__(
        self,
        rules: Rules,
        solution: Sequence[int],
        groups: Sequence[Group],
        budget: int | None = CONFLICT_BUDGET,
    ) -> None:
        from pysat.solvers import Solver as PySatSolver

        self.budget = budget
        self.rules = rules
        self.solution = tuple(solution)
        size = rules.size
        formula, _ = CnfReduction("units").apply(Grid(rules, (0,) * rules.cell_count))
        self._engine = PySatSolver(name=SAT_SOLVER, bootstrap_with=formula.clauses)
        self._next = max(formula.variables, size**3) + 1
        # the known solution is excluded once and for all: any model is another solution
        self._engine.add_clause([-variable(rules, c, v) for c, v in enumerate(self.solution)])
        self.selectors: list[int] = []
        for group in groups:
            selector = self._fresh()
            for clue in group:
                renamed: dict[int, int] = {}  # the clue's auxiliaries, numbered after the rest
                for clause in constraint_clauses(rules, clue):
                    guarded = [-selector]
                    for literal in clause:
                        var = abs(literal)
                        if var > size**3:
                            var = renamed.setdefault(var, self._fresh())
                        guarded.append(var if literal > 0 else -var)
                    self._engine.add_clause(guarded)
            self.selectors.append(selector)
        self._group_of = {s: i for i, s in enumerate(self.selectors)}
        self.questions = 0
        self._core: tuple[set[int], set[int]] | None = None

    def _fresh(self) -> int:
        self._next += 1
        return self._next - 1

    def close(self) -> None:
        self._engine.delete()

    def __enter__(self) -> UniquenessOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _assumptions(self, chosen: Iterable[int], givens: Sequence[int]) -> list[int]:
        """Every selector assumed, true for the chosen groups and false for the others: a
        free selector would let the solver switch clues on (its default phase is true) and
        search a far more constrained formula than the question's."""
        on = set(chosen)
        return [s if i in on else -s for i, s in enumerate(self.selectors)] + [
            variable(self.rules, c, v) for c, v in enumerate(givens) if v
        ]

    def other(self, chosen: Iterable[int], givens: Sequence[int]) -> tuple[int, ...] | None:
        """The digits of a solution other than the known one, of the puzzle with the groups
        `chosen` and the `givens` (0 for an empty cell); None when there is none; `Undecided`
        past the conflict budget."""
        return self._solve(self._assumptions(chosen, givens))

    def others(
        self, chosen: Sequence[int], givens: Sequence[int], most: int
    ) -> list[tuple[int, ...]]:
        """Up to `most` distinct other solutions (each next one must differ from those found,
        by clauses switched off again afterwards); [] when the puzzle is unique; `Undecided`
        when the first question runs past the budget (a later one ends the list)."""
        found: list[tuple[int, ...]] = []
        batch = self._fresh()  # switches this batch's exclusions on; retired at the end
        assumptions = [batch, *self._assumptions(chosen, givens)]
        try:
            while len(found) < most and (values := self._solve(assumptions)) is not None:
                found.append(values)
                self._engine.add_clause(
                    [-batch, *(-variable(self.rules, c, v) for c, v in enumerate(values))]
                )
        except Undecided:
            if not found:
                raise
        finally:
            self._engine.add_clause([-batch])
        return found

    def _solve(self, assumptions: list[int]) -> tuple[int, ...] | None:
        self.questions += 1
        placements = self.rules.size**3
        if self.budget is None:
            answer: bool | None = self._engine.solve(assumptions=assumptions)
        else:
            self._engine.conf_budget(self.budget)
            answer = self._engine.solve_limited(assumptions=assumptions)
        if answer is None:
            self._core = None
            raise Undecided(f"no answer within {self.budget} conflicts")
        if not answer:
            used = self._engine.get_core() or ()
            self._core = (
                {self._group_of[lit] for lit in used if lit in self._group_of},
                {(lit - 1) // self.rules.size for lit in used if 0 < lit <= placements},
            )
            return None
        self._core = None
        values = [0] * self.rules.cell_count
        for literal in self._engine.get_model() or ():
            if 0 < literal <= placements:
                cell, digit = divmod(literal - 1, self.rules.size)
                values[cell] = digit + 1
        return tuple(values)

    def core(self) -> tuple[set[int], set[int]] | None:
        """After `other` answered None: the groups and the given cells its proof used (the
        puzzle of only these is unique too); None after any other answer."""
        return self._core
