"""Puzzle -> OR-Tools CP-SAT model -> grid, in two encodings, for every rule kind.

- `integer`: one integer variable per cell. Its domain is the digits the cell's parity allows
  (a given's domain is its value). Rules:
  - every unit (rows, columns, regions, diagonals, extra regions of any size):
    `add_all_different`;
  - anti-knight / anti-king pairs that share no unit: `x != y`;
  - non-consecutive neighbours: `add_forbidden_assignments` of the pairs (d, d+1) and
    (d+1, d), so that |x - y| >= 2;
  - killer cages: `add_all_different` over the cage plus the linear sum `sum(x) == total`,
    or, with `cages="table"`, `add_allowed_assignments` of the cage's fillings (every
    ordering of distinct digits, in the cells' domains, that adds up to the total) in place
    of the linear sum. A cage with more than `TABLE_LIMIT` fillings keeps the linear sum.
- `onehot`: one 0/1 literal per (cell, digit) and `add_exactly_one` per cell and per (house,
  digit): the exact-cover structure written as Boolean constraints. A unit of fewer than N
  cells gets `add_at_most_one` per digit (it need not hold every digit). A pair that must
  differ gets `at most one of x[a,d], x[b,d]` per digit; non-consecutive neighbours get `at
  most one of x[a,d], x[b,d+1]` (and the mirror); a parity-forbidden literal is the constant
  false; a cage gets `at most one` per digit and the linear sum `sum(d * x[c,d]) == total`.
  A given fixes its cell's literals to constants.

The answer `invert` takes is a function from a variable to its value (the solution
callback's `value`, or `CpSolver.value`), so both encodings map back the same way.
`export` writes the model as the CpModelProto text format, which `ortools` reads back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any, ClassVar

from ortools.sat.python import cp_model

from puzzles.grid import Grid
from puzzles.rules import ALL_KINDS, Cage, RuleKind
from reductions.base import Reduction

ENCODINGS = ("integer", "onehot")
CAGE_ENCODINGS = ("sum", "table")
# A table of more fillings than this costs more to build than it saves (a 9-cell cage has
# 9! = 362,880): such a cage keeps the linear sum.
TABLE_LIMIT = 5000

# A function giving a model expression's value in a solution.
Answer = Callable[[Any], int]


@dataclass(frozen=True)
class CpData:
    """What `invert` needs: the puzzle and its variables.

    `cells[c]` is cell c's integer variable (integer encoding); `literals[c][d - 1]` is
    "cell c holds d" (one-hot encoding; constants for givens and parity-forbidden digits).
    """

    puzzle: Grid
    encoding: str
    cells: tuple[cp_model.IntVar, ...] = ()
    literals: tuple[tuple[Any, ...], ...] = ()


class CpModelReduction(Reduction[cp_model.CpModel, Answer]):
    """Sudoku under any rules as a CP-SAT model in the `integer` (AllDifferent) or `onehot`
    encoding; `cages` is `sum` (a linear equation) or `table` (allowed fillings, integer only)."""

    name = "cp-model"
    rule_kinds: ClassVar[frozenset[RuleKind]] = ALL_KINDS  # every rule, exports included

    def __init__(self, encoding: str = "integer", cages: str = "sum") -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown CP-SAT encoding {encoding!r}; choose one of {ENCODINGS}")
        if cages not in CAGE_ENCODINGS:
            raise ValueError(f"unknown cage encoding {cages!r}; choose one of {CAGE_ENCODINGS}")
        if cages == "table" and encoding != "integer":
            raise ValueError("cages='table' needs the integer encoding (a table is over integers)")
        self.encoding = encoding
        self.cages = cages

    def apply(self, puzzle: Grid) -> tuple[cp_model.CpModel, CpData]:
        model = cp_model.CpModel()
        if self.encoding == "integer":
            return model, _integer_model(model, puzzle, self.cages)
        return model, _onehot_model(model, puzzle)

    def invert(self, answer: Answer, data: CpData) -> Grid:
        if data.encoding == "integer":
            values = tuple(answer(cell) for cell in data.cells)
        else:
            values = tuple(_digit_of(answer, row) for row in data.literals)
        return Grid(data.puzzle.rules, values)

    def size(self, model: cp_model.CpModel) -> dict[str, int]:
        proto = model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}

    def exclude(self, model: cp_model.CpModel, data: CpData, solution: Grid) -> None:
        """Add "at least one empty cell differs from `solution`" to the model.

        Re-solving after this proves uniqueness (INFEASIBLE) or finds another solution, and
        unlike `enumerate_all_solutions` it stays sound with several workers.
        """
        free = data.puzzle.empty_cells
        if data.encoding == "onehot":
            model.add_bool_or([data.literals[c][solution[c] - 1].negated() for c in free])
            return
        differs = []
        for c in free:
            literal = model.new_bool_var(f"differs_{c}")
            model.add(data.cells[c] != solution[c]).only_enforce_if(literal)
            differs.append(literal)
        model.add_bool_or(differs)

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle, self.encoding)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle, self.encoding)


def domains(puzzle: Grid) -> list[tuple[int, ...]]:
    """Each cell's digits: its parity's (all digits for most cells), or its given if allowed."""
    allowed = puzzle.rules.allowed
    return [
        allowed[cell] if not value else (value,) if value in allowed[cell] else ()
        for cell, value in enumerate(puzzle.values)
    ]


def _integer_model(model: cp_model.CpModel, puzzle: Grid, cage_encoding: str) -> CpData:
    rules = puzzle.rules
    cell_domains = domains(puzzle)
    cells = tuple(
        _int_var(model, digits, rules.cell_name(cell)) for cell, digits in enumerate(cell_domains)
    )
    for unit in rules.units:
        model.add_all_different(cells[c] for c in unit)
    for a, b in rules.distinct_pairs:
        model.add(cells[a] != cells[b])
    consecutive = [(d, d + 1) for d in range(1, rules.size)]
    consecutive += [(d + 1, d) for d in range(1, rules.size)]
    for a, b in rules.nonconsecutive_pairs:
        model.add_forbidden_assignments([cells[a], cells[b]], consecutive)
    for cage in rules.cages:
        variables = [cells[c] for c in cage.cells]
        if len(variables) > 1:
            model.add_all_different(variables)
        if cage.total is None:
            continue
        fillings = None
        if cage_encoding == "table":
            fillings = cage_fillings(cage, [cell_domains[c] for c in cage.cells], TABLE_LIMIT)
        if fillings is None:
            model.add(sum(variables) == cage.total)
        else:
            model.add_allowed_assignments(variables, fillings)
    return CpData(puzzle, "integer", cells=cells)


def _int_var(model: cp_model.CpModel, digits: Sequence[int], name: str) -> cp_model.IntVar:
    if not digits:  # a given its parity forbids: CP-SAT calls an empty domain an invalid model
        model.add_bool_or([])  # the empty clause: infeasible, which is the truth
        return model.new_int_var(1, 1, name)
    if len(digits) == digits[-1] - digits[0] + 1:  # an interval: the usual 1..N or a given
        return model.new_int_var(digits[0], digits[-1], name)
    return model.new_int_var_from_domain(cp_model.Domain.from_values(digits), name)


def _onehot_model(model: cp_model.CpModel, puzzle: Grid) -> CpData:
    rules = puzzle.rules
    constants: dict[int, cp_model.IntVar] = {}

    def constant(value: int) -> cp_model.IntVar:
        # Fixed literals share two constants, made only when needed (an empty classic grid
        # has none); unnamed variables keep building cheap.
        if value not in constants:
            constants[value] = model.new_constant(value)
        return constants[value]

    literals = tuple(
        tuple(
            (constant(1) if given else model.new_bool_var("")) if digit in domain else constant(0)
            for digit in rules.digits
        )
        for given, domain in zip(puzzle.values, domains(puzzle), strict=True)
    )
    for row in literals:
        model.add_exactly_one(row)
    houses = set(rules.houses)
    for index, unit in enumerate(rules.units):
        add = model.add_exactly_one if index in houses else model.add_at_most_one
        for d in range(rules.size):
            add(literals[c][d] for c in unit)
    for a, b in rules.distinct_pairs:
        for d in range(rules.size):
            model.add_at_most_one(literals[a][d], literals[b][d])
    for a, b in rules.nonconsecutive_pairs:
        for d in range(rules.size - 1):
            model.add_at_most_one(literals[a][d], literals[b][d + 1])
            model.add_at_most_one(literals[a][d + 1], literals[b][d])
    for cage in rules.cages:
        if len(cage.cells) > 1:
            for d in range(rules.size):
                model.add_at_most_one(literals[c][d] for c in cage.cells)
        if cage.total is not None:
            model.add(
                sum(digit * literals[c][digit - 1] for c in cage.cells for digit in rules.digits)
                == cage.total
            )
    return CpData(puzzle, "onehot", literals=literals)


def _digit_of(answer: Answer, row: Sequence[Any]) -> int:
    """The digit whose literal is true (0 if none is: only a broken answer does that)."""
    return next((d for d, literal in enumerate(row, 1) if answer(literal)), 0)


def cage_fillings(
    cage: Cage, cell_domains: Sequence[Sequence[int]], limit: int | None = None
) -> list[tuple[int, ...]] | None:
    """Every filling of the cage's cells (in order) with distinct digits from their domains
    that adds up to its total; None when there are more than `limit`.

    The count is bounded first by the digit sets that reach the total (times k! orderings
    each), so a huge cage is refused before any ordering is listed.
    """
    total = cage.total
    if total is None:
        raise ValueError("a cage without a sum has no fillings to list")
    digits = sorted({d for domain in cell_domains for d in domain})
    k = len(cage.cells)
    if limit is not None and _digit_sets(digits, k, total) * factorial(k) > limit:
        return None
    return list(_fill(cell_domains, total, ()))


def _digit_sets(digits: Sequence[int], k: int, total: int) -> int:
    """How many sets of k distinct digits add up to `total` (a small dynamic program)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for digit in digits:
        for (count, reached), number in list(ways.items()):
            if count < k and reached + digit <= total:
                key = (count + 1, reached + digit)
                ways[key] = ways.get(key, 0) + number
    return ways.get((k, total), 0)


def _fill(
    cell_domains: Sequence[Sequence[int]], left: int, chosen: tuple[int, ...]
) -> Iterator[tuple[int, ...]]:
    if len(chosen) == len(cell_domains):
        if left == 0:
            yield chosen
        return
    rest = len(cell_domains) - len(chosen) - 1
    for digit in cell_domains[len(chosen)]:
        # the other cells add at least 1 + 2 + ... + rest: prune what cannot reach the total
        if digit not in chosen and digit + rest * (rest + 1) // 2 <= left:
            yield from _fill(cell_domains, left - digit, (*chosen, digit))


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid, encoding: str = "integer") -> dict[str, Any]:
    reduction = CpModelReduction(encoding)
    model, _ = reduction.apply(puzzle)
    return {"encoding": encoding, **reduction.size(model)}


def export(puzzle: Grid, encoding: str = "integer") -> str:
    """The model in CpModelProto text format (`text_format.Parse` reads it back)."""
    model, _ = CpModelReduction(encoding).apply(puzzle)
    return str(model.proto)
