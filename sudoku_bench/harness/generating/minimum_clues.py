"""The fewest clues of one 9x9 grid: no puzzle of k clues, proven, or its k-clue puzzles found.

After McGuire, Tugemann and Civario, "There is no 16-clue Sudoku: solving the Sudoku minimum
number of clues problem via hitting set enumeration", Experimental Mathematics 23(2), 2014
(arXiv:1201.0749, 2012).

A clue set of the grid g is a unique puzzle exactly when no other grid agrees with g on it,
that is when it meets every *unavoidable set* of g (a set of cells whose digits can be
rearranged into another valid grid, the rest kept). So:

1. Collect unavoidable sets: empty some cells of g and enumerate every completion; the cells
   where a completion differs from g form an unavoidable set, and the ones minimal among the
   completions of one emptied region are minimal unavoidable sets of g (a smaller unavoidable
   set inside one would be the difference of another completion of the same region). The
   regions: by the grid's structure, the cells of every 2, 3 and 4 digits and of every band
   and stack; then seeded random sets of cells. The smallest sets are kept.
2. Hitting-set search (`minimum_clues_kernel.hitting_search`, compiled): every clue set of k
   cells that meets every collected set is handed to the `bitboard-jit` engine's search with
   a limit of 2; a second solution adds its difference from g as a new unavoidable set.
   No unique clue set found in the whole search proves that g has no puzzle of k clues (nor
   of fewer: a unique puzzle stays unique when clues are added).

The search is split into tasks (the clue sets under each choice of the first cells); a state
file records the tasks done, the sets learnt and the puzzles found, so a stopped run resumes.
"""

from __future__ import annotations

import functools
import json
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np

from sudoku_bench.puzzles.errors import SudokuBenchError

CELLS = 81
LOW = 63  # cells in the first word of a cell set (as the kernel packs them)
# the collected sets kept for the search: the smallest this many (the search adds its own)
KEPT_SETS = 400
# room for the sets the search learns from second solutions, beyond the collected ones, at
# the start (the kernel doubles its table when they outgrow it)
LEARNT_ROOM = 4000
FOUND_ROOM = 10_000  # unique clue sets one task may find before it must be run again
MOST_COMPLETIONS = 20_000  # completions of one emptied region before it is left out
RANDOM_REGIONS = 200  # seeded random regions of empty cells, after the structural ones
RANDOM_EMPTY = 30  # cells emptied in each random region
TASK_DEPTH = 2  # the first clues chosen in Python: each choice is one task of the state file
SEED = 2012


class MinimumCluesError(SudokuBenchError):
    """A grid or state file that the minimum-clues search cannot use."""


Mask = int  # a cell set as a Python int: bit c for cell c


def cells_of(mask: Mask) -> list[int]:
    return [cell for cell in range(CELLS) if mask >> cell & 1]


def mask_of(cells: Iterable[int]) -> Mask:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _words(mask: Mask) -> tuple[int, int]:
    return mask & ((1 << LOW) - 1), mask >> LOW


def _mask(low: int, high: int) -> Mask:
    return int(low) | (int(high) << LOW)


def _array(masks: Sequence[Mask], room: int) -> np.ndarray:
    out = np.zeros((max(room, len(masks)), 2), dtype=np.int64)
    for row, mask in enumerate(masks):
        out[row] = _words(mask)
    return out


def parse_grid(text: str) -> tuple[int, ...]:
    """A complete 9x9 grid of 81 digits 1-9 (whitespace ignored)."""
    digits = "".join(text.split())
    if len(digits) != CELLS or not digits.isdigit() or "0" in digits:
        raise MinimumCluesError(
            f"a minimum-clues grid is 81 digits 1-9, one complete 9x9 grid; got {len(digits)} "
            "characters (a puzzle line is solved for its grid by `grid_of_puzzle`)"
        )
    values = tuple(int(d) for d in digits)
    for unit in _units():
        if sorted(values[c] for c in unit) != list(range(1, 10)):
            raise MinimumCluesError(
                f"not a valid grid: cells {unit[0]}..{unit[-1]} do not hold 1-9 once each"
            )
    return values


def _units() -> list[list[int]]:
    rows = [[9 * r + c for c in range(9)] for r in range(9)]
    columns = [[9 * r + c for r in range(9)] for c in range(9)]
    boxes = [
        [9 * (3 * br + r) + 3 * bc + c for r in range(3) for c in range(3)]
        for br in range(3)
        for bc in range(3)
    ]
    return rows + columns + boxes


def grid_of_puzzle(line: str) -> tuple[int, ...]:
    """The grid of a puzzle line with exactly one solution (a complete grid as it is)."""
    from sudoku_bench.solvers.engines.bitboard import jit

    text = "".join(line.split())
    if len(text) == CELLS and text.isdigit() and "0" not in text:
        return parse_grid(text)
    solved = jit.solve_batch([text], limit=2)
    if solved.counts[0] != 1:
        raise MinimumCluesError(
            f"the puzzle has {'no' if solved.counts[0] == 0 else 'more than one'} solution: "
            "give a complete grid or a puzzle with exactly one solution"
        )
    return tuple(int(v) for v in solved.solutions[0])


# ----- unavoidable sets ---------------------------------------------------------------------


@dataclass
class Workspace:
    """The engine's arrays, allocated once for every enumeration."""

    s: np.ndarray = field(default_factory=lambda: _engine_arrays()[0])
    meta: np.ndarray = field(default_factory=lambda: _engine_arrays()[1])
    buffer: np.ndarray = field(default_factory=lambda: np.zeros((64, CELLS), dtype=np.uint8))
    out: np.ndarray = field(default_factory=lambda: np.zeros((MOST_COMPLETIONS, 2), dtype=np.int64))


def _engine_arrays() -> tuple[np.ndarray, np.ndarray]:
    from sudoku_bench.solvers.engines.bitboard import kernel

    return (
        np.zeros((kernel.LEVELS, kernel.WORDS), dtype=np.int64),
        np.zeros(kernel.META_SIZE, dtype=np.int64),
    )


def region_sets(grid: np.ndarray, region: Mask, room: Workspace) -> list[Mask] | None:
    """The minimal unavoidable sets of `grid` inside `region` (every completion of the grid
    with `region` emptied, the minimal differences); None when there are too many
    completions to list."""
    from sudoku_bench.harness.generating import minimum_clues_kernel as compiled

    low, high = _words(region)
    count = compiled.differences(
        grid, low, high, MOST_COMPLETIONS, room.out, room.s, room.meta, room.buffer
    )
    if count < 0:
        return None
    found = sorted({_mask(*room.out[row]) for row in range(count)}, key=_size)
    return minimal(found)


def _size(mask: Mask) -> int:
    return mask.bit_count()


def minimal(masks: Sequence[Mask]) -> list[Mask]:
    """The sets none of the others is inside (the input sorted by size)."""
    kept: list[Mask] = []
    for mask in masks:
        if not any(small & mask == small for small in kept):
            kept.append(mask)
    return kept


def structural_regions(values: Sequence[int]) -> list[Mask]:
    """The cells of every 2, 3 and 4 digits, of every band and stack, and of every pair of
    rows or columns in one band or stack."""
    by_digit = [mask_of(c for c in range(CELLS) if values[c] == d) for d in range(1, 10)]
    regions = []
    for size in (2, 3, 4):
        for digits in combinations(range(9), size):
            regions.append(mask_of_union(by_digit[d] for d in digits))
    for block in range(3):
        regions.append(mask_of(c for c in range(CELLS) if c // 27 == block))
        regions.append(mask_of(c for c in range(CELLS) if c % 9 // 3 == block))
    return regions


def mask_of_union(masks: Iterable[Mask]) -> Mask:
    union = 0
    for mask in masks:
        union |= mask
    return union


def unavoidable_sets(
    values: Sequence[int],
    *,
    kept: int = KEPT_SETS,
    random_regions: int = RANDOM_REGIONS,
    seed: int = SEED,
) -> list[Mask]:
    """The smallest `kept` minimal unavoidable sets found in the structural regions and in
    `random_regions` seeded random regions of `RANDOM_EMPTY` cells, smallest first."""
    return list(_unavoidable_sets(tuple(values), kept, random_regions, seed))


@functools.lru_cache(maxsize=4)  # a grid searched for several k, or again, collects once
def _unavoidable_sets(
    values: tuple[int, ...], kept: int, random_regions: int, seed: int
) -> tuple[Mask, ...]:
    grid = np.array(values, dtype=np.uint8)
    room = Workspace()
    found: set[Mask] = set()
    regions = structural_regions(values)
    chooser = random.Random(seed)
    regions += [mask_of(chooser.sample(range(CELLS), RANDOM_EMPTY)) for _ in range(random_regions)]
    for region in regions:
        sets = region_sets(grid, region, room)
        if sets is not None:
            found.update(sets)
    ordered = minimal(sorted(found, key=lambda m: (_size(m), m)))
    return tuple(ordered[:kept])


# ----- the hitting-set search ---------------------------------------------------------------


def split(
    sets: Sequence[Mask], clues: Mask, dead: Mask, placed: int, k: int, depth: int
) -> list[tuple[Mask, Mask, int]]:
    """The search's first `depth` levels, as the kernel branches (the unhit set with the
    fewest live cells, its cells lowest first, earlier ones dead): the nodes below, each a
    task (clues, dead cells, clue count); cut nodes are left out."""
    if depth == 0 or placed >= k - 1:
        return [(clues, dead, placed)]
    unhit = [s & ~dead for s in sets if not s & clues]
    if not unhit:
        return [(clues, dead, placed)]
    if any(live == 0 for live in unhit):
        return []
    best = min(unhit, key=_size)
    tasks = []
    for cell in cells_of(best):
        tasks += split(sets, clues | 1 << cell, dead, placed + 1, k, depth - 1)
        dead |= 1 << cell
    return tasks


def constraint(sets: Sequence[Mask], task: tuple[Mask, Mask, int]) -> float:
    """How tightly the unhit sets bind a task (clues, dead cells, clue count): the sum over
    the sets its clues miss of 1 / (their live cells). A larger value, a smaller subtree."""
    clues, dead, _ = task
    return sum(1.0 / max((s & ~dead).bit_count(), 1) for s in sets if not s & clues)


def ordered(
    sets: Sequence[Mask], tasks: list[tuple[Mask, Mask, int]]
) -> list[tuple[Mask, Mask, int]]:
    """The tasks most constrained first: where a puzzle lies is not known in advance, and the
    smaller subtrees first reach it sooner on average (the 16-clue proof needs them all and
    does not care)."""
    return sorted(tasks, key=lambda task: -constraint(sets, task))


@dataclass
class Stage:
    """The search for puzzles of `clues` clues: its tasks, how far it got, what it found."""

    clues: int
    tasks: list[list[str]]  # [clues, dead cells] in hex, and the clue count as a third item
    done: int = 0
    found: list[str] = field(default_factory=list)  # unique clue sets, hex
    nodes: int = 0
    tests: int = 0
    added: int = 0
    cpu_s: float = 0.0
    stopped: bool = False  # stopped at the first puzzle found (not exhaustive)

    @property
    def finished(self) -> bool:
        return self.stopped or self.done == len(self.tasks)


@dataclass
class State:
    """What the state file holds: the grid, the sets, and each stage's progress."""

    grid: str
    required: str  # hex cell set every clue set must contain
    sets: list[str]  # hex, the collected ones then the learnt ones
    collected: int  # how many of `sets` were collected before the search
    collect_cpu_s: float
    stages: list[Stage]
    first_only: bool

    def save(self, path: Path) -> None:
        text = json.dumps(asdict(self))
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)  # a kill leaves the old state or the new one, whole

    @classmethod
    def load(cls, path: Path) -> State:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["stages"] = [Stage(**stage) for stage in data["stages"]]
            return cls(**data)
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise MinimumCluesError(f"cannot resume from {path}: {error}") from None


@dataclass(frozen=True)
class StageResult:
    clues: int
    puzzles: tuple[str, ...]  # the unique clue sets found, as puzzle lines
    exhaustive: bool  # every clue set was searched: no puzzle beyond `puzzles`
    tasks: int
    nodes: int
    tests: int
    added_sets: int
    cpu_s: float

    @property
    def proven_none(self) -> bool:
        return self.exhaustive and not self.puzzles


@dataclass(frozen=True)
class MinimumClues:
    grid: str
    unavoidable_sets: int  # collected before the search
    smallest_sets: dict[int, int]  # collected sets by size
    collect_cpu_s: float
    stages: tuple[StageResult, ...]

    @property
    def cpu_s(self) -> float:
        return self.collect_cpu_s + sum(stage.cpu_s for stage in self.stages)


Progress = Callable[[int, int, int, float], None]  # clues, tasks done, tasks, cpu seconds


def _puzzle_line(values: Sequence[int], mask: Mask) -> str:
    return "".join(str(values[c]) if mask >> c & 1 else "." for c in range(CELLS))


def minimum_clues(
    grid: str | Sequence[int],
    *,
    clues: Sequence[int] = (16, 17),
    first_only: bool = True,
    required: Iterable[int] = (),
    state_path: Path | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    kept_sets: int = KEPT_SETS,
) -> MinimumClues:
    """Search `grid` (a grid line or 81 digits) for unique puzzles of each number in `clues`,
    in order: each stage lists the unique clue sets it found, and says whether it searched
    every clue set (so that none found is a proof). With `first_only` a stage stops at its
    first puzzle (a later stage is then not run); `required` cells must be clues (a bounded
    search: the proof then holds for the clue sets that contain them).

    `state_path` keeps the progress after every task; with `resume` the search continues from
    it (the grid and settings are taken from the file)."""
    text = grid if isinstance(grid, str) else "".join(str(int(v)) for v in grid)
    values = parse_grid(text)
    line = "".join(map(str, values))
    if resume:
        if state_path is None or not state_path.exists():
            raise MinimumCluesError(
                f"--resume needs the state file of an earlier run; {state_path} does not exist"
            )
        state = State.load(state_path)
        if state.grid != line:
            raise MinimumCluesError(
                f"the state file {state_path} is of another grid ({state.grid[:12]}...)"
            )
    else:
        state = _new_state(values, line, clues, first_only, mask_of(required), kept_sets)
        if state_path is not None:
            state.save(state_path)
    _run(values, state, state_path, progress)
    return _result(values, state)


def _new_state(
    values: Sequence[int],
    line: str,
    clues: Sequence[int],
    first_only: bool,
    required: Mask,
    kept_sets: int,
) -> State:
    for k in clues:
        if not 1 <= k <= CELLS:
            raise MinimumCluesError(f"a clue count is 1..81, not {k}")
    if required.bit_count() > min(clues):
        raise MinimumCluesError(
            f"{required.bit_count()} required cells are more than {min(clues)} clues"
        )
    started = time.process_time()
    sets = unavoidable_sets(values, kept=kept_sets)
    spent = time.process_time() - started
    stages = []
    for k in clues:
        tasks = ordered(sets, split(sets, required, 0, required.bit_count(), k, TASK_DEPTH))
        stages.append(Stage(k, [[f"{c:x}", f"{d:x}", str(n)] for c, d, n in tasks]))
    return State(
        line, f"{required:x}", [f"{s:x}" for s in sets], len(sets), spent, stages, first_only
    )


def _run(
    values: Sequence[int], state: State, state_path: Path | None, progress: Progress | None
) -> None:
    from sudoku_bench.harness.generating import minimum_clues_kernel as compiled

    grid = np.array(values, dtype=np.uint8)
    sets = [int(s, 16) for s in state.sets]
    table = _array(sets, len(sets) + LEARNT_ROOM)
    for stage in state.stages:
        if stage.finished:
            if stage.found and state.first_only:
                return  # a puzzle of fewer clues was found: later stages are moot
            continue
        stats = np.zeros(compiled.STATISTICS, dtype=np.int64)
        stats[compiled.SETS] = len(sets)
        stats[compiled.STOP_AT_FIRST] = int(state.first_only)
        found = np.zeros((FOUND_ROOM, 2), dtype=np.int64)
        while stage.done < len(stage.tasks):
            clue_hex, dead_hex, placed = stage.tasks[stage.done]
            c_low, c_high = _words(int(clue_hex, 16))
            d_low, d_high = _words(int(dead_hex, 16))
            before = stats.copy()
            started = time.process_time()
            code, table = compiled.hitting_search(
                grid, table, stats, c_low, c_high, d_low, d_high, int(placed), stage.clues, found
            )
            stage.cpu_s += time.process_time() - started
            if code == compiled.FOUND_FULL:
                raise MinimumCluesError(
                    f"more than {FOUND_ROOM} unique clue sets in one task of the {stage.clues}-clue "
                    "search: search with first_only, or for more clues in a stage of its own"
                )
            stage.nodes += int(stats[compiled.NODES] - before[compiled.NODES])
            stage.tests += int(stats[compiled.TESTS] - before[compiled.TESTS])
            stage.added += int(stats[compiled.ADDED] - before[compiled.ADDED])
            stage.found += [f"{_mask(*found[row]):x}" for row in range(int(stats[compiled.FOUND]))]
            stats[compiled.FOUND] = 0
            learnt = int(stats[compiled.SETS])
            sets += [_mask(*table[row]) for row in range(len(sets), learnt)]
            stage.done += 1
            if code == compiled.STOPPED:
                stage.stopped = True
            state.sets = [f"{s:x}" for s in sets]
            if state_path is not None:
                state.save(state_path)
            if progress is not None:
                progress(stage.clues, stage.done, len(stage.tasks), stage.cpu_s)
            if stage.stopped:
                break
        if stage.found and state.first_only:
            return


def _result(values: Sequence[int], state: State) -> MinimumClues:
    collected = [int(s, 16) for s in state.sets[: state.collected]]
    sizes: dict[int, int] = {}
    for mask in collected:
        sizes[_size(mask)] = sizes.get(_size(mask), 0) + 1
    stages = tuple(
        StageResult(
            clues=stage.clues,
            puzzles=tuple(_puzzle_line(values, int(f, 16)) for f in stage.found),
            exhaustive=stage.done == len(stage.tasks) and not stage.stopped,
            tasks=len(stage.tasks),
            nodes=stage.nodes,
            tests=stage.tests,
            added_sets=stage.added,
            cpu_s=stage.cpu_s,
        )
        for stage in state.stages
        if stage.done or stage.stopped
    )
    return MinimumClues(
        grid=state.grid,
        unavoidable_sets=state.collected,
        smallest_sets=dict(sorted(sizes.items())),
        collect_cpu_s=state.collect_cpu_s,
        stages=stages,
    )
