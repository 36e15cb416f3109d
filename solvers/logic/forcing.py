"""Last resort, clearly labelled: forcing chains and forcing nets (level "extreme").

Both try each possibility of one choice (each candidate of a cell, or each place of a digit
in a house) and follow what it implies. Whatever every possibility implies is true; a
possibility that implies a contradiction is false. They are sound, but they are trial and
error made systematic, which is why a teacher reaches for them last.

- Forcing chains follow only the links of the position as it is (a bivalue cell, a digit's
  two places in a house, cells that see each other): each consequence has one reason.
- Forcing nets place each assumption on a copy of the grid and follow naked and hidden
  singles as they appear: a consequence may need several earlier ones (a net, not a chain).
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.rules import Rules
from solvers.logic.links import CELL, UNIT, Graph, bits, build, closure, eureka, path
from solvers.logic.state import Candidates, Move, Step, bit, digits_of

MAX_BRANCHES = 4  # cells and house-digits with more possibilities are not tried


# ----- forcing chains: the static links ------------------------------------------------------


def _dead_cell(graph: Graph, off: int) -> int | None:
    """A cell all of whose candidates are off, if any."""
    left = graph.present & ~off
    for cell, nodes in _empty_cell_bits(graph):
        if not left & nodes:
            return cell
    return None


def _empty_cell_bits(graph: Graph) -> list[tuple[int, int]]:
    """Each empty cell with its candidate nodes' bits, kept for the position."""
    state = graph.state
    key = ("empty cell bits",)
    if key not in state.memo:
        tables = graph.tables
        state.memo[key] = [(cell, tables.cell_bits[cell]) for cell in state.empty_cells()]
    found: list[tuple[int, int]] = state.memo[key]
    return found


def forcing_chains(state: Candidates) -> Step | None:
    """A candidate whose chain of consequences contradicts itself is false; a conclusion that
    every candidate of a cell (or every place of a digit in a house) leads to is true."""
    graph = build(state, CELL | UNIT)
    n = graph.tables.size
    rules = state.rules
    closures: dict[int, tuple[int, int]] = {}
    # contradiction: assuming a candidate true turns some candidate both on and off
    for node in bits(graph.present):
        on, off, _ = closure(graph, 1 << node, 0)
        closures[node] = (on, off)
        clash = on & off
        dead = None if clash else _dead_cell(graph, off)
        if clash or dead is not None:
            cell, digit = divmod(node, n)
            if clash:
                wrong = next(bits(clash))
                chain = path(graph, node, True, wrong, True)
                why = f"{eureka(graph, chain, True)} and {graph.name(wrong)} is also forced off"
            else:
                assert dead is not None
                why = f"{rules.cell_name(dead)} loses every candidate"
            return Step(
                "forcing_chain",
                f"contradiction forcing chain (if {rules.cell_name(cell)} were {digit + 1}, {why})",
                eliminations=((cell, digit + 1),),
            )
    for options, what in _choices(state):
        nodes = [cell * n + digit - 1 for cell, digit in options]
        results = [closures[node] for node in nodes]
        common_on = common_off = -1
        for on, off in results:
            common_on &= on
            common_off &= off
        common_off &= graph.present
        if common_on:
            goal = next(bits(common_on))
            cell, digit = divmod(goal, n)
            return _step(graph, state, "forcing_chain", what, nodes, goal, True,
                         placements=((cell, digit + 1),))  # fmt: skip
        if common_off:
            goal = next(bits(common_off))
            removed = tuple((node // n, node % n + 1) for node in bits(common_off))
            return _step(graph, state, "forcing_chain", what, nodes, goal, False,
                         eliminations=removed)  # fmt: skip
    return None


def _choices(state: Candidates) -> list[tuple[list[Move], str]]:
    """Each cell's candidates, then each house's places of a digit: two to MAX_BRANCHES."""
    rules = state.rules
    found: list[tuple[list[Move], str]] = []
    for count in range(2, MAX_BRANCHES + 1):
        for cell in state.empty_cells():
            if state.masks[cell].bit_count() == count:
                found.append(
                    ([(cell, d) for d in state.candidates(cell)], f"cell {rules.cell_name(cell)}")
                )
        for index in rules.houses:
            for digit in rules.digits:
                if state.unit_placed[index] & bit(digit):
                    continue
                places = state.places(rules.units[index], digit)
                if len(places) == count:
                    found.append(
                        ([(c, digit) for c in places], f"the {digit}s of {rules.unit_names[index]}")
                    )
    return found


def _step(
    graph: Graph,
    state: Candidates,
    key: str,
    what: str,
    nodes: list[int],
    goal: int,
    goal_on: bool,
    placements: tuple[Move, ...] = (),
    eliminations: tuple[Move, ...] = (),
) -> Step:
    branches = []
    for node in nodes:
        chain = path(graph, node, True, goal, goal_on)
        branches.append(eureka(graph, chain, True) if len(chain) > 1 else f"{graph.name(node)}")
    kind = "cell" if what.startswith("cell") else "unit"
    return Step(
        key,
        f"{kind} forcing chains on {what} (" + "; ".join(branches) + ")",
        placements=placements,
        eliminations=eliminations,
    )


# ----- forcing nets: propagation on a copy -----------------------------------------------------


@dataclass
class Outcome:
    """What one assumption led to by singles: the values placed and candidates left, or the
    contradiction it reached."""

    values: list[int]
    masks: list[int]
    placed: int  # how many singles followed
    contradiction: str = ""


def propagate(state: Candidates, cell: int, digit: int) -> Outcome:
    """Place `digit` in `cell` on a copy and follow naked and hidden singles (every rule that
    makes two cells differ, non-consecutive neighbours too) until nothing follows."""
    rules = state.rules
    values = list(state.values)
    masks = list(state.masks)
    peers = rules.peers
    neighbours = rules.neighbours
    houses = [rules.units[i] for i in rules.houses]
    queue = [(cell, digit)]
    placed = -1
    while queue:
        while queue:
            c, d = queue.pop()
            if values[c]:
                if values[c] != d:
                    return Outcome(
                        values, masks, placed, f"{rules.cell_name(c)} would be {values[c]} and {d}"
                    )
                continue
            if not masks[c] >> (d - 1) & 1:
                return Outcome(values, masks, placed, f"{rules.cell_name(c)} cannot be {d}")
            values[c] = d
            masks[c] = 0
            placed += 1
            clear = ~bit(d)
            near = 0
            if d > 1:
                near |= bit(d - 1)
            if d < rules.size:
                near |= bit(d + 1)
            touched = list(peers[c])
            for p in touched:
                masks[p] &= clear
            for p in neighbours[c]:
                masks[p] &= ~near
                touched.append(p)
            for p in touched:
                if not values[p]:
                    m = masks[p]
                    if not m:
                        return Outcome(
                            values, masks, placed, f"{rules.cell_name(p)} loses every candidate"
                        )
                    if not m & (m - 1):
                        queue.append((p, m.bit_length()))
        for unit in houses:
            once = twice = placed_mask = 0
            for c in unit:
                if values[c]:
                    placed_mask |= bit(values[c])
                m = masks[c]
                twice |= once & m
                once |= m
            missing = ((1 << rules.size) - 1) & ~(once | placed_mask)
            if missing:
                d = digits_of(missing)[0]
                return Outcome(values, masks, placed, f"{d} has no place left in a house")
            single = once & ~twice & ~placed_mask
            for d in digits_of(single):
                for c in unit:
                    if masks[c] & bit(d):
                        queue.append((c, d))
                        break
    return Outcome(values, masks, placed)


def forcing_nets(state: Candidates) -> Step | None:
    """Forcing nets: each possibility placed on a copy, singles followed as far as they go."""
    rules = state.rules
    cache: dict[Move, Outcome] = {}

    def outcome(move: Move) -> Outcome:
        if move not in cache:
            cache[move] = propagate(state, *move)
        return cache[move]

    for cell in state.empty_cells():
        for digit in state.candidates(cell):
            result = outcome((cell, digit))
            if result.contradiction:
                return Step(
                    "forcing_net",
                    f"contradiction forcing net (if {rules.cell_name(cell)} were {digit}, "
                    f"{result.placed} singles later {result.contradiction})",
                    eliminations=((cell, digit),),
                )
    for options, what in _choices(state):
        results = [outcome(move) for move in options]
        agreed = _agreement(state, results)
        if agreed:
            placements, eliminations = agreed
            branches = "; ".join(
                f"{rules.cell_name(c)} = {d} leads by {r.placed} singles"
                for (c, d), r in zip(options, results, strict=True)
            )
            kind = "cell" if what.startswith("cell") else "unit"
            return Step(
                "forcing_net",
                f"{kind} forcing net on {what} ({branches}, each to the same result)",
                placements=placements,
                eliminations=eliminations,
            )
    return None


def _agreement(
    state: Candidates, results: list[Outcome]
) -> tuple[tuple[Move, ...], tuple[Move, ...]] | None:
    """Placements every outcome makes, else eliminations every outcome makes."""
    placements = []
    for cell in state.empty_cells():
        value = results[0].values[cell]
        if value and all(r.values[cell] == value for r in results[1:]):
            placements.append((cell, value))
    if placements:
        return tuple(placements[:1]), ()
    eliminations = []
    for cell in state.empty_cells():
        gone = state.masks[cell]
        for r in results:
            kept = bit(r.values[cell]) if r.values[cell] else r.masks[cell]
            gone &= ~kept
        eliminations += [(cell, d) for d in digits_of(gone)]
    if eliminations:
        return (), tuple(eliminations)
    return None


def applies(rules: Rules) -> bool:
    return True
