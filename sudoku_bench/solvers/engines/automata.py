"""Automata read along a line (sandwich, X-sum and skyscraper clues), filtered over the
line's candidates: shared by the engines that reason about them (`propagating`'s
propagator, `logic`'s `line_clue` technique).

- `compiled`: an automaton's reachable states numbered, its steps as bit sets per digit;
- `distinct_support`: the filtering of Pesant's REGULAR constraint together with the line's
  AllDifferent (exact for the two), within a bound of nodes per layer (`DISTINCT_NODES`);
- `regular_support`: the REGULAR filtering alone (paths may repeat a digit), always cheap.

Candidates are bit masks (bit d-1: digit d); sets of states are bit sets (bit 0: the start).
"""

from __future__ import annotations

from typing import Any

from sudoku_bench.puzzles.constraints.base import Automaton

Cells = tuple[int, ...]


def compiled(automaton: Automaton, size: int) -> tuple[tuple[Cells, ...], int]:
    """The automaton's states reachable along its cells, numbered in the order a breadth-
    first walk from the start meets them (the start is 0): per state, per digit, the bit of
    the state it steps to (0: none); and the accepting states as a bit set. A state first
    met after the last cell steps nowhere (no cell is left to read)."""
    number: dict[Any, int] = {automaton.start: 0}
    order = [automaton.start]
    steps: list[Cells] = []
    frontier = [automaton.start]
    for _ in automaton.cells:
        following = []
        for state in frontier:
            row = []
            for digit in range(1, size + 1):
                after = automaton.step(state, digit)
                if after is None:
                    row.append(0)
                    continue
                if after not in number:
                    number[after] = len(order)
                    order.append(after)
                    following.append(after)
                row.append(1 << number[after])
            steps.append(tuple(row))
        frontier = following
    steps += [(0,) * size] * (len(order) - len(steps))
    accepting = sum(1 << index for index, state in enumerate(order) if automaton.accepting(state))
    return tuple(steps), accepting


# `distinct_support` gives up on a line when a layer of its unrolled graph would hold more
# nodes (state, digits read that later cells could still read) than this.
DISTINCT_NODES = 4096


class TooManyNodes(Exception):
    """`distinct_support` gives up: a layer would hold more than its bound of nodes."""


def distinct_support(
    steps: tuple[Cells, ...], accepting: int, masks: Cells, most: int = DISTINCT_NODES
) -> Cells | None:
    """`regular_support` over paths that read distinct digits: the REGULAR filtering of the
    automaton together with the line's AllDifferent, exact for the two together. A node is
    (state, the digits read so far that some later cell could still read): a digit no later
    cell can read is forgotten, so nodes that differ only in it are one. Raises
    `TooManyNodes` when a layer would hold more than `most` nodes (an open line early in the
    search); returns None when no path reads the line through to an accepting state."""
    count = len(masks)
    later = [0] * (count + 1)  # per place, the candidates of the cells from there on
    for place in range(count - 1, -1, -1):
        later[place] = later[place + 1] | masks[place]
    layers: list[set[tuple[int, int]]] = [{(0, 0)}]
    layer = layers[0]
    for place, mask in enumerate(masks):
        keep = later[place + 1]
        reached: set[tuple[int, int]] = set()
        for state, used in layer:
            row = steps[state]
            digits = mask & ~used
            while digits:
                bit = digits & -digits
                digits ^= bit
                after = row[bit.bit_length() - 1]
                if after:
                    reached.add((after.bit_length() - 1, (used | bit) & keep))
        if not reached:
            return None
        if len(reached) > most:
            raise TooManyNodes
        layers.append(reached)
        layer = reached
    alive = {node for node in layer if accepting >> node[0] & 1}
    if not alive:
        return None
    narrowed = [0] * count
    for place in range(count - 1, -1, -1):
        keep = later[place + 1]
        supported = 0
        back: set[tuple[int, int]] = set()
        for state, used in layers[place]:
            row = steps[state]
            digits = masks[place] & ~used
            while digits:
                bit = digits & -digits
                digits ^= bit
                after = row[bit.bit_length() - 1]
                if after and (after.bit_length() - 1, (used | bit) & keep) in alive:
                    supported |= bit
                    back.add((state, used))
        narrowed[place] = supported
        alive = back
    return tuple(narrowed)


def regular_support(steps: tuple[Cells, ...], accepting: int, masks: Cells) -> Cells | None:
    """The filtering of the REGULAR constraint (Pesant 2004) on one line: per cell, the
    candidates d for which some state the start reaches through the cells before (each
    reading one of its candidates) steps on d to a state from which the cells after reach an
    accepting state; None when no path reaches one. Sets of states are bit sets (state 0,
    the start, is bit 0); `steps[state][d - 1]` is the bit of the state after d, 0 for none.

    The paths may read one digit twice where the automaton assumes distinct digits, so this
    keeps every digit of a filling the rule allows, and maybe more."""
    forward = [1]  # per layer, the states reached before reading its cell
    layer = 1
    for mask in masks:
        reached = 0
        rest = layer
        while rest:
            low = rest & -rest
            rest ^= low
            row = steps[low.bit_length() - 1]
            digits = mask
            while digits:
                bit = digits & -digits
                digits ^= bit
                reached |= row[bit.bit_length() - 1]
        if not reached:
            return None
        forward.append(reached)
        layer = reached
    alive = layer & accepting  # states from which the rest of the line is accepted
    if not alive:
        return None
    narrowed = [0] * len(masks)
    for place in range(len(masks) - 1, -1, -1):
        mask = masks[place]
        supported = back = 0
        rest = forward[place]
        while rest:
            low = rest & -rest
            rest ^= low
            row = steps[low.bit_length() - 1]
            digits = mask
            while digits:
                bit = digits & -digits
                digits ^= bit
                if row[bit.bit_length() - 1] & alive:
                    supported |= bit
                    back |= low
        narrowed[place] = supported
        alive = back
    return tuple(narrowed)
