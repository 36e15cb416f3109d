"""Counting grids by the first band, after Felgenhauer and Jarvis (2006).

The first band (the first box-rows rows) is filled with its first box fixed to 1..n in reading
order: every band is one relabelling of exactly one of these (n! relabellings). Two such bands
are equivalent when a symmetry of the band (rows permuted within it, stacks permuted, columns
permuted within each stack), followed by the relabelling that puts the first box back to 1..n,
maps one to the other. These symmetries extend to symmetries of the whole grid, so equivalent
bands have the same number of completions, and

    grids = n! x sum over the classes of (bands in the class) x (completions of one of them).

The classes are found as orbits: each band's images are listed once per class, never compared
pairwise (9x9: 2,612,736 bands, 7,776 band symmetries, 416 orbits). Completions see the first
band only through the set of digits in each column, so orbits whose bands have the same column
sets (up to a relabelling that keeps the first box's columns as sets) are merged: 44 classes
for 9x9, as Felgenhauer and Jarvis found. Counting the completions of a 9x9 band is the long
part: brute-force backtracking over about 7 x 10^9 grids per class, about an hour of CPU per
class (`EXPECTED_CORE_HOURS_9X9` for all 44); 6x6 takes a fraction of a second and checks the
method against the exhaustive count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations, product

import numpy as np

from sudoku_bench.harness.generating import grid_kernels as kernels
from sudoku_bench.harness.generating.facts import Array, FactsError, Geometry
from sudoku_bench.harness.generating.facts_sizes import BAND_SIZES
from sudoku_bench.puzzles.rules import Rules


def band_geometry(size: int) -> Geometry:
    if size not in BAND_SIZES:
        raise FactsError(f"the band method is for sizes 4, 6 and 9, not {size}")
    if size > 4 and not kernels.COMPILED:
        raise FactsError(
            f"the band method for {size}x{size} needs numba (pip install 'sudoku-bench[jit]')"
        )
    return Geometry(Rules.of_size(size))


def band_cells(geometry: Geometry) -> int:
    return geometry.rules.box_rows * geometry.n


def band_maps(geometry: Geometry) -> Array:
    """Each band symmetry as a map new band cell -> old band cell."""
    rules = geometry.rules
    n, rows, width = geometry.n, rules.box_rows, rules.box_cols
    stacks = n // width
    maps = []
    for row_order in permutations(range(rows)):
        for stack_order in permutations(range(stacks)):
            for inner in product(permutations(range(width)), repeat=stacks):
                columns = [
                    s * width + inner[i][j] for i, s in enumerate(stack_order) for j in range(width)
                ]
                maps.append([row_order[r] * n + columns[c] for r in range(rows) for c in range(n)])
    return np.array(maps, dtype=np.int64)


def first_box(geometry: Geometry) -> Array:
    """The band cells of the first box, in reading order."""
    rules = geometry.rules
    return np.array(
        [r * geometry.n + c for r in range(rules.box_rows) for c in range(rules.box_cols)],
        dtype=np.int64,
    )


def normalised_bands(geometry: Geometry) -> Array:
    """Every first band with its first box 1..n in reading order (rows of band cells)."""
    given = np.zeros(geometry.cells, np.int64)
    box = first_box(geometry)
    given[box] = np.arange(1, geometry.n + 1)
    _, grids = geometry.fill(given, band_cells(geometry), store=True)
    return grids[:, : band_cells(geometry)].astype(np.int64)


def _keys(bands: Array, n: int) -> Array:
    """One integer per band (its cells as digits base n; below 2^63 for 9x9's 27 cells less
    its fixed box)."""
    weights = np.int64(n) ** np.arange(bands.shape[1] - 1, -1, -1, dtype=np.int64)
    return (bands - 1) @ weights


@dataclass(frozen=True)
class BandClasses:
    representatives: Array  # one band per class (rows of band cells)
    sizes: tuple[int, ...]  # normalised bands in each class
    orbits: int  # classes of the band symmetries alone, before merging by column sets


def band_classes(geometry: Geometry) -> BandClasses:
    """The classes of the normalised bands, as orbits of the band symmetries."""
    bands = normalised_bands(geometry)
    box = first_box(geometry)
    rest = np.setdiff1d(np.arange(bands.shape[1]), box)
    keys = _keys(bands[:, rest], geometry.n)
    order = np.argsort(keys)
    sorted_keys = keys[order]
    if len(np.unique(sorted_keys)) != len(keys):
        raise AssertionError("two bands share a key")
    maps = band_maps(geometry)
    seen = np.zeros(len(bands), bool)
    orbit_of = np.full(len(bands), -1, np.int64)
    starts: list[int] = []
    rows = np.arange(len(maps))[:, None]
    for start in range(len(bands)):
        if seen[start]:
            continue
        images = bands[start][maps]  # one row per symmetry
        label = np.zeros((len(maps), geometry.n + 1), np.int64)
        label[rows, images[:, box]] = np.arange(1, geometry.n + 1)
        relabelled = np.take_along_axis(label, images, axis=1)
        found = order[np.searchsorted(sorted_keys, _keys(relabelled[:, rest], geometry.n))]
        members = np.unique(found)
        if seen[members].any():
            raise AssertionError("orbits overlap: the maps are not a group")
        seen[members] = True
        orbit_of[members] = len(starts)
        starts.append(start)
    # merge orbits whose bands give every column the same set of digits, up to a relabelling
    # that keeps the first box's columns: completions see band 1 only through those sets
    column_sets = np.zeros(len(bands), np.int64)
    rows_in_band = geometry.rules.box_rows
    for column in range(geometry.rules.box_cols, geometry.n):
        mask = np.zeros(len(bands), np.int64)
        for row in range(rows_in_band):
            mask |= np.int64(1) << (bands[:, row * geometry.n + column] - 1)
        column_sets = (column_sets << geometry.n) | mask
    parent = list(range(len(starts)))

    def root(orbit: int) -> int:
        while parent[orbit] != orbit:
            parent[orbit] = parent[parent[orbit]]
            orbit = parent[orbit]
        return orbit

    def join(a: int, b: int) -> None:
        a, b = root(a), root(b)
        parent[max(a, b)] = min(a, b)

    key_order = np.argsort(column_sets)
    sorted_sets = column_sets[key_order]
    # relabellings that keep each column of the first box as a set (digits swapped within a
    # column), applied to the digit masks of the other columns
    box_columns = [
        [int(d) for d in bands[0, [r * geometry.n + c for r in range(rows_in_band)]]]
        for c in range(geometry.rules.box_cols)
    ]
    relabellings = []
    for inner in product(*(permutations(digits) for digits in box_columns)):
        table = np.arange(geometry.n + 1)
        for digits, image in zip(box_columns, inner, strict=True):
            table[np.array(digits)] = np.array(image)
        relabellings.append(table)
    for orbit, start in enumerate(starts):
        for table in relabellings:
            key = 0
            for column in range(geometry.rules.box_cols, geometry.n):
                in_column = bands[start, [r * geometry.n + column for r in range(rows_in_band)]]
                digit_set = 0
                for d in in_column:
                    digit_set |= 1 << (int(table[d]) - 1)
                key = (key << geometry.n) | digit_set
            at = int(np.searchsorted(sorted_sets, np.int64(key)))
            while at < len(sorted_sets) and sorted_sets[at] == key:
                join(orbit, int(orbit_of[key_order[at]]))
                at += 1
    roots = [root(o) for o in range(len(starts))]
    classes = sorted(set(roots))
    sizes = [0] * len(classes)
    for o, r in enumerate(roots):
        sizes[classes.index(r)] += int((orbit_of == o).sum())
    representatives = np.array([bands[starts[r]] for r in classes])
    return BandClasses(representatives, tuple(sizes), len(starts))


def completions(geometry: Geometry, band: Array) -> int:
    """The complete grids whose first band is `band`."""
    given = np.zeros(geometry.cells, np.int64)
    given[: len(band)] = band
    count, _ = geometry.fill(given, geometry.cells)
    return count


@dataclass(frozen=True)
class BandCount:
    size: int
    normalised_bands: int
    orbits: int
    class_sizes: tuple[int, ...]
    class_completions: tuple[int, ...]

    @property
    def grids(self) -> int:
        per_relabelling = sum(
            s * c for s, c in zip(self.class_sizes, self.class_completions, strict=True)
        )
        return math.factorial(self.size) * per_relabelling


def count_by_bands(size: int, progress: Callable[[int, int, int], None] | None = None) -> BandCount:
    """Every grid of a size counted by the band method; `progress(done, classes, completions)`
    after each class (9x9: hours)."""
    geometry = band_geometry(size)
    classes = band_classes(geometry)
    counts = []
    for index, band in enumerate(classes.representatives):
        counts.append(completions(geometry, band))
        if progress is not None:
            progress(index + 1, len(classes.sizes), counts[-1])
    return BandCount(size, sum(classes.sizes), classes.orbits, classes.sizes, tuple(counts))
