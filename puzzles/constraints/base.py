"""The `Constraint` contract: one value of one rule kind, and the families encoders key on.

A puzzle's rules are a shape (side, regions, the unit families rows / columns / regions) plus
a tuple of constraints. Each kind is one module of this package and one class here below a
family; a model (exact cover, CNF, CP-SAT, ...) keeps a table from kind to encoder
(`EncoderTable`), looked up along the class's bases, so a model that encodes a family (any
set of cells that hold distinct digits, any relation between two cells' digits) encodes
every kind of that family, and a kind it has no encoder for makes it refuse the puzzle.

Cells are numbered 0..N²-1 row by row; digits are 1..N.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import ClassVar, Generic, Protocol, TypeVar


class Shape(Protocol):
    """What a constraint needs to know of the grid it lives on."""

    @property
    def size(self) -> int: ...

    @property
    def cell_count(self) -> int: ...

    def cell(self, row: int, col: int) -> int: ...

    def cell_name(self, cell: int) -> str: ...


# every concrete kind by its name (`Constraint.kind`), filled as the kind modules are imported
KINDS: dict[str, type[Constraint]] = {}


class Constraint(ABC):
    """One rule of a puzzle beyond rows, columns and regions. Subclasses are frozen
    dataclasses (hashable, comparable); a concrete kind sets `kind` and `title`."""

    kind: ClassVar[str] = ""  # the name in the JSON form and the support table: "anti_knight"
    title: ClassVar[str] = ""  # words for people: "anti-knight"

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("kind"):
            KINDS[cls.kind] = cls

    @abstractmethod
    def scope(self, shape: Shape) -> tuple[int, ...]:
        """The cells this constraint is about (its scope, as CSPs say), sorted."""


class UnitConstraint(Constraint):
    """Cells that hold distinct digits: each unit of N cells holds every digit once."""

    @abstractmethod
    def units(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        """The units this constraint adds, each a tuple of cells."""

    @abstractmethod
    def unit_names(self, shape: Shape) -> tuple[str, ...]:
        """A name in words for each unit (`diagonal`, `extra region 2`)."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted({cell for unit in self.units(shape) for cell in unit}))


class PairConstraint(Constraint):
    """A relation between the digits of two cells, for each of a set of pairs of cells."""

    @abstractmethod
    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        """The pairs (a, b) of cells the relation holds for, each once, a < b, sorted."""

    @abstractmethod
    def allows(self, first: int, second: int) -> bool:
        """Whether digit `first` in a pair's first cell and `second` in its second may stand."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted({cell for pair in self.pairs(shape) for cell in pair}))


class DistinctPairs(PairConstraint):
    """Pairs of cells that hold different digits (a unit of two cells each)."""

    def allows(self, first: int, second: int) -> bool:
        return first != second


def move_pairs(shape: Shape, moves: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The pairs (a < b, sorted) of cells one of `moves` (row, column offsets) apart."""
    n = shape.size
    pairs = set()
    for row in range(n):
        for col in range(n):
            for dr, dc in moves:
                r, c = row + dr, col + dc
                if 0 <= r < n and 0 <= c < n:
                    a, b = row * n + col, r * n + c
                    pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))


class CellDigits(Constraint):
    """Restricts the digits some cells may hold, each cell on its own."""

    @abstractmethod
    def allowed(self, shape: Shape) -> Mapping[int, frozenset[int]]:
        """For each cell it restricts, the digits that cell may hold."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted(self.allowed(shape)))


class SumConstraint(Constraint):
    """Cells whose digits add up to a total (None: any total), maybe also distinct."""

    @property
    @abstractmethod
    def summed(self) -> tuple[int, ...]:
        """The cells whose digits are added."""

    @property
    @abstractmethod
    def target(self) -> int | None:
        """The sum, or None when only the other conditions hold."""

    @property
    @abstractmethod
    def distinct(self) -> bool:
        """Whether the summed cells also hold distinct digits."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted(self.summed))


E = TypeVar("E")


class EncoderTable(Generic[E]):
    """A model's table from constraint kind (or family) to its encoder (CVXPY's
    canonicalisation table). `accepts` is derived from it: a constraint whose class has no
    entry along its bases has no encoder, and the model refuses the rules that hold it."""

    def __init__(self, encoders: Mapping[type[Constraint], E]) -> None:
        self._encoders = dict(encoders)

    def lookup(self, constraint: Constraint) -> E | None:
        """The encoder for this constraint's kind, found along the class's bases, or None."""
        for cls in type(constraint).__mro__:
            encoder = self._encoders.get(cls)
            if encoder is not None:
                return encoder
        return None

    def encoder(self, constraint: Constraint) -> E:
        """The encoder for this constraint; a KeyError names the kind when there is none
        (`accepts` is asked first, so it means a model used without asking)."""
        found = self.lookup(constraint)
        if found is None:
            raise KeyError(f"no encoder for {constraint.kind!r}")
        return found

    def encodes(self, kind: type[Constraint]) -> bool:
        """Whether the table has an encoder for this kind (the support table asks)."""
        return any(cls in self._encoders for cls in kind.__mro__)

    def missing(self, constraints: Iterable[Constraint]) -> tuple[str, ...]:
        """The titles of the kinds among `constraints` without an encoder, sorted, once each."""
        return tuple(sorted({c.title for c in constraints if self.lookup(c) is None}))

    def accepts(self, constraints: Iterable[Constraint]) -> bool:
        return not self.missing(constraints)

    def __repr__(self) -> str:
        return f"EncoderTable({sorted(cls.__name__ for cls in self._encoders)})"
