"""The distribution's metadata: a version from the installed metadata in every package, the
typing marker shipped, extras that install what their feature needs, a citation."""

from __future__ import annotations

import importlib
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from sudoku_bench.harness.experiments import OPTIONAL_LIBRARIES

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGES = ("sudoku_bench.puzzles", "sudoku_bench.reductions", "sudoku_bench.solvers", "sudoku_bench.harness")


def _requirements(extra: str) -> set[str]:
    """The distributions an extra installs, its `sudoku-bench[...]` references followed."""
    names: set[str] = set()
    for requirement in PYPROJECT["project"]["optional-dependencies"][extra]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None
        if name.group(0) == "sudoku-bench":
            inner = re.search(r"\[(.*)\]", requirement)
            assert inner is not None
            for other in inner.group(1).split(","):
                names |= _requirements(other.strip())
        else:
            names.add(name.group(0).lower())
    return names


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_has_the_installed_version(package: str) -> None:
    try:
        expected = metadata.version("sudoku-bench")
    except metadata.PackageNotFoundError:
        expected = "unknown"
    assert importlib.import_module(package).__version__ == expected


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_ships_its_typing_marker(package: str) -> None:
    assert (ROOT / package.replace(".", "/") / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"][package]


def test_the_version_comes_from_tags_with_a_fallback() -> None:
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert any(req.startswith("setuptools-scm") for req in PYPROJECT["build-system"]["requires"])
    assert PYPROJECT["tool"]["setuptools_scm"]["fallback_version"]


def test_the_experiments_extra_installs_every_library_an_experiment_imports() -> None:
    installed = _requirements("experiments")
    assert set(OPTIONAL_LIBRARIES.values()) - {"python-constraint2"} <= installed
    assert "python-constraint2" in installed  # the `constraint` module's distribution


def test_the_report_extra_installs_every_format() -> None:
    assert {"matplotlib", "pandas", "pyarrow"} <= _requirements("report")


def test_all_includes_every_feature_extra() -> None:
    everything = _requirements("all")
    for extra in PYPROJECT["project"]["optional-dependencies"]:
        if extra not in {"all", "dev", "docs"}:
            assert _requirements(extra) <= everything, extra


def test_the_metadata_describes_the_project() -> None:
    project = PYPROJECT["project"]
    assert project["keywords"] and "Typing :: Typed" in project["classifiers"]
    readme = (ROOT / project["readme"]).read_text(encoding="utf-8")
    assert len(readme.encode()) < 10_000  # the short README, not the manual


def test_the_citation_names_the_software() -> None:
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert citation.startswith("cff-version: 1.2.0")
    assert re.search(r"^title: .*sudoku-bench", citation, re.M)
    assert re.search(r"^version: ", citation, re.M)
