"""The setters' variants by family, reasoned as a person explains them:

- `pair_filter`: a candidate with no partner digit in a pair relation (a thermometer's
  bounds are pair filters along the line, a kropki dot's or an XV's digits likewise);
- `sum_bounds`: a linear equation (an arrow, a little killer) keeps each term within what
  the total less the other terms' least and greatest values leaves;
- `sum_combinations`: a linear equation's fillings, digits repeating only where no rule
  keeps them apart: a candidate no filling uses goes;
- `table`: a candidate that no filling still possible of a table of admissible fillings
  (a sandwich clue, a between line's middle cell) uses goes;
- `line_clue`: an outside clue past the side its table is listed to (a sandwich, X-sum or
  skyscraper clue on 12x12) is read along its line as an automaton: a candidate that no
  filling of the line with distinct digits that keeps the clue puts in its cell goes.

Each finds one step at a time, on the state as it is (placed cells count with their digit);
a rule that no filling can keep any more eliminates every candidate of its open cells, which
the solver reports as a contradiction.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from sudoku_bench.puzzles.constraints import Equation
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.automata import (
    TooManyNodes,
    distinct_support,
    regular_support,
)
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Move,
    Step,
    bit,
    cells_text,
    digits_of,
    digits_text,
)
from sudoku_bench.solvers.engines.logic.structure import FillingRule, logic_tables

# Equations whose open cells could be filled more ways than this are left to `sum_bounds`.
MAX_FILLINGS = 20_000
MAX_LISTED = 4  # fillings listed in a step's words; past that they are counted


def has_pair_relations(rules: Rules) -> bool:
    return "pair_filter" in logic_tables(rules).techniques


def has_equations(rules: Rules) -> bool:
    return "sum_bounds" in logic_tables(rules).techniques


def has_tables(rules: Rules) -> bool:
    return "table" in logic_tables(rules).techniques


def has_automata(rules: Rules) -> bool:
    return "line_clue" in logic_tables(rules).techniques


def _mask_of(state: Candidates, cell: int) -> int:
    """A cell's digits: its placed digit's bit, or its candidates."""
    value = state.values[cell]
    return bit(value) if value else state.masks[cell]


def _unsupported(
    state: Candidates, cells: Sequence[int], supported: Sequence[int]
) -> tuple[tuple[int, int], ...]:
    """The candidates of the open `cells` that no filling left uses (`supported`: per cell,
    the digits some filling puts there)."""
    return tuple(
        (c, d)
        for c, keep in zip(cells, supported, strict=True)
        if not state.values[c]
        for d in digits_of(state.masks[c] & ~keep)
    )


def _contradiction(state: Candidates, technique: str, reason: str, cells: Sequence[int]) -> Step:
    """A step that takes every candidate of the open `cells`: the rule cannot hold."""
    moves = tuple((c, d) for c in cells if not state.values[c] for d in state.candidates(c))
    return Step(technique, reason, eliminations=moves)


# ----- pair relations --------------------------------------------------------------------------


def pair_filter(state: Candidates) -> Step | None:
    """A candidate of one cell of a related pair that no digit of the other cell allows beside
    it: `thermometer r1c1-r1c2, with r1c1 holding 2/3, removes 1/2/3 from r1c2`."""
    rules = state.rules
    name = rules.cell_name
    for relation in state.tables.relations:
        for source, target, support in (
            (relation.first, relation.second, relation.forward),
            (relation.second, relation.first, relation.backward),
        ):
            if state.values[target]:
                continue
            source_mask = _mask_of(state, source)
            allowed = 0
            for d in digits_of(source_mask):
                allowed |= support[d - 1]
            removed = state.masks[target] & ~allowed
            if removed:
                lost = digits_of(removed)
                return Step(
                    "pair_filter",
                    f"{relation.title} {name(relation.first)}-{name(relation.second)}, with "
                    f"{name(source)} holding {digits_text(digits_of(source_mask))},",
                    eliminations=tuple((target, d) for d in lost),
                )
    return None


# ----- linear equations ------------------------------------------------------------------------


def equation_text(rules: Rules, equation: Equation) -> str:
    """`r1c2 + r1c3 - r1c1 = 0`, `2×r3c3 - r4c4 = 5`."""
    parts = []
    for place, (cell, k) in enumerate(equation.terms):
        size = abs(k)
        term = rules.cell_name(cell) if size == 1 else f"{size}×{rules.cell_name(cell)}"
        if place == 0:
            parts.append(term if k > 0 else f"-{term}")
        else:
            parts.append(f"{'+' if k > 0 else '-'} {term}")
    return f"{' '.join(parts)} = {equation.total}"


def _term_range(k: int, mask: int) -> tuple[int, int]:
    """The least and the greatest value of k × d over the digits d of `mask`."""
    low, high = (mask & -mask).bit_length(), mask.bit_length()
    return (k * low, k * high) if k > 0 else (k * high, k * low)


def sum_bounds(state: Candidates) -> Step | None:
    """Each open term of an equation lies within the total less the other terms' greatest
    and least values: `arrow r1c2 + r1c3 - r1c1 = 0 (its terms reach -7..17; r1c1 3-9)
    removes 1/2 from r1c1`."""
    rules = state.rules
    for rule in state.tables.equations:
        equation = rule.equation
        open_terms = [(c, k) for c, k in equation.terms if not state.values[c]]
        if not open_terms or any(not state.masks[c] for c, _ in open_terms):
            continue  # nothing to do, or a cell without candidates (the solver says so)
        ranges = [_term_range(k, _mask_of(state, c)) for c, k in equation.terms]
        low = sum(r[0] for r in ranges)
        high = sum(r[1] for r in ranges)
        words = f"{rule.title} {equation_text(rules, equation)}"
        if not low <= equation.total <= high:
            reason = f"{words} (its terms reach only {low}..{high})"
            return _contradiction(state, "sum_bounds", reason, [c for c, _ in open_terms])
        removed: list[Move] = []
        kept: list[str] = []
        for (cell, k), (term_low, term_high) in zip(equation.terms, ranges, strict=True):
            if state.values[cell]:
                continue
            floor = equation.total - (high - term_high)
            ceiling = equation.total - (low - term_low)
            gone = [d for d in state.candidates(cell) if not floor <= k * d <= ceiling]
            if gone:
                removed += [(cell, d) for d in gone]
                left = [d for d in state.candidates(cell) if d not in gone]
                if left:
                    span = f"{left[0]}-{left[-1]}" if len(left) > 1 else str(left[0])
                    kept.append(f"{rules.cell_name(cell)} {span}")
        if removed:
            reason = (
                f"{words} (its terms reach {low}..{high}; {', '.join(kept) or 'no digit fits'})"
            )
            return Step("sum_bounds", reason, eliminations=tuple(removed))
    return None


def equation_fillings(
    state: Candidates, equation: Equation
) -> tuple[list[int], list[tuple[int, ...]]] | None:
    """(per open cell, the digits some filling uses; the fillings) of the equation's open
    cells: their candidates, distinct where two of them are peers, adding up to what the
    placed cells leave. None when they could be filled more than MAX_FILLINGS ways."""
    open_terms = [(c, k) for c, k in equation.terms if not state.values[c]]
    masks = [state.masks[c] for c, _ in open_terms]
    if prod(mask.bit_count() for mask in masks) > MAX_FILLINGS:
        return None
    rest = equation.total - sum(k * state.values[c] for c, k in equation.terms if state.values[c])
    peers = state.tables.peers
    cells = [c for c, _ in open_terms]
    # the cells before each that it must differ from
    apart = [[j for j in range(i) if cells[j] in peers[cells[i]]] for i in range(len(cells))]
    # the least and greatest sums the cells from i on can still add
    lows, highs = [0] * (len(cells) + 1), [0] * (len(cells) + 1)
    for i in range(len(cells) - 1, -1, -1):
        term_low, term_high = _term_range(open_terms[i][1], masks[i])
        lows[i], highs[i] = lows[i + 1] + term_low, highs[i + 1] + term_high
    supported = [0] * len(cells)
    fillings: list[tuple[int, ...]] = []
    digits: list[int] = []

    def extend(i: int, total: int) -> None:
        if i == len(cells):
            if total == rest:
                fillings.append(tuple(digits))
                for place, d in enumerate(digits):
                    supported[place] |= bit(d)
            return
        k = open_terms[i][1]
        for d in digits_of(masks[i]):
            reached = total + k * d
            if not lows[i + 1] <= rest - reached <= highs[i + 1]:
                continue
            if any(digits[j] == d for j in apart[i]):
                continue
            digits.append(d)
            extend(i + 1, reached)
            digits.pop()

    extend(0, 0)
    return supported, fillings


def _fillings_words(rules: Rules, cells: Sequence[int], fillings: list[tuple[int, ...]]) -> str:
    names = "/".join(rules.cell_name(c) for c in cells)
    if len(fillings) > MAX_LISTED:
        return f"{len(fillings)} fillings of {names} are left"
    listed = " or ".join("/".join(str(d) for d in filling) for filling in fillings)
    return f"{names} = {listed}"


def sum_combinations(state: Candidates) -> Step | None:
    """The fillings of an equation's open cells (distinct where they see each other) that
    add up to what its placed cells leave: a candidate none uses goes:
    `little killer r1c1 + r2c2 + r3c3 = 6 (r1c1/r2c2/r3c3 = 1/2/3 or 3/2/1) removes ...`."""
    rules = state.rules
    for index, rule in enumerate(state.tables.equations):
        equation = rule.equation
        cells = [c for c, _ in equation.terms if not state.values[c]]
        if not cells or any(not state.masks[c] for c in cells):
            continue
        # what the search reads: the cells' values and candidates (peers are the rules')
        key = (
            "sum_combinations",
            index,
            tuple((state.values[c], state.masks[c]) for c, _ in equation.terms),
        )
        if key in state.barren:
            continue
        found = equation_fillings(state, equation)
        if found is None:
            state.barren.add(key)
            continue
        supported, fillings = found
        words = f"{rule.title} {equation_text(rules, equation)}"
        if not fillings:
            reason = f"{words} (no filling of {cells_text(rules, cells)} adds up)"
            return _contradiction(state, "sum_combinations", reason, cells)
        removed = _unsupported(state, cells, supported)
        if removed:
            reason = f"{words} ({_fillings_words(rules, cells, fillings)})"
            return Step("sum_combinations", reason, eliminations=removed)
        state.barren.add(key)
    return None


# ----- tables of admissible fillings -----------------------------------------------------------


def table(state: Candidates) -> Step | None:
    """A table keeps the rows each of whose digits its cell can still hold (0: any digit);
    a candidate none of them uses goes: `sandwich r1c1, ..., r1c9 (2 of its 14 fillings
    left) removes ...`."""
    rules = state.rules
    for index, rule in enumerate(state.tables.fillings):
        cells = rule.table.cells
        masks = [_mask_of(state, c) for c in cells]
        if all(state.values[c] for c in cells) or not all(masks):
            continue
        key = ("table", index, tuple(masks), tuple(state.values[c] for c in cells))
        if key in state.barren:  # the same digits found nothing before
            continue
        # candidates only shrink during a run, so the rows left last time are the ones to
        # filter (a skyscraper's table has tens of thousands)
        possible = [
            row
            for row in state.derived.get(("table rows", index), rule.table.rows)
            if all(not d or mask & bit(d) for d, mask in zip(row, masks, strict=True))
        ]
        state.derived[("table rows", index)] = possible
        words = f"{rule.title} {cells_text(rules, cells)}"
        if not possible:
            reason = f"{words} (none of its {len(rule.table.rows)} fillings left)"
            return _contradiction(state, "table", reason, cells)
        supported = [0] * len(cells)
        for row in possible:
            for place, d in enumerate(row):
                supported[place] |= bit(d) if d else state.full
        removed = _unsupported(state, cells, supported)
        if removed:
            left = f"{len(possible)} of its {len(rule.table.rows)} fillings left"
            return Step("table", f"{words} ({left})", eliminations=removed)
        state.barren.add(key)
    return None


def house_table(state: Candidates) -> Step | None:
    """A table over a whole house (a sandwich, X-sum or skyscraper clue's row): the cells a
    filling leaves open (0) hold exactly the house's digits it does not name, so a filling
    whose open cells cannot take them is gone, and an open cell keeps only those digits:
    `sandwich r1c1, ..., r1c9 with its row (3 of its 14 fillings left) removes ...`."""
    rules = state.rules
    for index, rule in enumerate(state.tables.fillings):
        if not rule.houses:
            continue
        cells = rule.table.cells
        masks = [_mask_of(state, c) for c in cells]
        if all(state.values[c] for c in cells) or not all(masks):
            continue
        key = ("house_table", index, tuple(masks), tuple(state.values[c] for c in cells))
        if key in state.barren:
            continue
        supported = [0] * len(cells)
        kept = []
        # the rows left last time (candidates only shrink during a run)
        for row in state.derived.get(("house rows", index), rule.table.rows):
            if not all(not d or mask & bit(d) for d, mask in zip(row, masks, strict=True)):
                continue
            support = _house_row(state, rule.houses, row, masks)
            if support is None:
                continue
            kept.append(row)
            for place, keep in enumerate(support):
                supported[place] |= keep
        state.derived[("house rows", index)] = kept
        possible = len(kept)
        words = f"{rule.title} {cells_text(rules, cells)} with its {_house_word(state, rule)}"
        if not possible:
            reason = f"{words} (none of its {len(rule.table.rows)} fillings left)"
            return _contradiction(state, "house_table", reason, cells)
        removed = _unsupported(state, cells, supported)
        if removed:
            left = f"{possible} of its {len(rule.table.rows)} fillings left"
            return Step("house_table", f"{words} ({left})", eliminations=removed)
        state.barren.add(key)
    return None


def _house_row(
    state: Candidates, houses: Sequence[tuple[int, ...]], row: Sequence[int], masks: Sequence[int]
) -> list[int] | None:
    """Per cell, the digits this row allows it once its houses are read (None: it cannot
    be filled): a named digit; in a house, an open cell one of the digits the row does not
    name there; elsewhere any digit."""
    support = [bit(d) if d else state.full for d in row]
    for positions in houses:
        named = 0
        open_at = []
        for p in positions:
            d = row[p]
            if d:
                if named & bit(d):
                    return None  # a digit twice in a house
                named |= bit(d)
            else:
                open_at.append(p)
        rest = state.full & ~named
        reach = 0
        for p in open_at:
            keep = masks[p] & rest & support[p]
            if not keep:
                return None
            support[p] = keep
            reach |= keep
        if reach != rest:
            return None  # a digit the house still needs fits none of the open cells
    return support


def _house_word(state: Candidates, rule: FillingRule) -> str:
    cells = rule.table.cells
    names = [
        state.families.names[i]
        for positions in rule.houses
        for i in state.families.houses
        if set(state.families.units[i]) == {cells[p] for p in positions}
    ]
    return " and ".join(names) if names else "house"


# ----- automata read along a line ---------------------------------------------------------------


def line_clue(state: Candidates) -> Step | None:
    """An outside clue read along its line from the clue's side, as its automaton: a
    candidate goes when no filling of the line with distinct digits (its cells' candidates,
    placed cells with their digit) keeps the clue with that digit in that cell: `sandwich
    sum 31 at r0c3 (no filling of column 3 with distinct digits that keeps the clue puts
    them there) removes 1/2 from r2c3`. Where the line is still too open to unroll with its
    digits distinct (`automata.DISTINCT_NODES`), the paths that may repeat a digit are
    read instead (fewer eliminations, each as sound)."""
    for index, rule in enumerate(state.tables.automata):
        cells = rule.cells
        masks = tuple(_mask_of(state, c) for c in cells)
        if all(state.values[c] for c in cells) or not all(masks):
            continue  # full (the final check reads it) or a cell without candidates
        key = ("line_clue", index, masks)
        if key in state.barren:
            continue
        try:
            narrowed = distinct_support(rule.steps, rule.accepting, masks)
        except TooManyNodes:
            narrowed = regular_support(rule.steps, rule.accepting, masks)
        if narrowed is None:
            reason = f"{rule.name} (no filling of {rule.line} with distinct digits keeps it)"
            return _contradiction(state, "line_clue", reason, cells)
        removed = tuple(
            (c, d)
            for c, mask, keep in zip(cells, masks, narrowed, strict=True)
            if not state.values[c]
            for d in digits_of(mask & ~keep)
        )
        if removed:
            reason = (
                f"{rule.name} (no filling of {rule.line} with distinct digits that keeps "
                "the clue puts them there)"
            )
            return Step("line_clue", reason, eliminations=removed)
        state.barren.add(key)
    return None
