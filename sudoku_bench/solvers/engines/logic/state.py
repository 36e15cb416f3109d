"""The pencil-mark state of the logic solver, and the `Step` a technique proposes.

Candidates are bit masks: bit d-1 is set when digit d may still go in the cell; a filled
cell has mask 0. Techniques only read the state and return a `Step`; the solver applies it,
so a test can build any pencil-mark position and ask one technique what it would do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.puzzles.checker import conflicts
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.structure import (
    Families,
    LogicTables,
    families,
    logic_tables,
)
from sudoku_bench.solvers.tables import by_shape

Move = tuple[int, int]  # (cell, digit)
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # how candidates are written, as in the formats
GROUP_NAMES = {2: "pair", 3: "triple", 4: "quad"}  # naked/hidden subsets, pointing groups


class Contradiction(Exception):
    """The position has no solution (a cell with no candidate, a digit with no place)."""


def bit(digit: int) -> int:
    return 1 << (digit - 1)


def digits_of(mask: int) -> list[int]:
    """The digits whose bits are set, in increasing order."""
    if mask < _SMALL:
        return list(_DIGITS[mask])
    found = []
    digit = 1
    while mask:
        if mask & 1:
            found.append(digit)
        mask >>= 1
        digit += 1
    return found


def _digits_slow(mask: int) -> tuple[int, ...]:
    return tuple(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


_SMALL = 1 << 12  # masks of up to 12 digits are looked up (the techniques ask millions of times)
_DIGITS = [_digits_slow(mask) for mask in range(_SMALL)]


def digits_text(digits: Iterable[int]) -> str:
    return "/".join(str(d) for d in sorted(digits))


def cells_text(rules: Rules, cells: Iterable[int]) -> str:
    return ", ".join(rules.cell_name(cell) for cell in sorted(cells))


@dataclass(frozen=True)
class Step:
    """One deduction: the technique's key, what it places and removes, and why, in words.

    `reason` is the solver's phrase ("hidden single in box 5", "pointing pair of 3s in box
    1"); `describe` adds the placement or the eliminations. `weight` is this step's rating
    where it depends on the step (forcing chains and nets: by their size, as Sudoku
    Explainer rates chains); None: the technique's weight.
    """

    technique: str
    reason: str
    placements: tuple[Move, ...] = ()
    eliminations: tuple[Move, ...] = ()
    weight: float | None = None

    def describe(self, rules: Rules) -> str:
        if self.placements:
            moves = ", ".join(f"{rules.cell_name(c)} = {d}" for c, d in self.placements)
            return f"{moves}: {self.reason}"
        return f"{self.reason} removes {removals_text(rules, self.eliminations)}"


def removals_text(rules: Rules, eliminations: Iterable[Move]) -> str:
    """`3 from r1c7, r1c8; 5 from r2c2`: eliminations grouped by digit."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    return "; ".join(
        f"{digit} from {cells_text(rules, cells)}" for digit, cells in sorted(by_digit.items())
    )


class Candidates:
    """Values placed so far and the candidates of every empty cell."""

    def __init__(
        self,
        rules: Rules,
        values: Sequence[int],
        masks: Sequence[int],
        tables: LogicTables | None = None,
        shape: Families | None = None,
    ) -> None:
        self.rules = rules
        # the units by family, and each cell's unit peers
        self.families = families(rules) if shape is None else shape
        self.tables = logic_tables(rules) if tables is None else tables  # the other rules
        self.values = list(values)
        self.masks = list(masks)
        self.full = (1 << rules.size) - 1
        # what techniques derived from this exact position (link graphs, almost locked sets),
        # shared between them; any change of the position clears it
        self.memo: dict[object, Any] = {}
        # searches that found nothing, keyed by everything they read (so a key stays true
        # however the rest of the position changes): the solver restarts from the easiest
        # technique after every step, and most of a hard technique's searches read parts
        # of the position (one digit's places) that the step did not touch
        self.barren: set[object] = set()
        # structures derived from part of the position, keyed likewise by all they read (or,
        # as a table's rows left, narrowed step by step: candidates only shrink in a run)
        self.derived: dict[object, Any] = {}
        # digits placed in each unit (by index into `families.units`), kept up to date by place()
        self.unit_placed = [self.placed_in(unit) for unit in self.families.units]

    # ----- building -------------------------------------------------------------------------

    @classmethod
    def from_grid(cls, grid: Grid) -> Candidates:
        """Givens placed, every other cell holding the digits its peers do not (Contradiction
        when the givens repeat a digit in a unit or leave a cell without a candidate)."""
        rules = grid.rules
        state = cls(rules, grid.values, [0] * rules.cell_count)
        givens = sum(1 for unit in state.families.units for cell in unit if grid.values[cell])
        if givens != sum(p.bit_count() for p in state.unit_placed):  # a digit twice in a unit
            raise Contradiction(conflicts(grid)[0].describe(grid))
        if state.tables.beyond_units:  # a broken pair, parity or cage rule among the givens
            broken = conflicts(grid)
            if broken:
                raise Contradiction(broken[0].describe(grid))
        allowed = state.tables.allowed
        units_of = state.families.units_of
        for cell, value in enumerate(grid.values):
            if not value:
                seen = 0
                for index in units_of[cell]:
                    seen |= state.unit_placed[index]
                # parity cells start with the digits they allow; pair and cage rules are
                # applied by their techniques, so that the log says why a digit went
                state.masks[cell] = allowed[cell] & ~seen
        state.check()
        return state

    @classmethod
    def from_marks(
        cls, rules: Rules, marks: Mapping[str, str] | Sequence[str], default: str = ""
    ) -> Candidates:
        """A pencil-mark position, for tests and explanations.

        `marks` is either one string per cell in row-major order or a mapping from cell names
        (`"r1c2"`) to such strings, each `"=5"` for a placed value or the candidate symbols
        (`"127"`; 1-9 then A-Z past 9). Cells not named get `default` (every digit when empty).
        The marks are taken as they are: a placed value does not clear its peers.
        """
        every = SYMBOLS[: rules.size]
        if isinstance(marks, Mapping):
            names = {rules.cell_name(cell): cell for cell in rules.cells}
            texts = [default or every] * rules.cell_count
            for name, text in marks.items():
                texts[names[name]] = text
        else:
            texts = list(marks)
        values = [0] * rules.cell_count
        masks = [0] * rules.cell_count
        for cell, text in enumerate(texts):
            if text.startswith("="):
                values[cell] = int(text[1:])
            else:
                for char in text:
                    masks[cell] |= bit(int(char, 36))
        return cls(rules, values, masks)

    def copy(self) -> Candidates:
        return Candidates(self.rules, self.values, self.masks, self.tables, self.families)

    def union(self, cells: Iterable[int]) -> int:
        """Every candidate of `cells`, as one mask."""
        mask = 0
        for cell in cells:
            mask |= self.masks[cell]
        return mask

    # ----- reading --------------------------------------------------------------------------

    def candidates(self, cell: int) -> list[int]:
        return digits_of(self.masks[cell])

    def places(self, unit: Sequence[int], digit: int) -> list[int]:
        """The cells of `unit` where `digit` is still a candidate."""
        b = bit(digit)
        return [cell for cell in unit if self.masks[cell] & b]

    def digit_board(self, digit: int) -> int:
        """The cells where `digit` is still a candidate, as a bit set (bit c for cell c)."""
        key = ("board", digit)
        if key in self.memo:
            found: int = self.memo[key]
            return found
        b = bit(digit)
        board = 0
        for cell, mask in enumerate(self.masks):
            if mask & b:
                board |= 1 << cell
        self.memo[key] = board
        return board

    def placed_lines(self, digit: int) -> int:
        """The units (by index) where `digit` is placed, as a bit set."""
        b = bit(digit)
        lines = 0
        for index, placed in enumerate(self.unit_placed):
            if placed & b:
                lines |= 1 << index
        return lines

    def placed_in(self, unit: Sequence[int]) -> int:
        """The mask of the digits already placed in `unit`."""
        mask = 0
        for cell in unit:
            if self.values[cell]:
                mask |= bit(self.values[cell])
        return mask

    def empty_cells(self) -> list[int]:
        return [cell for cell, value in enumerate(self.values) if not value]

    @property
    def solved(self) -> bool:
        return all(self.values)

    def to_grid(self) -> Grid:
        return Grid(self.rules, tuple(self.values))

    def marks(self) -> dict[str, str]:
        """Each empty cell's candidates as a digit string, by cell name (numbers separated by
        commas past the symbols: a 36x36 grid has digits up to 36)."""
        if self.rules.size > len(SYMBOLS):
            return {
                self.rules.cell_name(cell): ",".join(map(str, self.candidates(cell)))
                for cell in self.empty_cells()
            }
        return {
            self.rules.cell_name(cell): "".join(SYMBOLS[d - 1] for d in self.candidates(cell))
            for cell in self.empty_cells()
        }

    # ----- changing -------------------------------------------------------------------------

    def place(self, cell: int, digit: int) -> None:
        if not self.masks[cell] & bit(digit):
            raise Contradiction(f"{self.rules.cell_name(cell)} cannot hold {digit}")
        self.memo.clear()
        self.values[cell] = digit
        self.masks[cell] = 0
        for index in self.families.units_of[cell]:
            self.unit_placed[index] |= bit(digit)
        clear = ~bit(digit)
        for peer in self.families.unit_peers[cell]:  # pair and cage rules: their own techniques
            self.masks[peer] &= clear

    def eliminate(self, cell: int, digit: int) -> None:
        self.memo.clear()
        self.masks[cell] &= ~bit(digit)

    def apply(self, step: Step) -> None:
        """Make the step's placements and eliminations; a cell left without a candidate is a
        Contradiction. (A digit left without a place in a unit is found by `check` when the
        techniques run dry: checking every unit after every step would double the run time.)"""
        for cell, digit in step.placements:
            self.place(cell, digit)
            self._check_cells(self.families.unit_peers[cell])
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)
        self._check_cells(cell for cell, _ in step.eliminations)

    def _check_cells(self, cells: Iterable[int]) -> None:
        for cell in cells:
            if not self.values[cell] and not self.masks[cell]:
                raise Contradiction(f"{self.rules.cell_name(cell)} has no candidate left")

    def check(self) -> None:
        """Raise Contradiction when an empty cell has no candidate or a house (a unit of N
        cells) lacks a digit; a smaller unit need not hold every digit."""
        shape = self.families
        self._check_cells(self.rules.cells)
        for index in shape.houses:
            unit = shape.units[index]
            covered = self.unit_placed[index] | self.union(unit)
            if covered != self.full:
                missing = digits_of(self.full & ~covered)
                name = shape.names[index]
                raise Contradiction(f"{digits_text(missing)} has no place left in {name}")


@by_shape
def boxes_first(rules: Rules) -> tuple[int, ...]:
    """House indices with the boxes (regions) first, then rows, columns and the extra houses:
    the order people scan. Only houses: a smaller unit need not hold every digit."""
    shape = families(rules)
    order = [*shape.regions, *shape.rows, *shape.columns, *shape.extras]
    houses = set(shape.houses)
    return tuple(index for index in order if index in houses)
