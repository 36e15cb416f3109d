"""The import graph, read from the source (ast): lower layers never import higher ones
(`puzzles` <- `reductions` <- `solvers` <- `harness`), and no two sub-packages of `harness`
import each other, directly or round a longer cycle.

Every import counts, at the top of a module or inside a function or `if TYPE_CHECKING`: a
deferred import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "sudoku_bench"  # module names are relative to it
LAYERS = ("puzzles", "reductions", "solvers", "harness")  # each may import those before it


def module_name(path: Path) -> str:
    """The name in the namespace without its `sudoku_bench.` (`sudoku_bench.harness.cli.output`)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_name(name: str) -> str:
    """An imported name as `module_name` gives it: without its `sudoku_bench.`."""
    return name.removeprefix("sudoku_bench.")


def imported(path: Path) -> Iterator[str]:
    """The absolute names of the modules `path` imports (relative imports resolved)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (layer_name(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                prefix = ".".join([*base, node.module] if node.module else base)
            else:
                prefix = layer_name(node.module or "")
            yield prefix
            # `from harness import defaults` imports the module harness.defaults
            yield from (f"{prefix}.{alias.name}" for alias in node.names)


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def harness_part(module: str) -> str | None:
    """The sub-package (or top-level module) of `harness` that `module` belongs to; None for
    the package itself and for names outside it."""
    parts = module.split(".")
    if parts[0] != "harness" or len(parts) < 2:
        return None
    candidate = ROOT / "harness" / parts[1]
    if candidate.is_dir() or candidate.with_suffix(".py").is_file():
        return parts[1]
    return None


def part_graph() -> dict[str, set[str]]:
    """Sub-package of harness -> the other sub-packages its modules import."""
    graph: dict[str, set[str]] = {}
    for path in sources("harness"):
        here = harness_part(module_name(path))
        if here is None or here == "__main__":
            continue
        edges = graph.setdefault(here, set())
        for name in imported(path):
            there = harness_part(name)
            if there is not None and there != here:
                edges.add(there)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary cycle's first appearance in a depth-first walk (enough to name one)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_imports_a_higher_one(layer: str) -> None:
    higher = LAYERS[LAYERS.index(layer) + 1 :]
    offences = [
        f"{module_name(path)} imports {name}"
        for path in sources(layer)
        for name in imported(path)
        if name.split(".")[0] in higher
    ]
    assert offences == []


def test_no_cycle_between_harness_sub_packages() -> None:
    graph = part_graph()
    assert {"running", "storing", "cli", "results"} <= set(graph)  # the walk saw them
    assert [" -> ".join(cycle) for cycle in cycles(graph)] == []


def test_the_result_record_sits_below_running_and_storing() -> None:
    graph = part_graph()
    assert "results" in graph["running"] and "results" in graph["storing"]
    assert graph["results"] <= {"defaults"}


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_building_the_command_line_imports_no_numerical_library() -> None:
    """Every command builds the whole parser: a command module that imported numba at its top
    made every command pay for it, and crash where numba could not write its cache."""
    import subprocess
    import sys

    code = (
        "import sys; from sudoku_bench.harness.cli import build_parser; build_parser(); "
        "print(sorted(m for m in ('numba', 'numpy', 'pandas', 'sympy', 'ortools') "
        "if m in sys.modules))"
    )
    root = ROOT.parent
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
