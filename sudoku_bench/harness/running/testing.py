"""Back-ends for testing and measuring the harness itself; none is registered by default.

`ReferenceSolver` is a small, plainly correct solver (fewest-candidates cell, digits in
order) so the harness can be tested and benchmarked without any real back-end. The others
misbehave on purpose, each in one way the harness must survive or catch. They live in an
importable module because workers start from a fork server, not from a copy of the caller:
a back-end reaches a worker by its `module:Class` target.

    from sudoku_bench.harness.running.testing import backend
    solvers.registry.register(backend("sleeper"))
"""

from __future__ import annotations

import ctypes
import faulthandler
import os
import re
import signal
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from sudoku_bench.puzzles.constraints import DistinctPairs, EncoderTable, UnitConstraint
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import Deadline, Result, SearchOutcome, Solver
from sudoku_bench.solvers.registry import Backend, register, unregister


class ReferenceSolver(Solver[Grid]):
    """Depth-first search over the cell with the fewest candidates; exact counts."""

    name = "reference"
    # every rule that only makes cells differ is in the peers its search reads
    encoders: ClassVar[EncoderTable[Any]] = EncoderTable(
        {UnitConstraint: "peers", DistinctPairs: "peers"}
    )

    def __init__(self, spin: int = 0, kill_node: bool = False) -> None:
        self.spin = spin  # extra busy work per puzzle, to make a CPU-bound back-end
        # kill the process that started this worker's pool (a Dask worker on a cluster node),
        # as a machine that goes down does: for testing lost chunks
        self.kill_node = kill_node

    def _build(self, puzzle: Grid, deadline: Deadline) -> Grid:
        return puzzle

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        if self.kill_node:
            os.kill(_pool_owner(), signal.SIGKILL)
        burn(self.spin)
        values = list(model.values)
        found: list[Grid] = []
        counters = {"nodes": 0.0, "guesses": 0.0}
        exhausted = self._fill(model, values, found, limit, counters, deadline)
        return SearchOutcome(found, exhausted, counters=counters)

    def _fill(
        self,
        puzzle: Grid,
        values: list[int],
        found: list[Grid],
        limit: int,
        counters: dict[str, float],
        deadline: Deadline,
    ) -> bool:
        """Extend `values`; False when stopped at the limit (the search was not exhausted)."""
        counters["nodes"] += 1
        if int(counters["nodes"]) % 256 == 0:
            deadline.check()
        rules = puzzle.rules
        best, best_options = -1, list(rules.digits)
        for cell in rules.cells:
            if values[cell] == 0:
                taken = {values[peer] for peer in rules.peers[cell]}
                options = [d for d in rules.digits if d not in taken]
                if len(options) < len(best_options) or best < 0:
                    best, best_options = cell, options
                if not options:
                    return True
        if best < 0:
            found.append(Grid(rules, tuple(values)))
            return len(found) < limit
        counters["guesses"] += len(best_options) > 1
        for digit in best_options:
            values[best] = digit
            if not self._fill(puzzle, values, found, limit, counters, deadline):
                values[best] = 0
                return False
        values[best] = 0
        return True


def _pool_owner() -> int:
    """The process that owns this worker's pool: the parent of the fork server (or of this
    worker, where workers are spawned directly)."""
    parent = os.getppid()
    with open(f"/proc/{parent}/stat") as stat:  # "pid (name) state ppid ..."
        fields = stat.read().rsplit(")", 1)[1].split()
    grandparent = int(fields[1])
    return grandparent if grandparent > 1 else parent


def burn(steps: int) -> int:
    """Busy arithmetic that holds one core for a fixed amount of work."""
    total = 0
    for step in range(steps):
        total = (total + step * step) % 1_000_003
    return total


class SleeperSolver(ReferenceSolver):
    """Never returns and ignores its deadline: only killing the process stops it."""

    name = "sleeper"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        while True:
            time.sleep(3600)


class PatientSolver(ReferenceSolver):
    """Never finds an answer but honours its deadline: it stops there itself and reports a
    timeout, as backtracking, CP-SAT and the SAT back-ends do, so the pool never kills it."""

    name = "patient"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        while True:
            deadline.check()
            time.sleep(0.01)


class StallOnEmptySolver(ReferenceSolver):
    """Solves every puzzle but the empty grid, on which it hangs like `sleeper`: a task in
    the middle of a batch (`runner.Pool(batch=...)`) that must be killed alone."""

    name = "stall-on-empty"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        while not any(model.values):
            time.sleep(3600)
        return super()._search(model, puzzle, limit, deadline)


class NativeBlockSolver(ReferenceSolver):
    """Blocks inside C code that holds the GIL and never checks for signals (a catastrophic
    regular expression), as a solver stuck in a native library does: no Python-level
    timeout or signal handler can stop it, only killing the process."""

    name = "native-block"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        re.match(r"(a+)+b", "a" * 64)  # 2^64 steps in the regex engine
        raise AssertionError("unreachable: the regular expression takes centuries")


class BlockOnEmptySolver(ReferenceSolver):
    """Solves every puzzle but the empty grid, on which it blocks in C code holding the GIL
    (as `native-block`): no thread of its worker runs, so the answers of the tasks before
    it in its batch never leave the worker."""

    name = "block-on-empty"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        if not any(model.values):
            re.match(r"(a+)+b", "a" * 64)  # 2^64 steps in the regular expression engine
        return super()._search(model, puzzle, limit, deadline)


class SegfaultOnEmptySolver(ReferenceSolver):
    """Solves every puzzle but the empty grid, on which it crashes its process with a
    segmentation fault: a crash in the middle of a chunk of tasks."""

    name = "segfault-on-empty"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        if not any(model.values):
            faulthandler.disable()  # no traceback on stderr: the harness reports the signal
            ctypes.string_at(0)  # reads address 0: SIGSEGV
        return super()._search(model, puzzle, limit, deadline)


class KilledOnEmptySolver(ReferenceSolver):
    """Solves every puzzle but the empty grid, on which its process is killed (SIGKILL, as
    the kernel's out-of-memory killer or an operator does): a kill in the middle of a chunk."""

    name = "killed-on-empty"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        if not any(model.values):
            os.kill(os.getpid(), signal.SIGKILL)
        return super()._search(model, puzzle, limit, deadline)


class ManyAtOnceSolver(ReferenceSolver):
    """Solves a whole batch in one call (`solve_many` overridden, as a compiled batch API
    is), and says in each result's counters how many puzzles that call was given."""

    name = "many-at-once"

    def solve_many(
        self,
        puzzles: Iterable[Grid],
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Iterator[Result]:
        given = list(puzzles)
        results = [
            self.solve(puzzle, limit=limit, timeout=timeout, node_limit=node_limit)
            for puzzle in given
        ]
        for result in results:
            result.counters["batch"] = float(len(given))
        yield from results


class SegfaultSolver(ReferenceSolver):
    """Crashes its process with a segmentation fault, as a buggy C extension does."""

    name = "segfault"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        faulthandler.disable()  # no traceback on stderr: the harness reports the signal
        ctypes.string_at(0)  # reads address 0: SIGSEGV
        raise AssertionError("unreachable: reading address 0 kills the process")


class RaisingSolver(ReferenceSolver):
    name = "raiser"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        raise RuntimeError("this back-end always fails")


class ExitingSolver(ReferenceSolver):
    """Ends its own process, as a crashing C extension would."""

    name = "exiter"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        os._exit(3)


class WrongGridSolver(ReferenceSolver):
    """Returns a complete grid that breaks the rules (every empty cell filled with 1)."""

    name = "wrong-grid"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        filled = tuple(value or 1 for value in puzzle.values)
        return SearchOutcome([Grid(puzzle.rules, filled)], exhausted=True)


class WrongSizeSolver(ReferenceSolver):
    """Returns a solved grid of another size (a 4x4 for a 9x9, a 9x9 for a 4x4)."""

    name = "wrong-size"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        other = Rules.of_size(9 if puzzle.rules.size == 4 else 4)
        outcome = super()._search(Grid.empty(other), Grid.empty(other), 1, deadline)
        return SearchOutcome(outcome.solutions, exhausted=True, counters=outcome.counters)


class FalseUniqueSolver(ReferenceSolver):
    """Stops at the first solution but claims the search was exhausted ("unique")."""

    name = "false-unique"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        outcome = super()._search(model, puzzle, 1, deadline)
        return SearchOutcome(outcome.solutions[:1], exhausted=True, counters=outcome.counters)


class LateSolver(ReferenceSolver):
    """Ignores its deadline and answers just after it (before the worker would be killed)."""

    name = "late"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        time.sleep((deadline.seconds or 0) * 1.05)
        return super()._search(model, puzzle, limit, Deadline(None))


class HogSolver(ReferenceSolver):
    """Allocates memory without bound (10 MB at a time), as a runaway model build would."""

    name = "hog"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        hoard = []
        while True:
            hoard.append(bytearray(10 * 1024 * 1024))


class NapperSolver(ReferenceSolver):
    """Sleeps 0.3 s before answering: wall time without CPU time."""

    name = "napper"

    def _search(self, model: Grid, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        time.sleep(0.3)
        return super()._search(model, puzzle, limit, deadline)


class UnsupportedRulesSolver(ReferenceSolver):
    """Accepts no rules at all, as a back-end limited to some rules does for the others."""

    name = "no-geometry"

    def accepts(self, rules: Rules) -> bool:
        return False


CLASSES: dict[str, type[ReferenceSolver]] = {
    cls.name: cls
    for cls in (
        ReferenceSolver,
        SleeperSolver,
        PatientSolver,
        StallOnEmptySolver,
        NativeBlockSolver,
        BlockOnEmptySolver,
        SegfaultSolver,
        SegfaultOnEmptySolver,
        KilledOnEmptySolver,
        ManyAtOnceSolver,
        RaisingSolver,
        ExitingSolver,
        WrongGridSolver,
        WrongSizeSolver,
        FalseUniqueSolver,
        LateSolver,
        HogSolver,
        NapperSolver,
        UnsupportedRulesSolver,
    )
}


def backend(kind: str, name: str | None = None, **options: Any) -> Backend:
    """A registry entry for one of the classes above (not chosen by `-s all`)."""
    cls = CLASSES[kind]
    return Backend(
        name or kind,
        f"{__name__}:{cls.__name__}",
        f"test-only: {(cls.__doc__ or kind).splitlines()[0]}",
        options=options,
        in_all=False,
    )


@contextmanager
def registered(*kinds: str) -> Iterator[list[str]]:
    """Register the named test back-ends (all of them by default) for the `with` block."""
    names = list(kinds or CLASSES)
    for kind in names:
        register(backend(kind))
    try:
        yield names
    finally:
        for kind in names:
            unregister(kind)
