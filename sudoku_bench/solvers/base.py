"""The Solver contract: one interface for every back-end, and the Result it returns.

A back-end implements two steps, timed separately by `Solver.solve`:
`_build` (the reduction: puzzle -> model) and `_search` (the engine, which reports
a `SearchOutcome`). `solve` turns the outcome into a `Result` with one meaning of
status for every back-end.
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from sudoku_bench.puzzles.constraints import EncoderTable
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.deep import call_deep

Counters = dict[str, float]


class Status(StrEnum):
    """How a search ended. The values are the stable strings of the CLI's `--json`."""

    SOLVED = "solved"  # solutions found and the search space exhausted: the count is exact
    NO_SOLUTION = "no_solution"  # search space exhausted, nothing found: exactly 0
    LIMIT = "limit"  # stopped after `limit` solutions: the count is a lower bound
    TIMEOUT = "timeout"  # the deadline passed first (solutions found so far are kept)
    GAVE_UP = "gave_up"  # an incomplete method (logic, local search) stopped without an answer
    ERROR = "error"  # the back-end failed; `message` says how
    UNSUPPORTED = "unsupported"  # the back-end cannot express these rules: not attempted
    MEMOUT = "memout"  # stopped by the harness at its memory limit (`bench --memory-limit`)
    # not run by the harness: an earlier repeat of the same puzzle and back-end timed out
    # (`bench` without --repeat-timeouts); reports count it as a timeout
    SKIPPED = "skipped"

    @property
    def answered(self) -> bool:
        """The back-end did what `limit` asked: found the solutions or proved there are none."""
        return self in _ANSWERED


_ANSWERED = frozenset({Status.SOLVED, Status.NO_SOLUTION, Status.LIMIT})


class Verdict(StrEnum):
    """What a result settles about the number of solutions; the values are `--json`'s."""

    NONE = "none"  # exactly 0
    UNIQUE = "unique"  # exactly 1
    MULTIPLE = "multiple"  # 2 or more
    UNKNOWN = "unknown"  # not settled (a timeout, an error, a limit of 1)


_EXACT_VERDICTS = {0: Verdict.NONE, 1: Verdict.UNIQUE}  # else multiple
# looked up once: an enum member read from its class costs a tenth of a microsecond, and
# every answer of `solve FILE` asks for its exactness and verdict
_MULTIPLE, _UNKNOWN = Verdict.MULTIPLE, Verdict.UNKNOWN
_EXACT_STATUSES = (Status.SOLVED, Status.NO_SOLUTION)  # with the search space exhausted


class UnsupportedPuzzleError(SudokuBenchError):
    """A back-end cannot take this puzzle (a rule it cannot express, a size too large for its
    method); `Solver.solve` answers it with the status `unsupported`."""


NO_NODE_LIMIT = 2**62  # the node budget of a search without one (fits a compiled int64)


def over_node_budget(nodes: int, node_limit: int | None) -> bool:
    """Whether a search of `nodes` nodes went past the budget `node_limit` (None: none)."""
    return node_limit is not None and nodes > node_limit


def node_budget_message(nodes: int, node_limit: int) -> str:
    """The message of a result censored by its node budget (`timeout` status)."""
    return f"node budget of {node_limit} nodes spent ({nodes} nodes searched)"


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed; `Solver.solve` catches it."""


class Deadline:
    """A point in time (perf_counter) after which a search must stop; None = no limit.

    It also carries the node budget (`node_limit`, None: none): the number of search nodes
    after which an engine that counts nodes stops. Engines compare their node count with it
    where they read the clock (`spent`), so the budget stops a search at the same node on
    any machine and at any load, where the clock does not."""

    def __init__(self, seconds: float | None, node_limit: int | None = None) -> None:
        if seconds is not None and seconds <= 0:
            raise ValueError(f"timeout must be positive, got {seconds}")
        if node_limit is not None and node_limit < 1:
            raise ValueError(f"node_limit must be at least 1, got {node_limit}")
        self.seconds = seconds
        self.at = math.inf if seconds is None else time.perf_counter() + seconds
        self.node_limit = node_limit
        # the budget as a number an engine can compare with (compiled ones too): no budget
        # is a count no search reaches
        self.nodes_at = NO_NODE_LIMIT if node_limit is None else node_limit

    def spent(self, nodes: int) -> bool:
        """Whether a search that has made `nodes` nodes must stop: over its node budget, or
        past its deadline. Engines call it where they would call `expired`."""
        return nodes > self.nodes_at or time.perf_counter() >= self.at

    def expired(self) -> bool:
        return time.perf_counter() >= self.at

    def check(self) -> None:
        """Raise SearchTimeout if the deadline has passed (call it every few hundred nodes)."""
        if time.perf_counter() >= self.at:
            raise SearchTimeout

    def remaining(self) -> float | None:
        """Seconds left (at least a tiny positive amount), or None when there is no limit."""
        if self.at == math.inf:
            return None
        return max(self.at - time.perf_counter(), 1e-3)


@dataclass
class SearchOutcome:
    """What an engine reports; `Solver.solve` derives the status from it."""

    solutions: list[Grid]
    exhausted: bool  # the whole search space was explored, so the count is exact
    timed_out: bool = False
    gave_up: bool = False
    message: str = ""
    counters: Counters = field(default_factory=dict)
    partial: Grid | None = None  # how far an incomplete method got
    details: dict[str, Any] = field(default_factory=dict)  # e.g. the logic solver's step log


@dataclass(repr=False)
class Result:
    """The answer of one `solve` call. `solutions` holds at most `limit` grids."""

    solver: str
    status: Status
    solutions: list[Grid]
    exhausted: bool
    build_s: float = 0.0
    search_s: float = 0.0
    counters: Counters = field(default_factory=dict)
    message: str = ""
    partial: Grid | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def exact(self) -> bool:
        """True when `count` is the true number of solutions, not a lower bound."""
        return self.exhausted and self.status in _EXACT_STATUSES

    @property
    def total_s(self) -> float:
        return self.build_s + self.search_s

    @property
    def nodes(self) -> int:
        return int(self.counters.get("nodes", 0))

    @property
    def guesses(self) -> int | None:
        """Branch points the back-end guessed at; None when it does not count them (CP-SAT,
        MILP and python-constraint report other counters): not measured is not zero."""
        guesses = self.counters.get("guesses")
        return None if guesses is None else int(guesses)

    @property
    def verdict(self) -> Verdict:
        """`none`, `unique` or `multiple` when the result settles it, else `unknown`."""
        count = len(self.solutions)
        if self.exact:
            return _EXACT_VERDICTS.get(count, _MULTIPLE)
        return _MULTIPLE if count >= 2 else _UNKNOWN

    def __repr__(self) -> str:
        """Short: the verdict and times, not the solutions (`.solutions` holds them)."""
        message = f", message={self.message!r}" if self.message else ""
        return (
            f"Result(solver={self.solver!r}, status={self.status.value}, count={self.count}, "
            f"exact={self.exact}, verdict={self.verdict}, total_s={self.total_s:.6g}{message})"
        )

    def _repr_html_(self) -> str:
        """A table of the answer and, in a notebook, the first solution drawn."""
        from html import escape

        rows = [
            ("solver", self.solver),
            ("status", self.status.value),
            ("solutions", f"{self.count}{'' if self.exact else ' (or more)'}"),
            ("verdict", str(self.verdict)),
            ("build / search s", f"{self.build_s:.6g} / {self.search_s:.6g}"),
            *((key, str(value)) for key, value in self.counters.items()),
            *((("message", self.message),) if self.message else ()),
        ]
        table = "".join(
            f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td></tr>"
            for k, v in rows
        )
        picture = self.solutions[0].svg() if self.solutions else ""
        return f"<table>{table}</table>{picture}"

    @classmethod
    def failure(cls, solver: str, status: Status, message: str) -> Result:
        """A result for a run that produced nothing (error, or timeout enforced from outside)."""
        return cls(solver, status, [], False, counters={"nodes": 0}, message=message)


ModelT = TypeVar("ModelT")


class Solver(ABC, Generic[ModelT]):
    """A back-end: a reduction (`_build`) and an engine (`_search`) behind one `solve`.

    One instance per configuration; instances may be reused for many puzzles.
    """

    name: ClassVar[str] = ""
    # The back-end's table from constraint kind (or family) to its encoder (CVXPY's
    # canonicalisation table): a puzzle with a constraint the table has no encoder for is
    # answered `unsupported`, never attempted. An empty table: no constraint beyond the shape.
    encoders: ClassVar[EncoderTable[Any]] = EncoderTable({})
    # Frames of Python recursion the search may take per cell (0: it does not recurse): a
    # deep one runs where the recursion limit cannot stop it (`sudoku_bench.solvers.deep`).
    frames_per_cell: int = 0
    # Whether the engine counts search nodes and stops at a node budget (`node_limit`);
    # one that does not runs to its time limit and says so in the result's message.
    honours_node_limit: ClassVar[bool] = False

    def accepts(self, rules: Rules) -> bool:
        """Whether this back-end can express these rules: an encoder for every constraint."""
        return self.encoders.accepts(rules.constraints, rules.size)

    def unsupported_because(self, rules: Rules) -> str:
        """Why `accepts(rules)` is false, in words."""
        missing = self.encoders.missing(rules.constraints, rules.size)
        if missing:
            return f"the {self.name} back-end cannot express {', '.join(missing)}"
        return f"the {self.name} back-end cannot solve {rules} puzzles"

    def solve(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Result:
        """Find up to `limit` solutions of `puzzle`, stopping at `timeout` seconds or, in an
        engine that counts nodes (`honours_node_limit`), after `node_limit` search nodes: a
        search that needs more ends with status `timeout` and a message naming the node
        budget, the same on any machine at any load."""
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        if not self.accepts(puzzle.rules):
            return Result.failure(
                self.name, Status.UNSUPPORTED, self.unsupported_because(puzzle.rules)
            )
        deadline = Deadline(timeout, node_limit if self.honours_node_limit else None)
        start = time.perf_counter()
        built: float | None = None
        try:
            model = self._build(puzzle, deadline)
            built = time.perf_counter()
            outcome = call_deep(
                lambda: self._search(model, puzzle, limit, deadline),
                self.frames_per_cell * puzzle.rules.cell_count,
            )
        except SearchTimeout:  # engines that found solutions return them with timed_out=True
            outcome = SearchOutcome([], exhausted=False, timed_out=True)
        except UnsupportedPuzzleError as error:  # found out while building the model
            return Result.failure(self.name, Status.UNSUPPORTED, str(error))
        end = time.perf_counter()
        if built is None:
            built = end
        message = outcome.message
        if node_limit is not None:
            message = _with_node_budget(self, outcome, node_limit)
            if self.honours_node_limit:  # stored with the counters: whose budget censored it
                outcome.counters["node_budget"] = node_limit
        return Result(
            solver=self.name,
            status=_status_of(outcome, limit),
            solutions=outcome.solutions[:limit],
            exhausted=outcome.exhausted and not outcome.timed_out,
            build_s=built - start,
            search_s=end - built,
            # every result counts nodes; guesses only where the back-end counts them
            counters={"nodes": 0, **outcome.counters},
            message=message,
            partial=outcome.partial,
            details=outcome.details,
        )

    def solve_many(
        self,
        puzzles: Iterable[Grid],
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Iterator[Result]:
        """`solve` of each puzzle in turn, each result yielded as it is found; `limit` and
        `timeout` hold for each puzzle. The harness hands a batch of puzzles to a back-end
        this way (`solve` and `count` of a file): a back-end that solves many puzzles in one
        compiled call overrides it, yielding the results in the puzzles' order. The
        harness's clock for a puzzle starts when the result before it is yielded, so an
        override that solves several puzzles per call keeps each call within one puzzle's
        `timeout` (with a timeout, by calls over fewer puzzles). `node_limit` holds for each
        puzzle as in `solve`."""
        for puzzle in puzzles:
            yield self.solve(puzzle, limit=limit, timeout=timeout, node_limit=node_limit)

    @abstractmethod
    def _build(self, puzzle: Grid, deadline: Deadline) -> ModelT:
        """The reduction: turn the puzzle into this engine's model."""

    @abstractmethod
    def _search(self, model: ModelT, puzzle: Grid, limit: int, deadline: Deadline) -> SearchOutcome:
        """Run the engine on the model and map its answers back to grids."""


def _with_node_budget(solver: Solver[Any], outcome: SearchOutcome, node_limit: int) -> str:
    """The result's message under a node budget; an outcome over the budget becomes a
    timeout. The rule is on the node count alone: a search that needed more than
    `node_limit` nodes is censored even when it finished before the engine looked, so the
    verdict does not depend on how often an engine checks."""
    if not solver.honours_node_limit:
        note = f"no node budget: the {solver.name} back-end cannot stop at one (time limit only)"
        return f"{outcome.message}; {note}" if outcome.message else note
    nodes = int(outcome.counters.get("nodes", 0))
    if not over_node_budget(nodes, node_limit):
        return outcome.message
    outcome.timed_out, outcome.exhausted = True, False
    return node_budget_message(nodes, node_limit)


def _status_of(outcome: SearchOutcome, limit: int) -> Status:
    if outcome.timed_out:
        return Status.TIMEOUT
    if outcome.gave_up:
        return Status.GAVE_UP
    if outcome.exhausted:
        return Status.SOLVED if outcome.solutions else Status.NO_SOLUTION
    if len(outcome.solutions) >= limit:
        return Status.LIMIT
    return Status.GAVE_UP
