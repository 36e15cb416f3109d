"""Module paths of earlier versions, kept importable: the engines and adapters moved into
`solvers.engines` and `solvers.adapters`, and stores and user code name the old paths.

`MOVED` maps each old module (or package: its sub-modules follow) to where it lives now. An
import of an old path returns the module at the new one (the same object, so classes compare
equal), and `current_module` translates a stored `module:Class` target.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence

MOVED: dict[str, str] = {
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
# the old package of the compiled twins: nothing of its own, only the moved modules above
_EMPTY_PACKAGES = frozenset({"solvers.jit"})


def current_module(name: str) -> str:
    """Where the module called `name` by an earlier version lives now (`name` if it never moved)."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old) :]
    return name


class _MovedModuleLoader(importlib.abc.Loader):
    """Loads an old module path as the module at its new path."""

    def __init__(self, new_name: str | None) -> None:
        self.new_name = new_name
        self.own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        if self.new_name is None:
            package = types.ModuleType(spec.name, "moved: see solvers.moved.MOVED")
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


class _MovedModuleFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in _EMPTY_PACKAGES:
            return importlib.machinery.ModuleSpec(
                fullname, _MovedModuleLoader(None), is_package=True
            )
        new_name = current_module(fullname)
        if new_name == fullname:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedModuleLoader(new_name))


def install() -> None:
    """Make the old module paths importable (once per process)."""
    if not any(isinstance(finder, _MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _MovedModuleFinder())
