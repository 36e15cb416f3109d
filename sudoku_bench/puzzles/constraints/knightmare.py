"""Knightmare: the digits of two cells a chess knight's move apart never add up to one of the
rule's sums (5 or 15 unless the puzzle names others).

Rangsk's SudokuSolver takes it as a console constraint beside the f-puzzles text
(`knightmare`, or `knightmare:5,15` with the sums named); f-puzzles has no key for it, so an
f-puzzles link cannot carry it. The JSON form is the sums, `"knightmare": [5, 15]`, or `true`
for the default sums a grid can reach. A random full grid hardly ever keeps the rule, so the
generator makes no puzzles of it (no `candidates`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_bench.puzzles.constraints.anti_knight import KNIGHT_MOVES
from sudoku_bench.puzzles.constraints.base import (
    Checked,
    Conflict,
    Constraint,
    FpuzzlesReader,
    Move,
    PairConstraint,
    Shape,
    move_pairs,
)
from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape

DEFAULT_SUMS = (5, 15)  # Rangsk's SudokuSolver's, when the rule names none


def default_sums(size: int) -> tuple[int, ...]:
    """The default sums two digits of an N x N grid can reach (2 to 2N): 5 and 15 on 9x9."""
    return tuple(total for total in DEFAULT_SUMS if total <= 2 * size)


@dataclass(frozen=True, order=True)
class Knightmare(PairConstraint):
    sums: tuple[int, ...] = DEFAULT_SUMS

    kind = "knightmare"
    title = "knightmare"
    word = "knightmare"
    json_keys = ("knightmare",)
    reads_digit_values = True  # under d -> N + 1 - d a sum s becomes 2 (N + 1) - s (`moved`)

    def __post_init__(self) -> None:
        # one normal form, so that equal rules compare equal
        object.__setattr__(self, "sums", tuple(sorted(set(self.sums))))

    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        return move_pairs(shape, KNIGHT_MOVES)

    def allows(self, first: int, second: int) -> bool:
        return first + second not in self.sums

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        text = (
            f"{name(a)} and {name(b)} are a knight's move apart and their digits "
            f"{values[a]} and {values[b]} add up to {values[a] + values[b]}"
        )
        return Conflict(self.title, values[a], (a, b), text)

    def validate(self, shape: GridShape) -> None:
        most = 2 * shape.size
        if not self.sums:
            raise RulesError("knightmare: name at least one sum that knight's moves avoid")
        for total in self.sums:
            if not isinstance(total, int) or isinstance(total, bool) or not 2 <= total <= most:
                raise RulesError(
                    f"knightmare: the sum {total!r} is not one two digits of a "
                    f"{shape.size}x{shape.size} grid add up to (2 to {most})"
                )

    def moved(self, move: Move) -> Constraint:
        if not move.reverse:
            return self
        both = 2 * (move.shape.size + 1)
        return Knightmare(tuple(both - total for total in self.sums))

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        """One rule with every sum of the kind's rules: two rules forbid both sets."""
        sums = {total for item in items if isinstance(item, Knightmare) for total in item.sums}
        return (cls(tuple(sums)),) if sums else ()

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        rules = [item for item in cls.combine(items) if isinstance(item, Knightmare)]
        return {"knightmare": list(rules[0].sums)} if rules else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        value = data.get("knightmare", False)
        if value is False:
            return []
        if value is True:
            return [cls(default_sums(shape.size))]
        if isinstance(value, list) and value and all(type(total) is int for total in value):
            return [cls(tuple(value))]
        raise RulesError(
            f'"knightmare" is true (the sums 5 and 15) or a list of the sums that two cells '
            f"a knight's move apart never add up to, such as [5, 15]; not {value!r}"
        )

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """Nothing: f-puzzles has no key for the rule (the writer then refuses it)."""
        return []

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {}
