"""`bitboard-jit`: classic 9x9 Sudoku on per-digit bitboards, compiled with numba; and
`solve_batch`, which solves many puzzles in one call of the compiled code.

The kernel (`sudoku_bench.solvers.engines.bitboard.kernel`) keeps one 27-bit word per digit and band,
propagates naked and hidden singles and locked candidates on bit masks and branches on a
cell with two candidates when there is one (else one with the fewest). It knows one
geometry: 9x9 with 3x3 boxes. Beyond it, the families its encoder table names: extra units
(`UnitConstraint`: the diagonals of Sudoku-X, windoku, extra regions) and pair relations
(`PairConstraint`: anti-knight, anti-king, non-consecutive, any kind of the family), both
as a table of which placements remove which candidates (`link_table`), solved by the
kernel's variant compiled with that table. `accepts` says no to every other shape or kind
and `solve` answers those puzzles `unsupported`. `solve_batch` takes classic puzzles only.

Compilation: `cache=True` (machine code on disk, reused by later processes); the kernel is
loaded when the solver is built or `solve_batch` first runs, never inside a timed `solve`.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from sudoku_bench.puzzles.constraints import EncoderTable, PairConstraint, UnitConstraint
from sudoku_bench.puzzles.errors import PuzzleFormatError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.base import (
    NO_NODE_LIMIT,
    Deadline,
    Result,
    SearchOutcome,
    Solver,
    Status,
    Verdict,
)
from sudoku_bench.solvers.engines.bitboard import kernel

CHECK_EVERY = 4096  # search nodes between two returns to Python to read the clock
SOLUTION_BUFFER = 64  # solutions the kernel keeps before it hands them to Python

# `solve_batch`'s codes, as words: index = the kernel's code
STATUS_OF_CODE: tuple[Status, ...] = (Status.SOLVED, Status.NO_SOLUTION, Status.LIMIT)
VERDICT_OF_CODE: tuple[Verdict, ...] = (
    Verdict.NONE,
    Verdict.UNIQUE,
    Verdict.MULTIPLE,
    Verdict.UNKNOWN,
)


class Workspace:
    """The kernel's positions, meta vector and solution buffer, reused for every puzzle."""

    def __init__(self) -> None:
        self.positions = np.zeros((kernel.LEVELS, kernel.WORDS), dtype=np.int64)
        self.meta = np.zeros(kernel.META_SIZE, dtype=np.int64)
        self.buffer = np.zeros((SOLUTION_BUFFER, 81), dtype=np.uint8)


def is_9x9_boxes(rules: Rules) -> bool:
    """A 9x9 grid with 3x3 boxes (any constraints): the geometry of the kernel's boards."""
    return rules.size == 9 and (rules.box_rows, rules.box_cols) == (3, 3) and rules.layout is None


def _forbid(links: np.ndarray, a: int, first: int, b: int, second: int) -> None:
    """Digits `first` in cell a and `second` in cell b may not stand together: placing either
    removes the other (both directions, so that a placed cell never loses its own digit)."""
    links[9 * a + first - 1, 3 * (second - 1) + b // 27] |= 1 << (b % 27)
    links[9 * b + second - 1, 3 * (first - 1) + a // 27] |= 1 << (a % 27)


# an encoder writes a constraint into the links table and may add units of nine cells (three
# band masks each) in which the kernel looks for hidden singles
LinkEncoder = Callable[[Any, Rules, np.ndarray, list[list[int]]], None]


def _link_units(
    constraint: UnitConstraint, rules: Rules, links: np.ndarray, units: list[list[int]]
) -> None:
    for unit in constraint.units(rules):
        for a, b in itertools.combinations(unit, 2):
            for digit in range(1, 10):
                _forbid(links, a, digit, b, digit)
        if len(unit) == 9:  # every digit once: a house for hidden singles too
            masks = [0, 0, 0]
            for cell in unit:
                masks[cell // 27] |= 1 << (cell % 27)
            units.append(masks)


def _link_pairs(
    constraint: PairConstraint, rules: Rules, links: np.ndarray, units: list[list[int]]
) -> None:
    allows = constraint.allows
    forbidden = [
        (first, second)
        for first in range(1, 10)
        for second in range(1, 10)
        if not allows(first, second)
    ]
    for a, b in constraint.pairs(rules):
        for first, second in forbidden:
            _forbid(links, a, first, b, second)


# The kernel's table per family: what writes a constraint into the links table. A kind of
# another family (cages, parity, ...) has no encoder: its puzzles are refused.
_ENCODERS: dict[type, LinkEncoder] = {UnitConstraint: _link_units, PairConstraint: _link_pairs}


@functools.lru_cache(maxsize=32)
def link_table(rules: Rules) -> np.ndarray | None:
    """The kernel's `links` table for these rules (`kernel.LINKS` rows of links, then a row
    per extra unit of nine cells), None for classic rules; built once per rules (puzzles of
    one collection share theirs)."""
    if not rules.constraints:
        return None
    links = np.zeros((kernel.LINKS, kernel.UNSOLVED), dtype=np.int64)
    units: list[list[int]] = []
    for constraint in rules.constraints:
        BitboardJitSolver.encoders.encoder(constraint)(constraint, rules, links, units)
    for cell in range(81):  # a cell's own candidates are the cell's business, not a link's
        for digit in range(9):
            links[9 * cell + digit, 3 * digit + cell // 27] &= ~(1 << (cell % 27))
    rows = np.zeros((len(units), kernel.UNSOLVED), dtype=np.int64)
    for row, masks in zip(rows, units, strict=True):
        row[:3] = masks
    return np.concatenate([links, rows])


def is_classic_9x9(rules: Rules) -> bool:
    """Rows, columns and 3x3 boxes of a 9x9 grid and no other rule: all the kernel knows."""
    return is_9x9_boxes(rules) and not rules.constraints


class BitboardJitSolver(Solver[tuple[bytearray, np.ndarray | None]]):
    """9x9 Sudoku on per-digit bitboards: singles, locked candidates, bivalue-first
    branching, compiled with numba; extra units and pair relations as a links table."""

    name = "bitboard-jit"
    honours_node_limit = True
    encoders: ClassVar[EncoderTable[LinkEncoder]] = EncoderTable(_ENCODERS)

    def __init__(self) -> None:
        warm_up()
        self._space = Workspace()

    def accepts(self, rules: Rules) -> bool:
        """9x9 with 3x3 boxes (the board layout is fixed in the kernel), and constraints of
        the families in the encoder table only."""
        return is_9x9_boxes(rules) and self.encoders.accepts(rules.constraints)

    def unsupported_because(self, rules: Rules) -> str:
        if self.encoders.missing(rules.constraints):  # a rule it has no encoder for: named
            return super().unsupported_because(rules)
        return (
            f"the {self.name} back-end solves 9x9 Sudoku with 3x3 boxes only, not {rules} puzzles"
        )

    def _build(self, puzzle: Grid, deadline: Deadline) -> tuple[bytearray, np.ndarray | None]:
        # a bytearray: numba reads it as uint8, the cheapest conversion
        return bytearray(puzzle.values), link_table(puzzle.rules)

    def _search(
        self,
        model: tuple[bytearray, np.ndarray | None],
        puzzle: Grid,
        limit: int,
        deadline: Deadline,
    ) -> SearchOutcome:
        values, links = model
        found, exhausted, timed_out, meta = run(
            values, self._space, limit, deadline.at, deadline.nodes_at, links
        )
        return SearchOutcome(
            [_grid(puzzle.rules, digits) for digits in found],
            exhausted=exhausted,
            timed_out=timed_out,
            counters=counters_of(meta),
        )

    def solve(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Result:
        """`Solver.solve`, the same result by a shorter path when the kernel takes the rules
        (the general path's model, outcome and deadline objects cost about as much as an
        easy puzzle)."""
        rules = puzzle.rules
        classic = is_classic_9x9(rules)
        short = limit >= 1 and (timeout is None or timeout > 0) and (classic or self.accepts(rules))
        if not short or node_limit is not None:  # a node budget: the general path's messages
            return super().solve(puzzle, limit=limit, timeout=timeout, node_limit=node_limit)
        start = time.perf_counter()
        values = bytearray(puzzle.values)
        links = None if classic else link_table(rules)
        built = time.perf_counter()
        deadline = math.inf if timeout is None else start + timeout
        found, exhausted, timed_out, meta = run(values, self._space, limit, deadline, links=links)
        solutions = [_grid(rules, digits) for digits in found]
        end = time.perf_counter()
        if timed_out:
            status = Status.TIMEOUT
        elif exhausted:
            status = Status.SOLVED if solutions else Status.NO_SOLUTION
        else:
            status = Status.LIMIT
        return Result(
            self.name,
            status,
            solutions,
            exhausted and not timed_out,
            built - start,
            end - built,
            counters_of(meta),
        )

    def solve_many(
        self,
        puzzles: Iterable[Grid],
        *,
        limit: int = 1,
        timeout: float | None = None,
        node_limit: int | None = None,
    ) -> Iterator[Result]:
        """`solve` of each puzzle, the same results (solutions, status, counters), with the
        puzzles handed to the compiled code many at a time (`kernel.solve_run`).

        Each compiled call stops after `CHECK_EVERY` search nodes in all, so the clock is
        read as often as `solve` reads it: a puzzle whose search has run `timeout` seconds
        (counted from the start of the call in which it began) stops with `timeout`, and
        results are yielded after each call, so no call spans more than one puzzle's limit.
        Times: a call's clock time is shared among the puzzles it worked on in proportion
        to the search nodes each spent in it (the kernel has no clock of its own); the
        conversion of the batch to digits is shared equally as build time. With a node budget
        each puzzle goes through `solve`, which holds it to its own budget.
        """
        given = list(puzzles)
        if (
            limit < 1
            or (timeout is not None and timeout <= 0)
            or node_limit is not None
            or not _all_classic_9x9(given)
        ):
            yield from super().solve_many(
                given, limit=limit, timeout=timeout, node_limit=node_limit
            )
            return
        yield from self._solve_run(given, limit, math.inf if timeout is None else timeout)

    def _solve_run(self, given: list[Grid], limit: int, timeout: float) -> Iterator[Result]:
        count = len(given)
        start = time.perf_counter()
        # a bytearray: a writable array, the type `warm_up` compiled the kernel for
        digits = bytearray().join(bytes(puzzle.values) for puzzle in given)
        grids = np.frombuffer(digits, dtype=np.uint8).reshape(count, 81)
        build_each = (time.perf_counter() - start) / max(count, 1)
        space = self._space
        meta = space.meta
        meta[: kernel.STATE_SIZE] = 0
        owners = np.zeros(SOLUTION_BUFFER, dtype=np.int64)
        stats = np.zeros((count, kernel.RUN_STATS), dtype=np.int64)
        found: dict[int, list[tuple[int, ...]]] = {}  # the solutions of unfinished puzzles
        search_s = [0.0] * count
        timed_out = [False] * count
        number = 0  # the first puzzle not finished
        begun = time.perf_counter()  # the start of the call in which `number` began
        carried = 0  # nodes `number` spent in earlier calls
        while number < count:
            called = time.perf_counter()
            if meta[kernel.STARTED] == 0:
                begun, carried = called, 0
            reached = kernel.solve_run(
                grids, number, limit, CHECK_EVERY, space.positions, meta, space.buffer,
                owners, stats,
            )  # fmt: skip
            now = time.perf_counter()
            buffered = int(meta[kernel.BUFFERED])
            if buffered:
                for owner, digits in zip(
                    owners[:buffered].tolist(), space.buffer[:buffered].tolist(), strict=True
                ):
                    found.setdefault(owner, []).append(tuple(digits))
                meta[kernel.BUFFERED] = 0
            # the call's time, shared by the nodes each puzzle spent in it
            paused = reached < count and meta[kernel.STARTED] != 0
            nodes = stats[number:reached, kernel.RUN_NODES].tolist()
            if nodes:
                nodes[0] -= carried
            paused_nodes = int(meta[kernel.NODES]) - (carried if reached == number else 0)
            if paused:
                nodes.append(paused_nodes)
            total = sum(nodes)
            for offset, spent in enumerate(nodes):
                search_s[number + offset] += (now - called) * spent / total if total else 0.0
            if paused:
                carried = int(meta[kernel.NODES])
                if reached > number:
                    begun = called  # `reached` began in this call
                if now - begun >= timeout:
                    stats[reached, kernel.RUN_CODE] = kernel.PAUSED
                    for column, index in (
                        (kernel.RUN_FOUND, kernel.FOUND),
                        (kernel.RUN_NODES, kernel.NODES),
                        (kernel.RUN_GUESSES, kernel.GUESSES),
                        (kernel.RUN_NAKED, kernel.NAKED),
                        (kernel.RUN_HIDDEN, kernel.HIDDEN),
                        (kernel.RUN_LOCKED, kernel.LOCKED),
                    ):
                        stats[reached, column] = meta[index]
                    timed_out[reached] = True
                    meta[: kernel.STATE_SIZE] = 0
                    reached += 1
            for index, row in enumerate(stats[number:reached].tolist(), number):
                yield self._result(
                    given[index], found.pop(index, []), row, timed_out[index], build_each,
                    search_s[index],
                )  # fmt: skip
            number = reached

    def _result(
        self,
        puzzle: Grid,
        digits: list[tuple[int, ...]],
        row: list[int],
        timed_out: bool,
        build_s: float,
        search_s: float,
    ) -> Result:
        """One puzzle's `Result` from its `kernel.solve_run` stats row, as `solve` makes it."""
        rules = puzzle.rules
        solutions = [_grid(rules, values) for values in digits]
        code = row[kernel.RUN_CODE]
        exhausted = code == kernel.EXHAUSTED or (
            code == kernel.AT_LIMIT and row[kernel.RUN_UNTRIED] == 0
        )
        if timed_out:
            status, exhausted = Status.TIMEOUT, False
        elif exhausted:
            status = Status.SOLVED if solutions else Status.NO_SOLUTION
        else:
            status = Status.LIMIT
        counters: dict[str, float] = dict(zip(COUNTER_NAMES, row[kernel.RUN_NODES :], strict=True))
        return Result(self.name, status, solutions, exhausted, build_s, search_s, counters)


def _all_classic_9x9(puzzles: list[Grid]) -> bool:
    """`is_classic_9x9` of every puzzle's rules, checked once per run of the same rules object
    (a batch's puzzles share theirs)."""
    checked: Rules | None = None
    for puzzle in puzzles:
        if puzzle.rules is not checked:
            if not is_classic_9x9(puzzle.rules):
                return False
            checked = puzzle.rules
    return True


def _grid(rules: Rules, digits: tuple[int, ...]) -> Grid:
    """A solution's grid, without `Grid`'s range check: the kernel writes digits 1..9 only."""
    grid = object.__new__(Grid)
    object.__setattr__(grid, "rules", rules)
    object.__setattr__(grid, "values", digits)
    return grid


# the back-end's counters, in the order of `kernel.solve_run`'s stats columns from RUN_NODES
COUNTER_NAMES = ("nodes", "guesses", "naked_singles", "hidden_singles", "locked_eliminations")


def counters_of(meta: list[int]) -> dict[str, float]:
    """The back-end's counters, from the kernel's meta vector (as a list)."""
    return {
        "nodes": meta[kernel.NODES],
        "guesses": meta[kernel.GUESSES],
        "naked_singles": meta[kernel.NAKED],
        "hidden_singles": meta[kernel.HIDDEN],
        "locked_eliminations": meta[kernel.LOCKED],
    }


def run(
    values: bytearray | np.ndarray,
    space: Workspace,
    limit: int,
    deadline: float,
    node_limit: int = NO_NODE_LIMIT,
    links: np.ndarray | None = None,
) -> tuple[list[tuple[int, ...]], bool, bool, list[int]]:
    """Search to the limit, to `deadline` (a `time.perf_counter` reading; math.inf: none) or
    past `node_limit` nodes (read where the clock is), under the rules of `links`
    (`link_table`; None: classic): (solutions' digits, exhausted, timed out, the meta
    vector's state part as a list)."""
    meta = space.meta
    meta[: kernel.STATE_SIZE] = 0
    buffer = space.buffer
    found: list[tuple[int, ...]] = []
    while True:
        code = kernel.search(values, space.positions, meta, buffer, limit, CHECK_EVERY, True, links)
        state = meta[: kernel.STATE_SIZE].tolist()
        buffered = state[kernel.BUFFERED]
        if buffered:
            found += map(tuple, buffer[:buffered].tolist())
            meta[kernel.BUFFERED] = 0
        if code == kernel.EXHAUSTED:
            return found, True, False, state
        if code == kernel.AT_LIMIT:
            return found, state[kernel.UNTRIED] == 0, False, state
        if time.perf_counter() >= deadline or state[kernel.NODES] > node_limit:
            return found, False, True, state


@dataclass(frozen=True)
class BatchResult:
    """`solve_batch`'s answers, one row per puzzle in input order.

    `solutions[i]` is puzzle i's first solution (81 digits; zeros when it has none),
    `counts[i]` how many solutions were found (at most `limit`), `status` and `verdict`
    codes index `STATUS_OF_CODE` and `VERDICT_OF_CODE` (`statuses()` and `verdicts()` give
    the words), `nodes` and `guesses` the back-end's counters.
    """

    solutions: np.ndarray  # (n, 81) uint8
    counts: np.ndarray  # (n,) int64
    status: np.ndarray  # (n,) int64 codes
    verdict: np.ndarray  # (n,) int64 codes
    nodes: np.ndarray  # (n,) int64
    guesses: np.ndarray  # (n,) int64

    def __len__(self) -> int:
        return len(self.counts)

    def statuses(self) -> list[Status]:
        return [STATUS_OF_CODE[code] for code in self.status.tolist()]

    def verdicts(self) -> list[Verdict]:
        return [VERDICT_OF_CODE[code] for code in self.verdict.tolist()]

    def lines(self) -> list[str]:
        """Each first solution as an 81-character line (`.` * 81 for none)."""
        text = np.where(self.solutions == 0, ord("."), self.solutions + ord("0")).astype(np.uint8)
        return [row.tobytes().decode("ascii") for row in text]


class BatchInputError(PuzzleFormatError):
    """A batch row that is not an 81-cell classic puzzle."""


def as_digit_array(puzzles: Sequence[str] | np.ndarray) -> np.ndarray:
    """Puzzles as an (n, 81) uint8 array of digits (0 = empty): 81-character lines (`.` or `0`
    for empty) or an array of that shape already (checked, not copied when it is uint8)."""
    if isinstance(puzzles, np.ndarray):
        if puzzles.ndim != 2 or puzzles.shape[1] != 81:
            raise BatchInputError(f"expected an array of shape (n, 81), got {puzzles.shape}")
        grids = np.ascontiguousarray(puzzles, dtype=np.uint8)
        if grids.size and int(grids.max()) > 9:
            row = int(np.argmax((grids > 9).any(axis=1)))
            raise BatchInputError("digits must be 0 (empty) to 9", line=row + 1)
        return grids
    if isinstance(puzzles, str):
        raise BatchInputError("expected a list of 81-character lines, got one string")
    lines = [line.strip() for line in puzzles]
    for number, line in enumerate(lines, 1):
        if len(line) != 81:
            raise BatchInputError(f"expected 81 cells, got {len(line)}", line=number)
    if not lines:
        return np.zeros((0, 81), dtype=np.uint8)
    try:
        raw = "".join(lines).encode("ascii")
    except UnicodeEncodeError as error:
        raise BatchInputError("a puzzle line holds a character other than 1-9, 0 or .") from error
    codes = np.frombuffer(raw, dtype=np.uint8).reshape(len(lines), 81)
    digits = codes.astype(np.int16) - ord("0")
    digits[codes == ord(".")] = 0
    bad = (digits < 0) | (digits > 9)
    if bad.any():
        row, column = (int(i) for i in np.argwhere(bad)[0])
        raise BatchInputError(
            f"{chr(codes[row, column])!r} is not a digit 1-9, 0 or '.'",
            line=row + 1,
            column=column + 1,
        )
    return digits.astype(np.uint8)


def solve_batch(
    puzzles: Sequence[str] | np.ndarray, *, limit: int = 1, threads: int | None = None
) -> BatchResult:
    """Solve many classic 9x9 puzzles to `limit` solutions each, looping in compiled code.

    `puzzles`: 81-character lines (`.` or `0` for empty) or a uint8 array of shape (n, 81).
    `threads`: how many threads share the batch (the kernel releases the GIL); None: one
    per core this process may use, 1: the calling thread only. There is no per-puzzle
    timeout: a classic 9x9 puzzle is settled in milliseconds at most.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    grids = as_digit_array(puzzles)
    count = len(grids)
    warm_up()
    solutions = np.zeros((count, 81), dtype=np.uint8)
    stats = np.zeros((count, kernel.STATS), dtype=np.int64)
    workers = _cores() if threads is None else threads
    if workers < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    workers = max(1, min(workers, count // 64 or 1))  # a thread per few puzzles costs more
    if workers == 1:
        kernel.solve_many(grids, limit, solutions, stats)
    else:
        bounds = np.linspace(0, count, workers + 1).astype(int)
        with ThreadPoolExecutor(workers) as pool:
            jobs = [
                pool.submit(kernel.solve_many, grids[a:b], limit, solutions[a:b], stats[a:b])
                for a, b in itertools.pairwise(bounds.tolist())
            ]
            for job in jobs:
                job.result()
    return BatchResult(
        solutions=solutions,
        counts=stats[:, kernel.COUNT],
        status=stats[:, kernel.STATUS],
        verdict=stats[:, kernel.VERDICT],
        nodes=stats[:, kernel.STAT_NODES],
        guesses=stats[:, kernel.STAT_GUESSES],
    )


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


_warm = False


def warm_up() -> None:
    """Load (or compile, the first time on this machine) the entry points of the kernel."""
    global _warm
    if _warm:
        return
    run(bytearray(81), Workspace(), 2, math.inf)
    # the variant for rules beyond the classic ones (a table of no links: the same answers)
    no_links = np.zeros((kernel.LINKS, kernel.UNSOLVED), dtype=np.int64)
    run(bytearray(81), Workspace(), 2, math.inf, links=no_links)
    kernel.solve_many(
        np.zeros((1, 81), dtype=np.uint8),
        1,
        np.zeros((1, 81), dtype=np.uint8),
        np.zeros((1, kernel.STATS), dtype=np.int64),
    )
    space = Workspace()
    kernel.solve_run(
        np.zeros((1, 81), dtype=np.uint8), 0, 1, CHECK_EVERY, space.positions, space.meta,
        space.buffer, np.zeros(SOLUTION_BUFFER, dtype=np.int64),
        np.zeros((1, kernel.RUN_STATS), dtype=np.int64),
    )  # fmt: skip
    _warm = True
