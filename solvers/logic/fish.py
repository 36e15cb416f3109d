"""Fish: k rows in which a digit's places all fall in the same k columns (or the other way
round) own the digit in those columns: X-wing (k = 2), swordfish (3), jellyfish (4)."""

from __future__ import annotations

from itertools import combinations

from solvers.logic.state import Candidates, Step, bit

FISH_NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def fish(state: Candidates, size: int) -> Step | None:
    """The first fish of `size` lines, with rows as base lines first, then columns."""
    rules = state.rules
    for base_kind, cover_kind in (("row", "column"), ("column", "row")):
        bases = rules.rows if base_kind == "row" else rules.columns
        covers = rules.columns if base_kind == "row" else rules.rows
        # a cell's place along a base line is its cover line's index, and the other way round
        position = rules.col_of if base_kind == "row" else rules.row_of
        base_of = rules.row_of if base_kind == "row" else rules.col_of
        first_base = 0 if base_kind == "row" else rules.size  # index of bases[0] in units
        for digit in rules.digits:
            spots = {}
            for index, line in enumerate(bases):
                if not state.unit_placed[first_base + index] & bit(digit):
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
    return None


def x_wing(state: Candidates) -> Step | None:
    return fish(state, 2)


def swordfish(state: Candidates) -> Step | None:
    return fish(state, 3)


def jellyfish(state: Candidates) -> Step | None:
    return fish(state, 4)


def finned_fish(state: Candidates, size: int) -> Step | None:
    """A fish with fins: `size` base lines whose places of a digit fall in `size` cover lines
    except for a few extra cells (the fins). Either a fin holds the digit, or the fish is
    real; so a cell of a cover line outside the base lines that also sees every fin cannot
    hold it. Sashimi when a base line keeps fewer than two places in the covers."""
    rules = state.rules
    peers = [frozenset(p) for p in rules.peers]
    for base_kind, cover_kind in (("row", "column"), ("column", "row")):
        bases = rules.rows if base_kind == "row" else rules.columns
        covers = rules.columns if base_kind == "row" else rules.rows
        position = rules.col_of if base_kind == "row" else rules.row_of
        base_of = rules.row_of if base_kind == "row" else rules.col_of
        first_base = 0 if base_kind == "row" else rules.size
        for digit in rules.digits:
            spots: dict[int, list[int]] = {}
            for index, line in enumerate(bases):
                if not state.unit_placed[first_base + index] & bit(digit):
                    places = state.places(line, digit)
                    if 1 <= len(places) <= size + 2:
                        spots[index] = places
            for chosen in combinations(spots, size):
                cells = [cell for i in chosen for cell in spots[i]]
                lines = sorted({position(cell) for cell in cells})
                if not size < len(lines) <= size + 3:
                    continue
                for cover in combinations(lines, size):
                    fins = [cell for cell in cells if position(cell) not in cover]
                    if len(fins) > 4:
                        continue
                    seen = peers[fins[0]].intersection(*(peers[f] for f in fins[1:]))
                    removed = [
                        cell
                        for c in cover
                        for cell in state.places(covers[c], digit)
                        if base_of(cell) not in chosen and cell in seen
                    ]
                    if removed:
                        in_cover = [
                            sum(1 for cell in spots[i] if position(cell) in cover) for i in chosen
                        ]
                        kind = "sashimi" if min(in_cover) < 2 else "finned"
                        name = f"{kind} {FISH_NAMES[size]}"
                        bases_text = ", ".join(str(i + 1) for i in chosen)
                        covers_text = ", ".join(str(c + 1) for c in cover)
                        fins_text = ", ".join(rules.cell_name(f) for f in sorted(fins))
                        return Step(
                            f"finned_{FISH_NAMES[size].lower().replace('-', '_')}",  # sashimi too
                            f"{name} of {digit}s in {base_kind}s {bases_text} "
                            f"({cover_kind}s {covers_text}, fin{'s' if len(fins) > 1 else ''} "
                            f"{fins_text})",
                            eliminations=tuple((cell, digit) for cell in removed),
                        )
    return None


def finned_x_wing(state: Candidates) -> Step | None:
    return finned_fish(state, 2)


def finned_swordfish(state: Candidates) -> Step | None:
    return finned_fish(state, 3)


def finned_jellyfish(state: Candidates) -> Step | None:
    return finned_fish(state, 4)
