"""Slow thermometer: digits never decrease along the line from its bulb (equal neighbours
are allowed where no unit forbids them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sudoku_bench.puzzles.constraints.thermometer import Thermometer


@dataclass(frozen=True)
class SlowThermometer(Thermometer):
    cells: tuple[int, ...]

    kind = "slow_thermometer"
    title = "slow thermometer"
    word = "slow-thermo"
    json_keys = ("slow_thermometer",)
    fpuzzles_keys = ("slowthermometer",)
    colour = "#8fb0e8"
    symbol = "slow thermometers, bulb first"
    strict: ClassVar[bool] = False

    def allows(self, first: int, second: int) -> bool:
        return first <= second
