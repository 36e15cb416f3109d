"""A setter's rules read whole, as a solver explains them aloud:

- `rule_fillings`: every piece of one rule at once (an arrow's or a zipper line's several
  equations, a between line's ends with all its middle cells, a renban or whispers line as a
  whole, not pair by pair), digits distinct wherever two cells see each other: a candidate no
  filling of the whole rule uses goes;
- `rule_house`: a rule and a house together. When a digit's places in a house all lie on the
  rule, the rule must hold it there ("the 1 of row 3 is on the arrow"), which keeps only the
  fillings that do; and a digit every filling puts where a cell off the rule sees it leaves
  that cell ("every filling of the arrow puts a 1 on its line, which r5c5 sees whole");
- `cross_rules`: two rules that share a cell, or whose cells see each other, read
  together: their fillings must agree on the shared cells and keep distinct digits where
  their cells see each other.

The fillings are enumerated over the cells' candidates, placed cells counting with their
digit, within a bound on the search (`MAX_NODES`): a rule or a pair of rules past it is left
to the other techniques. Each result is kept for as long as the cells it read are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Move,
    Step,
    bit,
    cells_text,
    digits_of,
)
from sudoku_bench.solvers.engines.logic.structure import Relation, RuleGroup, logic_tables

MAX_NODES = 20_000  # digits tried in one enumeration before it is given up
# the same for two rules that only see each other: on a grid still nearly empty most such
# pairs would run to the bound at every step and find nothing
MAX_SEEING_NODES = 3_000
MAX_KEPT = 4_000  # fillings kept for `rule_house` (past that only the candidates are)
MAX_ROWS = 3_000  # a table with more rows left than this is not read in a joint filling
MAX_LISTED = 4  # fillings written out in a step's words


def has(key: str) -> Callable[[Rules], bool]:
    """Whether the rules call for the technique `key` (their encoders say so)."""

    def applies(rules: Rules) -> bool:
        return key in logic_tables(rules).techniques

    applies.__name__ = f"has_{key}"
    return applies


@dataclass(frozen=True)
class Joint:
    """The fillings of some cells under some pieces: per cell, the digits a filling uses;
    the fillings themselves (digits in `cells` order) unless there were too many."""

    cells: tuple[int, ...]
    supported: tuple[int, ...]
    fillings: tuple[tuple[int, ...], ...] | None


def _mask_of(state: Candidates, cell: int) -> int:
    value = state.values[cell]
    return bit(value) if value else state.masks[cell]


def joint_fillings(
    state: Candidates, groups: Sequence[RuleGroup], max_nodes: int = MAX_NODES
) -> Joint | None:
    """The fillings of the groups' cells that keep every piece of every group, with distinct
    digits in cells that see each other. None when the search tries more than `max_nodes`
    digits or a table has more than `MAX_ROWS` rows left."""
    tables = state.tables
    cells = tuple(sorted({c for group in groups for c in group.cells}))
    masks = {c: _mask_of(state, c) for c in cells}
    count = {c: 0 for c in cells}
    equations = sorted({i for group in groups for i in group.equations})
    table_ids = sorted({i for group in groups for i in group.tables})
    relation_ids = sorted({i for group in groups for i in group.relations})
    for i in equations:
        for c, _ in tables.equations[i].equation.terms:
            count[c] += 1
    for i in table_ids:
        for c in tables.fillings[i].table.cells:
            count[c] += 1
    order = sorted(cells, key=lambda c: (masks[c].bit_count(), -count[c], c))
    depth = {c: k for k, c in enumerate(order)}
    # what to check once a cell has its digit: its peers among the earlier cells, the
    # relations and tables whose last cell it is, and the equations it is in
    peers = [[p for p in tables.peers[c] if p in depth and depth[p] < k] for k, c in
             enumerate(order)]  # fmt: skip
    pair_checks: list[list[tuple[int, Relation]]] = [[] for _ in order]
    for i in relation_ids:
        relation = tables.relations[i]
        first, second = relation.first, relation.second
        later = max(depth[first], depth[second])
        pair_checks[later].append((i, relation))
    table_checks: list[list[tuple[tuple[int, ...], set[tuple[int, ...]], list[tuple[int, ...]]]]]
    table_checks = [[] for _ in order]
    for i in table_ids:
        table = tables.fillings[i].table
        rows = [
            row
            for row in table.rows
            if all(not d or masks[c] & bit(d) for c, d in zip(table.cells, row, strict=True))
        ]
        if len(rows) > MAX_ROWS:
            return None
        exact = {row for row in rows if all(row)}
        loose = [row for row in rows if not all(row)]
        last = max(depth[c] for c in table.cells)
        table_checks[last].append((table.cells, exact, loose))
    sum_checks: list[list[tuple[tuple[tuple[int, int], ...], int]]] = [[] for _ in order]
    for i in equations:
        equation = tables.equations[i].equation
        for c, _ in equation.terms:
            sum_checks[depth[c]].append((equation.terms, equation.total))
    lows = {c: (masks[c] & -masks[c]).bit_length() for c in cells}
    highs = {c: masks[c].bit_length() for c in cells}
    digit: dict[int, int] = {}
    supported = dict.fromkeys(cells, 0)
    fillings: list[tuple[int, ...]] = []
    nodes = 0
    too_many = False

    def holds(k: int) -> bool:
        for p in peers[k]:
            if digit[p] == digit[order[k]]:
                return False
        for _, relation in pair_checks[k]:
            if not relation.forward[digit[relation.first] - 1] & bit(digit[relation.second]):
                return False
        for table_cells, exact, loose in table_checks[k]:
            filled = tuple(digit[c] for c in table_cells)
            if filled not in exact and not any(
                all(not d or d == e for d, e in zip(row, filled, strict=True)) for row in loose
            ):
                return False
        for terms, total in sum_checks[k]:
            low = high = 0
            for c, coefficient in terms:
                if c in digit:
                    low += coefficient * digit[c]
                    high += coefficient * digit[c]
                elif coefficient > 0:
                    low += coefficient * lows[c]
                    high += coefficient * highs[c]
                else:
                    low += coefficient * highs[c]
                    high += coefficient * lows[c]
            if not low <= total <= high:
                return False
        return True

    def extend(k: int) -> bool:
        """False once the search passes its bound."""
        nonlocal nodes, too_many
        if k == len(order):
            for c in cells:
                supported[c] |= bit(digit[c])
            if len(fillings) < MAX_KEPT:
                fillings.append(tuple(digit[c] for c in cells))
            else:
                too_many = True
            return True
        cell = order[k]
        for d in digits_of(masks[cell]):
            nodes += 1
            if nodes > max_nodes:
                return False
            digit[cell] = d
            if holds(k) and not extend(k + 1):
                return False
        digit.pop(cell, None)
        return True

    if not extend(0):
        return None
    return Joint(cells, tuple(supported[c] for c in cells), None if too_many else tuple(fillings))


def _entry(
    state: Candidates, kind: str, ids: tuple[int, ...]
) -> tuple[Joint | None, dict[Any, Any]]:
    """`joint_fillings` of the groups `ids` and a memo of what was derived from them, kept
    while the groups' cells are unchanged (the latest only: fillings take room)."""
    groups = [state.tables.groups[i] for i in ids]
    if any(state.tables.fillings[t].houses for group in groups for t in group.tables):
        return None, {}  # a clue over a whole house (a sandwich): `house_table` reads it
    cells = sorted({c for group in groups for c in group.cells})
    reads = tuple((state.values[c], state.masks[c]) for c in cells)
    kept = state.derived.get((kind, ids))
    if kept is None or kept[0] != reads:
        shared = len(cells) < sum(len(group.cells) for group in groups)
        bound = MAX_NODES if len(groups) == 1 or shared else MAX_SEEING_NODES
        kept = (reads, joint_fillings(state, groups, bound), {})
        state.derived[(kind, ids)] = kept
    return kept[1], kept[2]


def _joint(state: Candidates, kind: str, ids: tuple[int, ...]) -> Joint | None:
    return _entry(state, kind, ids)[0]


def _holding(
    fillings: Sequence[tuple[int, ...]], d: int, spots: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """The fillings that put `d` at one of the positions `spots`."""
    return [f for f in fillings if any(f[i] == d for i in spots)]


def _removed(state: Candidates, joint: Joint, supported: Sequence[int]) -> tuple[Move, ...]:
    return tuple(
        (c, d)
        for c, keep in zip(joint.cells, supported, strict=True)
        if not state.values[c]
        for d in digits_of(state.masks[c] & ~keep)
    )


def _left_words(state: Candidates, joint: Joint, fillings: Sequence[tuple[int, ...]]) -> str:
    """`r1c1/r1c2 = 1/3 or 3/1` for a few fillings (open cells only), else their count."""
    open_at = [i for i, c in enumerate(joint.cells) if not state.values[c]]
    shown = sorted({tuple(f[i] for i in open_at) for f in fillings})
    if len(shown) > MAX_LISTED or not open_at:
        return f"{len(fillings)} fillings left"
    names = "/".join(state.rules.cell_name(joint.cells[i]) for i in open_at)
    return f"{names} = " + " or ".join("/".join(map(str, f)) for f in shown)


def _contradiction(state: Candidates, technique: str, reason: str, cells: Sequence[int]) -> Step:
    moves = tuple((c, d) for c in cells if not state.values[c] for d in state.candidates(c))
    return Step(technique, reason, eliminations=moves)


def _single_piece(group: RuleGroup) -> bool:
    """A rule of one piece, which its own technique reads whole already."""
    return len(group.equations) + len(group.tables) + len(group.relations) <= 1


def rule_fillings(state: Candidates) -> Step | None:
    """A rule of several pieces read whole: `between line r1c1>r2c2>r3c3>r3c4 read whole
    (r1c1/r3c4 = 1/5 or 5/1) removes ...`."""
    for index, group in enumerate(state.tables.groups):
        if _single_piece(group) or all(state.values[c] for c in group.cells):
            continue
        joint = _joint(state, "rule", (index,))
        if joint is None:
            continue
        words = f"{group.name} read whole"
        if joint.fillings is not None and not joint.fillings:
            return _contradiction(
                state, "rule_fillings", f"{words} (no filling is left)", group.cells
            )
        removed = _removed(state, joint, joint.supported)
        if removed:
            left = _left_words(state, joint, joint.fillings) if joint.fillings else "its fillings"
            return Step("rule_fillings", f"{words} ({left})", eliminations=removed)
    return None


def _supported(joint: Joint, fillings: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    supported = [0] * len(joint.cells)
    for f in fillings:
        for i, e in enumerate(f):
            supported[i] |= bit(e)
    return tuple(supported)


def rule_house(state: Candidates) -> Step | None:
    """A rule and a house: a digit whose places in the house all lie on the rule must be
    there (`the 1 of row 3 can only be on arrow ...`), which keeps the fillings that put it
    there; and a digit every filling puts where a cell off the rule sees it leaves that cell
    (`every filling of arrow r5c4 puts a 1 in one of r4c5, r5c6, r6c5, and r5c5 sees each of
    them`)."""
    rules = state.rules
    shape = state.families
    for index, group in enumerate(state.tables.groups):
        if all(state.values[c] for c in group.cells):
            continue
        joint, memo = _entry(state, "rule", (index,))
        if joint is None or not joint.fillings:
            continue
        fillings = joint.fillings
        position = {c: i for i, c in enumerate(joint.cells)}
        for house in shape.houses:
            unit = shape.units[house]
            if not any(c in position for c in unit):
                continue
            for d in rules.digits:
                if state.unit_placed[house] & bit(d):
                    continue
                places = state.places(unit, d)
                if not places or not all(c in position for c in places):
                    continue
                spots = tuple(position[c] for c in places)
                if (spots, d) not in memo:
                    memo[spots, d] = _holding(fillings, d, spots)
                kept = memo[spots, d]
                removed = _removed(state, joint, _supported(joint, kept))
                if removed:
                    left = _left_words(state, joint, kept) if kept else "no filling left"
                    return Step(
                        "rule_house",
                        f"the {d} of {shape.names[house]} can only be on {group.name} "
                        f"({cells_text(rules, places)}), so it holds {d} there ({left})",
                        eliminations=removed,
                    )
        if "seen" not in memo:
            memo["seen"] = _seen_by_every_filling(state, joint)
        seen_by = memo["seen"]
        for d, seen, places in seen_by:
            removed = tuple((c, d) for c in seen if not state.values[c] and state.masks[c] & bit(d))
            if removed:
                return Step(
                    "rule_house",
                    f"every filling of {group.name} puts a {d} in one of "
                    f"{cells_text(rules, places)}, and {cells_text(rules, [c for c, _ in removed])} "
                    f"{'sees' if len(removed) == 1 else 'see'} each of them",
                    eliminations=removed,
                )
    return None


def _seen_by_every_filling(
    state: Candidates, joint: Joint
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Per digit, the cells off the rule that see one of its places in every filling (in
    one of their houses or by another rule that keeps digits apart), with those places."""
    peers = state.tables.peers
    fillings = joint.fillings or ()
    found = []
    for d in state.rules.digits:
        seen: set[int] | None = None
        places: set[int] = set()
        for f in fillings:
            here: set[int] = set()
            for c, e in zip(joint.cells, f, strict=True):
                if e == d:
                    here.update(peers[c])
                    places.add(c)
            seen = here if seen is None else seen & here
            if not seen:
                break
        if seen:
            off = tuple(sorted(seen - set(joint.cells)))
            if off:
                found.append((d, off, tuple(sorted(places))))
    return found


def cross_rules(state: Candidates) -> Step | None:
    """Two rules that share a cell or see each other, read together: `arrow ... and arrow
    ... share r2c6, read together (9 fillings left) removes ...`."""
    rules = state.rules
    groups = state.tables.groups
    for i, j in state.tables.crossing:
        first, second = groups[i], groups[j]
        if all(state.values[c] for c in (*first.cells, *second.cells)):
            continue
        joint = _joint(state, "cross", (i, j))
        if joint is None:
            continue
        shared = sorted(set(first.cells) & set(second.cells))
        if shared:
            words = f"{first.name} and {second.name} share {cells_text(rules, shared)}"
        else:
            words = f"{first.name} and {second.name} see each other"
        if joint.fillings is not None and not joint.fillings:
            return _contradiction(
                state, "cross_rules", f"{words}: no filling of both is left", joint.cells
            )
        removed = _removed(state, joint, joint.supported)
        if removed:
            left = _left_words(state, joint, joint.fillings) if joint.fillings else "fillings"
            return Step("cross_rules", f"{words}, read together ({left})", eliminations=removed)
    return None
