"""Puzzle -> python-constraint `Problem` -> grid.

The model keeps an encoder table (`ENCODERS`): each constraint kind or family with its part of
the `Problem` and of the XCSP3 export; a kind it has no entry for is refused (`accepts`).

One variable per cell (named by its cell number); its domain is the digits its parity allows
(1..N for most cells), a given's domain is its value alone (with an `InSetConstraint` of its
parity's digits when its parity forbids it, so the puzzle has no solution). Rules, each with
the library's own constraints:

- every unit (rows, columns, regions, diagonals, extra regions of any size):
  `AllDifferentConstraint`;
- anti-knight / anti-king pairs that share no unit: a `FunctionConstraint` `a != b`;
- non-consecutive neighbours: a `FunctionConstraint` `abs(a - b) != 1`;
- any other pair relation: a `FunctionConstraint` of its own `allows`;
- killer cages: `AllDifferentConstraint` over the cage (left out when its cells already share
  units pairwise) and `ExactSumConstraint(total)`, which prunes the domains before the search
  and hides values that would overshoot the total while forward checking;
- linear equations (`LinearConstraint`: arrows, little killers; digits may repeat): the same
  `ExactSumConstraint` with the equation's coefficients as multipliers (`LinearSum`);
- tables (`TableConstraint`): `TableSupport`, a library `Constraint` that keeps a partial
  assignment while some row fits it and, forward checking, hides the digits no fitting row
  names;
- any other kind (the table's entry for `Constraint` itself): `Violations`, a library
  `Constraint` that asks the kind's own check (`violations`) with the free cells empty, so
  python-constraint takes every kind there is.

An answer is the library's solution dictionary, cell -> digit.

With `hidden_singles=True` each house's constraint (a unit of N cells, which holds every digit)
is a `UnitConstraint` instead: the same AllDifferent check and forward checking, plus the
"hidden single" rule (a digit that only one cell of the unit can still take goes there; a digit
no cell can take is a dead end). A smaller extra region keeps the plain AllDifferent: it need
not hold every digit.
That is the library's extension mechanism (a `Constraint` subclass), and it is what turns
python-constraint from hopeless on the hardest 9x9s into a fair competitor.

`export` writes the model in XCSP3, the XML format of the CSP solver competitions, so the
same instance can be handed to other constraint solvers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from constraint import (
    AllDifferentConstraint,
    BacktrackingSolver,
    ExactSumConstraint,
    FunctionConstraint,
    InSetConstraint,
    Problem,
)
from constraint import Constraint as LibraryConstraint
from constraint import Solver as ConstraintSolver

from sudoku_bench.puzzles.constraints import (
    Cage,
    CellDigits,
    Constraint,
    DistinctPairs,
    EncoderTable,
    Equation,
    LinearConstraint,
    NonConsecutive,
    PairConstraint,
    SumConstraint,
    Table,
    TableConstraint,
)
from sudoku_bench.puzzles.constraints import UnitConstraint as UnitFamily
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.reductions.base import Reduction
from sudoku_bench.reductions.encoding import (
    Domains,
    UnsupportedConstraintError,
    cell_domains,
    different_pairs,
    equations,
    extra_units,
    forbidden_digit_pairs,
    grouped,
    narrow_to_allowed,
    relation_pairs,
    shape_units,
    tables,
    unit_mates,
)


@dataclass
class CspModel:
    """The library's `Problem` with the numbers that describe it (it does not expose them)."""

    problem: Problem
    variables: int
    constraints: int


class UnitConstraint(AllDifferentConstraint):
    """A unit of N cells holding the N digits once each: AllDifferent plus hidden singles.

    When forward checking, after AllDifferent has hidden the placed digits from the unit's
    free cells, a digit that no free cell can take fails the node and a digit that exactly
    one free cell can take becomes that cell's only value. Only free cells' domains are
    touched, which the library has saved (`pushState`) before calling, so backtracking
    restores them.
    """

    def __init__(self, digits: Sequence[int]) -> None:
        self.digits = tuple(digits)

    def __call__(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        assignments: dict[Any, Any],
        forwardcheck: Any = False,
    ) -> bool:
        if not super().__call__(variables, domains, assignments, forwardcheck):
            return False
        if not forwardcheck:
            return True
        placed = {assignments[v] for v in variables if v in assignments}
        free = [v for v in variables if v not in assignments]
        for digit in self.digits:
            if digit in placed:
                continue
            homes = [v for v in free if digit in domains[v]]
            if not homes:
                return False
            if len(homes) == 1:
                domain = domains[homes[0]]
                for value in domain[:]:
                    if value != digit:
                        domain.hideValue(value)
        return True


class LinearSum(ExactSumConstraint):
    """The library's exact sum with multipliers (which may be negative: an arrow's bulb), made
    safe for a domain an earlier constraint's preprocessing emptied: the library's bounds
    take the min of each domain, and the search never starts on an empty one anyway."""

    def preProcess(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        constraints: list[tuple[Any, ...]],
        vconstraints: dict[Any, Any],
    ) -> None:
        if all(domains[variable] for variable in variables):
            super().preProcess(variables, domains, constraints, vconstraints)


class TableSupport(LibraryConstraint):
    """A table of admissible fillings (0: any digit) over its cells, in the library's
    extension mechanism: a partial assignment stands while some row still fits it (each named
    digit assigned or in its cell's domain); with forward checking, a free cell keeps only the
    digits some fitting row names there (all, if one leaves it free), as does preprocessing."""

    def __init__(self, rows: Sequence[Sequence[int]]) -> None:
        self.rows = [tuple(row) for row in rows]

    def _fitting(
        self, variables: Sequence[Any], domains: dict[Any, Any], assignments: dict[Any, Any]
    ) -> list[tuple[int, ...]]:
        def fits(row: tuple[int, ...]) -> bool:
            for variable, digit in zip(variables, row, strict=True):
                if digit == 0:
                    continue
                value = assignments.get(variable)
                if value is None:
                    if digit not in domains[variable]:
                        return False
                elif value != digit:
                    return False
            return True

        return [row for row in self.rows if fits(row)]

    def _supported(self, fitting: Sequence[tuple[int, ...]], i: int) -> set[int] | None:
        """The digits the fitting rows name at position i; None when one leaves it free."""
        named = set()
        for row in fitting:
            if row[i] == 0:
                return None
            named.add(row[i])
        return named

    def preProcess(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        constraints: list[tuple[Any, ...]],
        vconstraints: dict[Any, Any],
    ) -> None:
        fitting = self._fitting(variables, domains, {})
        for i, variable in enumerate(variables):
            named = self._supported(fitting, i)
            if named is not None:
                for value in domains[variable][:]:
                    if value not in named:
                        domains[variable].remove(value)

    def __call__(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        assignments: dict[Any, Any],
        forwardcheck: Any = False,
    ) -> bool:
        fitting = self._fitting(variables, domains, assignments)
        if not fitting:
            return False
        if forwardcheck:
            for i, variable in enumerate(variables):
                if variable in assignments:
                    continue
                named = self._supported(fitting, i)
                if named is None:
                    continue
                domain = domains[variable]
                for value in domain[:]:
                    if value not in named:
                        domain.hideValue(value)
                if not domain:
                    return False
        return True


class Violations(LibraryConstraint):
    """Any kind, by its own check (`violations`): the generic fallback that lets the CSP take
    every kind. A partial assignment stands while the kind finds no violation with the free
    cells empty (a kind's check never blames an empty cell for what a filling could mend);
    with forward checking, when one cell of the scope is left free, its digits that would
    break the rule are hidden."""

    def __init__(self, rule: Constraint, rules: Rules) -> None:
        self.rule, self.rules = rule, rules
        self.blank = [0] * rules.cell_count

    def broken(self, variables: Sequence[Any], assignments: Mapping[Any, Any]) -> bool:
        values = self.blank.copy()
        for variable in variables:
            values[variable] = assignments.get(variable, 0)
        return next(iter(self.rule.violations(self.rules, values)), None) is not None

    def __call__(
        self,
        variables: Sequence[Any],
        domains: dict[Any, Any],
        assignments: dict[Any, Any],
        forwardcheck: Any = False,
    ) -> bool:
        if self.broken(variables, assignments):
            return False
        free = [variable for variable in variables if variable not in assignments]
        if forwardcheck and len(free) == 1:
            (variable,) = free
            domain = domains[variable]
            trial = dict(assignments)
            for value in domain[:]:
                trial[variable] = value
                if self.broken(variables, trial):
                    domain.hideValue(value)
            if not domain:
                return False
        return True


class CspReduction(Reduction[CspModel, Mapping[int, int]]):
    """Sudoku as a python-constraint `Problem` searched by `solver` (BacktrackingSolver)."""

    name = "csp"

    def __init__(
        self, solver: ConstraintSolver | None = None, *, hidden_singles: bool = False
    ) -> None:
        self.solver = solver
        self.hidden_singles = hidden_singles

    def apply(self, puzzle: Grid) -> tuple[CspModel, Grid]:
        rules = puzzle.rules
        groups = grouped(ENCODERS, rules.constraints, "csp", rules.size)
        allowed_digits = cell_domains(rules, groups)
        problem = Problem(self.solver if self.solver is not None else BacktrackingSolver())
        built = _Csp(problem, rules, self.hidden_singles)
        for cell, value in enumerate(puzzle.values):
            allowed = allowed_digits[cell]
            problem.addVariable(cell, [value] if value else list(allowed))
            if value and value not in allowed:  # the library refuses an empty domain
                built.add(InSetConstraint(set(allowed)), [cell])
        built.add_units(shape_units(rules))
        for encoder, group in groups:
            encoder.add(built, group)
        return CspModel(problem, rules.cell_count, built.constraints), puzzle

    def invert(self, answer: Mapping[int, int], data: Grid) -> Grid:
        return Grid(data.rules, tuple(answer[cell] for cell in data.rules.cells))

    def size(self, model: CspModel) -> dict[str, int]:
        return {"variables": model.variables, "constraints": model.constraints}

    def describe(self, puzzle: Grid) -> dict[str, Any]:
        return describe(puzzle)

    def export(self, puzzle: Grid) -> str:
        return export(puzzle)


@dataclass
class _Csp:
    """The problem under construction, as the encoders see it."""

    problem: Problem
    rules: Rules
    hidden_singles: bool
    constraints: int = 0

    def add(self, constraint: Any, cells: Sequence[int]) -> None:
        self.problem.addConstraint(constraint, list(cells))
        self.constraints += 1

    def add_units(self, units: Sequence[Sequence[int]]) -> None:
        size = self.rules.size
        for unit in units:
            house = len(unit) == size
            self.add(
                UnitConstraint(self.rules.digits)
                if self.hidden_singles and house
                else AllDifferentConstraint(),
                unit,
            )

    @cached_property
    def mates(self) -> tuple[frozenset[int], ...]:
        return unit_mates(self.rules)


Group = tuple[Constraint, ...]


def _add_units(built: _Csp, group: Group) -> None:
    built.add_units(extra_units(built.rules, group))


def _add_different(built: _Csp, group: Group) -> None:
    for a, b in different_pairs(built.rules, _pairs(group), built.mates):
        built.add(FunctionConstraint(_differ), [a, b])


def _add_non_consecutive(built: _Csp, group: Group) -> None:
    for _, pair in relation_pairs(built.rules, _pairs(group)):
        built.add(FunctionConstraint(_not_consecutive), pair)


def _add_relation(built: _Csp, group: Group) -> None:
    """Any pair relation: a `FunctionConstraint` of its own `allows`."""
    for constraint, pair in relation_pairs(built.rules, _pairs(group)):
        built.add(FunctionConstraint(constraint.allows), pair)


def _add_cages(built: _Csp, group: Group) -> None:
    for cage in _sums(group):
        cells = list(cage.summed)
        if not all(b in built.mates[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
            built.add(AllDifferentConstraint(), cells)
        if cage.target is None:
            continue
        if len(cells) == 1:  # the library's sum fails (an empty min) on a cell it empties
            built.add(InSetConstraint({cage.target}), cells)
        else:
            built.add(ExactSumConstraint(cage.target), cells)


def _add_linear(built: _Csp, group: Group) -> None:
    """Each linear equation as the library's exact sum with multipliers (one term: the digits
    that meet it, as a set)."""
    for equation in equations(built.rules, group):
        cells = [cell for cell, _ in equation.terms]
        if len(cells) > 1:
            multipliers = [k for _, k in equation.terms]
            built.add(LinearSum(equation.total, multipliers), cells)
        else:
            built.add(InSetConstraint(set(_one_term(built.rules, equation))), cells or [0])


def _one_term(rules: Rules, equation: Equation) -> list[int]:
    """The digits that meet an equation of at most one term (none when nothing can)."""
    if not equation.terms:
        return list(rules.digits) if equation.total == 0 else []
    ((_, k),) = equation.terms
    return [d for d in rules.digits if k * d == equation.total]


def _add_tables(built: _Csp, group: Group) -> None:
    for table in tables(built.rules, group):
        built.add(TableSupport(table.rows), table.cells)


def _add_violations(built: _Csp, group: Group) -> None:
    """Any other kind: its own check over its scope (`Violations`)."""
    for constraint in group:
        built.add(Violations(constraint, built.rules), constraint.scope(built.rules))


def _domains_only(built: _Csp, group: Group) -> None:
    """Cell-digit constraints are the variables' domains (`narrow`): nothing more to add."""


def _differ(a: int, b: int) -> bool:
    return a != b


def _not_consecutive(a: int, b: int) -> bool:
    return abs(a - b) != 1


def _pairs(group: Group) -> list[PairConstraint]:
    return [c for c in group if isinstance(c, PairConstraint)]


def _sums(group: Group) -> list[SumConstraint]:
    return [c for c in group if isinstance(c, SumConstraint)]


# ----- XCSP3 ----------------------------------------------------------------------------------


@dataclass
class _Xcsp:
    """The XCSP3 constraint lines under construction, as the encoders see them."""

    rules: Rules
    lines: list[str]

    def name(self, cell: int) -> str:
        return f"x[{self.rules.row_of(cell)}][{self.rules.col_of(cell)}]"

    def all_different(self, note: str, cells: Sequence[int]) -> None:
        members = " ".join(self.name(cell) for cell in cells)
        self.lines.append(f'    <allDifferent note="{note}"> {members} </allDifferent>')

    @cached_property
    def mates(self) -> tuple[frozenset[int], ...]:
        return unit_mates(self.rules)


def _xcsp_units(xcsp: _Xcsp, group: Group) -> None:
    rules = xcsp.rules
    # the rules' unit names number the extra regions (`extra region 2`) after the shape's
    names = rules.unit_names[3 * rules.size :]
    for note, unit in zip(names, extra_units(rules, group), strict=True):
        xcsp.all_different(note, unit)


def _xcsp_different(xcsp: _Xcsp, group: Group) -> None:
    for a, b in different_pairs(xcsp.rules, _pairs(group), xcsp.mates):
        xcsp.lines.append(f"    <intension> ne({xcsp.name(a)},{xcsp.name(b)}) </intension>")


def _xcsp_non_consecutive(xcsp: _Xcsp, group: Group) -> None:
    for _, (a, b) in relation_pairs(xcsp.rules, _pairs(group)):
        xcsp.lines.append(
            f"    <intension> gt(dist({xcsp.name(a)},{xcsp.name(b)}),1) </intension>"
        )


def _xcsp_relation(xcsp: _Xcsp, group: Group) -> None:
    """Any pair relation: a binary table of the digit pairs it rules out (conflicts)."""
    for constraint, (a, b) in relation_pairs(xcsp.rules, _pairs(group)):
        tuples = "".join(f"({x},{y})" for x, y in forbidden_digit_pairs(xcsp.rules, constraint))
        xcsp.lines.append(
            f'    <extension note="{constraint.title}"> <list> {xcsp.name(a)} {xcsp.name(b)} '
            f"</list> <conflicts> {tuples} </conflicts> </extension>"
        )


def _xcsp_cell_digits(xcsp: _Xcsp, group: Group) -> None:
    """A unary table per cell-digit constraint, cells with the same digits grouped."""
    for constraint in group:
        assert isinstance(constraint, CellDigits)
        by_digits: dict[frozenset[int], list[int]] = {}
        for cell, digits in constraint.allowed(xcsp.rules).items():
            by_digits.setdefault(digits, []).append(cell)
        for digits, cells in sorted(by_digits.items(), key=lambda item: _parity_order(item[0])):
            xcsp.lines.append(f'    <group note="{_digits_note(digits)} cells">')
            xcsp.lines.append(
                "      <extension> <list> %0 </list> <supports> "
                f"{' '.join(map(str, sorted(digits)))} </supports> </extension>"
            )
            xcsp.lines += [f"      <args> {xcsp.name(cell)} </args>" for cell in sorted(cells)]
            xcsp.lines.append("    </group>")


def _parity_order(digits: frozenset[int]) -> tuple[int, list[int]]:
    """Odd cells' group first (it holds 1), then the others by their smallest digits."""
    return (0 if 1 in digits else 1, sorted(digits))


def _digits_note(digits: frozenset[int]) -> str:
    if all(d % 2 for d in digits):
        return "odd"
    if not any(d % 2 for d in digits):
        return "even"
    return "digits " + "".join(map(str, sorted(digits)))


def _xcsp_cages(xcsp: _Xcsp, group: Group) -> None:
    for cage in _sums(group):
        members = " ".join(xcsp.name(cell) for cell in cage.summed)
        note = "cage " + "+".join(xcsp.rules.cell_name(cell) for cell in cage.summed)
        note += "" if cage.target is None else f" = {cage.target}"  # as the checker names it
        if len(cage.summed) > 1:
            xcsp.all_different(note, cage.summed)
        if cage.target is not None:
            xcsp.lines.append(
                f'    <sum note="{note}"> <list> {members} </list> '
                f"<condition> (eq,{cage.target}) </condition> </sum>"
            )


def _xcsp_linear(xcsp: _Xcsp, group: Group) -> None:
    for equation in equations(xcsp.rules, group):
        members = " ".join(xcsp.name(cell) for cell, _ in equation.terms)
        coefficients = " ".join(str(k) for _, k in equation.terms)
        xcsp.lines.append(
            f"    <sum> <list> {members} </list> <coeffs> {coefficients} </coeffs> "
            f"<condition> (eq,{equation.total}) </condition> </sum>"
        )


def _xcsp_tables(xcsp: _Xcsp, group: Group) -> None:
    """A table as an extension of supports; a free cell's 0 is XCSP3's `*` (a short table)."""
    for constraint in group:
        for table in tables(xcsp.rules, [constraint]):
            _xcsp_supports(xcsp, constraint.title, table)


def _xcsp_supports(xcsp: _Xcsp, note: str, table: Table) -> None:
    members = " ".join(xcsp.name(cell) for cell in table.cells)
    supports = "".join(
        "(" + ",".join(str(d) if d else "*" for d in row) + ")" for row in table.rows
    )
    xcsp.lines.append(
        f'    <extension note="{note}"> <list> {members} </list> '
        f"<supports> {supports} </supports> </extension>"
    )


# The fallback writes a kind the export has no form for as the table of its scope's fillings
# that its check accepts, listed by trying each: up to this many fillings.
XCSP_FILLINGS_LIMIT = 100_000


def _xcsp_violations(xcsp: _Xcsp, group: Group) -> None:
    rules = xcsp.rules
    for constraint in group:
        scope = constraint.scope(rules)
        if rules.size ** len(scope) > XCSP_FILLINGS_LIMIT:
            raise UnsupportedConstraintError(
                f"the XCSP3 export has no form for {constraint.title} ({constraint.kind}) and "
                f"its {len(scope)} cells have too many fillings to list as a table"
            )
        values = [0] * rules.cell_count
        rows = []
        for filling in itertools.product(rules.digits, repeat=len(scope)):
            for cell, digit in zip(scope, filling, strict=True):
                values[cell] = digit
            if next(iter(constraint.violations(rules, values)), None) is None:
                rows.append(filling)
        _xcsp_supports(xcsp, constraint.title, Table(scope, tuple(rows)))


Add = Callable[[_Csp, Group], None]
Write = Callable[[_Xcsp, Group], None]


@dataclass(frozen=True)
class CspEncoder:
    """A kind's (or family's) part of the CSP: `add` puts it into the library's `Problem`,
    `xcsp` writes it into the XCSP3 export; `narrow` (cell-digit constraints) shapes the
    variables' domains."""

    add: Add
    xcsp: Write
    narrow: Callable[[Rules, Sequence[Constraint], Domains], None] | None = None


ENCODERS: EncoderTable[CspEncoder] = EncoderTable(
    {
        UnitFamily: CspEncoder(_add_units, _xcsp_units),
        PairConstraint: CspEncoder(_add_relation, _xcsp_relation),
        DistinctPairs: CspEncoder(_add_different, _xcsp_different),
        NonConsecutive: CspEncoder(_add_non_consecutive, _xcsp_non_consecutive),
        CellDigits: CspEncoder(_domains_only, _xcsp_cell_digits, narrow_to_allowed),
        Cage: CspEncoder(_add_cages, _xcsp_cages),
        LinearConstraint: CspEncoder(_add_linear, _xcsp_linear),
        TableConstraint: CspEncoder(_add_tables, _xcsp_tables),
        Constraint: CspEncoder(_add_violations, _xcsp_violations),
    }
)
CspReduction.encoders = ENCODERS


# ----- the `reduce` command's target ----------------------------------------------------------


def describe(puzzle: Grid) -> dict[str, Any]:
    reduction = CspReduction()
    model, _ = reduction.apply(puzzle)
    return {"givens": puzzle.givens, **reduction.size(model)}


def export(puzzle: Grid) -> str:
    """The model as an XCSP3 instance: array x[row][col] over 1..N, allDifferent per unit,
    `ne` / `gt(dist(..),1)` intensions for the pair rules, unary tables for parity cells,
    allDifferent and sum per cage, and the givens as an instantiation."""
    rules = puzzle.rules
    n = rules.size

    def name(cell: int) -> str:
        return f"x[{rules.row_of(cell)}][{rules.col_of(cell)}]"

    lines = [
        '<instance format="XCSP3" type="CSP">',
        "  <variables>",
        f'    <array id="x" size="[{n}][{n}]"> 1..{n} </array>',
        "  </variables>",
        "  <constraints>",
    ]
    xcsp = _Xcsp(rules, lines)
    for unit_name, unit in zip(rules.unit_names, shape_units(rules), strict=False):
        xcsp.all_different(unit_name, unit)
    for encoder, group in grouped(ENCODERS, rules.constraints, "csp", rules.size):
        encoder.xcsp(xcsp, group)
    givens = [cell for cell, value in enumerate(puzzle.values) if value]
    if givens:
        lines.append('    <instantiation note="givens">')
        lines.append(f"      <list> {' '.join(name(cell) for cell in givens)} </list>")
        lines.append(f"      <values> {' '.join(str(puzzle[cell]) for cell in givens)} </values>")
        lines.append("    </instantiation>")
    lines += ["  </constraints>", "</instance>", ""]
    return "\n".join(lines)
