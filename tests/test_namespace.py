"""One import namespace: `sudoku_bench` holds the four layers, and installing it shadows nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import sudoku_bench
from sudoku_bench._legacy import LAYERS, current_module
from sudoku_bench.harness import api

ROOT = Path(__file__).resolve().parent.parent
OLD_IMPORT = re.compile(rf"(?m)^\s*(from|import) ({'|'.join(LAYERS)})(\s|\.|$)")


def test_the_namespace_exports_the_whole_comparison_api() -> None:
    assert set(api.__all__) <= set(sudoku_bench.__all__)
    for name in sudoku_bench.__all__:
        assert getattr(sudoku_bench, name) is not None
    assert sudoku_bench.bench is api.bench
    assert isinstance(sudoku_bench.__version__, str)


def test_no_source_file_imports_a_layer_by_its_old_top_level_name() -> None:
    sources = [
        *ROOT.glob("sudoku_bench/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("benchmarks/**/*.py"),
        *ROOT.glob("docs/**/*.md"),
        ROOT / "README.md",
    ]
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
        for path in sources
        if path.name != "test_namespace.py"
        for match in OLD_IMPORT.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_stored_targets_of_every_earlier_layout_name_the_current_modules() -> None:
    assert current_module("solvers.dlx") == "sudoku_bench.solvers.engines.dlx"
    assert current_module("solvers.engines.dlx.solver") == "sudoku_bench.solvers.engines.dlx.solver"
    assert current_module("solvers.jit.bitboard") == "sudoku_bench.solvers.engines.bitboard.jit"
    assert current_module("harness.api") == "sudoku_bench.harness.api"
    assert current_module("sudoku_bench.solvers.cpsat") == "sudoku_bench.solvers.adapters.cpsat"
    assert current_module("numpy.linalg") == "numpy.linalg"
    assert current_module("solvers_extra.x") == "solvers_extra.x"


def _isolated(code: str, cwd: Path, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    """`code` run without site-packages (so no other `solvers` or `puzzles` is found) with
    this checkout first on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [python, "-S", "-W", "error::DeprecationWarning", "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_old_name_resolves_to_the_same_module_with_a_warning(tmp_path: Path) -> None:
    code = (
        "import warnings, sudoku_bench\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import solvers.dlx as old\n"
        "    import solvers.registry as old_registry\n"
        "    import harness.cli.output as old_output\n"
        "import sudoku_bench.solvers.engines.dlx as new\n"
        "import sudoku_bench.solvers.registry as registry, sudoku_bench.harness.cli.output as output\n"
        "assert old is new, (old, new)\n"
        "assert old_registry is registry and old_output is output  # never a second copy\n"
        "assert any('deprecated' in str(w.message) for w in caught), caught\n"
        "print('ok')\n"
    )
    done = _isolated(code, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_users_own_solvers_package_wins_over_the_old_name(tmp_path: Path) -> None:
    (tmp_path / "solvers").mkdir()
    (tmp_path / "solvers" / "__init__.py").write_text("WHO = 'user'\n")
    code = (
        "import sys; sys.path.insert(0, '')\n"
        "import sudoku_bench.solvers.base, solvers\n"
        "assert solvers.WHO == 'user'\n"
        "print('ok')\n"
    )
    done = _isolated(code, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


@pytest.mark.slow
def test_the_wheel_installs_beside_a_package_named_solvers(tmp_path: Path) -> None:
    """The built wheel, installed into a clean venv beside a distribution called `solvers`:
    both import, neither shadows the other."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    user = tmp_path / "user-solvers"
    (user / "solvers").mkdir(parents=True)
    (user / "solvers" / "__init__.py").write_text("WHO = 'user'\n")
    (user / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "solvers"\nversion = "1.0"\n'
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(wheels), str(user)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = str(env_dir / "bin" / "python")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
         "--no-index", *map(str, wheels.glob("*.whl"))],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    installed = subprocess.run(
        [python, "-c", "import solvers, sudoku_bench.solvers.base as b, sudoku_bench.puzzles; "
         "print(solvers.WHO, b.__name__)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.split() == ["user", "sudoku_bench.solvers.base"]
    top_level = sorted(p.name for p in (env_dir / "lib").glob("python*/site-packages/*"))
    assert not {"puzzles", "reductions", "harness"} & set(top_level), top_level
