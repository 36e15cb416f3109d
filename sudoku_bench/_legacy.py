"""The module names of versions before the one namespace, resolved for one release.

Until then the four layers were top-level packages (`puzzles`, `reductions`, `solvers`,
`harness`), which shadowed, or were shadowed by, other distributions of those names. Now they
are `sudoku_bench.puzzles` and so on. Stores written before name their back-ends by the old
paths (`solvers.engines.dlx.solver:DlxSolver`, and before that `solvers.dlx:...`):
`current_module` translates such a name, and, once `sudoku_bench` is imported, an import of
an old name returns the module at the new one (the same object, so classes compare equal)
with a DeprecationWarning.

The finder of the old top-level names goes last on `sys.meta_path`: a package of one of
those names installed by anything else, or a folder of the user's, is found first and wins.
Nothing is shadowed.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence

NAMESPACE = "sudoku_bench"
LAYERS = ("puzzles", "reductions", "solvers", "harness")

# Modules that moved inside `solvers` before the namespace (engines and adapters got their own
# sub-packages): old name -> name in the layer.
MOVED_IN_SOLVERS: dict[str, str] = {
    "solvers.backtracking": "solvers.engines.backtracking",
    "solvers.propagating": "solvers.engines.propagating.solver",
    "solvers.dlx": "solvers.engines.dlx",
    "solvers.groebner": "solvers.engines.groebner",
    "solvers.logic": "solvers.engines.logic",
    "solvers.jit.propagating": "solvers.engines.propagating.jit",
    "solvers.jit.propagating_kernel": "solvers.engines.propagating.kernel",
    "solvers.jit.dlx": "solvers.engines.dlx.jit",
    "solvers.jit.dlx_kernel": "solvers.engines.dlx.kernel",
    "solvers.jit.bitboard": "solvers.engines.bitboard.jit",
    "solvers.jit.bitboard_kernel": "solvers.engines.bitboard.kernel",
    "solvers.cpsat": "solvers.adapters.cpsat",
    "solvers.sat": "solvers.adapters.sat",
    "solvers.milp": "solvers.adapters.milp",
    "solvers.python_constraint": "solvers.adapters.python_constraint",
    "solvers.native": "solvers.adapters.native",
}
# the old package of the compiled twins: nothing of its own, only moved modules
_EMPTY_PACKAGES = frozenset({"solvers.jit", f"{NAMESPACE}.solvers.jit"})


def current_module(name: str) -> str:
    """Where the module an earlier version called `name` lives now (`name` if it never moved):
    `solvers.dlx` -> `sudoku_bench.solvers.engines.dlx`, `harness.api` ->
    `sudoku_bench.harness.api`."""
    inner = name.removeprefix(NAMESPACE + ".")
    if inner.partition(".")[0] not in LAYERS:
        return name
    for old, new in MOVED_IN_SOLVERS.items():
        if inner == old or inner.startswith(old + "."):
            inner = new + inner[len(old) :]
            break
    return f"{NAMESPACE}.{inner}"


class _Loader(importlib.abc.Loader):
    """Loads an old module name as the module at its new name."""

    def __init__(self, new_name: str | None) -> None:
        self.new_name = new_name
        self.own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        if self.new_name is None:
            package = types.ModuleType(spec.name, "moved: see sudoku_bench._legacy")
            package.__path__ = []
            return package
        module = importlib.import_module(self.new_name)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module was executed under its new name. The import system has
        just given it the old name's spec; the module keeps its own."""
        if self.new_name is not None:
            module.__spec__ = self.own_spec


class _Finder(importlib.abc.MetaPathFinder):
    """Two of these resolve the old names. The one for top-level names (`solvers`) goes last
    on `sys.meta_path`, so that anything else of that name wins. The one for the names under
    them (`solvers.registry`, `sudoku_bench.solvers.dlx`) goes first, since the path finder
    would otherwise load a second copy of the module from the aliased package's folder; it
    takes only names whose top-level package is this project's."""

    def __init__(self, dotted: bool) -> None:
        self.dotted = dotted

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        top, dot, _ = fullname.partition(".")
        if bool(dot) != self.dotted:
            return None
        if dot and top != NAMESPACE and not _is_ours(top):
            return None  # a package of that name that is not this project's
        if fullname in _EMPTY_PACKAGES:
            return importlib.machinery.ModuleSpec(fullname, _Loader(None), is_package=True)
        new_name = current_module(fullname)
        if new_name == fullname:
            return None
        if top != NAMESPACE:
            warnings.warn(
                f"import {fullname!r} is deprecated: the package is now {new_name!r} "
                "(the old names go in the next release)",
                DeprecationWarning,
                stacklevel=2,
            )
        return importlib.machinery.ModuleSpec(fullname, _Loader(new_name))


def _is_ours(top: str) -> bool:
    """Whether the module imported as `top` is one of this project's layers (an old name)."""
    module = sys.modules.get(top)
    return module is not None and module is sys.modules.get(f"{NAMESPACE}.{top}")


def install() -> None:
    """Resolve the old module names (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder(dotted=True))
        sys.meta_path.append(_Finder(dotted=False))
