"""Fish: k rows in which a digit's places all fall in the same k columns (or the other way
round) own the digit in those columns: X-wing (k = 2), swordfish (3), jellyfish (4)."""

from __future__ import annotations

from itertools import combinations

from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.solvers.engines.logic.state import Candidates, Step, bit
from sudoku_bench.solvers.engines.logic.structure import families
from sudoku_bench.solvers.tables import by_shape

FISH_NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def fish(state: Candidates, size: int) -> Step | None:
    """The first fish of `size` lines, with rows as base lines first, then columns."""
    rules = state.rules
    shape = state.families
    for base_kind, cover_kind in (("row", "column"), ("column", "row")):
        base_units = shape.rows if base_kind == "row" else shape.columns
        cover_units = shape.columns if base_kind == "row" else shape.rows
        bases = [shape.units[index] for index in base_units]
        covers = [shape.units[index] for index in cover_units]
        # a cell's place along a base line is its cover line's index, and the other way round
        position = rules.col_of if base_kind == "row" else rules.row_of
        base_of = rules.row_of if base_kind == "row" else rules.col_of
        for digit in rules.digits:
            # the search reads only this digit's places and the lines where it is placed
            key = ("fish", size, base_kind, digit, state.digit_board(digit),
                   state.placed_lines(digit))  # fmt: skip
            if key in state.barren:
                continue
            spots = {}
            for index, line in enumerate(bases):
                if not state.unit_placed[base_units[index]] & bit(digit):
                    places = state.places(line, digit)
                    if 2 <= len(places) <= size:
                        spots[index] = frozenset(position(cell) for cell in places)
            for chosen in combinations(spots, size):
                cover = frozenset().union(*(spots[i] for i in chosen))
                if len(cover) != size:
                    continue
                removed = [
                    cell
                    for c in sorted(cover)
                    for cell in state.places(covers[c], digit)
                    if base_of(cell) not in chosen
                ]
                if removed:
                    name = FISH_NAMES[size]
                    bases_text = ", ".join(str(i + 1) for i in chosen)
                    covers_text = ", ".join(str(c + 1) for c in sorted(cover))
                    return Step(
                        name.lower().replace("-", "_"),
                        f"{name} of {digit}s in {base_kind}s {bases_text} "
                        f"({cover_kind}s {covers_text})",
                        eliminations=tuple((cell, digit) for cell in removed),
                    )
            state.barren.add(key)
    return None


def x_wing(state: Candidates) -> Step | None:
    return fish(state, 2)


def swordfish(state: Candidates) -> Step | None:
    return fish(state, 3)


def jellyfish(state: Candidates) -> Step | None:
    return fish(state, 4)


def finned_fish(state: Candidates, size: int) -> Step | None:
    """A fish with fins: `size` base lines whose places of a digit fall in `size` cover lines
    except for a few cells in one region (the fins). Either a fin holds the digit, or the fish
    is real; so a cell of that region on a cover line, outside the base lines, sees a fin or
    is covered by the fish, and cannot hold it. Sashimi when a base line keeps fewer than two
    places in the covers."""
    rules = state.rules
    shape = state.families
    for base_kind, cover_kind in (("row", "column"), ("column", "row")):
        base_units = shape.rows if base_kind == "row" else shape.columns
        bases = [shape.units[index] for index in base_units]
        position = rules.col_of if base_kind == "row" else rules.row_of
        # line_of_region[r][b]: the positions along base line b that lie in region r
        line_of_region = _region_positions(rules, base_kind)
        widest = max(_span(in_region) for in_region in line_of_region)
        for digit in rules.digits:
            # the search reads only this digit's places and the lines where it is placed
            key = ("finned_fish", size, base_kind, digit, state.digit_board(digit),
                   state.placed_lines(digit))  # fmt: skip
            if key in state.barren:
                continue
            b = bit(digit)
            spots: dict[int, int] = {}  # base line -> positions holding the digit
            for index, line in enumerate(bases):
                if not state.unit_placed[base_units[index]] & b:
                    places = 0
                    for cell in line:
                        if state.masks[cell] & b:
                            places |= 1 << position(cell)
                    if places:
                        spots[index] = places
            if len(spots) <= size:
                state.barren.add(key)
                continue
            for chosen in combinations(spots, size):
                union = 0
                for i in chosen:
                    union |= spots[i]
                if not size < union.bit_count() <= size + widest:
                    continue  # a plain fish, or more fins than one region can hold
                for region, in_region in enumerate(line_of_region):
                    outside = 0
                    inside = 0
                    for i in chosen:
                        outside |= spots[i] & ~in_region[i]
                        inside |= spots[i] & in_region[i]
                    if not inside:
                        continue  # no fin can be in this region
                    if outside.bit_count() > size or not inside & ~outside:
                        continue
                    step = _finned_step(
                        state, size, base_kind, cover_kind, digit, chosen, spots, region,
                        outside, inside,
                    )  # fmt: skip
                    if step:
                        return step
            state.barren.add(key)
    return None


def _region_positions(rules: Rules, base_kind: str) -> tuple[tuple[int, ...], ...]:
    """Per region (in the order of `families.regions`), per base line, the positions along
    the line that lie in the region, as a bit set."""
    return _REGION_POSITIONS(rules)[base_kind == "row"]


def _region_positions_of(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], ...]:
    shape = families(rules)
    found = []
    for by_rows in (False, True):
        lines = shape.rows if by_rows else shape.columns
        position = rules.col_of if by_rows else rules.row_of
        found.append(
            tuple(
                tuple(
                    sum(1 << position(cell) for cell in shape.units[line] if cell in region)
                    for line in lines
                )
                for region in (frozenset(shape.units[index]) for index in shape.regions)
            )
        )
    return tuple(found)


_REGION_POSITIONS = by_shape(_region_positions_of)


def _finned_step(
    state: Candidates,
    size: int,
    base_kind: str,
    cover_kind: str,
    digit: int,
    chosen: tuple[int, ...],
    spots: dict[int, int],
    region: int,
    outside: int,
    inside: int,
) -> Step | None:
    """The covers are the positions outside the fin region, topped up from inside it."""
    rules = state.rules
    cell_at = (
        (lambda line, pos: rules.cell(line, pos))
        if base_kind == "row"
        else (lambda line, pos: rules.cell(pos, line))
    )
    row_kind = base_kind == "row"
    # the region's places of the digit off the base lines: only these can be removed
    targets = [
        cell
        for cell in state.families.units[state.families.regions[region]]
        if state.masks[cell] & bit(digit)
        and (rules.row_of(cell) if row_kind else rules.col_of(cell)) not in chosen
    ]
    if not targets:
        return None
    extra = [p for p in range(rules.size) if inside >> p & 1 and not outside >> p & 1]
    for added in combinations(extra, size - outside.bit_count()):
        cover = outside
        for p in added:
            cover |= 1 << p
        fins = [cell_at(i, p) for i in chosen for p in _positions(spots[i] & ~cover)]
        if not fins:
            continue
        removed = [
            cell
            for cell in targets
            if cover >> (rules.col_of(cell) if row_kind else rules.row_of(cell)) & 1
        ]
        if removed:
            in_cover = [(spots[i] & cover).bit_count() for i in chosen]
            kind = "sashimi" if min(in_cover) < 2 else "finned"
            bases_text = ", ".join(str(i + 1) for i in chosen)
            covers_text = ", ".join(str(p + 1) for p in _positions(cover))
            fins_text = ", ".join(rules.cell_name(f) for f in sorted(fins))
            return Step(
                f"finned_{FISH_NAMES[size].lower().replace('-', '_')}",  # sashimi too
                f"{kind} {FISH_NAMES[size]} of {digit}s in {base_kind}s {bases_text} "
                f"({cover_kind}s {covers_text}, fin{'s' if len(fins) > 1 else ''} {fins_text})",
                eliminations=tuple((cell, digit) for cell in sorted(removed)),
            )
    return None


def _span(in_region: tuple[int, ...]) -> int:
    """How many positions a region covers across all lines (its width)."""
    union = 0
    for mask in in_region:
        union |= mask
    return union.bit_count()


def _positions(mask: int) -> list[int]:
    return [p for p in range(mask.bit_length()) if mask >> p & 1]


def finned_x_wing(state: Candidates) -> Step | None:
    return finned_fish(state, 2)


def finned_swordfish(state: Candidates) -> Step | None:
    return finned_fish(state, 3)


def finned_jellyfish(state: Candidates) -> Step | None:
    return finned_fish(state, 4)
