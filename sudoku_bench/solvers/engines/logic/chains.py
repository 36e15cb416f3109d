"""Chain techniques: XY-wing (three bivalue cells) and simple colouring (chains of
conjugate pairs of one digit, coloured alternately)."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from sudoku_bench.solvers.engines.logic.links import (
    CELL,
    GROUP,
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
    cells_text,
    digits_of,
    digits_text,
)


def xy_wing(state: Candidates) -> Step | None:
    """A pivot {a,b} seeing pincers {a,c} and {b,c}: whichever the pivot takes, one pincer is
    c, so c leaves every cell that sees both pincers."""
    rules = state.rules
    masks = state.masks
    name = rules.cell_name
    bivalue = [cell for cell in state.empty_cells() if masks[cell].bit_count() == 2]
    for pivot in bivalue:
        wings = [p for p in state.tables.peers[pivot] if masks[p].bit_count() == 2]
        for first in wings:
            shared = masks[first] & masks[pivot]
            if shared.bit_count() != 1:
                continue
            c = masks[first] & ~shared
            wanted = (masks[pivot] & ~shared) | c
            for second in wings:
                if masks[second] != wanted:
                    continue
                (digit,) = digits_of(c)
                seen = set(state.tables.peers[first]) & set(state.tables.peers[second])
                removed = sorted(cell for cell in seen if masks[cell] & c and cell != pivot)
                if removed:
                    return Step(
                        "xy_wing",
                        f"XY-wing with pivot {name(pivot)} ({_marks(state, pivot)}) and pincers "
                        f"{name(first)} ({_marks(state, first)}), "
                        f"{name(second)} ({_marks(state, second)})",
                        eliminations=tuple((cell, digit) for cell in removed),
                    )
    return None


def _marks(state: Candidates, cell: int) -> str:
    return digits_text(state.candidates(cell))


def conjugate_links(state: Candidates, digit: int) -> dict[int, set[int]]:
    """Strong links of `digit`: pairs of cells that are its only two places in some house
    (a smaller unit need not hold the digit, so two places there are no strong link)."""
    links: dict[int, set[int]] = {}
    for index in state.rules.houses:
        unit = state.rules.units[index]
        if state.unit_placed[index] & bit(digit):
            continue
        places = state.places(unit, digit)
        if len(places) == 2:
            a, b = places
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def _colour(links: dict[int, set[int]], start: int) -> dict[int, int]:
    """Colour 0/1 alternately along the links from `start` (breadth first)."""
    colours = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in sorted(links[cell]):
            if other not in colours:
                colours[other] = 1 - colours[cell]
                queue.append(other)
    return colours


def simple_colouring(state: Candidates) -> Step | None:
    """Along a chain of conjugate pairs of one digit, one colour holds the digit and the other
    does not. Colour wrap: two cells of one colour share a unit, so that colour is false.
    Colour trap: a cell that sees both colours cannot hold the digit."""
    rules = state.rules
    peers = [set(p) for p in state.tables.peers]
    for digit in rules.digits:
        # the colouring reads only this digit's places and the houses where it is placed
        key = ("simple_colouring", digit, state.digit_board(digit), state.placed_lines(digit))
        if key in state.barren:
            continue
        links = conjugate_links(state, digit)
        done: set[int] = set()
        for start in sorted(links):
            if start in done:
                continue
            colours = _colour(links, start)
            done |= colours.keys()
            sides = [sorted(c for c, k in colours.items() if k == side) for side in (0, 1)]
            chain = f"{cells_text(rules, sides[0])} | {cells_text(rules, sides[1])}"
            for side in sides:
                clash = next(((a, b) for a in side for b in side if a < b and b in peers[a]), None)
                if clash:
                    return Step(
                        "simple_colouring",
                        f"simple colouring of {digit}s (colour wrap: {cells_text(rules, clash)} "
                        f"share a colour and a unit; chain {chain})",
                        eliminations=tuple((cell, digit) for cell in side),
                    )
            trapped = [
                cell
                for cell in state.empty_cells()
                if state.masks[cell] & bit(digit)
                and cell not in colours
                and peers[cell].intersection(sides[0])
                and peers[cell].intersection(sides[1])
            ]
            if trapped:
                return Step(
                    "simple_colouring",
                    f"simple colouring of {digit}s (colour trap: chain {chain})",
                    eliminations=tuple((cell, digit) for cell in trapped),
                )
        state.barren.add(key)
    return None


# ----- alternating inference chains -----------------------------------------------------------

MAX_ROUNDS = 14  # chains of up to 28 links: a longer one is no teacher's chain
LOOP_ROUNDS = 8  # nice loops of up to 16 links


def shortest_chain(graph: Graph, starts: int | None = None) -> tuple[list[int], int] | None:
    """The shortest chain of `graph` that removes something, and what it removes.

    From a candidate A assumed false, strong links turn candidates on and weak links turn
    them off. When a candidate Z that sees A is turned off, the chain from A to the last true
    candidate Y proves "A or Y": Z, seeing both, is false either way."""
    best: tuple[int, int, int] | None = None  # (rounds, start, what it reaches)
    strong = graph.strong
    has_strong = 0
    for node in strong:
        has_strong |= 1 << node
    candidates = graph.present
    for start in bits((candidates if starts is None else starts) & has_strong):
        limit = best[0] - 1 if best else MAX_ROUNDS
        target = graph.weak(start) & candidates
        if not target:
            continue
        on, off = 0, 1 << start
        new_off = off
        for rounds in range(1, limit + 1):
            found_on = 0
            for node in bits(new_off & has_strong):
                found_on |= strong[node]
            new_on = found_on & ~on
            on |= new_on
            found_off = 0
            for node in bits(new_on):
                found_off |= graph.weak(node)
            new_off = found_off & ~off
            off |= new_off
            if on & off or not new_off:  # a contradiction is a forcing chain's business
                break
            if target & off:
                best = (rounds, start, target & off)
                break
    if best is None:
        return None
    _, start, hit = best
    chain = path(graph, start, False, next(bits(hit)), False)[:-1]  # it ends at Y, on
    return chain, graph.weak(start) & graph.weak(chain[-1]) & candidates


def _moves(graph: Graph, nodes: int) -> tuple[Move, ...]:
    n = graph.tables.size
    return tuple((node // n, node % n + 1) for node in bits(nodes))


def _chain_step(graph: Graph, key: str, label: str) -> Step | None:
    found = shortest_chain(graph)
    if found is None:
        return None
    chain, removed = found
    return Step(
        key,
        f"{label} {eureka(graph, chain, False)} (one end is true)",
        eliminations=_moves(graph, removed),
    )


def x_chain(state: Candidates) -> Step | None:
    """One digit's chain of strong links (its two places in a house) joined by weak links
    (two cells that see each other): one end holds the digit, so a cell seeing both ends
    does not."""
    for digit in state.rules.digits:
        # the chains read only this digit's places and the houses where it is placed
        key = ("x_chain", digit, state.digit_board(digit), state.placed_lines(digit))
        if key in state.barren:
            continue
        step = _chain_step(build(state, UNIT, digit), "x_chain", f"X-chain of {digit}s:")
        if step:
            return step
        state.barren.add(key)
    return None


def xy_chain(state: Candidates) -> Step | None:
    """A chain of bivalue cells, each sharing a digit with the next: if the first cell is not
    x, the last one is, so x leaves every cell that sees both ends."""
    return _chain_step(build(state, CELL, same_digit=True), "xy_chain", "XY-chain")


def remote_pairs(state: Candidates) -> Step | None:
    """A chain of four or more bivalue cells holding the same pair, each seeing the next:
    cells an odd number of links apart hold different digits of the pair, so a cell that
    sees both ends of such a chain holds neither."""
    masks = state.masks
    counts: dict[int, int] = {}
    for cell in state.empty_cells():
        if masks[cell].bit_count() == 2:
            counts[masks[cell]] = counts.get(masks[cell], 0) + 1
    for pair, count in sorted(counts.items()):
        if count < 4:  # fewer cells make a naked pair or an XY-wing at most
            continue
        graph = build(state, CELL, same_digit=True)
        n = graph.tables.size
        keep = 0
        for cell in state.empty_cells():
            if masks[cell] == pair:
                keep |= pair << (cell * n)
        strong = {node: links for node, links in graph.strong.items() if keep >> node & 1}
        graph = replace(graph, strong=strong)  # on nodes stay in the pair's cells
        found = shortest_chain(graph)
        if found is None:
            continue
        chain, _ = found
        cells = [node // n for node in chain[::2]]  # the chain's cells, in order
        if len(cells) < 4:
            continue
        first, last = cells[0], cells[-1]
        seen = set(state.tables.peers[first]) & set(state.tables.peers[last])
        removed = tuple(
            (cell, digit)
            for cell in sorted(seen - set(cells))
            for digit in digits_of(masks[cell] & pair)
        )
        if removed:
            digits = digits_text(digits_of(pair))
            return Step(
                "remote_pairs",
                f"remote pair {digits} along {' - '.join(state.rules.cell_name(c) for c in cells)} "
                "(its ends hold different digits of the pair)",
                eliminations=removed,
            )
    return None


def aic(state: Candidates) -> Step | None:
    """An alternating inference chain over every kind of link, grouped nodes included:
    strong links of bivalue cells and of a digit's two places (or two groups of places) in a
    house, weak links between candidates that cannot both be true."""
    graph = build(state, CELL | UNIT | GROUP)
    label = "grouped AIC" if graph.groups else "AIC"
    found = shortest_chain(graph)
    if found is None:
        return None
    chain, removed = found
    if graph.groups and all(node < graph.base for node in chain):
        label = "AIC"
    return Step(
        "aic",
        f"{label} {eureka(graph, chain, False)} (one end is true)",
        eliminations=_moves(graph, removed),
    )


def nice_loop(state: Candidates) -> Step | None:
    """A discontinuous nice loop: assuming a candidate false, the chain comes back to it and
    proves it true (two strong links meet at it), so it is placed. (The other nice loops,
    continuous or with two weak links meeting, remove only what the AIC around the loop from
    one end of a weak link to the other removes: `aic` finds those.)"""
    graph = build(state, CELL | UNIT | GROUP)
    has_strong = 0
    for node in graph.strong:
        has_strong |= 1 << node
    best: tuple[int, int] | None = None
    for start in bits(graph.present & has_strong):
        on, _, rounds = closure(graph, 0, 1 << start, LOOP_ROUNDS, stop=False)
        if on >> start & 1 and (best is None or rounds < best[0]):
            best = (rounds, start)
    if best is None:
        return None
    start = best[1]
    chain = path(graph, start, False, start, True)
    if len(chain) < 3:
        return None
    (move,) = _moves(graph, 1 << start)
    return Step(
        "nice_loop",
        f"nice loop {eureka(graph, chain, False)} (assuming {graph.name(start)} false proves it true)",
        placements=(move,),
    )
