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
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random  # at run time: the API reference resolves `candidates`' signature
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, Protocol, TypeVar

from sudoku_bench.puzzles.errors import RulesError

if TYPE_CHECKING:
    from sudoku_bench.puzzles.shape import GridShape


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


class Checked(Protocol):
    """What a constraint's check reads besides the values: the rules (`Rules`)."""

    @property
    def shape(self) -> GridShape: ...

    @property
    def unit_peers(self) -> tuple[frozenset[int], ...]: ...

    def cell_name(self, cell: int) -> str: ...


class Named(Protocol):
    def cell_name(self, cell: int) -> str: ...


@dataclass(frozen=True)
class Conflict:
    """A broken rule: `rule` names it (`row 3`, `anti-knight`, `cage r1c1+r1c2`), `cells`
    are where, and `digit` the digit involved (0 where no single digit is)."""

    rule: str
    digit: int
    cells: tuple[int, ...]
    text: str = ""  # the words, where the rule is not a unit's repeat

    def describe(self, grid: Any) -> str:
        """The conflict in words; `grid` is the `Grid` it was found in."""
        if self.text:
            return self.text
        rules: Named = grid.rules
        where = ", ".join(rules.cell_name(cell) for cell in self.cells)
        return f"{self.digit} appears {len(self.cells)} times in {self.rule} ({where})"


def repeats(rule: str, cells: Iterable[int], values: Sequence[int]) -> Iterator[Conflict]:
    """A conflict for each digit that more than one of `cells` holds."""
    seen: defaultdict[int, list[int]] = defaultdict(list)
    for cell in cells:
        if values[cell]:
            seen[values[cell]].append(cell)
    for digit, where in sorted(seen.items()):
        if len(where) > 1:
            yield Conflict(rule, digit, tuple(where))


@dataclass(frozen=True)
class Move:
    """An isomorph's move of the grid: the isomorph's cell i is the original's `source[i]`
    (`target` is the inverse), and `reverse` relabels each digit d as N + 1 - d."""

    shape: GridShape  # the original's shape
    source: tuple[int, ...]
    target: tuple[int, ...]
    reverse: bool

    def cells(self, cells: Iterable[int]) -> tuple[int, ...]:
        """Where `cells` go, sorted."""
        return tuple(sorted(self.target[cell] for cell in cells))


@dataclass(frozen=True)
class Drawing:
    """How a kind marks cells in a text picture: a title line, one symbol per cell, and
    borders between cells of different `groups` (None: the regions' borders), then
    `legend` lines."""

    title: str
    symbols: tuple[str, ...]
    groups: Callable[[int], Hashable] | None = None
    legend: tuple[str, ...] = ()


# Letters that name extra regions and cages in the pictures; past 62 they come round again
# (a border still parts two neighbouring cages, and the legend then names the first cell).
LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
OVERLAP = "#"  # a cell in two extra regions, or two cages


def label_of(owners: Sequence[int]) -> str:
    """The picture's letter for a cell in the groups `owners` (indices), `.` for none."""
    if not owners:
        return "."
    return LABELS[owners[0] % len(LABELS)] if len(owners) == 1 else OVERLAP


class FpuzzlesReader(Protocol):
    """What a kind's f-puzzles reading asks of the f-puzzles object (`formats.fpuzzles`)."""

    def flag(self, key: str) -> bool: ...

    def entries(self, key: str) -> list[dict[str, Any]]: ...

    def cell(self, name: Any, what: str) -> int: ...

    def group(self, entry: Mapping[str, Any], what: str) -> tuple[int, ...]: ...

    def number(self, entry: Mapping[str, Any], key: str) -> int | None: ...

    def words(self, key: str) -> list[str]:
        """A list of strings (`"negative": ["ratio", "xv"]`); absent: empty."""
        ...

    def refuse(self, message: str) -> NoReturn:
        """Raise the format's error: what the object states that the rules cannot hold."""
        ...


def json_cells(shape: Named, cells: Iterable[int]) -> list[str]:
    """Cells as the JSON form names them: `r1c1`."""
    return [shape.cell_name(cell) for cell in cells]


def fpuzzles_cell(shape: GridShape, cell: int) -> str:
    """A cell as f-puzzles names it: `R1C1`."""
    return f"R{shape.row_of(cell) + 1}C{shape.col_of(cell) + 1}"


def json_list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RulesError(f'"{what}" is a list, not {type(value).__name__}')
    return value


def read_cell(shape: GridShape, name: object, what: str) -> int:
    """A cell from its `r1c1` name (case-insensitive) in the JSON form."""
    text = str(name).strip().lower()
    row, _, col = text.removeprefix("r").partition("c")
    if not (text.startswith("r") and row.isdigit() and col.isdigit()):
        raise RulesError(f"{what}: {name!r} is not a cell name such as r1c1")
    r, c = int(row), int(col)
    if not (1 <= r <= shape.size and 1 <= c <= shape.size):
        raise RulesError(f"{what}: {name} is outside the {shape.size}x{shape.size} grid")
    return (r - 1) * shape.size + c - 1


def read_cells(shape: GridShape, names: object, what: str) -> tuple[int, ...]:
    """Cells from a JSON list of `r1c1` names."""
    return tuple(read_cell(shape, name, what) for name in json_list(names, what))


def json_flag(data: Mapping[str, Any], key: str) -> bool:
    """A true/false rule of the JSON form (absent: false)."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise RulesError(f'"{key}" is true or false, not {value!r}')
    return value


def check_cells(shape: GridShape, cells: Iterable[int], what: str) -> None:
    bad = [cell for cell in cells if not 0 <= cell < shape.cell_count]
    if bad:
        raise RulesError(f"{what}: cell {bad[0]} is outside the {shape.size}x{shape.size} grid")


@dataclass(frozen=True)
class Canvas:
    """Where a kind draws in the grid's SVG: cells of `unit` pixels, the grid's top-left
    corner at (`left`, `top`); row or column -1 and N are the places of outside clues."""

    size: int
    unit: float
    left: float
    top: float

    def corner(self, row: int, col: int) -> tuple[float, float]:
        """The top-left corner of the cell at (row, col), which may lie outside the grid."""
        return self.left + col * self.unit, self.top + row * self.unit

    def centre(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.corner(row, col)
        return x + self.unit / 2, y + self.unit / 2

    def cell_centre(self, cell: int) -> tuple[float, float]:
        return self.centre(*divmod(cell, self.size))


class Constraint(ABC):
    """One rule of a puzzle beyond rows, columns and regions. Subclasses are frozen
    dataclasses (hashable, comparable); a concrete kind sets `kind` and `title`."""

    kind: ClassVar[str] = ""  # the name in the JSON form and the support table: "anti_knight"
    title: ClassVar[str] = ""  # words for people: "anti-knight"
    word: ClassVar[str] = ""  # its word in `Rules.name` ("9x9 anti-knight"); "": none

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("kind"):
            KINDS[cls.kind] = cls

    # The JSON keys this kind reads and writes (`Rules.to_json` / `from_json`), and the
    # f-puzzles keys it reads (`formats.fpuzzles`); one key belongs to one kind, except that
    # f-puzzles' lone diagonals are read as extra regions.
    json_keys: ClassVar[tuple[str, ...]] = ()
    fpuzzles_keys: ClassVar[tuple[str, ...]] = ()
    # Whether the rule reads the digits' values (sums, differences, parity), not only their
    # being different: an isomorph may then relabel digits only by d -> N + 1 - d.
    reads_digit_values: ClassVar[bool] = False
    # Whether the rule survives d -> N + 1 - d (with `moved` adjusting it, as a cage's sum
    # is); False (an arrow's sum): an isomorph keeps the digits as they are.
    digits_reversible: ClassVar[bool] = True

    @abstractmethod
    def scope(self, shape: Shape) -> tuple[int, ...]:
        """The cells this constraint is about (its scope, as CSPs say), sorted."""

    # ----- what each kind owns: its check, JSON form, isomorph move, picture, f-puzzles ------

    def validate(self, shape: GridShape) -> None:
        """Raise a RulesError naming what is wrong when this constraint does not fit `shape`."""
        check_cells(shape, self.scope(shape), self.title)

    @abstractmethod
    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """The ways `values` (0: empty) break this constraint, each in words. Empty cells
        break nothing unless the rule is already broken without them."""

    @abstractmethod
    def moved(self, move: Move) -> Constraint:
        """This constraint in an isomorph (`move`): cells moved, digits relabelled."""

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        """This kind's constraints of one `Rules` in their one normal form (so that equal
        rules compare equal): kept in order by default."""
        return tuple(items)

    @classmethod
    @abstractmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        """The JSON form's keys for this kind's constraints of one `Rules` (`items`)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        """This kind's constraints from a rules' JSON form (its `json_keys` in `data`)."""

    @classmethod
    def drawing(cls, items: Sequence[Constraint], shape: GridShape) -> Drawing | None:
        """How this kind marks cells in a text picture; None: its name says it all."""
        return None

    @classmethod
    @abstractmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        """This kind's constraints from an f-puzzles object (its `fpuzzles_keys`)."""

    @classmethod
    @abstractmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        """The f-puzzles keys of this kind's constraints (what `from_fpuzzles` reads back)."""

    # Whether this kind draws clues outside the grid (little killers, sandwich sums): the SVG
    # then leaves a margin of one cell round the grid for them.
    outside_clues: ClassVar[bool] = False

    # Whether the rule's cells may move under a symmetry of the square; False (an indexer,
    # whose digits name rows or columns): isomorphs keep every cell where it is.
    movable: ClassVar[bool] = True

    @classmethod
    def svg(cls, items: Sequence[Constraint], shape: GridShape, canvas: Canvas) -> list[str] | None:
        """This kind's marks in the grid's SVG (`sudoku_bench.puzzles.drawing`), as SVG elements drawn
        under the digits; None: the picture names the kind in words instead."""
        return None

    @classmethod
    def candidates(cls, solution: Sequence[int], shape: GridShape, rng: Random) -> list[Constraint]:
        """Clues of this kind that the full grid `solution` keeps, in random order (`rng`):
        the generator adds them until the puzzle has one solution, then drops the ones it
        does not need. Empty: the kind is not generated (the generator says so)."""
        return []


class UnitConstraint(Constraint):
    """Cells that hold distinct digits: each unit of N cells holds every digit once."""

    # whether `Rules.unit_names` numbers this kind's units (`extra region 2`) rather than
    # taking `unit_names` (`diagonal`)
    numbered: ClassVar[bool] = False

    @abstractmethod
    def units(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        """The units this constraint adds, each a tuple of cells."""

    @abstractmethod
    def unit_names(self, shape: Shape) -> tuple[str, ...]:
        """A name in words for each unit (`diagonal`, `extra region 2`)."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted({cell for unit in self.units(shape) for cell in unit}))

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """None here: a unit constraint's units are among `Rules.units`, which the checker
        checks with the rows, columns and regions (and names as `Rules.unit_names` does)."""
        return iter(())


class PairConstraint(Constraint):
    """A relation between the digits of two cells, for each of a set of pairs of cells."""

    @abstractmethod
    def pairs(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        """The pairs (a, b) of cells the relation holds for, each once. `allows` reads a's
        digit first, so a relation need not be symmetric (a thermometer's a < b runs from
        bulb to tip); symmetric kinds list each pair as a < b, sorted."""

    @abstractmethod
    def allows(self, first: int, second: int) -> bool:
        """Whether digit `first` in a pair's first cell and `second` in its second may stand."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted({cell for pair in self.pairs(shape) for cell in pair}))

    @abstractmethod
    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        """The conflict of the pair (a, b) whose digits the relation does not allow."""

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        allows = self.allows
        for a, b in self.pairs(rules.shape):
            if values[a] and values[b] and not allows(values[a], values[b]):
                yield self.broken(rules, a, b, values)


class DistinctPairs(PairConstraint):
    """Pairs of cells that hold different digits (a unit of two cells each)."""

    # how the two cells of a pair stand, in words: "a knight's move apart"
    apart: ClassVar[str] = ""

    def allows(self, first: int, second: int) -> bool:
        return first != second

    def violations(self, rules: Checked, values: Sequence[int]) -> Iterator[Conflict]:
        """Pairs that share a unit are left out: the unit's repeat names them already."""
        peers = rules.unit_peers
        for a, b in self.pairs(rules.shape):
            if values[a] and values[a] == values[b] and b not in peers[a]:
                yield self.broken(rules, a, b, values)

    def broken(self, rules: Checked, a: int, b: int, values: Sequence[int]) -> Conflict:
        name = rules.cell_name
        text = f"{name(a)} and {name(b)} are {self.apart} and both hold {values[a]}"
        return Conflict(self.title, values[a], (a, b), text)


class SingletonRule(Constraint):
    """A kind with no parameters, on or off for the whole grid (`"anti_knight": true` in
    JSON, one f-puzzles flag): its one JSON key and one f-puzzles key are named by the
    class."""

    def validate(self, shape: GridShape) -> None:
        """Nothing to check: the rule is defined for every shape."""

    def moved(self, move: Move) -> Constraint:
        """The rule is the same after any symmetry of the square (its relation is)."""
        return self

    @classmethod
    def combine(cls, items: Sequence[Constraint]) -> tuple[Constraint, ...]:
        return tuple(items[:1])

    @classmethod
    def to_json(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {cls.json_keys[0]: True} if items else {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], shape: GridShape) -> list[Constraint]:
        return [cls()] if json_flag(data, cls.json_keys[0]) else []

    @classmethod
    def from_fpuzzles(cls, reader: FpuzzlesReader, shape: GridShape) -> list[Constraint]:
        return [cls()] if reader.flag(cls.fpuzzles_keys[0]) else []

    @classmethod
    def to_fpuzzles(cls, items: Sequence[Constraint], shape: GridShape) -> dict[str, Any]:
        return {cls.fpuzzles_keys[0]: True} if items else {}


def move_pairs(shape: Shape, moves: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The pairs (a < b, sorted) of cells one of `moves` (row, column offsets) apart."""
    return _move_pairs(shape.size, tuple(moves))


@lru_cache(maxsize=256)  # by side and moves only: a few kinds times a few sizes
def _move_pairs(n: int, moves: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    pairs = set()
    for row in range(n):
        for col in range(n):
            for dr, dc in moves:
                r, c = row + dr, col + dc
                if 0 <= r < n and 0 <= c < n:
                    a, b = row * n + col, r * n + c
                    pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))


def kept_by(rule: PairConstraint, solution: Sequence[int], shape: Shape) -> list[Constraint]:
    """`[rule]` when every pair of the full grid `solution` keeps it, else `[]`: the
    candidates of a rule on or off for the whole grid (anti-knight, non-consecutive)."""
    allows = rule.allows
    kept = all(allows(solution[a], solution[b]) for a, b in rule.pairs(shape))
    return [rule] if kept else []


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


@dataclass(frozen=True)
class Equation:
    """sum(coefficient x digit of cell for each term) == total."""

    terms: tuple[tuple[int, int], ...]  # (cell, coefficient); a cell at most once
    total: int

    def holds(self, values: Sequence[int]) -> bool:
        return sum(k * values[cell] for cell, k in self.terms) == self.total


class LinearConstraint(Constraint):
    """Linear equations over digits, which may repeat: an arrow (line minus bulb is 0), a
    little killer (a sum along a diagonal), segments of a line with equal sums."""

    @abstractmethod
    def equations(self, shape: Shape) -> tuple[Equation, ...]:
        """The equations that hold together; each is over cells of this constraint's scope."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted({cell for eq in self.equations(shape) for cell, _ in eq.terms}))


@dataclass(frozen=True)
class Table:
    """Admissible fillings of some cells: each row gives a digit per cell (0: any digit).
    A full grid keeps the table when it matches a row; it matches at most one (the rows
    are exclusive), so that an exact-cover model that picks one row per table counts each
    solution once."""

    cells: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]

    def matching(self, values: Sequence[int]) -> int:
        """How many rows a filling of these cells matches (0 or 1 when the rows are exclusive)."""
        return sum(
            all(d == 0 or values[c] == d for c, d in zip(self.cells, row, strict=True))
            for row in self.rows
        )


class TableConstraint(Constraint):
    """A rule given as tables of admissible fillings (a sandwich row, a between line's
    middle cell with its ends, a skyscraper clue): the form exact cover with colours takes,
    and the fallback of every model that has no better encoding for the kind."""

    # The largest side on which the kind's tables are listed (None: every side). Past it a
    # model whose only encoding of the kind is its table does not take it (`EncoderTable`).
    table_largest: ClassVar[int | None] = None

    @abstractmethod
    def tables(self, shape: Shape) -> tuple[Table, ...]:
        """The tables that hold together. Computed when asked (they may be large): models
        that encode the kind more directly never ask."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(sorted({cell for table in self.tables(shape) for cell in table.cells}))

    @classmethod
    def listed_on(cls, size: int) -> bool:
        """Whether the kind's tables are listed on an N x N grid (`table_largest`)."""
        return cls.table_largest is None or size <= cls.table_largest


State = Hashable


@dataclass(frozen=True)
class Automaton:
    """A deterministic finite automaton that reads the digits of `cells` in order: from
    `start`, each digit leads to the state `step(state, digit)` or to None (no filling
    with these first digits keeps the rule); the cells keep the rule when the last state is
    `accepting`. A grid thus takes one path, so a model that has a variable per state it
    passes (CP's `regular`, Pesant 2004) has every auxiliary fixed by the digits."""

    cells: tuple[int, ...]
    start: State
    step: Callable[[State, int], State | None]
    accepting: Callable[[State], bool]

    def accepts(self, digits: Sequence[int]) -> bool:
        """Whether the automaton accepts these digits of its cells (all filled)."""
        state: State | None = self.start
        for digit in digits:
            state = self.step(state, digit)
            if state is None:
                return False
        return bool(self.accepting(state))


class RegularConstraint(Constraint):
    """A rule a finite automaton reads along cells (a sandwich, X-sum or skyscraper clue
    along its row or column): its states grow with the side where its table of fillings
    grows with the factorial, so a model that encodes automata takes the kind on any side."""

    @abstractmethod
    def automata(self, shape: Shape) -> tuple[Automaton, ...]:
        """The automata that hold together, each over cells of this constraint's scope."""

    def scope(self, shape: Shape) -> tuple[int, ...]:
        return tuple(
            sorted({cell for automaton in self.automata(shape) for cell in automaton.cells})
        )


E = TypeVar("E")


class EncoderTable(Generic[E]):
    """A model's table from constraint kind (or family) to its encoder (CVXPY's
    canonicalisation table). `accepts` is derived from it: a constraint whose class has no
    entry along its bases has no encoder, and the model refuses the rules that hold it."""

    def __init__(self, encoders: Mapping[type, E]) -> None:
        # keyed by `type`, not `type[Constraint]`: families are abstract classes, which a type
        # checker will not take where a concrete class is asked; checked here instead
        for cls in encoders:
            if not (isinstance(cls, type) and issubclass(cls, Constraint)):
                raise TypeError(f"{cls!r} is not a constraint kind or family")
        self._encoders: dict[type, E] = dict(encoders)

    def lookup(self, constraint: Constraint, size: int | None = None) -> E | None:
        """The encoder for this constraint's kind, found along the class's bases, or None.
        On an N x N grid (`size`) the table family's encoder is passed over for a kind whose
        tables are not listed on that side (`TableConstraint.listed_on`)."""
        return self._along(type(constraint), size)

    def _along(self, kind: type, size: int | None) -> E | None:
        for cls in kind.__mro__:
            encoder = self._encoders.get(cls)
            if encoder is None:
                continue
            if (
                cls is TableConstraint
                and size is not None
                and issubclass(kind, TableConstraint)
                and not kind.listed_on(size)
            ):
                continue
            return encoder
        return None

    def encoder(self, constraint: Constraint) -> E:
        """The encoder for this constraint; a KeyError names the kind when there is none
        (`accepts` is asked first, so it means a model used without asking)."""
        found = self.lookup(constraint)
        if found is None:
            raise KeyError(f"no encoder for {constraint.kind!r}")
        return found

    def encodes(self, kind: type[Constraint], size: int | None = None) -> bool:
        """Whether the table has an encoder for this kind (the support table asks), on an
        N x N grid when `size` is given."""
        return self._along(kind, size) is not None

    def missing(
        self, constraints: Iterable[Constraint], size: int | None = None
    ) -> tuple[str, ...]:
        """The titles of the kinds among `constraints` without an encoder (on an N x N grid,
        `size`), sorted, once each; a kind refused only for its side says so."""
        found = set()
        for constraint in constraints:
            if self.lookup(constraint, size) is not None:
                continue
            title = constraint.title
            if size is not None and self.lookup(constraint) is not None:
                largest = getattr(constraint, "table_largest", None)
                title += f" past {largest}x{largest} (its table of fillings)"
            found.add(title)
        return tuple(sorted(found))

    def accepts(self, constraints: Iterable[Constraint], size: int | None = None) -> bool:
        return not self.missing(constraints, size)

    def __repr__(self) -> str:
        return f"EncoderTable({sorted(cls.__name__ for cls in self._encoders)})"
