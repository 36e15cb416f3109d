"""Last resort, clearly labelled: forcing chains and forcing nets (level "extreme").

Both try each possibility of one choice (each candidate of a cell, or each place of a digit
in a house) and follow what it implies. Whatever every possibility implies is true; a
possibility that implies a contradiction is false. They are sound, but they are trial and
error made systematic, which is why a teacher reaches for them last.

- Forcing chains follow only the links of the position as it is (a bivalue cell, a digit's
  two places in a house, cells that see each other): each consequence has one reason.
- Forcing nets place each assumption on a copy of the grid and follow naked and hidden
  singles as they appear: a consequence may need several earlier ones (a net, not a chain).
- Nested forcing nets also remove, on each assumption's copy, the candidates whose own
  forcing net contradicts it, and follow the singles that this gives (nets inside a net,
  two levels deep, within a budget of inner nets).

Each step is rated as Sudoku Explainer rates chains (`ChainingHint.getLengthDifficulty` and
`Chaining.getDifficulty` in SE's source): a base by kind, static forcing chains 8.0, dynamic
ones (our nets: singles followed on a copy) 8.5, dynamic chains with dynamic chains nested
inside 10.5 (SE's nesting level 4), plus 0.1 each time the step's size, less 2, passes the
next of 4, 6, 8, 12, 16, 24, 32, 48, ... (alternately times 3/2 and 4/3). The size is the
candidates the chains or nets set or remove, inner nets included, as SE counts a chain's
potentials. A forcing net's text lists the singles of each branch in order, so that a
learner can replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic import clock
from sudoku_bench.solvers.engines.logic.links import (
    CELL,
    UNIT,
    Graph,
    bits,
    build,
    closure,
    eureka,
    path,
)
from sudoku_bench.solvers.engines.logic.state import (
    Candidates,
    Move,
    Step,
    bit,
    digits_of,
    removals_text,
)
from sudoku_bench.solvers.engines.logic.structure import logic_tables
from sudoku_bench.solvers.tables import by_shape

MAX_BRANCHES = 4  # cells and house-digits with more possibilities are not tried
# nested forcing nets give up after this many inner nets (about a second), so a puzzle they
# cannot crack (one with several solutions, say) is not searched for minutes; a step on the
# first 100 of forum-hardest needed at most 7,610
NESTED_BUDGET = 20_000
# Sudoku Explainer's bases (see the module)
STATIC_BASE = 8.0
DYNAMIC_BASE = 8.5
NESTED_BASE = 10.5


def length_bonus(size: int) -> float:
    """Sudoku Explainer's addition for a chain of `size` potentials: 0.1 per threshold
    passed (4, 6, 8, 12, 16, 24, 32, ...: alternately times 3/2 and 4/3, rounded down)."""
    added = 0
    ceiling = 4
    length = size - 2
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return added / 10


def rated(base: float, size: int) -> float:
    """A step's weight: its base plus the length bonus, to one decimal."""
    return round(base + length_bonus(size), 1)


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
                weight=rated(STATIC_BASE, (on | off).bit_count()),
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
    size = 0
    for node in nodes:
        chain = path(graph, node, True, goal, goal_on)
        size += len(chain)
        branches.append(eureka(graph, chain, True) if len(chain) > 1 else f"{graph.name(node)}")
    kind = "cell" if what.startswith("cell") else "unit"
    return Step(
        key,
        f"{kind} forcing chains on {what} (" + "; ".join(branches) + ")",
        placements=placements,
        eliminations=eliminations,
        weight=rated(STATIC_BASE, size),
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
    singles: tuple[Move, ...] = ()  # the singles placed, in order
    size: int = 0  # candidates set or removed on the copy: the net's size, as SE counts it


def propagate(state: Candidates, cell: int, digit: int) -> Outcome:
    """Place `digit` in `cell` on a copy and follow naked and hidden singles (every rule that
    makes two cells differ, non-consecutive neighbours and pair relations too) until nothing
    follows."""
    clock.check()  # the nets propagate every candidate: a search's deadline may pass
    values = list(state.values)
    masks = list(state.masks)
    trail: list[Move] = []
    placed, contradiction = follow_singles(state.rules, values, masks, [(cell, digit)], trail)
    size = sum(
        (old & ~(1 << (values[c] - 1) if values[c] else masks[c])).bit_count()
        for c, old in enumerate(state.masks)
        if old
    )
    # the assumption is no single
    return Outcome(values, masks, placed - 1, contradiction, tuple(trail[1:]), size + placed)


def singles_text(rules: Rules, singles: tuple[Move, ...]) -> str:
    """The singles of a net in order, for a learner to replay: `r1c2=3, r4c5=7`."""
    return ", ".join(f"{rules.cell_name(c)}={d}" for c, d in singles) or "none"


def follow_singles(
    rules: Rules,
    values: list[int],
    masks: list[int],
    queue: list[Move],
    trail: list[Move] | None = None,
) -> tuple[int, str]:
    """Place the moves of `queue` in `values`/`masks` (changed in place) and every naked and
    hidden single that follows: (how many placements, the contradiction reached or ""); the
    placements are appended to `trail` when given."""
    tables = logic_tables(rules)
    peers = tables.peers
    neighbours = tables.neighbours
    related = tables.related
    houses = _houses(rules)
    placed = 0
    while True:
        while queue:
            c, d = queue.pop()
            if values[c]:
                if values[c] != d:
                    return placed, f"{rules.cell_name(c)} would be {values[c]} and {d}"
                continue
            if not masks[c] >> (d - 1) & 1:
                return placed, f"{rules.cell_name(c)} cannot be {d}"
            values[c] = d
            masks[c] = 0
            placed += 1
            if trail is not None:
                trail.append((c, d))
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
            for p, support in related[c]:  # a pair relation keeps what it allows beside d
                masks[p] &= support[d - 1]
                touched.append(p)
            for p in touched:
                if not values[p]:
                    m = masks[p]
                    if not m:
                        return placed, f"{rules.cell_name(p)} loses every candidate"
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
                return placed, f"{d} has no place left in a house"
            single = once & ~twice & ~placed_mask
            for d in digits_of(single):
                for c in unit:
                    if masks[c] & bit(d):
                        queue.append((c, d))
                        break
        if not queue:
            return placed, ""


@by_shape
def _houses(rules: Rules) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(rules.units[i]) for i in rules.houses)


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
                    f"{result.placed} singles later {result.contradiction}; singles: "
                    f"{singles_text(rules, result.singles)})",
                    eliminations=((cell, digit),),
                    weight=rated(DYNAMIC_BASE, result.size),
                )
    for options, what in _choices(state):
        results = [outcome(move) for move in options]
        agreed = _agreement(state, results)
        if agreed:
            placements, eliminations = agreed
            branches = "; ".join(
                f"{rules.cell_name(c)} = {d} leads by {r.placed} singles "
                f"({singles_text(rules, r.singles)})"
                for (c, d), r in zip(options, results, strict=True)
            )
            kind = "cell" if what.startswith("cell") else "unit"
            return Step(
                "forcing_net",
                f"{kind} forcing net on {what} ({branches}, each to the same result)",
                placements=placements,
                eliminations=eliminations,
                weight=rated(DYNAMIC_BASE, sum(r.size for r in results)),
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


# ----- nested forcing nets: nets inside each assumption's net ------------------------------


@dataclass
class Net:
    """An assumption followed by singles and by the candidates that each contradict it by
    their own forcing net (`inner` of them), as far as that goes."""

    values: list[int]
    masks: list[int]
    placed: int
    inner: int
    contradiction: str = ""
    size: int = 0  # the outer net's size plus every inner net's (SE's count of potentials)
    singles: list[Move] = field(default_factory=list)  # the outer singles, in order
    removed: list[Move] = field(default_factory=list)  # what the inner nets removed, in order


def nested_forcing_nets(state: Candidates) -> Step | None:
    """Forcing nets one level deeper: each candidate Y is first followed alone (by singles,
    as in a forcing net); then each assumption X is followed by singles and, whenever the
    copy it gives leaves no room for some Y's own net (a cell would lose every candidate), or
    Y's net followed on the copy reaches a contradiction, Y is removed from the copy and the
    singles go on. X is false when its copy reaches a contradiction. (Only contradictions:
    on the first 100 of forum-hardest one was found every time these nets were needed.)"""
    rules = state.rules
    n = rules.size
    moves = [(cell, digit) for cell in state.empty_cells() for digit in state.candidates(cell)]
    alone = {move: propagate(state, *move) for move in moves}
    alive = {move: _alive(o.values, o.masks, n) for move, o in alone.items() if not o.contradiction}
    full = _cell_bits(rules.cell_count, n)
    budget = [NESTED_BUDGET]  # inner nets left
    for move in moves:
        try:
            net = _nested(state, alone[move], alone, alive, full, budget)
        except OutOfBudget:
            return None
        if net.contradiction:
            cell, digit = move
            return Step(
                "nested_forcing_net",
                f"nested forcing net (if {rules.cell_name(cell)} were {digit}, "
                f"{_how(net)} later {net.contradiction}; singles: "
                f"{singles_text(rules, tuple(net.singles))}; removed by inner nets: "
                f"{removals_text(rules, net.removed) or 'none'})",
                eliminations=(move,),
                weight=rated(NESTED_BASE, net.size),
            )
    return None


def _how(net: Net) -> str:
    return f"{net.placed} singles and {net.inner} eliminations by inner forcing nets"


class OutOfBudget(Exception):
    """The nested forcing nets have followed NESTED_BUDGET inner nets."""


def _contradicted(
    rules: Rules, values: list[int], masks: list[int], budget: list[int], sizes: list[int]
) -> list[Move]:
    """The candidates whose own net, followed on this copy, reaches a contradiction (each
    such net's placements, plus one, are added to `sizes[0]`)."""
    found = []
    for cell in rules.cells:
        if not values[cell]:
            for digit in digits_of(masks[cell]):
                budget[0] -= 1
                if budget[0] < 0:
                    raise OutOfBudget
                placed, why = follow_singles(rules, list(values), list(masks), [(cell, digit)])
                if why:
                    found.append((cell, digit))
                    sizes[0] += placed + 1
    return found


def _nested(
    state: Candidates,
    start: Outcome,
    alone: dict[Move, Outcome],
    alive: dict[Move, int],
    full: int,
    budget: list[int],
) -> Net:
    """Follow one assumption (its forcing net is `start`) with the nets of `alive` inside."""
    rules = state.rules
    n = rules.size
    values, masks = list(start.values), list(start.masks)
    net = Net(values, masks, start.placed, 0, start.contradiction, start.size, list(start.singles))
    while not net.contradiction:
        clock.check()
        here = _alive(values, masks, n)
        ruled_out = [
            (cell, digit)
            for cell in rules.cells
            if not values[cell]
            for digit in digits_of(masks[cell])
            if (cell, digit) not in alive or not _every_cell(here & alive[cell, digit], n, full)
        ]
        if ruled_out:
            net.size += sum(alone[move].size for move in ruled_out if move in alone)
        else:
            sizes = [0]
            ruled_out = _contradicted(rules, values, masks, budget, sizes)
            net.size += sizes[0]
        if not ruled_out:
            break
        net.removed += ruled_out
        queue: list[Move] = []
        for cell, digit in ruled_out:
            masks[cell] &= ~bit(digit)
            net.inner += 1
        for cell, _ in ruled_out:
            if not values[cell]:
                if not masks[cell]:
                    net.contradiction = f"{rules.cell_name(cell)} loses every candidate"
                    return net
                if not masks[cell] & (masks[cell] - 1):
                    queue.append((cell, masks[cell].bit_length()))
        placed, net.contradiction = follow_singles(rules, values, masks, queue, net.singles)
        net.placed += placed
        net.size += placed
    return net


def _alive(values: list[int], masks: list[int], n: int) -> int:
    """The candidates still possible (a placed value counts), one bit per node."""
    found = 0
    for cell, value in enumerate(values):
        found |= (1 << (value - 1) if value else masks[cell]) << (cell * n)
    return found


@cache
def _cell_bits(cells: int, n: int) -> int:
    """The lowest node bit of every cell."""
    return sum(1 << (cell * n) for cell in range(cells))


def _every_cell(nodes: int, n: int, full: int) -> bool:
    """Whether every cell keeps a node of `nodes`: the OR of each cell's n bits, at its
    lowest bit, must be set everywhere."""
    folded = nodes
    for shift in range(1, n):
        folded |= nodes >> shift
    return folded & full == full


def applies(rules: Rules) -> bool:
    return True
