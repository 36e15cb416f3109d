"""Test-run set-up: the numba kernels are compiled once, before any test (worker) starts.

numba caches machine code on disk (`cache=True`); compiling here, in the pytest process
that starts the xdist workers, lets every worker load it instead of compiling it again.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller compiled already
        return
    if importlib.util.find_spec("numba") is None:
        return
    from sudoku_bench.solvers.engines.dlx.jit import warm_up as warm_dlx
    from sudoku_bench.solvers.engines.propagating.jit import warm_up as warm_propagating

    warm_propagating()
    warm_dlx()


@pytest.fixture(autouse=True)
def _registry_as_it_was() -> Iterator[None]:
    """Back-ends a test registers (an experiment's configurations, a test-only back-end) are
    gone after it: tests that walk the registry see the same back-ends in any order."""
    from sudoku_bench.solvers import registry

    before = dict(registry._registered)
    yield
    registry._registered.clear()
    registry._registered.update(before)
