"""The numba kernel of `propagating-jit`: `sudoku_bench.solvers.engines.propagating.solver`'s search, step for step.

Only this module imports numba (the solver module imports it when the back-end is built),
so the registry can list the back-end without it. Every function is compiled with
`cache=True`: the machine code is kept on disk beside this file (or in NUMBA_CACHE_DIR)
and later processes load it instead of compiling again.

The pure-Python engine recurses and copies lists; here the search is an explicit stack of
states (`cands[depth]`, `placed[depth]`) with the alternatives of each level, so that the
kernel can return to Python every `check_every` nodes (Python reads the clock, since numba
cannot) and be called again to resume where it stopped. The order of every step is the
pure-Python engine's (pending cells last in first out, dirty units lowest first, units and
peers in the rules' order, the same float dom/wdeg score and ties), so the counters and
the answers are the same.

Unit sets (the pure-Python engine's `dirty`, `changed` and `stale` bit sets) are boolean
arrays here: a grid of 25 digits has 75 units, more than one machine word. With restarts
the kernel returns RESTARTED whenever a run is abandoned, so that Python can set that
run's solutions aside (they count again only on a timeout, as in the pure-Python engine).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

# Indices into the kernel's state vector `st`.
DEPTH = 0
NODES = 1
GUESSES = 2
PROPAGATIONS = 3
HIDDEN = 4
LOCKED = 5
FOUND = 6  # solutions found in all
BUFFERED = 7  # solutions in the buffer not yet read by Python
RESUME = 8  # 1: the kernel paused just before trying the current alternative
STARTED = 9  # 1: the root has been propagated
UNTRIED = 10  # at the limit: branch points on the path with alternatives left to try
ALLDIFF = 11  # candidates removed by AllDifferent filtering
RESTART_AT = 12  # the node count at which the current run restarts (-1: never)
RUN_BUDGET = 13  # the node budget of the current run
FLAGS = 14  # set by the caller: WITH_ALLDIFF | WITH_RESTARTS
STATE_SIZE = 15

# the work blob's arrays that Python reads and sets between calls (`Workspace`)
STATE_ARRAY = 13
SOLUTIONS_ARRAY = 14

WITH_ALLDIFF = 1  # AllDifferent filtering, locked candidates in whole passes, cell branching
WITH_RESTARTS = 2
RESTART_FIRST = 100  # solvers.engines.propagating.solver's: the first run's node budget, growing 1.5 times

# What a call of `search` returns.
EXHAUSTED = 0  # the whole tree explored
AT_LIMIT = 1  # `limit` solutions found (exhausted when st[UNTRIED] is 0)
PAUSED = 2  # `check_every` nodes spent, or the solution buffer is full: call again
RESTARTED = 3  # a run spent its node budget: its solutions no longer count; call again

# What `alldiff_filter` returns.
FAILED = -1
UNCHANGED = 0
NARROWED = 1
SLOTS = 67  # bit % 67 tells the 64 single-bit masks apart (2 generates the units mod 67)
# the digit of each single-bit mask, by its slot: bit d-1 -> d
DIGIT_OF_SLOT = np.zeros(SLOTS, dtype=np.int64)
for _digit in range(1, 64):
    DIGIT_OF_SLOT[(1 << (_digit - 1)) % SLOTS] = _digit


@njit(cache=True)
def _is_single(mask: int) -> bool:
    return mask & (mask - 1) == 0


@njit(cache=True, inline="always")
def _mark_units(
    cell: int,
    units_of: np.ndarray,
    nunits_of: np.ndarray,
    dirty: np.ndarray,
    ndirty: int,
    low: int,
) -> tuple[int, int]:
    """Mark the cell's units dirty: the number of dirty units then, and the lowest of them."""
    for j in range(nunits_of[cell]):
        unit = units_of[cell, j]
        ndirty += 1 - dirty[unit]
        dirty[unit] = 1
        low = min(low, unit)
    return ndirty, low


@njit(cache=True)
def _write_digits(row: np.ndarray, cand: np.ndarray) -> None:
    """A solved state's digits (bit d-1 set -> d) into a row of the solution buffer."""
    for cell in range(cand.shape[0]):
        row[cell] = DIGIT_OF_SLOT[cand[cell] % SLOTS]


@njit(cache=True)
def _popcount(mask: int) -> int:
    """Set bits of a non-negative mask, without a loop (SWAR: bits summed in pairs, then
    nibbles, then bytes; LLVM may turn it into one instruction)."""
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((mask * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def propagate(
    cand: np.ndarray,
    placed: np.ndarray,
    pending: np.ndarray,
    npending: int,
    dirty: np.ndarray,
    changed: np.ndarray,
    peers: np.ndarray,
    npeers: np.ndarray,
    units: np.ndarray,
    ulen: np.ndarray,
    house: np.ndarray,
    units_of: np.ndarray,
    nunits_of: np.ndarray,
    inter: np.ndarray,
    common: np.ndarray,
    ncommon: np.ndarray,
    u_rest: np.ndarray,
    nu_rest: np.ndarray,
    v_rest: np.ndarray,
    nv_rest: np.ndarray,
    full: int,
    weights: np.ndarray,
    st: np.ndarray,
    hits: np.ndarray,
    stale: np.ndarray,
    scratch: np.ndarray,
    alldiff: bool,
    rel: np.ndarray,
    support: np.ndarray,
) -> bool:
    """Place the pending cells and everything they imply; False on a contradiction.

    `dirty` holds the units to scan for hidden singles (set by the caller), `changed` and
    `stale` must be all False on entry. The rules are the pure-Python `_Search.propagate`'s;
    hidden singles and locked candidates use the houses only. With `alldiff`, locked
    candidates look at every intersection in one pass, and when nothing cheaper is left the
    units scanned in this call (`stale`) get AllDifferent filtering, lowest first, until
    one gives eliminations.

    Pair relations (any `PairConstraint`): `rel[cell, 0]` is the number of a cell's
    partners, partner k is `rel[cell, 1 + 2k]` and keeps only the digits
    `support[rel[cell, 2 + 2k], bit % SLOTS]` allows beside the placed digit (the relation's
    table, read in the pair's direction); a partner left with one digit is placed in turn,
    so every pair of placed cells has been checked one way or the other. (One matrix, not
    three: every array argument costs at every call.)
    """
    nunits = units.shape[0]
    ndirty = 0
    low = nunits  # no dirty unit below this index
    for index in range(nunits):
        if dirty[index]:
            ndirty += 1
            if index < low:
                low = index
    nchanged = 0
    nstale = 0
    propagations = 0
    hidden_singles = 0
    locked = 0
    filtered = 0
    ok = True
    while ok and (npending or ndirty or nchanged or nstale):
        while npending:
            npending -= 1
            cell = pending[npending]
            bit = cand[cell]
            propagations += 1
            for k in range(nunits_of[cell]):
                placed[units_of[cell, k]] |= bit
            # Every peer loses the digit first, with no branch per peer (testing each
            # peer's mask mispredicts half the time);
            # then the peers that had it, in order. A peer left empty ends the state,
            # which is then thrown away, so clearing the later peers too changes nothing.
            nhit = 0
            clear = ~bit
            for k in range(npeers[cell]):
                peer = peers[cell, k]
                mask = cand[peer]
                hits[nhit] = peer
                nhit += (mask & bit) != 0
                cand[peer] = mask & clear
            for k in range(nhit):
                peer = hits[k]
                mask = cand[peer]
                if mask == 0:
                    for j in range(nunits_of[peer]):
                        weights[units_of[peer, j]] += 1
                    ok = False
                    break
                ndirty, low = _mark_units(peer, units_of, nunits_of, dirty, ndirty, low)
                if _is_single(mask):
                    pending[npending] = peer
                    npending += 1
            if not ok:
                break
            relations = rel[cell, 0]
            slot = bit % SLOTS if relations else 0  # no modulo for cells without relations
            for k in range(relations):
                other = rel[cell, 1 + 2 * k]
                mask = cand[other]
                allowed = support[rel[cell, 2 + 2 * k], slot]
                if mask & ~allowed:
                    mask &= allowed
                    cand[other] = mask
                    if mask == 0:
                        for j in range(nunits_of[other]):
                            weights[units_of[other, j]] += 1
                        ok = False
                        break
                    ndirty, low = _mark_units(other, units_of, nunits_of, dirty, ndirty, low)
                    if _is_single(mask):
                        pending[npending] = other
                        npending += 1
            if not ok:
                break
        if not ok:
            break
        while ndirty:
            index = low
            while not dirty[index]:
                index += 1
            dirty[index] = False
            ndirty -= 1
            low = index + 1
            if not changed[index]:
                changed[index] = True
                nchanged += 1
            if alldiff and not stale[index]:
                stale[index] = True
                nstale += 1
            done = placed[index]
            if done == full or not house[index]:
                continue
            once = 0
            twice = 0
            for k in range(ulen[index]):
                mask = cand[units[index, k]]
                twice |= once & mask
                once |= mask
            if once != full:
                weights[index] += 1
                ok = False
                break
            hidden = once & ~twice & ~done
            if hidden:
                for k in range(ulen[index]):
                    cell = units[index, k]
                    mask = cand[cell] & hidden
                    if mask and mask != cand[cell]:
                        if not _is_single(mask):
                            weights[index] += 1
                            ok = False
                            break
                        cand[cell] = mask
                        pending[npending] = cell
                        npending += 1
                        ndirty, low = _mark_units(cell, units_of, nunits_of, dirty, ndirty, low)
                        hidden_singles += 1
                if not ok:
                    break
                if npending:
                    break
        if not ok:
            break
        if npending or ndirty:
            continue
        # No singles left: locked candidates, in the intersections of changed units.
        broke = False
        for number in range(inter.shape[0]):
            u = inter[number, 0]
            v = inter[number, 1]
            if not (changed[u] or changed[v]):
                continue
            inside = 0
            for k in range(ncommon[number]):
                inside |= cand[common[number, k]]
            # A digit placed in u or v is in neither rest (its cell's peers lost it), so it
            # is never locked: without other digits inside, nothing goes.
            if not inside & ~(placed[u] | placed[v]):
                continue
            u_mask = 0
            for k in range(nu_rest[number]):
                u_mask |= cand[u_rest[number, k]]
            v_mask = 0
            for k in range(nv_rest[number]):
                v_mask |= cand[v_rest[number, k]]
            for side in range(2):
                if side == 0:
                    remove = inside & v_mask & ~u_mask
                    count = nv_rest[number]
                else:
                    remove = inside & u_mask & ~v_mask
                    count = nu_rest[number]
                if not remove:
                    continue
                for k in range(count):
                    cell = v_rest[number, k] if side == 0 else u_rest[number, k]
                    mask = cand[cell]
                    if mask & remove:
                        locked += 1
                        mask &= ~remove
                        if mask == 0:
                            for j in range(nunits_of[cell]):
                                weights[units_of[cell, j]] += 1
                            ok = False
                            break
                        cand[cell] = mask
                        ndirty, low = _mark_units(cell, units_of, nunits_of, dirty, ndirty, low)
                        if _is_single(mask):
                            pending[npending] = cell
                            npending += 1
                if not ok:
                    break
            if not ok:
                break
            if ndirty and not alldiff:  # back to the cheap rules first, look here later
                broke = True
                break
        if not ok:
            break
        if not broke:
            for index in range(nunits):
                changed[index] = False
            nchanged = 0
        if npending or ndirty or not alldiff:
            continue
        # Nothing cheaper left: AllDifferent filtering of the units scanned in this call,
        # until one gives eliminations (then the cheap rules first).
        cells = scratch[0]
        masks = scratch[1]
        out = scratch[2]
        while nstale:
            index = 0
            while not stale[index]:
                index += 1
            stale[index] = False
            nstale -= 1
            count = 0
            for k in range(ulen[index]):
                cell = units[index, k]
                if not _is_single(cand[cell]):
                    cells[count] = cell
                    masks[count] = cand[cell]
                    count += 1
            if count < 2:  # nothing to filter (a smaller unit's digits need not all go)
                continue
            code = alldiff_filter(masks, count, out, scratch)
            if code == FAILED:
                weights[index] += 1
                ok = False
                break
            if code == UNCHANGED:
                continue
            for k in range(count):
                mask = out[k]
                if mask != masks[k]:
                    filtered += _popcount(masks[k] ^ mask)
                    cell = cells[k]
                    cand[cell] = mask
                    ndirty, low = _mark_units(cell, units_of, nunits_of, dirty, ndirty, low)
                    if _is_single(mask):
                        pending[npending] = cell
                        npending += 1
            break
    # leave the unit sets clean for the next call
    for index in range(nunits):
        dirty[index] = False
        changed[index] = False
        stale[index] = False
    st[PROPAGATIONS] += propagations
    st[HIDDEN] += hidden_singles
    st[LOCKED] += locked
    st[ALLDIFF] += filtered
    return ok


@njit(cache=True)
def alldiff_filter(masks: np.ndarray, count: int, out: np.ndarray, scratch: np.ndarray) -> int:
    """Generalised arc consistency for one AllDifferent: `sudoku_bench.solvers.engines.propagating.solver.alldiff_filter`.

    `masks[:count]` are the candidates of a unit's open cells; `out[:count]` gets them with
    every digit removed that no assignment of distinct digits to all the cells gives its
    cell (Régin 1994). FAILED when there is no such assignment, else UNCHANGED or NARROWED.
    A matching of cells to digits (greedy, then augmenting paths), then the digit graph
    a -> b when the cell matched to a may take b: b stays possible for cell(a) when b is
    free, reaches a free digit, or shares a strongly connected component with a. Digits
    are bits; `owner[bit % SLOTS]` is the cell matched to a digit (-1: free).
    """
    mate = scratch[3]
    owner = scratch[4]
    unmatched = scratch[8]
    union = 0
    for i in range(count):
        union |= masks[i]
    if _popcount(union) < count:  # fewer digits than cells
        return FAILED
    for slot in range(SLOTS):
        owner[slot] = -1
    free = union
    nunmatched = 0
    for i in range(count):
        available = masks[i] & free
        if available:
            bit = available & -available
            mate[i] = bit
            owner[bit % SLOTS] = i
            free ^= bit
        else:
            mate[i] = 0
            unmatched[nunmatched] = i
            nunmatched += 1
    for k in range(nunmatched):
        if not _augment(unmatched[k], masks, mate, owner, scratch):
            return FAILED
    matched = 0
    for i in range(count):
        matched |= mate[i]
        out[i] = masks[i]
    free = union & ~matched
    # `keep`: the free digits and the matched digits that reach one (backward closure)
    keep = free
    grown = free != 0
    while grown:
        grown = False
        rest = matched & ~keep
        while rest:
            bit = rest & -rest
            rest ^= bit
            if masks[owner[bit % SLOTS]] & keep:
                keep |= bit
                grown = True
    narrowed = False
    if keep:  # a cell matched to a kept digit may take the kept digits only
        for i in range(count):
            if mate[i] & keep and masks[i] & ~keep:
                out[i] = masks[i] & keep
                narrowed = True
    # the other digits' strongly connected components, one at a time: the forward and
    # backward closures of the lowest digit left
    remaining = matched & ~keep
    while remaining:
        start = remaining & -remaining
        forward = start
        frontier = start
        while frontier:
            reached = 0
            while frontier:
                bit = frontier & -frontier
                frontier ^= bit
                reached |= masks[owner[bit % SLOTS]]
            frontier = reached & remaining & ~forward
            forward |= frontier
        backward = start
        grown = True
        while grown:
            grown = False
            rest = remaining & ~backward
            while rest:
                bit = rest & -rest
                rest ^= bit
                if masks[owner[bit % SLOTS]] & backward:
                    backward |= bit
                    grown = True
        component = forward & backward
        remaining &= ~component
        allowed = component | keep
        members = component
        while members:
            bit = members & -members
            members ^= bit
            cell = owner[bit % SLOTS]
            if masks[cell] & ~allowed:
                out[cell] = masks[cell] & allowed
                narrowed = True
    return NARROWED if narrowed else UNCHANGED


@njit(cache=True)
def _augment(
    index: int, masks: np.ndarray, mate: np.ndarray, owner: np.ndarray, scratch: np.ndarray
) -> bool:
    """An alternating path from the unmatched cell `index` to a free digit (breadth first),
    flipped into the matching; False when there is none."""
    queue = scratch[5]
    parent_cell = scratch[6]  # per digit slot: the cell that reached the digit
    parent_bit = scratch[7]  # and that cell's matched digit then
    seen = 0
    queue[0] = index
    head = 0
    tail = 1
    while head < tail:
        cell = queue[head]
        head += 1
        options = masks[cell] & ~seen
        while options:
            bit = options & -options
            options ^= bit
            seen |= bit
            slot = bit % SLOTS
            parent_cell[slot] = cell
            parent_bit[slot] = mate[cell]
            if owner[slot] < 0:  # a free digit: flip the path back to `index`
                while True:
                    slot = bit % SLOTS
                    cell = parent_cell[slot]
                    previous = parent_bit[slot]
                    mate[cell] = bit
                    owner[slot] = cell
                    if cell == index:
                        return True
                    bit = previous
            queue[tail] = owner[slot]
            tail += 1
    return False


@njit(cache=True)
def choose(
    cand: np.ndarray,
    units: np.ndarray,
    ulen: np.ndarray,
    house: np.ndarray,
    units_of: np.ndarray,
    nunits_of: np.ndarray,
    weights: np.ndarray,
    out_cells: np.ndarray,
    out_bits: np.ndarray,
    pairs: bool,
) -> int:
    """Write the alternatives (cell, digit bit) to branch on; return how many (0: full).

    The open cell with the most weight per candidate (the last of equals), unless it has
    three candidates or more and some digit has only two places left in a house (`pairs`:
    off with AllDifferent filtering, as in the pure-Python engine).
    """
    # weight / candidates compared as integer cross products: the same order and ties as
    # the floats (distinct quotients of small integers differ by far more than a rounding)
    best = -1
    best_weight = 0
    best_count = 1
    for cell in range(cand.shape[0]):
        mask = cand[cell]
        if not _is_single(mask):
            weight = 0
            for k in range(nunits_of[cell]):
                weight += weights[units_of[cell, k]]
            count = _popcount(mask)
            if weight * best_count >= best_weight * count:
                best = cell
                best_weight = weight
                best_count = count
    if best < 0:
        return 0
    if pairs and _popcount(cand[best]) > 2:
        for index in range(units.shape[0]):
            if not house[index]:
                continue
            once = 0
            twice = 0
            thrice = 0
            for k in range(ulen[index]):
                mask = cand[units[index, k]]
                thrice |= twice & mask
                twice |= once & mask
                once |= mask
            two_places = twice & ~thrice
            if two_places:
                bit = two_places & -two_places
                count = 0
                for k in range(ulen[index]):
                    cell = units[index, k]
                    if cand[cell] & bit:
                        out_cells[count] = cell
                        out_bits[count] = bit
                        count += 1
                return count
    count = 0
    mask = cand[best]
    while mask:
        bit = mask & -mask
        out_cells[count] = best
        out_bits[count] = bit
        count += 1
        mask ^= bit
    return count


@intrinsic
def _as_matrix(typingctx, vector, rows, cols):  # type: ignore[no-untyped-def]
    """A contiguous vector of rows * cols items viewed as a C-ordered matrix, by setting the
    shape and strides only: `reshape` calls a generic stride helper, which for the 14
    matrices unpacked per call of `search` is a visible share of an easy puzzle."""
    matrix = types.Array(vector.dtype, 2, "C")

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        source = make_array(signature.args[0])(context, builder, args[0])
        view = make_array(matrix)(context, builder)
        itemsize = source.itemsize
        populate_array(
            view,
            data=source.data,
            shape=cgutils.pack_array(builder, [args[1], args[2]]),
            strides=cgutils.pack_array(builder, [builder.mul(args[2], itemsize), itemsize]),
            itemsize=itemsize,
            meminfo=source.meminfo,
            parent=source.parent,
        )
        return impl_ret_borrowed(context, builder, matrix, view._getvalue())

    return matrix(vector, types.intp, types.intp), codegen


@njit(cache=True)
def _matrix(blob: np.ndarray, index: int) -> np.ndarray:
    """Array `index` of a packed blob, as a matrix (see `sudoku_bench.solvers.engines.propagating.jit.pack`)."""
    offset = blob[3 * index]
    rows = blob[3 * index + 1]
    cols = blob[3 * index + 2]
    return _as_matrix(blob[offset : offset + rows * cols], rows, cols)  # type: ignore[call-arg]


@njit(cache=True)
def _vector(blob: np.ndarray, index: int) -> np.ndarray:
    offset = blob[3 * index]
    return blob[offset : offset + blob[3 * index + 1] * blob[3 * index + 2]]


@njit(cache=True)
def search(
    values: bytearray,
    tab: np.ndarray,
    work: np.ndarray,
    limit: int,
    check_every: int,
) -> int:
    """Run (or resume) the search; EXHAUSTED, AT_LIMIT or PAUSED.

    The tables and the work arrays come packed in two int64 blobs, each headed by its
    index: every argument costs at every call (a call with thirty arrays costs more than
    solving an easy puzzle). The work blob holds the state vector `st` and the solution
    buffer too. The first call (`st` all zero) starts from the puzzle's `values`
    (0 = empty); the work arrays need no clearing, so one set of them serves every puzzle
    of a rules. Solutions are written to the buffer as digits (`st[BUFFERED]` of them);
    when it is full (`limit` rows at most are used), the kernel pauses.
    """
    peers = _matrix(tab, 0)
    npeers = _vector(tab, 1)
    units = _matrix(tab, 2)
    ulen = _vector(tab, 3)
    house = _vector(tab, 4)
    units_of = _matrix(tab, 5)
    nunits_of = _vector(tab, 6)
    inter = _matrix(tab, 7)
    common = _matrix(tab, 8)
    ncommon = _vector(tab, 9)
    u_rest = _matrix(tab, 10)
    nu_rest = _vector(tab, 11)
    v_rest = _matrix(tab, 12)
    nv_rest = _vector(tab, 13)
    full = _vector(tab, 14)[0]  # every digit's bit
    rel = _matrix(tab, 15)
    support = _matrix(tab, 16)
    cands = _matrix(work, 0)
    placeds = _matrix(work, 1)
    choice_cells = _matrix(work, 2)
    choice_bits = _matrix(work, 3)
    nchoices = _vector(work, 4)
    current = _vector(work, 5)
    pending = _vector(work, 6)
    dirty = _vector(work, 7)
    changed = _vector(work, 8)
    weights = _vector(work, 9)
    hits = _vector(work, 10)
    stale = _vector(work, 11)
    scratch = _matrix(work, 12)
    st = _vector(work, STATE_ARRAY)
    solutions = _matrix(work, SOLUTIONS_ARRAY)
    alldiff = (st[FLAGS] & WITH_ALLDIFF) != 0
    pairs = not alldiff  # two-place branching helps singles, not full filtering (measured)
    capacity = min(limit, solutions.shape[0])
    if st[STARTED] == 0:
        st[STARTED] = 1
        st[NODES] = 1
        npending = 0
        start = cands[0]
        for cell in range(len(values)):
            if values[cell]:
                start[cell] = np.int64(1) << (np.int64(values[cell]) - 1)
                pending[npending] = cell
                npending += 1
            else:
                start[cell] = full
        for index in range(units.shape[0]):
            placeds[0, index] = 0
            weights[index] = 1
            dirty[index] = True
        if not propagate(
            cands[0], placeds[0], pending, npending, dirty, changed, peers, npeers, units,
            ulen, house, units_of, nunits_of, inter, common, ncommon, u_rest, nu_rest,
            v_rest, nv_rest, full, weights, st, hits, stale, scratch, alldiff, rel, support,
        ):  # fmt: skip
            return EXHAUSTED
        count = choose(
            cands[0], units, ulen, house, units_of, nunits_of, weights, choice_cells[0],
            choice_bits[0], pairs,
        )  # fmt: skip
        if count == 0:
            nchoices[0] = 0
            current[0] = 0
            _write_digits(solutions[0], cands[0])
            st[BUFFERED] = 1
            st[FOUND] = 1
            return AT_LIMIT if limit <= 1 else EXHAUSTED
        st[GUESSES] += 1
        nchoices[0] = count
        current[0] = -1
        st[DEPTH] = 0
        st[RESTART_AT] = -1
        if st[FLAGS] & WITH_RESTARTS:
            st[RUN_BUDGET] = RESTART_FIRST
            st[RESTART_AT] = st[NODES] + RESTART_FIRST
    depth = st[DEPTH]
    budget = check_every
    while True:
        if st[RESUME]:
            st[RESUME] = 0
        else:
            current[depth] += 1
            if current[depth] >= nchoices[depth]:
                depth -= 1
                if depth < 0:
                    st[DEPTH] = 0
                    return EXHAUSTED
                continue
            st[NODES] += 1
            if st[NODES] == st[RESTART_AT]:
                # the run's budget is spent: begin again from the root, whose alternatives
                # are chosen anew with the weights this run taught
                st[RUN_BUDGET] = st[RUN_BUDGET] * 3 // 2  # int(budget * 1.5)
                st[RESTART_AT] = st[NODES] + st[RUN_BUDGET]
                st[FOUND] = 0
                st[GUESSES] += 1
                nchoices[0] = choose(
                    cands[0], units, ulen, house, units_of, nunits_of, weights,
                    choice_cells[0], choice_bits[0], pairs,
                )  # fmt: skip
                current[0] = -1
                st[DEPTH] = 0
                return RESTARTED
            budget -= 1
            if budget <= 0 or st[BUFFERED] >= capacity:
                st[RESUME] = 1
                st[DEPTH] = depth
                return PAUSED
        number = current[depth]
        cell = choice_cells[depth, number]
        bit = choice_bits[depth, number]
        # element by element: a slice assignment tests the arrays for overlap and broadcasts
        trial = cands[depth + 1]
        source = cands[depth]
        for index in range(trial.shape[0]):
            trial[index] = source[index]
        trial[cell] = bit
        trial_placed = placeds[depth + 1]
        source = placeds[depth]
        for index in range(trial_placed.shape[0]):
            trial_placed[index] = source[index]
        pending[0] = cell
        for k in range(nunits_of[cell]):
            dirty[units_of[cell, k]] = True
        if not propagate(
            trial, trial_placed, pending, 1, dirty, changed, peers, npeers, units, ulen,
            house, units_of, nunits_of, inter, common, ncommon, u_rest, nu_rest, v_rest,
            nv_rest, full, weights, st, hits, stale, scratch, alldiff, rel, support,
        ):  # fmt: skip
            continue
        count = choose(
            trial, units, ulen, house, units_of, nunits_of, weights, choice_cells[depth + 1],
            choice_bits[depth + 1], pairs,
        )  # fmt: skip
        if count == 0:
            _write_digits(solutions[st[BUFFERED]], trial)
            st[BUFFERED] += 1
            st[FOUND] += 1
            if st[FOUND] >= limit:
                st[DEPTH] = depth
                untried = 0
                for level in range(depth + 1):
                    if current[level] < nchoices[level] - 1:
                        untried += 1
                st[UNTRIED] = untried
                return AT_LIMIT
            continue
        st[GUESSES] += 1
        depth += 1
        nchoices[depth] = count
        current[depth] = -1
