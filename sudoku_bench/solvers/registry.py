"""The registry of back-ends: names, aliases, availability and versions, without heavy imports.

Availability is decided by `importlib.util.find_spec`, so listing the back-ends never imports
OR-Tools or sympy. Third-party back-ends register through the entry-point group
`sudoku_bench.solvers` (`name = "module:Class"`); tests may call `register`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sudoku_bench._legacy import current_module
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.solvers.base import Solver

PROJECT = "sudoku-bench"
ENTRY_POINT_GROUP = "sudoku_bench.solvers"

_ADAPTERS = "sudoku_bench.solvers.adapters"
# Configurations that earlier versions wrote as subclasses, which stores name as their
# `module:Class` target: each is now its back-end's class with these options.
RETIRED_CLASSES: dict[str, tuple[str, dict[str, Any]]] = {
    f"{_ADAPTERS}.cpsat:CpSatOneHotSolver": (
        f"{_ADAPTERS}.cpsat:CpSatSolver",
        {"encoding": "onehot"},
    ),
    f"{_ADAPTERS}.milp:MilpHighsSolver": (f"{_ADAPTERS}.milp:MilpSolver", {"backend": "HIGHS"}),
    f"{_ADAPTERS}.milp:MilpCbcSolver": (f"{_ADAPTERS}.milp:MilpSolver", {"backend": "CBC"}),
    f"{_ADAPTERS}.sat:GlucoseSatSolver": (f"{_ADAPTERS}.sat:SatSolver", {"solver": "glucose4"}),
    f"{_ADAPTERS}.sat:MinisatSatSolver": (f"{_ADAPTERS}.sat:SatSolver", {"solver": "minisat22"}),
    f"{_ADAPTERS}.python_constraint:SinglesSolver": (
        f"{_ADAPTERS}.python_constraint:PythonConstraintSolver",
        {"hidden_singles": True},
    ),
    f"{_ADAPTERS}.python_constraint:OptimizedSolver": (
        f"{_ADAPTERS}.python_constraint:PythonConstraintSolver",
        {"algorithm": "optimized"},
    ),
    f"{_ADAPTERS}.python_constraint:RecursiveSolver": (
        f"{_ADAPTERS}.python_constraint:PythonConstraintSolver",
        {"algorithm": "recursive"},
    ),
    f"{_ADAPTERS}.python_constraint:MinConflictsConfiguration": (
        f"{_ADAPTERS}.python_constraint:PythonConstraintSolver",
        {"algorithm": "minconflicts"},
    ),
}


def current_target(target: str, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The `module:Class` and options that build today what `target` with `options` built
    when it was stored: moved modules at their new path, retired configuration classes as
    their back-end's class with the configuration's options (the stored ones win)."""
    module_name, colon, class_name = target.partition(":")
    moved_target = f"{current_module(module_name)}{colon}{class_name}"
    if moved_target not in RETIRED_CLASSES:
        return moved_target, dict(options)
    class_target, configuration = RETIRED_CLASSES[moved_target]
    return class_target, {**configuration, **options}


class UnknownSolverError(SudokuBenchError):
    """A back-end name that is not registered."""


class SolverUnavailableError(SudokuBenchError):
    """A registered back-end whose library is not installed."""


@dataclass(frozen=True)
class Backend:
    """A registered back-end configuration: `target` is `module:Class`, built with `options`.
    A configuration (`sat-minimal`, `milp-highs`, ...) is its back-end's class with options."""

    name: str
    target: str
    summary: str
    aliases: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()  # import names that must be installed
    distribution: str = PROJECT  # whose version is reported
    extra: str | None = None  # the pip extra that installs `requires`
    options: Mapping[str, Any] = field(default_factory=dict)
    in_all: bool = True  # chosen by `-s all`; variants for comparison are chosen by name

    def __post_init__(self) -> None:
        # a target written by an earlier version (a store's, an entry point's) builds the
        # same solver as then
        target, options = current_target(self.target, self.options)
        if target != self.target:
            object.__setattr__(self, "target", target)
            object.__setattr__(self, "options", options)

    @property
    def is_available(self) -> bool:
        """Whether the libraries it needs are installed (`available()` as a property, which
        a comprehension cannot mistake for a bound method)."""
        return self.available()

    def available(self) -> bool:
        try:
            return all(importlib.util.find_spec(module) is not None for module in self.requires)
        except (ImportError, ValueError):
            return False

    def not_installed(self) -> str:
        """What is missing and how to install it, in words (for an error or a warning)."""
        hint = f": pip install 'sudoku-bench[{self.extra}]'" if self.extra else ""
        return (
            f"back-end {self.name!r} needs {', '.join(self.requires)}, which is not installed{hint}"
        )

    def version(self) -> str | None:
        """The installed version of the library behind the back-end (None if missing)."""
        import importlib.metadata  # here, not at the top: `--help` need not pay for it

        try:
            return importlib.metadata.version(self.distribution)
        except importlib.metadata.PackageNotFoundError:
            return None

    def solver_class(self) -> type[Solver[Any]]:
        """The back-end's class (imports its module: only for an available back-end)."""
        if not self.available():
            raise SolverUnavailableError(self.not_installed())
        module_name, _, class_name = self.target.partition(":")
        solver_class: type[Solver[Any]] = getattr(importlib.import_module(module_name), class_name)
        return solver_class

    def create(self, **overrides: Any) -> Solver[Any]:
        """A solver instance of this configuration (keyword options override the stored ones)."""
        solver: Solver[Any] = self.solver_class()(**{**self.options, **overrides})
        if solver.name != self.name:
            # a configuration of a shared class (propagating-singles is PropagatingSolver with
            # options) must name its results after itself, or they read as the plain back-end's
            solver.name = self.name  # type: ignore[misc]
        return solver


def _library(module: str, distribution: str, extra: str) -> dict[str, Any]:
    """The `Backend` fields of a back-end built on a third-party library: its import name,
    the distribution whose version is reported, and the pip extra that installs it."""
    return {"requires": (module,), "distribution": distribution, "extra": extra}


SYMPY = _library("sympy", "sympy", "sympy")
ORTOOLS = _library("ortools", "ortools", "ortools")
CONSTRAINT = _library("constraint", "python-constraint2", "constraint")
PYSAT = _library("pysat", "python-sat", "sat")
NUMBA = _library("numba", "numba", "jit")

# The built-in back-ends, in the order reports list them.
BUILTIN: tuple[Backend, ...] = (
    Backend(
        "backtracking",
        "sudoku_bench.solvers.engines.backtracking:BacktrackingSolver",
        "the source documents' algorithm: first empty cell, digits in order, row/column/box scan",
        aliases=("textbook", "naive"),
    ),
    Backend(
        "propagating",
        "sudoku_bench.solvers.engines.propagating.solver:PropagatingSolver",
        "backtracking with bit masks: naked and hidden singles, locked candidates, "
        "AllDifferent filtering (16x16 and up), dom/wdeg branching",
        aliases=("fast",),
    ),
    Backend(
        "propagating-singles",
        "sudoku_bench.solvers.engines.propagating.solver:PropagatingSolver",
        "propagating without locked candidates (naked and hidden singles only)",
        options={"locked": False, "alldiff": False},
        in_all=False,
    ),
    Backend(
        "dlx",
        "sudoku_bench.solvers.engines.dlx.solver:DlxSolver",
        "exact cover (placements x constraints) solved by Knuth's Dancing Links, pure Python",
        aliases=("dancing-links",),
    ),
    Backend(
        "propagating-jit",
        "sudoku_bench.solvers.engines.propagating.jit:PropagatingJitSolver",
        "the propagating back-end's search compiled with numba (AllDifferent filtering and "
        "restarts from 16x16 up, as there): same counters and answers",
        **NUMBA,
    ),
    Backend(
        "bitboard-jit",
        "sudoku_bench.solvers.engines.bitboard.jit:BitboardJitSolver",
        "classic 9x9 only: per-digit bitboards (a 27-bit word per digit and band), singles and "
        "locked candidates on bit masks, bivalue-first branching, compiled with numba",
        **NUMBA,
    ),
    Backend(
        "dlx-jit",
        "sudoku_bench.solvers.engines.dlx.jit:DlxJitSolver",
        "the dlx back-end's Dancing Links compiled with numba: same matrix, counters, answers",
        **NUMBA,
    ),
    Backend(
        "exact-cover-c",
        "sudoku_bench.solvers.adapters.native:ExactCoverCSolver",
        "the exact-cover matrix solved by the C exact-cover package (native reference)",
        **_library("exact_cover", "exact-cover", "native"),
    ),
    Backend(
        "xcover",
        "sudoku_bench.solvers.adapters.native:XcoverSolver",
        "the exact-cover matrix solved by the xcover package (numba, Algorithm C; reference)",
        **_library("xcover", "xcover", "native"),
    ),
    Backend(
        "groebner",
        "sudoku_bench.solvers.engines.groebner:GroebnerSolver",
        "polynomial ideal (thesis): one lex Groebner basis when small, else algebraic "
        "propagate-and-split with bases at the leaves; GF(32003)",
        aliases=("algebraic", "polynomial"),
        **SYMPY,
    ),
    Backend(
        "groebner-qq",
        "sudoku_bench.solvers.engines.groebner:GroebnerSolver",
        "the groebner back-end over the rationals, as the thesis computes",
        **SYMPY,
        options={"modulus": None},
        in_all=False,
    ),
    Backend(
        "groebner-unity",
        "sudoku_bench.solvers.engines.groebner:GroebnerSolver",
        "the groebner back-end on Bayer's roots-of-unity ideal (digit d is omega^d mod p)",
        **SYMPY,
        options={"formulation": "roots-of-unity"},
        in_all=False,
    ),
    Backend(
        "groebner-basis",
        "sudoku_bench.solvers.engines.groebner:GroebnerSolver",
        "the groebner back-end forced to one basis of the whole ideal (small puzzles only)",
        **SYMPY,
        options={"strategy": "basis"},
        in_all=False,
    ),
    Backend(
        "logic",
        "sudoku_bench.solvers.engines.logic:LogicSolver",
        "human techniques on pencil marks, one logged step at a time; gives up, never guesses",
        aliases=("human",),
    ),
    Backend(
        "logic-singles",
        "sudoku_bench.solvers.engines.logic:LogicSolver",
        "the logic back-end with naked and hidden singles only",
        options={"techniques": ("naked_single", "hidden_single")},
        in_all=False,  # a variant for comparison: solves few puzzles beyond easy ones
    ),
    Backend(
        "cpsat",
        "sudoku_bench.solvers.adapters.cpsat:CpSatSolver",
        "OR-Tools CP-SAT: an integer per cell, AllDifferent per unit; safe counting",
        aliases=("ortools", "cp-sat"),
        **ORTOOLS,
    ),
    Backend(
        "cpsat-onehot",
        "sudoku_bench.solvers.adapters.cpsat:CpSatSolver",
        "OR-Tools CP-SAT on 0/1 variables, exactly-one per cell and per unit and digit",
        **ORTOOLS,
        options={"encoding": "onehot"},
        in_all=False,  # 1.2-1.56 x the time of `cpsat` on top95 + easy50: a variant to compare
    ),
    Backend(
        "cpsat-table",
        "sudoku_bench.solvers.adapters.cpsat:CpSatSolver",
        "the cpsat back-end with each killer cage as a table of its allowed fillings",
        **ORTOOLS,
        options={"cages": "table"},
        in_all=False,  # slower than the linear sum on killers (benchmarks/bench_cp_cages.py)
    ),
    Backend(
        "milp",
        "sudoku_bench.solvers.adapters.milp:MilpSolver",
        "MILP: the exact-cover matrix as a 0/1 program (A x = 1) solved by SCIP via "
        "OR-Tools; counts with no-good cuts",
        aliases=("scip", "ilp"),
        **ORTOOLS,
    ),
    Backend(
        "milp-textbook",
        "sudoku_bench.solvers.adapters.milp:MilpSolver",
        "the milp back-end (SCIP) on the textbook program: all N^3 binaries, every rule row, "
        "each given an equation x = 1",
        **ORTOOLS,
        options={"model": "textbook"},
        in_all=False,  # a model to compare (experiment `models`)
    ),
    Backend(
        "milp-highs",
        "sudoku_bench.solvers.adapters.milp:MilpSolver",
        "the milp back-end with HiGHS instead of SCIP",
        **ORTOOLS,
        options={"backend": "HIGHS"},
        in_all=False,
    ),
    Backend(
        "milp-cbc",
        "sudoku_bench.solvers.adapters.milp:MilpSolver",
        "the milp back-end with COIN-OR CBC instead of SCIP",
        **ORTOOLS,
        options={"backend": "CBC"},
        in_all=False,
    ),
    Backend(
        "sat",
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        "SAT: extended CNF encoding with the givens simplified away (Kwon and Jain's "
        "optimised encoding) solved by CaDiCaL 1.5.3 via PySAT; counts with blocking clauses",
        aliases=("cnf", "cadical", "sat-optimised"),
        **PYSAT,
    ),
    Backend(
        "sat-minimal",
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        "the sat back-end on Lynce and Ouaknine's minimal encoding (cell-at-least, "
        "unit-at-most), givens as unit clauses",
        **PYSAT,
        options={"encoding": "minimal", "givens": "units"},
        in_all=False,  # an encoding to compare (experiment `encodings`)
    ),
    Backend(
        "sat-efficient",
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        "the sat back-end on the efficient encoding (minimal plus cell-at-most), givens as "
        "unit clauses",
        **PYSAT,
        options={"encoding": "efficient", "givens": "units"},
        in_all=False,
    ),
    Backend(
        "sat-extended",
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        "the sat back-end on the full extended encoding with the givens as unit clauses "
        "(the DIMACS export's formula; `sat` simplifies the givens away)",
        **PYSAT,
        options={"encoding": "extended", "givens": "units"},
        in_all=False,
    ),
    Backend(
        "sat-glucose",
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        "the sat back-end with Glucose 4.1 (interrupted at the timeout) instead of CaDiCaL",
        **PYSAT,
        options={"solver": "glucose4"},
        in_all=False,
    ),
    Backend(
        "sat-minisat",
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        "the sat back-end with MiniSat 2.2 instead of CaDiCaL",
        **PYSAT,
        options={"solver": "minisat22"},
        in_all=False,
    ),
    Backend(
        "python-constraint",
        "sudoku_bench.solvers.adapters.python_constraint:PythonConstraintSolver",
        "python-constraint2 BacktrackingSolver: AllDifferent per unit, forward checking",
        aliases=("constraint", "csp"),
        **CONSTRAINT,
    ),
    Backend(
        "python-constraint-singles",
        "sudoku_bench.solvers.adapters.python_constraint:PythonConstraintSolver",
        "python-constraint2 BacktrackingSolver, each unit AllDifferent plus hidden singles",
        **CONSTRAINT,
        options={"hidden_singles": True},
    ),
    Backend(
        "python-constraint-optimized",
        "sudoku_bench.solvers.adapters.python_constraint:PythonConstraintSolver",
        "python-constraint2 OptimizedBacktrackingSolver (the library default: fixed variable order)",
        **CONSTRAINT,
        options={"algorithm": "optimized"},
        in_all=False,
    ),
    Backend(
        "python-constraint-recursive",
        "sudoku_bench.solvers.adapters.python_constraint:PythonConstraintSolver",
        "python-constraint2 RecursiveBacktrackingSolver",
        **CONSTRAINT,
        options={"algorithm": "recursive"},
        in_all=False,
    ),
    Backend(
        "python-constraint-minconflicts",
        "sudoku_bench.solvers.adapters.python_constraint:PythonConstraintSolver",
        "python-constraint2 MinConflictsSolver: local search, one solution at most, may give up",
        **CONSTRAINT,
        options={"algorithm": "minconflicts"},
        in_all=False,
    ),
)

_registered: dict[str, Backend] = {}
_entry_points_loaded = False


def register(backend: Backend) -> None:
    """Add (or replace) a back-end at run time, e.g. a test-only one."""
    _registered[backend.name] = backend


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _from_entry_points() -> list[Backend]:
    import importlib.metadata  # see Backend.version

    found = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        distribution = entry.dist.name if entry.dist is not None else PROJECT
        found.append(
            Backend(
                entry.name,
                entry.value,
                f"third-party back-end from {distribution}",
                distribution=distribution,
            )
        )
    return found


def backends() -> list[Backend]:
    """Every back-end: built-in, then entry points, then those registered at run time."""
    global _entry_points_loaded
    if not _entry_points_loaded:
        for backend in _from_entry_points():
            _registered.setdefault(backend.name, backend)
        _entry_points_loaded = True
    merged = {backend.name: backend for backend in BUILTIN}
    merged.update(_registered)
    return list(merged.values())


def get(name: str) -> Backend:
    """The back-end called `name` (or one of its aliases)."""
    wanted = name.strip().lower()
    for backend in backends():
        if wanted == backend.name or wanted in backend.aliases:
            return backend
    known = ", ".join(backend.name for backend in backends())
    raise UnknownSolverError(f"unknown solver {name!r}; known solvers: {known}")


def create(name: str, **options: Any) -> Solver[Any]:
    """A solver of the back-end `name` (or an alias), its registered options overridden by
    `options`. Raises `UnknownSolverError` for a name not registered (the message lists the
    names) and `SolverUnavailableError` when its library is missing (with the install hint).

        >>> from sudoku_bench.solvers import create
        >>> from sudoku_bench.puzzles.grid import Grid
        >>> result = create("dlx").solve(Grid.from_string("." * 81), limit=2)
        >>> print(result.verdict, result.count)
        multiple 2
    """
    return get(name).create(**options)


def select(names: str | Iterable[str]) -> list[Backend]:
    """Back-ends from a comma-separated list; `all` means every available one marked `in_all`."""
    if isinstance(names, str):
        names = [part for part in names.split(",") if part.strip()]
    names = list(names)
    if not names:  # `-s ''` said "no back-end ... is installed", as if one had been named
        raise UnknownSolverError(
            "no back-end named: give comma-separated names or 'all' (see `sudoku-bench solvers`)"
        )
    chosen: list[Backend] = []
    for name in names:
        if name.strip().lower() == "all":
            picked = [b for b in backends() if b.in_all and b.available()]
        else:
            picked = [get(name)]
        chosen += [backend for backend in picked if backend not in chosen]
    return chosen
