"""The commit a run records is this project's: from its own source tree, else from the
installed distribution's metadata; never the repository a user happens to work in."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from sudoku_bench.harness.running import machine


def git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True)
    return done.stdout.strip()


def user_repository(tmp_path: Path) -> Path:
    """A user's git repository with a commit of its own, holding a 'site-packages' folder as
    a virtual environment inside it would."""
    repo = tmp_path / "user-project"
    (repo / ".venv/lib/site-packages").mkdir(parents=True)
    (repo / "README").write_text("mine\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=u", "-c", "user.email=u@x", "add", "README"],
        check=True,
    )
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "1"],
        check=True,
    )
    return repo


def test_the_source_root_is_the_folder_holding_the_package() -> None:
    assert (machine.SOURCE_ROOT / "sudoku_bench" / "harness" / "running" / "machine.py").exists()


def test_the_source_tree_gives_its_own_commit() -> None:
    root = machine.SOURCE_ROOT
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    assert machine.git_commit().removesuffix("+dirty") == git(root, "rev-parse", "HEAD")


def test_an_install_inside_another_repository_never_records_its_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = user_repository(tmp_path)
    theirs = git(repo, "rev-parse", "HEAD")
    installed = repo / ".venv/lib/site-packages"
    monkeypatch.setattr(machine, "commit_of_distribution", lambda: "")
    assert machine.git_commit(installed) == ""
    # their repository's top holds a pyproject.toml of another project: still not ours
    (repo / "pyproject.toml").write_text('[project]\nname = "something-else"\n')
    assert machine.git_commit(repo) == "" != theirs
    monkeypatch.setattr(machine, "commit_of_distribution", lambda: "abc1234")
    assert machine.git_commit(installed) == "abc1234"


def _distribution(version: str, direct_url: dict[str, object] | None) -> SimpleNamespace:
    text = None if direct_url is None else json.dumps(direct_url)
    return SimpleNamespace(version=version, read_text=lambda name: text)


@pytest.mark.parametrize(
    ("version", "direct_url", "expected"),
    [
        ("0.2.1.dev3+g1f18250", None, "1f18250"),  # a version written from git
        ("0.2.1.dev3+g1f18250.d20261127", None, "1f18250"),
        (
            "0.2.0",
            {"url": "https://example.org/x.git", "vcs_info": {"vcs": "git", "commit_id": "a" * 40}},
            "a" * 40,
        ),
        ("0.2.0", {"url": "file:///src", "dir_info": {"editable": True}}, ""),
        ("0.2.0", None, ""),
    ],
)
def test_the_distribution_metadata_names_the_commit(
    monkeypatch: pytest.MonkeyPatch,
    version: str,
    direct_url: dict[str, object] | None,
    expected: str,
) -> None:
    monkeypatch.setattr(
        machine.importlib.metadata, "distribution", lambda name: _distribution(version, direct_url)
    )
    assert machine.commit_of_distribution() == expected
