"""Extra region: 2 to N given cells hold distinct digits (windoku's windows, a disjoint
group, any marked region). Of N cells it is a house: every digit once."""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.constraints.base import Shape, UnitConstraint


@dataclass(frozen=True)
class ExtraRegion(UnitConstraint):
    members: tuple[int, ...]

    kind = "extra_region"
    title = "extra region"

    def units(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        return (self.members,)

    def unit_names(self, shape: Shape) -> tuple[str, ...]:
        return (f"the extra region at {shape.cell_name(min(self.members))}",)
