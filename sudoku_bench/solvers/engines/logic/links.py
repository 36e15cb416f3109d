"""Strong and weak links between candidates, as bit sets, for chains and forcing chains.

A candidate is a node `cell * N + digit - 1`; a set of candidates is a Python int with one
bit per node. Two candidates are *weakly* linked when they cannot both be true (the same
digit in two cells that must differ, two digits of one cell, consecutive digits in
non-consecutive neighbours, or two digits a pair relation forbids side by side) and *strongly* linked when they cannot both be false (the two
digits of a bivalue cell, the two places of a digit in a house). A grouped node stands for
a digit in some of the cells where a region meets another unit: "the digit is in one of
these cells".

An alternating inference chain (AIC) is followed as implications: a candidate that is off
turns its strong partners on, a candidate that is on turns its weak partners off. Walking
all of them at once from one assumption gives everything it implies in a few big-integer
operations per round (`closure`); `path` walks again, node by node, to write one chain out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import Candidates
from sudoku_bench.solvers.engines.logic.structure import logic_tables
from sudoku_bench.solvers.tables import by_shape, per_puzzle

# Which links a kind of chain may use.
CELL, UNIT, GROUP = 1, 2, 4  # strong links: bivalue cells, bilocal houses, grouped nodes


@dataclass(frozen=True)
class Tables:
    """What the rules fix about links: per candidate node, its weak partners by kind."""

    size: int
    same_digit: tuple[int, ...]  # the same digit in every peer (cells that must differ)
    in_cell: tuple[int, ...]  # the other digits of the same cell
    # digit +-1 in non-consecutive neighbours, and the digits a pair relation (a thermometer,
    # a dot) forbids in its partner beside this digit
    pair_rules: tuple[int, ...]
    cell_bits: tuple[int, ...]  # every node of a cell
    digit_bits: tuple[int, ...]  # every node of a digit (index digit - 1)

    def node(self, cell: int, digit: int) -> int:
        return cell * self.size + digit - 1


@per_puzzle
def tables_of(rules: Rules) -> Tables:
    n = rules.size
    puzzle = logic_tables(rules)
    full = (1 << n) - 1
    same, in_cell, pair_rules, cell_bits = [], [], [], []
    for cell in rules.cells:
        cell_bits.append(full << (cell * n))
        for digit in rules.digits:
            bit = 1 << (digit - 1)
            same.append(sum(bit << (peer * n) for peer in puzzle.peers[cell]))
            in_cell.append((full & ~bit) << (cell * n))
            near = sum(
                (1 << (other - 1)) << (peer * n)
                for peer in puzzle.neighbours[cell]
                for other in (digit - 1, digit + 1)
                if 1 <= other <= n
            )
            for other, support in puzzle.related[cell]:
                near |= (full & ~support[digit - 1]) << (other * n)
            pair_rules.append(near)
    digit_bits = [sum(1 << (cell * n + d) for cell in rules.cells) for d in range(n)]
    return Tables(n, tuple(same), tuple(in_cell), tuple(pair_rules), tuple(cell_bits),
                  tuple(digit_bits))  # fmt: skip


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass
class Group:
    """A grouped node: `digit` is in one of `cells` (all in one house and one other unit)."""

    digit: int
    cells: tuple[int, ...]


@dataclass
class Graph:
    """The links of one pencil-mark position, for the chain kinds in `kinds`."""

    state: Candidates
    tables: Tables
    kinds: int
    present: int  # every candidate still there
    strong: dict[int, int] = field(default_factory=dict)  # node -> its strong partners
    strong_kind: dict[tuple[int, int], str] = field(default_factory=dict)  # why, for the log
    groups: list[Group] = field(default_factory=list)  # node count + i is groups[i]
    group_weak: dict[int, int] = field(default_factory=dict)  # weak links of/to groups
    weak_same_digit_only: bool = False
    digit: int = 0  # X-chains: only this digit's candidates
    # filled on first use, once the graph is complete: each node's weak partners, and the
    # nodes with a strong partner (closure asks for them thousands of times per position)
    weak_of: dict[int, int] = field(default_factory=dict)
    has_strong: int = -1

    @property
    def base(self) -> int:
        """The first grouped node's index (one past the last candidate node)."""
        return self.state.rules.cell_count * self.tables.size

    def weak(self, node: int) -> int:
        """The nodes that are off when `node` is on."""
        found = self.weak_of.get(node)
        if found is not None:
            return found
        if node >= self.base:
            found = self.group_weak.get(node, 0)
        else:
            t = self.tables
            links = t.same_digit[node]
            if not self.weak_same_digit_only:
                links |= t.in_cell[node] | t.pair_rules[node]
            found = (links & self.present) | self.group_weak.get(node, 0)
        self.weak_of[node] = found
        return found

    def name(self, node: int) -> str:
        """Eureka notation: `5r1c2`, or `5r1c2|r1c3` for a group."""
        rules = self.state.rules
        if node >= self.base:
            group = self.groups[node - self.base]
            return f"{group.digit}" + "|".join(rules.cell_name(c) for c in group.cells)
        cell, digit = divmod(node, self.tables.size)
        return f"{digit + 1}{rules.cell_name(cell)}"


def build(state: Candidates, kinds: int, digit: int = 0, *, same_digit: bool = False) -> Graph:
    """The graph of `state` with the strong links of `kinds` (CELL, UNIT, GROUP); with
    `digit`, only that digit's candidates and links (X-chains); with `same_digit`, only weak
    links between one digit's candidates (XY-chains)."""
    key = ("graph", kinds, digit, same_digit)
    if key not in state.memo:
        state.memo[key] = _build(state, kinds, digit, same_digit)
    graph: Graph = state.memo[key]
    return graph


def _build(state: Candidates, kinds: int, digit: int, same_digit: bool) -> Graph:
    rules = state.rules
    tables = tables_of(rules)
    n = tables.size
    masks = state.masks
    present = 0
    for cell in rules.cells:
        if masks[cell]:
            present |= masks[cell] << (cell * n)
    if digit:
        present &= tables.digit_bits[digit - 1]
    graph = Graph(state, tables, kinds, present, weak_same_digit_only=same_digit or bool(digit))
    graph.digit = digit

    def link(a: int, b: int, why: str) -> None:
        graph.strong[a] = graph.strong.get(a, 0) | 1 << b
        graph.strong[b] = graph.strong.get(b, 0) | 1 << a
        graph.strong_kind[(a, b)] = graph.strong_kind[(b, a)] = why

    if kinds & CELL and not digit:
        for cell in rules.cells:
            mask = masks[cell]
            if mask.bit_count() == 2:
                low = (mask & -mask).bit_length()
                high = mask.bit_length()
                link(cell * n + low - 1, cell * n + high - 1, rules.cell_name(cell))
    if kinds & (UNIT | GROUP):
        groups: dict[tuple[int, frozenset[int]], int] = {}
        for index in rules.houses:
            unit = rules.units[index]
            name = rules.unit_names[index]
            for d in [digit] if digit else rules.digits:
                if state.unit_placed[index] & (1 << (d - 1)):
                    continue
                places = [cell for cell in unit if masks[cell] >> (d - 1) & 1]
                if len(places) == 2 and kinds & UNIT:
                    link(places[0] * n + d - 1, places[1] * n + d - 1, name)
                elif len(places) >= 3 and kinds & GROUP:
                    for a, b in _two_chunks(rules, index, places):
                        link(_node(graph, groups, a, d), _node(graph, groups, b, d), name)
        if graph.groups:
            _group_weak_links(graph)
    return graph


def _two_chunks(
    rules: Rules, house: int, places: list[int]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Ways to split a digit's places in a house into two chunks, each a single cell or
    cells that also share a second unit (where a box meets a line), not both single."""
    shared = crossings(rules)[house]
    seen: set[tuple[int, ...]] = set()
    for cells in shared:
        inside = tuple(c for c in places if c in cells)
        outside = tuple(c for c in places if c not in cells)
        if not inside or not outside or inside in seen:
            continue
        if len(outside) == 1 or any(set(outside) <= other for other in shared):
            seen.add(inside)
            seen.add(outside)
            yield inside, outside


@by_shape
def crossings(rules: Rules) -> tuple[tuple[frozenset[int], ...], ...]:
    """For each unit index, its overlaps of two or more cells with every other unit."""
    found: list[list[frozenset[int]]] = [[] for _ in rules.units]
    sets = [frozenset(unit) for unit in rules.units]
    for i, a in enumerate(sets):
        for j, b in enumerate(sets):
            if i != j:
                shared = a & b
                if len(shared) >= 2 and shared != a:
                    found[i].append(shared)
    return tuple(tuple(dict.fromkeys(cells)) for cells in found)


def _node(
    graph: Graph, groups: dict[tuple[int, frozenset[int]], int], cells: tuple[int, ...], d: int
) -> int:
    if len(cells) == 1:
        return cells[0] * graph.tables.size + d - 1
    key = (d, frozenset(cells))
    if key not in groups:
        groups[key] = graph.base + len(graph.groups)
        graph.groups.append(Group(d, cells))
    return groups[key]


@per_puzzle
def peer_sets(rules: Rules) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(p) for p in logic_tables(rules).peers)


def _group_weak_links(graph: Graph) -> None:
    """A group is off for every candidate of its digit in a cell that sees all its cells,
    and for every other group of the digit wholly in such cells; the links go both ways."""
    rules = graph.state.rules
    n = graph.tables.size
    peers = peer_sets(rules)
    seen_by = []
    for group in graph.groups:
        common = set(peers[group.cells[0]])
        for cell in group.cells[1:]:
            common &= peers[cell]
        seen_by.append(common)
    of_digit: dict[int, list[tuple[int, frozenset[int]]]] = {}
    for j, other in enumerate(graph.groups):
        of_digit.setdefault(other.digit, []).append((j, frozenset(other.cells)))
    for i, group in enumerate(graph.groups):
        node = graph.base + i
        mask = 0
        for cell in seen_by[i]:
            candidate = cell * n + group.digit - 1
            if graph.present >> candidate & 1:
                mask |= 1 << candidate
                graph.group_weak[candidate] = graph.group_weak.get(candidate, 0) | 1 << node
        for j, cells in of_digit[group.digit]:
            if j != i and cells <= seen_by[i]:
                mask |= 1 << (graph.base + j)
        graph.group_weak[node] = graph.group_weak.get(node, 0) | mask


def closure(
    graph: Graph, on: int, off: int, rounds: int = 1000, *, stop: bool = True
) -> tuple[int, int, int]:
    """Everything implied by nodes `on` being true and `off` false: (on, off, rounds used).
    Stops early when a node is both on and off (a contradiction), unless `stop` is False."""
    strong = graph.strong
    if graph.has_strong < 0:
        graph.has_strong = 0
        for node in strong:
            graph.has_strong |= 1 << node
    has_strong = graph.has_strong
    weak_of = graph.weak_of
    weak = graph.weak
    new_on, new_off = on, off
    used = 0
    while (new_on or new_off) and used < rounds and not (stop and on & off):
        used += 1
        found_off = 0
        for node in bits(new_on):
            links = weak_of.get(node)
            found_off |= weak(node) if links is None else links
        found_on = 0
        for node in bits(new_off & has_strong):
            found_on |= strong[node]
        new_off = found_off & ~off
        new_on = found_on & ~on
        off |= new_off
        on |= new_on
    return on, off, used


def path(graph: Graph, start: int, start_on: bool, goal: int, goal_on: bool) -> list[int]:
    """A shortest alternating chain of nodes from `start` (assumed on or off) to `goal`
    (reached on or off), as the list of nodes; empty when there is none."""
    first = (start, start_on)
    parents: dict[tuple[int, bool], tuple[int, bool] | None] = {first: None}
    frontier = [first]
    target = (goal, goal_on)
    while frontier and target not in parents:
        following = []
        for node, is_on in frontier:
            nexts = graph.weak(node) if is_on else graph.strong.get(node, 0)
            for other in bits(nexts):
                key = (other, not is_on)
                if key not in parents:
                    parents[key] = (node, is_on)
                    following.append(key)
        frontier = following
    if target not in parents:
        return []
    chain = []
    at: tuple[int, bool] | None = target
    while at is not None:
        chain.append(at[0])
        at = parents[at]
    return chain[::-1]


def eureka(graph: Graph, chain: list[int], start_on: bool) -> str:
    """The chain in Eureka notation: `=` for a strong link, `-` for a weak one."""
    text = graph.name(chain[0])
    strong = not start_on  # from an off node the next link is strong
    for node in chain[1:]:
        text += (" = " if strong else " - ") + graph.name(node)
        strong = not strong
    return text
