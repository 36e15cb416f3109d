"""Polynomial-time SAT inference on a puzzle's CNF, after Lynce & Ouaknine (2006): how far each
rule gets without search. Unit propagation is PySAT's (`propagate` of a MiniSat 2.2 object);
the rules built on it are written here, since they are the experiment's subject.

- `up`: unit propagation of the givens.
- `fl`: the failed literal rule to a fixpoint: a literal l whose propagation (with everything
  fixed so far) ends in a conflict is false; its negation is fixed and propagated.
- `hbr`: hyper-binary resolution, as the closure it computes: HypBinRes adds a binary clause
  (-l v u) for every literal u that propagation derives from l, and binary resolution between
  them, so a literal that both polarities of a variable imply is fixed, as is the negation of
  a failed literal (Bacchus 2002: unit propagation on the closure detects every failed
  literal). Computed by probing each open variable both ways to a fixpoint.
- `bfl`: binary failed literals: a pair of placements (l1, l2) whose joint propagation fails
  gives the clause (-l1 v -l2), which is added to the formula; the failed literal rule runs
  again with the new clauses, and both repeat until a pass adds nothing. Pairs are of
  positive literals (placements) neither of whose propagation already refutes the other;
  only run where `fl` leaves cells open (where `fl` solves, so does `bfl`).

A puzzle is solved by a rule when every empty cell has its digit fixed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pysat.solvers import Solver as PySatSolver

from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.reductions.cnf import CnfReduction

RULES = ("up", "fl", "hbr", "bfl")
RULE_NAMES = {
    "up": "unit propagation",
    "fl": "failed literals",
    "hbr": "hyper-binary resolution",
    "bfl": "binary failed literals",
}
SAT_SOLVER = "m22"  # MiniSat 2.2: its `propagate` is the cheapest of PySAT's


class Refuted(Exception):
    """The rules derived a conflict: the puzzle has no solution."""


@dataclass(frozen=True)
class Inference:
    """What each rule fixed on one puzzle's formula."""

    open_cells: int  # empty cells of the puzzle
    fixed_cells: dict[str, int]  # rule -> empty cells whose digit it fixed (bfl: if run)
    probes: dict[str, int]  # rule -> propagate calls

    def solved(self, rule: str) -> bool:
        """Whether `rule` fixed every empty cell (`bfl` counts as solved where `fl` did)."""
        if rule == "bfl" and rule not in self.fixed_cells:
            return self.fixed_cells["fl"] == self.open_cells
        return self.fixed_cells.get(rule, -1) == self.open_cells


class _Prober:
    """One formula loaded once; propagation under assumptions, with a count of calls."""

    def __init__(self, puzzle: Grid, encoding: str, givens: str) -> None:
        cnf, data = CnfReduction(givens, encoding).apply(puzzle)
        self.puzzle = puzzle
        self.size = puzzle.rules.size
        self.variables = sorted(data.used)
        self.units = [c[0] for c in cnf.clauses if len(c) == 1]
        self.refuted = any(len(c) == 0 for c in cnf.clauses)
        self.engine = PySatSolver(
            name=SAT_SOLVER, bootstrap_with=[c for c in cnf.clauses if len(c) > 1]
        )
        self.calls = 0

    def close(self) -> None:
        self.engine.delete()

    def propagate(self, assumptions: list[int]) -> tuple[bool, set[int]]:
        self.calls += 1
        if not assumptions:
            return True, set()
        consistent, literals = self.engine.propagate(assumptions=assumptions)
        return bool(consistent), set(literals or ())

    def fixed(self, assumptions: list[int]) -> set[int]:
        consistent, literals = self.propagate(assumptions)
        if not consistent:
            raise Refuted
        return literals | set(assumptions)

    def open_variables(self, fixed: set[int]) -> list[int]:
        return [v for v in self.variables if v not in fixed and -v not in fixed]

    def cells_fixed(self, fixed: Iterable[int]) -> int:
        size = self.size
        cells = {(lit - 1) // size for lit in fixed if 0 < lit <= size**3}
        return sum(cell in cells for cell in self.puzzle.empty_cells)


def _failed_literals(prober: _Prober, assumptions: list[int]) -> set[int]:
    """The failed literal rule to a fixpoint; `assumptions` gains each fixed literal."""
    fixed = prober.fixed(assumptions)
    changed = True
    while changed:
        changed = False
        for v in prober.open_variables(fixed):
            for literal in (v, -v):
                if literal in fixed or -literal in fixed:
                    continue
                consistent, _ = prober.propagate([*assumptions, literal])
                if not consistent:
                    assumptions.append(-literal)
                    fixed = prober.fixed(assumptions)
                    changed = True
    return fixed


def _hyper_binary(prober: _Prober, assumptions: list[int]) -> set[int]:
    """Failed literals and literals implied by both polarities, to a fixpoint."""
    fixed = prober.fixed(assumptions)
    changed = True
    while changed:
        changed = False
        for v in prober.open_variables(fixed):
            if v in fixed or -v in fixed:
                continue
            true_ok, if_true = prober.propagate([*assumptions, v])
            false_ok, if_false = prober.propagate([*assumptions, -v])
            if not true_ok and not false_ok:
                raise Refuted
            if not true_ok or not false_ok:
                new = [-v] if not true_ok else [v]
            else:
                new = sorted((if_true & if_false) - fixed)
            if new:
                assumptions.extend(new)
                fixed = prober.fixed(assumptions)
                changed = True
    return fixed


def _binary_failed(prober: _Prober, assumptions: list[int]) -> set[int]:
    """Binary failed literal clauses added, then the failed literal rule, until no pass adds."""
    fixed = _failed_literals(prober, assumptions)
    while True:
        placements = [v for v in prober.open_variables(fixed)]
        implied = {}
        for v in placements:
            consistent, literals = prober.propagate([*assumptions, v])
            implied[v] = literals
        added = 0
        for i, first in enumerate(placements):
            for second in placements[i + 1 :]:
                if -second in implied[first] or -first in implied[second]:
                    continue  # propagation already refutes the pair: the clause adds nothing
                consistent, _ = prober.propagate([*assumptions, first, second])
                if not consistent:
                    prober.engine.add_clause([-first, -second])
                    added += 1
        if not added:
            return fixed
        fixed = _failed_literals(prober, assumptions)


def infer(puzzle: Grid, encoding: str, givens: str = "units", *, binary: bool = True) -> Inference:
    """Each rule on `puzzle`'s formula in `encoding`; `bfl` only where `fl` leaves cells open
    and `binary` is set (it costs a propagation per pair of open placements)."""
    open_cells = len(puzzle.empty_cells)
    fixed_cells: dict[str, int] = {}
    probes: dict[str, int] = {}
    for rule in RULES:
        if rule == "bfl" and (not binary or fixed_cells.get("fl") == open_cells):
            continue
        prober = _Prober(puzzle, encoding, givens)
        try:
            if prober.refuted:
                raise Refuted
            assumptions = list(prober.units)
            if rule == "up":
                fixed = prober.fixed(assumptions)
            elif rule == "fl":
                fixed = _failed_literals(prober, assumptions)
            elif rule == "hbr":
                fixed = _hyper_binary(prober, assumptions)
            else:
                fixed = _binary_failed(prober, assumptions)
            fixed_cells[rule] = prober.cells_fixed(fixed)
        except Refuted:
            fixed_cells[rule] = 0
        finally:
            probes[rule] = prober.calls
            prober.close()
    return Inference(open_cells, fixed_cells, probes)


# The 9x9 sets the rules run on: (collection, puzzles for up/fl/hbr, puzzles for bfl), None: all.
# Binary failed literals cost a propagation per pair of open placements (about a second a
# puzzle and encoding), so they run on an evenly spread sample of each set but the smallest.
FULL_SETS: tuple[tuple[str, int | None, int | None], ...] = (
    ("easy50", None, 10),
    ("top95", None, 10),
    ("hardest", None, None),
    ("17clue", None, 20),
)
QUICK_SETS: tuple[tuple[str, int | None, int | None], ...] = (
    ("easy50", 2, 0),
    ("hardest", 1, 0),
    ("17clue", 2, 1),
)
# (name in the report, CNF encoding, givens): the experiment's four encodings
ENCODINGS = (
    ("minimal", "minimal", "units"),
    ("efficient", "efficient", "units"),
    ("extended", "extended", "units"),
    ("optimised", "extended", "simplify"),
)


@dataclass(frozen=True)
class SetInference:
    """Every puzzle of one set under every encoding: `by_encoding[name][i]` for puzzle i."""

    collection: str
    puzzles: int
    binary_puzzles: int  # the first puzzles of the sample on which bfl ran
    by_encoding: dict[str, list[Inference]]

    def solved(self, encoding: str, rule: str) -> int:
        rows = self.by_encoding[encoding]
        if rule == "bfl":
            rows = rows[: self.binary_puzzles]
        return sum(row.solved(rule) for row in rows)

    def tried(self, rule: str) -> int:
        return self.binary_puzzles if rule == "bfl" else self.puzzles


def _infer_all(job: tuple[Grid, bool]) -> list[Inference]:
    puzzle, binary = job
    return [infer(puzzle, encoding, givens, binary=binary) for _, encoding, givens in ENCODINGS]


def run_sets(quick: bool) -> list[SetInference]:
    """Every rule on every puzzle of the sets (quick: a handful), two processes when full."""
    from concurrent.futures import ProcessPoolExecutor

    from sudoku_bench.harness.experiments.base import sample
    from sudoku_bench.puzzles.collections import load

    found = []
    for collection, count, binary_count in QUICK_SETS if quick else FULL_SETS:
        entries = sample(list(load(collection)), count)
        binary_ids = {e.id for e in sample(entries, binary_count)} if binary_count != 0 else set()
        # the bfl sample first, so that `binary_puzzles` is a prefix
        entries = sorted(entries, key=lambda e: e.id not in binary_ids)
        jobs = [(e.puzzle, e.id in binary_ids) for e in entries]
        if quick:
            results = [_infer_all(job) for job in jobs]
        else:
            with ProcessPoolExecutor(max_workers=2) as pool:
                results = list(pool.map(_infer_all, jobs, chunksize=4))
        by_encoding = {
            name: [row[i] for row in results] for i, (name, _, _) in enumerate(ENCODINGS)
        }
        found.append(SetInference(collection, len(entries), len(binary_ids), by_encoding))
    return found
