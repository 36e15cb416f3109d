"""The `sat` back-end: the CNF encoding of `sudoku_bench.reductions.cnf` solved by a CDCL SAT solver (PySAT).

The default solver is CaDiCaL 1.5.3 (`cadical153`); `solver=` names any other PySAT solver
from `SOLVERS` (`sat-glucose` and `sat-minisat` are registered configurations). The formula
is the extended encoding with the givens propagated away (`givens="simplify"`: smaller, so
cheaper to build and load; `givens="units"` feeds the textbook formula with unit clauses).

Counting (`sudoku_bench.solvers.counting.count_by_exclusion`, shared with `cpsat` and `milp`): after each
model, the clause "some empty cell differs from this solution" (the negation of the empty
cells' true literals) is added and the same solver, keeping what it learnt, is asked again.
UNSAT after k solutions proves there are exactly k.

Timeouts: MiniSat-family solvers (Glucose, MiniSat,
Maple*, MergeSat, MiniCard, GlueCard) can be interrupted, so a `threading.Timer` calls
`interrupt()` at the deadline while `solve_limited(expect_interrupt=True)` runs with the GIL
released. CaDiCaL (every version PySAT ships) refuses `interrupt()`, so it runs in slices: a
conflict budget (`conf_budget`) per `solve_limited` call, the deadline checked between
slices; each next budget is what the last slice's rate of conflicts fits in the time left
(at most `MAX_SLICE_S`), never more than double the last nor under `MIN_BUDGET`, so the
deadline is overshot by about one slice at most. Lingeling, Kissat and CryptoMiniSat allow
neither (Kissat is not even incremental) and are not offered.

Counters: the solver's own `accum_stats()` summed over the solves (conflicts, decisions,
propagations, restarts); `nodes` and `guesses` are its decisions. The formula's size:
`variables` (the placements some clause mentions, plus the auxiliary variables of cage sums,
table rows and linear equations) and `clauses`. Whether unit propagation alone
solves the puzzle, as Lynce and Ouaknine ask of each encoding: the formula is loaded without
its unit clauses, `propagate(assumptions=units)` derives what they imply (before any
decision), and `unit_propagation_fixed` counts the empty cells given a digit that way;
`unit_propagation_solved` is 1 when that is all of them (both absent with CaDiCaL 1.0.3, whose
PySAT binding has no `propagate`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Solver as PySatSolver
from pysat.solvers import SolverNames

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.cnf import Cnf, CnfData, CnfReduction
from sudoku_bench.solvers.base import Counters, Deadline, SearchOutcome, SearchTimeout, Solver
from sudoku_bench.solvers.counting import count_by_exclusion

INTERRUPTIBLE = frozenset(
    {
        "glucose3",
        "glucose4",
        "glucose42",
        "minisat22",
        "maplechrono",
        "maplecm",
        "maplesat",
        "mergesat3",
        "minicard",
        "gluecard3",
        "gluecard4",
    }
)
BUDGETED = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
SOLVERS = tuple(sorted(INTERRUPTIBLE | BUDGETED))

FIRST_BUDGET = 2000  # conflicts in CaDiCaL's first slice; a 9x9 rarely needs 100 in all
MIN_BUDGET = 100
MAX_SLICE_S = 1.0


def canonical_name(name: str) -> str:
    """PySAT's canonical name for a solver name or alias (`g4` -> `glucose4`)."""
    wanted = name.strip().lower()
    for canonical, aliases in vars(SolverNames).items():
        if not canonical.startswith("_") and wanted in aliases:
            return canonical
    return wanted


@dataclass
class SatProblem:
    cnf: Cnf
    data: CnfData


class SatSolver(Solver[SatProblem]):
    """A PySAT solver on the extended Sudoku CNF; counts with blocking clauses."""

    name = "sat"
    encoders = CnfReduction.encoders  # the formula's table (sudoku_bench/reductions/cnf.py)

    def __init__(
        self, solver: str = "cadical153", givens: str = "simplify", encoding: str = "extended"
    ) -> None:
        self.solver = canonical_name(solver)
        if self.solver not in SOLVERS:
            raise ValueError(
                f"unsupported SAT solver {solver!r}; choose one of {', '.join(SOLVERS)}"
            )
        self.reduction = CnfReduction(givens, encoding)

    def _build(self, puzzle: Grid, deadline: Deadline) -> SatProblem:
        cnf, data = self.reduction.apply(puzzle)
        return SatProblem(cnf, data)

    def _search(
        self, problem: SatProblem, puzzle: Grid, limit: int, deadline: Deadline
    ) -> SearchOutcome:
        details: dict[str, Any] = {
            "solver": self.solver,
            "givens": self.reduction.givens,
            "encoding": self.reduction.encoding,
            "used_variables": len(problem.data.used),
            "clauses": len(problem.cnf.clauses),
        }
        # the placements some clause mentions, and the auxiliaries (cage sums, table rows,
        # partial sums), which are numbered after the N³ placements and all in use
        auxiliaries = problem.cnf.variables - puzzle.rules.size**3
        size: Counters = {
            "variables": len(problem.data.used) + auxiliaries,
            "clauses": len(problem.cnf.clauses),
        }
        if problem.cnf.has_empty_clause:  # the givens break a rule: no solver needed
            counters = {"nodes": 0, **size, "unit_propagation_solved": 0}
            return SearchOutcome([], exhausted=True, counters=counters, details=details)
        deadline.check()  # loading a 25x25 formula takes a good part of a second
        units = [clause[0] for clause in problem.cnf.clauses if len(clause) == 1]
        others = [clause for clause in problem.cnf.clauses if len(clause) > 1]
        with PySatSolver(name=self.solver, bootstrap_with=others) as engine:
            fixed = _propagated_cells(engine, units, problem.data.puzzle)
            engine.append_formula([[unit] for unit in units])
            run = _Run(engine, self.solver in INTERRUPTIBLE, deadline)

            def solve() -> Grid | None:
                answer = run.solve()
                if answer is None:
                    raise SearchTimeout("SAT solver timed out")
                return (
                    self.reduction.invert(engine.get_model() or (), problem.data)
                    if answer
                    else None
                )

            def exclude(solution: Grid) -> None:
                engine.add_clause(self.reduction.blocking_clause(problem.data, solution))

            outcome = count_by_exclusion(puzzle, limit, deadline, solve, exclude)
            outcome.counters = {**run.counters(), **size}
            if fixed is not None:
                outcome.counters["unit_propagation_fixed"] = fixed
                outcome.counters["unit_propagation_solved"] = int(fixed == len(puzzle.empty_cells))
        details["solves"] = run.solves
        outcome.details = details
        return outcome


def _propagated_cells(engine: PySatSolver, units: list[int], puzzle: Grid) -> int | None:
    """How many empty cells unit propagation alone fills: the formula is loaded without its
    unit clauses, which are then propagated as assumptions (PySAT's `propagate` returns only
    what it derives above decision level 0, so units loaded as clauses would hide it all);
    every positive placement literal it returns fixes its cell. A conflict counts as none
    fixed (unit propagation then refutes the puzzle instead of solving it); so does a
    formula with no unit at all, unless every cell was already given. None for a solver
    without `propagate` (CaDiCaL 1.0.3)."""
    try:
        consistent, literals = engine.propagate(assumptions=units) if units else (True, [])
    except NotImplementedError:
        return None
    if not consistent:
        return 0
    size = puzzle.rules.size
    cells = {(literal - 1) // size for literal in literals or () if 0 < literal <= size**3}
    return sum(cell in cells for cell in puzzle.empty_cells)


class _Run:
    """One engine's solves under one deadline: interrupted by a timer, or run in slices."""

    def __init__(self, engine: PySatSolver, interruptible: bool, deadline: Deadline) -> None:
        self.engine, self.interruptible, self.deadline = engine, interruptible, deadline
        self.budget = FIRST_BUDGET
        self.solves = 0

    def solve(self) -> bool | None:
        """True (a model), False (unsatisfiable) or None (the deadline came first)."""
        self.solves += 1
        if self.deadline.remaining() is None:
            return bool(self.engine.solve())
        if self.deadline.expired():
            return None
        if self.interruptible:
            return self._interrupted()
        return self._sliced()

    def _interrupted(self) -> bool | None:
        timer = threading.Timer(self.deadline.remaining() or 0.0, self.engine.interrupt)
        self.engine.clear_interrupt()
        timer.start()
        try:
            answer: bool | None = self.engine.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
            timer.join()  # never let interrupt() meet a solver being deleted
        return answer

    def _sliced(self) -> bool | None:
        while not self.deadline.expired():
            self.engine.conf_budget(self.budget)
            start = time.perf_counter()
            answer: bool | None = self.engine.solve_limited()
            if answer is not None:
                return answer
            rate = self.budget / max(time.perf_counter() - start, 1e-6)  # conflicts per second
            slice_s = min(self.deadline.remaining() or 0.0, MAX_SLICE_S)
            self.budget = max(MIN_BUDGET, min(2 * self.budget, int(rate * slice_s)))
        return None

    def counters(self) -> Counters:
        stats: dict[str, Any] = self.engine.accum_stats() or {}
        decisions = int(stats.get("decisions", 0))
        return {
            "nodes": decisions,
            "guesses": decisions,
            **{key: int(stats.get(key, 0)) for key in ("decisions", "conflicts", "propagations")},
            "restarts": int(stats.get("restarts", 0)),
            "solves": self.solves,
        }
