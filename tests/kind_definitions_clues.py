"""The kind matrix's generators and definitions (`tests/test_kind_matrix.py`) of the dot, clue
and cell kinds: each makes rules of its kind around a known grid, as JSON fields, and states
the rule from its definition (as Rangsk's SudokuSolver reads the f-puzzles rule), sharing no
code with `sudoku_bench.puzzles.constraints`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

Check = Callable[[Sequence[int]], bool]
Maker = Callable[[int, Sequence[int], random.Random], Any]


def name(size: int, cell: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def neighbours(size: int) -> list[tuple[int, int]]:
    pairs = []
    for cell in range(size * size):
        if cell % size < size - 1:
            pairs.append((cell, cell + 1))
        if cell + size < size * size:
            pairs.append((cell, cell + size))
    return pairs


def related(kind: str, value: int, a: int, b: int) -> bool:
    if kind == "difference":
        return abs(a - b) == value
    if kind == "ratio":
        return a * value == b or b * value == a
    return a + b == value  # xv


def dots(variant: type, kind: str) -> Maker:
    """Marks on pairs the known grid keeps (now and then one it breaks), each with its value."""

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        marks = []
        for a, b in rng.sample(neighbours(size), len(neighbours(size))):
            x, y = grid[a], grid[b]
            if kind == "difference":
                value = abs(x - y)
            elif kind == "ratio":
                value = max(x, y) // min(x, y) if max(x, y) % min(x, y) == 0 else 0
            else:
                value = x + y if x + y in (5, 10) else 0
            if value and (kind != "difference" or value <= 2):
                marks.append((a, b, value))
            if len(marks) == rng.randint(1, 4):
                break
        if not marks:
            return None
        if rng.random() < 0.15:
            a, b, value = marks[0]
            marks[0] = (a, b, 1 if kind == "difference" and value == 2 else value)

        def holds(g: Sequence[int]) -> bool:
            return all(related(kind, v, g[a], g[b]) for a, b, v in marks)

        def written(v: int) -> Any:
            return ("X" if v == 10 else "V") if kind == "xv" else v

        entries = [
            {"cells": [name(size, a), name(size, b)], "value": written(v)} for a, b, v in marks
        ]
        return variant({kind: entries}, holds)

    return make


def negative(variant: type, kind: str) -> Maker:
    """Every pair the known grid relates marked (now and then one left unmarked); the rule as
    f-puzzles reads it: the other orthogonal pairs are not related (kropki: by any black dot's
    ratio, 2 without one; white and black dots both exempt their pair; XV: X and V only)."""
    values = {"difference": [1], "ratio": [2], "xv": [5, 10]}[kind]

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        pairs = neighbours(size)
        marked = [
            (a, b, next(v for v in values if related(kind, v, grid[a], grid[b])))
            for a, b in pairs
            if any(related(kind, v, grid[a], grid[b]) for v in values)
        ]
        if marked and rng.random() < 0.2:
            marked.pop(rng.randrange(len(marked)))
        exempt = {(a, b) for a, b, _ in marked}

        def holds(g: Sequence[int]) -> bool:
            return all(related(kind, v, g[a], g[b]) for a, b, v in marked) and not any(
                related(kind, v, g[a], g[b])
                for a, b in pairs
                if (a, b) not in exempt
                for v in values
            )

        def written(v: int) -> Any:
            return ("X" if v == 10 else "V") if kind == "xv" else v

        entries = [
            {"cells": [name(size, a), name(size, b)], "value": written(v)} for a, b, v in marked
        ]
        fields: dict[str, Any] = {f"{kind}_negative": True}
        if entries:
            fields[kind] = entries
        return variant(fields, holds)

    return make


def diagonal_cells(size: int, place: tuple[int, int], step: tuple[int, int]) -> list[int]:
    row, col = place[0] + step[0], place[1] + step[1]
    cells = []
    while 0 <= row < size and 0 <= col < size:
        cells.append(row * size + col)
        row, col = row + step[0], col + step[1]
    return cells


def little_killer(variant: type) -> Maker:
    arrows = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        border = [
            (r, c)
            for r in range(-1, size + 1)
            for c in range(-1, size + 1)
            if not (0 <= r < size and 0 <= c < size)
        ]
        clues = []
        while len(clues) < rng.randint(1, 3):
            place, arrow = rng.choice(border), rng.choice(sorted(arrows))
            cells = diagonal_cells(size, place, arrows[arrow])
            if len(cells) >= 2:
                total = sum(grid[c] for c in cells)
                total -= total > len(cells) and rng.random() < 0.1  # now and then one it breaks
                clues.append((place, arrow, cells, total))

        def holds(g: Sequence[int]) -> bool:
            return all(sum(g[c] for c in cells) == total for _, _, cells, total in clues)

        entries = [
            {"place": f"r{p[0] + 1}c{p[1] + 1}", "direction": a, "sum": t} for p, a, _, t in clues
        ]
        return variant({"little_killer": entries}, holds)

    return make


def line_of(size: int, place: tuple[int, int]) -> list[int]:
    row, col = place
    if col == -1:
        return [row * size + c for c in range(size)]
    if col == size:
        return [row * size + c for c in reversed(range(size))]
    if row == -1:
        return [r * size + col for r in range(size)]
    return [r * size + col for r in reversed(range(size))]


def sandwich_of(digits: Sequence[int]) -> int:
    low, high = sorted((digits.index(1), digits.index(len(digits))))
    return sum(digits[low + 1 : high])


def x_sum_of(digits: Sequence[int]) -> int:
    return sum(digits[: digits[0]])


def seen_of(digits: Sequence[int]) -> int:
    return sum(1 for i, d in enumerate(digits) if all(d > e for e in digits[:i]))


def line_clue(
    variant: type, key: str, value_key: str, rule: Callable[[Sequence[int]], int]
) -> Maker:
    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        places = [(r, s) for r in range(size) for s in (-1, size)]
        places += [(s, c) for c in range(size) for s in (-1, size)]
        clues = []
        for place in rng.sample(places, rng.randint(1, 3)):
            cells = line_of(size, place)
            value = rule([grid[c] for c in cells])
            clues.append((place, cells, value - (value > 1 and rng.random() < 0.1)))

        def holds(g: Sequence[int]) -> bool:
            return all(rule([g[c] for c in cells]) == value for _, cells, value in clues)

        entries = [{"place": f"r{p[0] + 1}c{p[1] + 1}", value_key: v} for p, _, v in clues]
        return variant({key: entries}, holds)

    return make


def quadruple(variant: type) -> Maker:
    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        quads: list[tuple[list[int], list[int]]] = []
        while not quads or (len(quads) < 2 and rng.random() < 0.5):
            top = rng.randrange(size - 1) * size + rng.randrange(size - 1)
            cells = [top, top + 1, top + size, top + size + 1]
            digits = sorted(rng.sample([grid[c] for c in cells], rng.randint(1, 4)))
            if rng.random() < 0.1:  # now and then a digit the known grid may lack
                digits[0] = rng.randint(1, size)
                digits.sort()
            if any(digits.count(d) > 2 for d in digits):
                continue
            quads.append((cells, digits))

        def holds(g: Sequence[int]) -> bool:
            for cells, digits in quads:
                held = [g[c] for c in cells]
                if any(held.count(d) < digits.count(d) for d in digits):
                    return False
            return True

        entries = [{"cells": [name(size, c) for c in cells], "digits": d} for cells, d in quads]
        return variant({"quadruple": entries}, holds)

    return make


def extremum(variant: type, key: str) -> Maker:
    def beside(size: int, cell: int) -> list[int]:
        row, col = divmod(cell, size)
        found = []
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < size and 0 <= c < size:
                found.append(r * size + c)
        return found

    def stands(a: int, b: int) -> bool:
        return a < b if key == "minimum" else a > b

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        cells = [
            c for c in range(size * size) if all(stands(grid[c], grid[o]) for o in beside(size, c))
        ]
        marked = set(rng.sample(cells, min(len(cells), rng.randint(1, 3))))
        if rng.random() < 0.15:
            marked.add(rng.randrange(size * size))

        def holds(g: Sequence[int]) -> bool:
            return all(
                stands(g[c], g[o]) for c in marked for o in beside(size, c) if o not in marked
            )

        return variant({key: [name(size, c) for c in sorted(marked)]}, holds)

    return make


def indexer(variant: type, key: str) -> Maker:
    def line(size: int, cell: int) -> list[int]:
        row, col = divmod(cell, size)
        if key == "row_indexer":
            return [r * size + col for r in range(size)]
        if key == "column_indexer":
            return [row * size + c for c in range(size)]
        rows, cols = 2, size // 2  # the matrix's boxes: two rows high
        top, left = row // rows * rows, col // cols * cols
        return [(top + r) * size + left + c for r in range(rows) for c in range(cols)]

    def keeps(size: int, g: Sequence[int], cell: int) -> bool:
        places = line(size, cell)
        return g[places[g[cell] - 1]] == places.index(cell) + 1

    def make(size: int, grid: Sequence[int], rng: random.Random) -> Any:
        cells = [c for c in range(size * size) if keeps(size, grid, c)]
        marked = set(rng.sample(cells, min(len(cells), rng.randint(1, 3))))
        if rng.random() < 0.15:
            marked.add(rng.randrange(size * size))

        def holds(g: Sequence[int]) -> bool:
            return all(keeps(size, g, c) for c in marked)

        return variant({key: [name(size, c) for c in sorted(marked)]}, holds)

    return make


def definitions(variant: type) -> dict[str, Maker]:
    """The makers, each building the matrix's `variant(fields, holds)`."""
    return {
        "difference": dots(variant, "difference"),
        "ratio": dots(variant, "ratio"),
        "xv": dots(variant, "xv"),
        "difference_negative": negative(variant, "difference"),
        "ratio_negative": negative(variant, "ratio"),
        "xv_negative": negative(variant, "xv"),
        "little_killer": little_killer(variant),
        "sandwich": line_clue(variant, "sandwich", "sum", sandwich_of),
        "x_sum": line_clue(variant, "x_sum", "sum", x_sum_of),
        "skyscraper": line_clue(variant, "skyscraper", "seen", seen_of),
        "quadruple": quadruple(variant),
        "minimum": extremum(variant, "minimum"),
        "maximum": extremum(variant, "maximum"),
        "row_indexer": indexer(variant, "row_indexer"),
        "column_indexer": indexer(variant, "column_indexer"),
        "box_indexer": indexer(variant, "box_indexer"),
    }
