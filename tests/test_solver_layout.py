"""Solvers laid out by what they are: engines under `sudoku_bench.solvers.engines`, library adapters under
`sudoku_bench.solvers.adapters`, configurations as options of one class; the module paths and
`module:Class` targets of earlier versions still import, resolve and resume."""

from __future__ import annotations

import importlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from sudoku_bench._legacy import MOVED_IN_SOLVERS, current_module
from sudoku_bench.harness.cli import main
from sudoku_bench.harness.running.session import backend_from
from sudoku_bench.harness.storing.store import SQLiteStore
from sudoku_bench.solvers.registry import BUILTIN, RETIRED_CLASSES, Backend, current_target, get

OLD_STORE = Path(__file__).parent / "data" / "store-v4.sqlite"
LIBRARY_OF = {
    "sudoku_bench.solvers.cpsat": "ortools",
    "sudoku_bench.solvers.milp": "ortools",
    "sudoku_bench.solvers.sat": "pysat",
    "sudoku_bench.solvers.python_constraint": "constraint",
    "sudoku_bench.solvers.native": "exact_cover",
    "sudoku_bench.solvers.groebner": "sympy",
    "sudoku_bench.solvers.jit": "numba",
}


# the paths before the engines/adapters layout, in the namespace (the same paths without it,
# the names before the namespace, are tested in a clean interpreter by test_namespace.py)
MOVED = {f"sudoku_bench.{old}": f"sudoku_bench.{new}" for old, new in MOVED_IN_SOLVERS.items()}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_imports_the_module_at_its_new_one(old: str) -> None:
    for prefix, library in LIBRARY_OF.items():
        if old.startswith(prefix):
            pytest.importorskip(library)
    module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__name__ == module.__spec__.name == MOVED[old]  # it keeps its own name


def test_sub_modules_of_a_moved_package_follow_it() -> None:
    assert current_module("sudoku_bench.solvers.logic.state") == "sudoku_bench.solvers.engines.logic.state"
    assert current_module("sudoku_bench.solvers.dlx.solver") == "sudoku_bench.solvers.engines.dlx.solver"
    assert current_module("sudoku_bench.solvers.registry") == "sudoku_bench.solvers.registry"  # never moved
    assert current_module("sudoku_bench.solvers.satellite") == "sudoku_bench.solvers.satellite"  # a prefix, not a package
    from sudoku_bench.solvers.logic.state import Candidates

    assert Candidates.__module__ == "sudoku_bench.solvers.engines.logic.state"


def test_engines_and_adapters_are_apart() -> None:
    engines = {"backtracking", "propagating", "dlx", "bitboard", "groebner", "logic"}
    for backend in BUILTIN:
        package, kind = backend.target.partition(":")[0].split(".")[2:4]
        engine = backend.name.partition("-")[0] in engines
        assert package == ("engines" if engine else "adapters"), backend.name
        if engine:
            assert kind == backend.name.partition("-")[0], backend.name


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("cpsat-onehot", "cpsat"),
        ("cpsat-table", "cpsat"),
        ("milp-textbook", "milp"),
        ("milp-highs", "milp"),
        ("milp-cbc", "milp"),
        ("sat-minimal", "sat"),
        ("sat-efficient", "sat"),
        ("sat-glucose", "sat"),
        ("sat-minisat", "sat"),
        ("python-constraint-singles", "python-constraint"),
        ("python-constraint-optimized", "python-constraint"),
        ("python-constraint-recursive", "python-constraint"),
        ("python-constraint-minconflicts", "python-constraint"),
        ("propagating-singles", "propagating"),
        ("logic-singles", "logic"),
        ("groebner-qq", "groebner"),
    ],
)
def test_a_configuration_is_its_back_ends_class_with_options(name: str, base: str) -> None:
    configuration = get(name)
    assert configuration.target == get(base).target
    assert configuration.options and configuration.options != get(base).options


@pytest.mark.parametrize("old_target", sorted(RETIRED_CLASSES))
def test_a_retired_configuration_class_resolves_to_its_registered_configuration(
    old_target: str,
) -> None:
    module, _, class_name = old_target.partition(":")
    stored_target = f"{module.replace('sudoku_bench.solvers.adapters.', 'solvers.')}:{class_name}"
    named = [b for b in BUILTIN if current_target(stored_target, {}) == (b.target, b.options)]
    assert len(named) == 1, old_target
    registered = named[0]
    config = {"target": stored_target, "options": {}, "distribution": registered.distribution}
    assert backend_from(registered.name, config) is registered


def test_stored_options_win_over_a_retired_classs_own() -> None:
    target, options = current_target(
        "solvers.sat:GlucoseSatSolver", {"encoding": "minimal"}  # old name
    )
    assert (target, options) == (
        "sudoku_bench.solvers.adapters.sat:SatSolver",
        {"solver": "glucose4", "encoding": "minimal"},
    )


def test_a_backend_built_from_an_old_target_builds_todays_solver() -> None:
    pytest.importorskip("constraint")
    old = Backend("csp-recursive", "solvers.python_constraint:RecursiveSolver", "as stored")  # old name
    assert old.target == "sudoku_bench.solvers.adapters.python_constraint:PythonConstraintSolver"
    solver = old.create()
    assert solver.name == "csp-recursive" and solver.frames_per_cell == 3
    assert get("python-constraint").create().frames_per_cell == 0


def test_an_old_stores_targets_resume_with_the_registered_back_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_path = tmp_path / "old.sqlite"
    shutil.copyfile(OLD_STORE, store_path)
    with sqlite3.connect(store_path) as db:
        targets = {
            solver: json.loads(configuration)["target"]
            for solver, configuration in db.execute(
                "SELECT DISTINCT solver, configuration FROM tasks WHERE run = 2"
            )
        }
    assert targets == {
        "dlx": "solvers.dlx.solver:DlxSolver",  # old name
        "propagating": "solvers.propagating:PropagatingSolver",  # old name
    }
    store = SQLiteStore(store_path, read_only=True)
    for name, config in store.configurations(2).items():
        assert backend_from(name, config) is get(name)
    store.close()
    assert main(["bench", "--db", str(store_path), "--resume", "--quiet", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 70 and {record["solver"] for record in records} == set(targets)
    store = SQLiteStore(store_path, read_only=True)
    assert store.run(2).finished and len(store.results(2)) == 80
