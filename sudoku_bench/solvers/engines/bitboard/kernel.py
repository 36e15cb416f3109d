"""The numba kernel of `bitboard-jit`: classic 9x9 Sudoku on per-digit bitboards.

The position is 30 machine words: for each digit d and band b (rows 3b..3b+2) a 27-bit word
of the cells of that band where d may still go (bit 9*(row % 3) + column), then for each
band a word of its unsolved cells. A cell's index is 27 * band + its bit, so row-major cell
numbers need no table. A placed digit keeps its own bit in its board (its peers lose it),
so every house of every digit holds at least one bit while the position is consistent:
an empty house is a contradiction, and a house with exactly one bit that is still unsolved
is a hidden single.

Propagation, to a fixed point:
- naked singles, band by band: the nine boards summed bit-parallel into "at least one" and
  "at least two" words; an unsolved cell in neither is a contradiction;
- when no naked single is left, for each digit whose boards changed since its last scan
  (a placement reports the digits it touched): hidden singles and empty houses (the rows
  and boxes of a band word all at once with shifts and one subtraction, no test per house;
  columns fold the three rows of each band);
- when no single of either kind is left, for each digit whose boards changed since its last
  such scan: locked candidates (pointing and claiming) in bands (row x box) and in stacks
  (column x box), on the same folded words.
Branching (a portable rule, tdoku's and JCZSolve's): a cell with two candidates if there is
one, else an unsolved cell with the fewest, its digits in increasing order.

The search is an explicit stack of positions, one per level, so that the kernel can return
to Python every `check_every` nodes (Python reads the clock, numba cannot) and resume.
Counters: `nodes` = 1 (the root) + alternatives tried; `guesses` = branch points opened;
`naked_singles`, `hidden_singles`, `locked_eliminations` = what propagation did.

Rules beyond the classic ones (extra units such as the diagonals, pair relations such as
anti-knight or non-consecutive) come as one table, `links`, of shape (81 * 9, 27): row
9 * cell + d holds, per digit e and band b (index 3 * e + b), the cells of band b that lose
e when d is placed in `cell` (a unit's cells are a pair relation "different digits" each).
The table is symmetric in what it forbids, so a placed cell never loses its own digit.
Rows past `LINKS` are the extra units of nine cells (three band masks each, in columns 0-2),
in which hidden singles and empty units are looked for as in the houses. Classic rules pass
None instead, which numba compiles as a variant of its own without the table's code.

Only this module imports numba; every function is compiled with `cache=True` (machine code
kept on disk and loaded by later processes).
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

LEVELS = 82  # the root, and each level places a cell at least
LINKS = 81 * 9  # rows of a links table (its columns: the 27 digit boards)
WORDS = 32  # 27 digit boards, 3 unsolved-cell words, 2 spare (a round row)
UNSOLVED = 27  # the first unsolved-cell word of a position
BAND = (1 << 27) - 1  # every cell of a band
ROW = 0x1FF  # the first row of a band
BOX = 0x1C0E07  # the first box of a band: columns 0-2 of its three rows
COLUMN = 0x40201  # column 0 of a band: bits 0, 9 and 18
BOX_ROWS = 0x1249249  # the first cell of each row of each box of a band: bit 9 * row + 3 * box
BOX_ROW_0 = 0x49  # the first cell of row 0 of each box: bits 0, 3 and 6
ALL_DIGITS = 0x1FF  # a set of digits: bit d for digit d + 1

# Indices into the meta vector: counters and the search's own state, then the stack.
DEPTH = 0
NODES = 1
GUESSES = 2
FOUND = 3  # solutions found in all
BUFFERED = 4  # solutions in the buffer not yet read by Python
STARTED = 5  # 1: the root has been set up
UNTRIED = 6  # at the limit: branch points on the path with alternatives left to try
NAKED = 7
HIDDEN = 8
LOCKED = 9
STATE_SIZE = 16
CELL = STATE_SIZE  # the branch cell of each level
REMAINING = CELL + LEVELS  # the digits (bit d) each level has still to try
META_SIZE = REMAINING + LEVELS

# What a call of `search` returns.
EXHAUSTED = 0  # the whole tree explored
AT_LIMIT = 1  # `limit` solutions found (exhausted when meta[UNTRIED] is 0)
PAUSED = 2  # `check_every` nodes spent, or the solution buffer is full: call again

# Batch status codes (`solve_many`'s stats column STATUS), in `sudoku_bench.solvers.base.Status` words:
SOLVED = 0  # solutions found, search exhausted: the count is exact
NO_SOLUTION = 1  # search exhausted, nothing found
LIMIT = 2  # stopped at `limit` solutions with branches left untried
# Verdict codes (column VERDICT), in `sudoku_bench.solvers.base.Verdict` words:
NONE = 0
UNIQUE = 1
MULTIPLE = 2
UNKNOWN = 3
# The columns of `solve_many`'s stats.
COUNT, STATUS, VERDICT, STAT_NODES, STAT_GUESSES = 0, 1, 2, 3, 4
STATS = 5


def _lines_boxes_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tables of locked candidates on a 3 x 3 matrix of lines (rows of a band, or
    columns of a stack) by boxes, bit 3 * line + box: BOXES_OF_ROW (a band row's 9 bits ->
    the boxes it has places in), SPREAD (3 bits of columns -> the matrix bits of box 0),
    USABLE (places -> those some permutation of lines over boxes covers) and CELLS_OF (a
    band's matrix -> its cells)."""
    boxes_of_row = np.zeros(512, dtype=np.int64)
    for row in range(512):
        for box in range(3):
            if row & (7 << (3 * box)):
                boxes_of_row[row] |= 1 << box
    spread = np.array([(c & 1) | ((c & 2) << 2) | ((c & 4) << 4) for c in range(8)], dtype=np.int64)
    usable = np.zeros(512, dtype=np.int64)
    for presence in range(512):
        for lines in itertools.permutations(range(3)):
            bits = sum(1 << (3 * line + box) for box, line in enumerate(lines))
            if presence & bits == bits:
                usable[presence] |= bits
    cells_of = np.zeros(512, dtype=np.int64)
    for matrix in range(512):
        for line in range(3):
            for box in range(3):
                if matrix >> (3 * line + box) & 1:
                    cells_of[matrix] |= (ROW << (9 * line)) & (BOX << (3 * box))
    return boxes_of_row, spread, usable, cells_of


BOXES_OF_ROW, SPREAD, USABLE, CELLS_OF = _lines_boxes_tables()


def _peer_table() -> np.ndarray:
    """Per cell, the three band words of its peers (itself excluded)."""
    table = np.zeros((81, 3), dtype=np.int64)
    for cell in range(81):
        row, col = divmod(cell, 9)
        for other in range(81):
            orow, ocol = divmod(other, 9)
            same_box = orow // 3 == row // 3 and ocol // 3 == col // 3
            if other != cell and (orow == row or ocol == col or same_box):
                table[cell, other // 27] |= 1 << (other % 27)
    return table


PEERS = _peer_table()


@njit(cache=True)
def _lowest(mask: int) -> int:
    """The index of the lowest set bit of a non-zero mask (one instruction)."""
    return trailing_zeros(mask)  # type: ignore[call-arg]


@njit(cache=True)
def _bit(cell: int) -> int:
    """A cell's bit in its band's word."""
    return 1 << (cell % 27)


@njit(cache=True)
def _place(s: np.ndarray, level: int, digit: int, band: int, bit: int, links) -> int:  # type: ignore[no-untyped-def]
    """Put `digit` in the cell `bit` of `band`: the cell loses every other digit, its peers
    lose this one, and with `links` (the rules beyond the classic ones, see `LINKS`) the
    cells it links to lose the digits its row of `links` names. Returns the digits whose
    boards changed (bit d), to be scanned again."""
    position = _lowest(bit)
    cell = 27 * band + position
    clear = ~bit
    changed = 1 << digit
    for other in range(9):
        word = s[level, 3 * other + band]
        changed |= ((word >> position) & 1) << other
        s[level, 3 * other + band] = word & clear
    s[level, 3 * digit + band] |= bit
    s[level, 3 * digit] &= ~PEERS[cell, 0]
    s[level, 3 * digit + 1] &= ~PEERS[cell, 1]
    s[level, 3 * digit + 2] &= ~PEERS[cell, 2]
    s[level, UNSOLVED + band] &= clear
    if links is not None:  # pruned at compile time: the classic variant has no such code
        masks = links[9 * cell + digit]
        for index in range(UNSOLVED):
            word = s[level, index]
            lost = word & masks[index]
            if lost:
                s[level, index] = word ^ lost
                changed |= 1 << (index // 3)
    return changed


@njit(cache=True)
def _fold(word: int) -> tuple[int, int]:
    """A band word's three rows folded into 9-bit column words: (in one row at least, in two
    at least)."""
    r0 = word & ROW
    r1 = (word >> 9) & ROW
    r2 = word >> 18
    return r0 | r1 | r2, (r0 & r1) | (r2 & (r0 | r1))


@njit(cache=True)
def propagate(s: np.ndarray, level: int, meta: np.ndarray, pending: int, links) -> bool:  # type: ignore[no-untyped-def]
    """Singles and locked candidates on position `level` to a fixed point; False on a
    contradiction. `pending`: the digits (bit d) whose boards changed since the position
    was last at a fixed point; only their boards are scanned for hidden singles, and
    locked candidates are looked for only when no single is left, on the boards that
    changed since they were last looked at (singles are cheaper and often settle more)."""
    naked = 0
    hidden = 0
    locked = 0
    unlocked = 0  # digits whose boards changed since their last locked-candidates scan
    ok = True
    while ok:
        progress = False
        # naked singles, band by band
        for band in range(3):
            unsolved = s[level, UNSOLVED + band]
            if unsolved == 0:
                continue
            one = 0
            two = 0
            # the digit of a cell with one candidate, in four bit planes (bit k of digit - 1)
            plane0 = 0
            plane1 = 0
            plane2 = 0
            plane3 = 0
            for digit in range(9):
                board = s[level, 3 * digit + band]
                two |= one & board
                one |= board
                if digit & 1:  # the loop is unrolled: these tests are compiled away
                    plane0 |= board
                if digit & 2:
                    plane1 |= board
                if digit & 4:
                    plane2 |= board
                if digit & 8:
                    plane3 |= board
            if unsolved & ~one:
                ok = False
                break
            singles = unsolved & one & ~two
            while singles:
                bit = singles & -singles
                singles ^= bit
                digit = (
                    ((plane0 & bit) != 0)
                    | ((plane1 & bit) != 0) << 1
                    | ((plane2 & bit) != 0) << 2
                    | ((plane3 & bit) != 0) << 3
                )
                if not s[level, 3 * digit + band] & bit:  # an earlier single took its digit
                    ok = False
                    break
                pending |= _place(s, level, digit, band, bit, links)
                naked += 1
                progress = True
            if not ok:
                break
        if not ok or progress:
            continue
        # hidden singles and empty houses, digit by digit
        for digit in range(9):
            if not (pending >> digit) & 1:
                continue
            pending &= ~(1 << digit)
            unlocked |= 1 << digit
            base = 3 * digit
            # columns: the three bands folded
            o0, t0 = _fold(s[level, base])
            o1, t1 = _fold(s[level, base + 1])
            o2, t2 = _fold(s[level, base + 2])
            once = o0 | o1 | o2
            if once != ROW:  # a column without a place for the digit
                ok = False
                break
            twice = t0 | t1 | t2 | (o0 & o1) | (o2 & (o0 | o1))
            column_singles = once & ~twice
            while column_singles:
                bit = column_singles & -column_singles
                column_singles ^= bit
                mask = COLUMN * bit
                for band in range(3):
                    cell = s[level, base + band] & mask
                    if cell:
                        if s[level, UNSOLVED + band] & cell:
                            pending |= _place(s, level, digit, band, cell, links)
                            hidden += 1
                            progress = True
                        break
            for band in range(3):
                word = s[level, base + band]
                # rows and boxes of this band, all at once: a flag per box-row (bit
                # 9 * row + 3 * box) where the digit may go
                flags = (word | (word >> 1) | (word >> 2)) & BOX_ROWS
                if (flags | (flags >> 3) | (flags >> 6)) & COLUMN != COLUMN:
                    ok = False  # a row without a place
                    break
                in_row0 = flags & BOX_ROW_0  # bit 3 * box: the box has a place in that row
                in_row1 = (flags >> 9) & BOX_ROW_0
                in_row2 = (flags >> 18) & BOX_ROW_0
                if in_row0 | in_row1 | in_row2 != BOX_ROW_0:
                    ok = False  # a box without a place
                    break
                # every row has a place, so one subtracted per row borrows inside the row:
                # what is left of a row without its lowest place
                rest = word & (word - COLUMN)
                rest |= (rest >> 1) | (rest >> 2)
                rows_with_two = (rest | (rest >> 3) | (rest >> 6)) & COLUMN
                box_rows_with_two = (
                    (word & (word >> 1)) | (word & (word >> 2)) | ((word >> 1) & (word >> 2))
                ) & BOX_ROWS
                boxes_with_two = (
                    (in_row0 & in_row1)
                    | (in_row2 & (in_row0 | in_row1))
                    | (
                        (box_rows_with_two | (box_rows_with_two >> 9) | (box_rows_with_two >> 18))
                        & BOX_ROW_0
                    )
                )
                singles = (
                    word
                    & s[level, UNSOLVED + band]
                    & (((COLUMN & ~rows_with_two) * ROW) | ((BOX_ROW_0 & ~boxes_with_two) * BOX))
                )
                while singles:
                    bit = singles & -singles
                    singles ^= bit
                    # a single that an earlier one took from its house leaves the house empty
                    if not s[level, base + band] & bit:
                        ok = False
                        break
                    pending |= _place(s, level, digit, band, bit, links)
                    hidden += 1
                    progress = True
                if not ok:
                    break
            if not ok:
                break
            if links is not None:  # the extra units of nine cells, after the table's links
                for unit in range(LINKS, links.shape[0]):
                    places0 = s[level, base] & links[unit, 0]
                    places1 = s[level, base + 1] & links[unit, 1]
                    places2 = s[level, base + 2] & links[unit, 2]
                    if (places0 | places1 | places2) == 0:
                        ok = False
                        break
                    if (places0 != 0) + (places1 != 0) + (places2 != 0) == 1:
                        band = 0 if places0 else (1 if places1 else 2)
                        places = places0 | places1 | places2
                        if places & (places - 1) == 0 and places & s[level, UNSOLVED + band]:
                            pending |= _place(s, level, digit, band, places, links)
                            hidden += 1
                            progress = True
                if not ok:
                    break
        if not ok or progress:
            continue
        # locked candidates, digit by digit, on the boards changed since their last scan:
        # in each band (rows x boxes) and then each stack (columns x boxes), the digit's
        # places as a 3 x 3 matrix, reduced to the lines x boxes that some placement of
        # the digit in the band (one line per box, a different line in each box) uses
        for digit in range(9):
            if not (unlocked >> digit) & 1:
                continue
            unlocked &= ~(1 << digit)
            base = 3 * digit
            for band in range(3):
                word = s[level, base + band]
                presence = (
                    BOXES_OF_ROW[word & ROW]
                    | BOXES_OF_ROW[(word >> 9) & ROW] << 3
                    | BOXES_OF_ROW[word >> 18] << 6
                )
                usable = USABLE[presence]
                if usable != presence:
                    s[level, base + band] = word & CELLS_OF[usable]
                    locked += 1
                    pending |= 1 << digit
                    progress = True
            folded0, _ = _fold(s[level, base])
            folded1, _ = _fold(s[level, base + 1])
            folded2, _ = _fold(s[level, base + 2])
            for stack in range(3):
                shift = 3 * stack
                presence = (
                    SPREAD[(folded0 >> shift) & 7]
                    | SPREAD[(folded1 >> shift) & 7] << 1
                    | SPREAD[(folded2 >> shift) & 7] << 2
                )
                usable = USABLE[presence]
                if usable != presence:
                    for band in range(3):
                        lost = (presence & ~usable) >> band
                        columns = (lost & 1) | ((lost >> 2) & 2) | ((lost >> 4) & 4)
                        if columns:
                            s[level, base + band] &= ~(COLUMN * (columns << shift))
                    locked += 1
                    pending |= 1 << digit
                    progress = True
        if not progress:
            break
    meta[NAKED] += naked
    meta[HIDDEN] += hidden
    meta[LOCKED] += locked
    return ok


@njit(cache=True)
def choose(s: np.ndarray, level: int) -> int:
    """The branch cell of a position with unsolved cells: the first with two candidates,
    else the first with the fewest."""
    best = -1
    best_count = 10
    for band in range(3):
        unsolved = s[level, UNSOLVED + band]
        if unsolved == 0:
            continue
        one = 0
        two = 0
        three = 0
        for digit in range(9):
            board = s[level, 3 * digit + band]
            three |= two & board
            two |= one & board
            one |= board
        pairs = unsolved & two & ~three
        if pairs:
            return 27 * band + _lowest(pairs)
        # candidates per cell as a 4-bit number in bit planes: a ripple-carry sum
        a0 = 0
        a1 = 0
        a2 = 0
        a3 = 0
        for digit in range(9):
            carry = s[level, 3 * digit + band]
            c0 = a0 & carry
            a0 ^= carry
            c1 = a1 & c0
            a1 ^= c0
            c2 = a2 & c1
            a2 ^= c1
            a3 |= c2
        for count in range(3, best_count):
            cells = unsolved
            cells &= a0 if count & 1 else ~a0
            cells &= a1 if count & 2 else ~a1
            cells &= a2 if count & 4 else ~a2
            cells &= a3 if count & 8 else ~a3
            if cells:
                best = 27 * band + _lowest(cells)
                best_count = count
                break
    return best


@njit(cache=True)
def _write(s: np.ndarray, level: int, row: np.ndarray) -> None:
    """A solved position's digits into a row of 81 bytes."""
    for digit in range(9):
        for band in range(3):
            word = s[level, 3 * digit + band]
            while word:
                bit = word & -word
                word ^= bit
                row[27 * band + _lowest(bit)] = digit + 1


@njit(cache=True)
def _digits_of(s: np.ndarray, level: int, cell: int) -> int:
    band = cell // 27
    bit = _bit(cell)
    mask = 0
    for digit in range(9):
        if s[level, 3 * digit + band] & bit:
            mask |= 1 << digit
    return mask


@njit(cache=True)
def _start(values, s: np.ndarray, links) -> bool:  # type: ignore[no-untyped-def]
    """The root position from the givens (0 = empty); False when two givens clash."""
    for index in range(27):
        s[0, index] = BAND
    for band in range(3):
        s[0, UNSOLVED + band] = BAND
    for cell in range(81):
        value = values[cell]
        if value:
            band = cell // 27
            bit = _bit(cell)
            digit = value - 1
            if not s[0, 3 * digit + band] & bit:
                return False
            _place(s, 0, digit, band, bit, links)
    return True


@njit(cache=True)
def search(  # type: ignore[no-untyped-def]
    values, s: np.ndarray, meta: np.ndarray, solutions: np.ndarray, limit: int,
    check_every: int, keep_all: bool, links,
) -> int:  # fmt: skip
    """Run (or resume) the search; EXHAUSTED, AT_LIMIT or PAUSED.

    The first call (`meta[:STATE_SIZE]` zero) starts from `values` (81 digits, 0 = empty).
    With `keep_all`, every solution is written to the buffer `solutions` (`meta[BUFFERED]`
    of them; the kernel pauses when it holds `limit` rows or is full); without it, only the
    first solution is written, to row 0, and the others are counted.
    `links`: None for classic rules, else the table of the rules beyond them (`LINKS`).
    """
    capacity = min(limit, solutions.shape[0])
    if meta[STARTED] == 0:
        meta[STARTED] = 1
        meta[NODES] = 1
        if not _start(values, s, links) or not propagate(s, 0, meta, ALL_DIGITS, links):
            return EXHAUSTED
        cell = choose(s, 0)
        if cell < 0:
            _write(s, 0, solutions[0])
            meta[FOUND] = 1
            meta[BUFFERED] = 1
            return AT_LIMIT if limit <= 1 else EXHAUSTED
        meta[GUESSES] += 1
        meta[CELL] = cell
        meta[REMAINING] = _digits_of(s, 0, cell)
        meta[DEPTH] = 0
    depth = meta[DEPTH]
    budget = check_every
    while True:
        remaining = meta[REMAINING + depth]
        if remaining == 0:
            depth -= 1
            if depth < 0:
                meta[DEPTH] = 0
                return EXHAUSTED
            continue
        if budget <= 0 or (keep_all and meta[BUFFERED] >= capacity):
            meta[DEPTH] = depth
            return PAUSED
        budget -= 1
        bit = remaining & -remaining
        meta[REMAINING + depth] = remaining ^ bit
        meta[NODES] += 1
        for index in range(UNSOLVED + 3):
            s[depth + 1, index] = s[depth, index]
        cell = meta[CELL + depth]
        pending = _place(s, depth + 1, _lowest(bit), cell // 27, _bit(cell), links)
        if not propagate(s, depth + 1, meta, pending, links):
            continue
        cell = choose(s, depth + 1)
        if cell < 0:
            if keep_all:
                _write(s, depth + 1, solutions[meta[BUFFERED]])
                meta[BUFFERED] += 1
            elif meta[FOUND] == 0:
                _write(s, depth + 1, solutions[0])
                meta[BUFFERED] = 1
            meta[FOUND] += 1
            if meta[FOUND] >= limit:
                meta[DEPTH] = depth
                untried = 0
                for level in range(depth + 1):
                    if meta[REMAINING + level]:
                        untried += 1
                meta[UNTRIED] = untried
                return AT_LIMIT
            continue
        meta[GUESSES] += 1
        depth += 1
        meta[CELL + depth] = cell
        meta[REMAINING + depth] = _digits_of(s, depth, cell)


@njit(cache=True, nogil=True)
def solve_many(grids: np.ndarray, limit: int, out: np.ndarray, stats: np.ndarray) -> None:
    """Solve every row of `grids` (n x 81 digits, 0 = empty) to `limit` solutions: the first
    solution in `out`'s row (zeros when there is none), and per puzzle its solution count,
    status, verdict, nodes and guesses in `stats` (columns COUNT ... STAT_GUESSES).
    Releases the GIL: threads may each take a slice."""
    s = np.zeros((LEVELS, WORDS), dtype=np.int64)
    meta = np.zeros(META_SIZE, dtype=np.int64)
    big = 1 << 62  # no pause: the batch has no deadline
    for number in range(grids.shape[0]):
        for index in range(STATE_SIZE):
            meta[index] = 0
        row = out[number : number + 1]
        for cell in range(81):
            row[0, cell] = 0
        code = search(grids[number], s, meta, row, limit, big, False, None)
        while code == PAUSED:
            code = search(grids[number], s, meta, row, limit, big, False, None)
        found = meta[FOUND]
        exhausted = code == EXHAUSTED or meta[UNTRIED] == 0
        if exhausted:
            status = SOLVED if found else NO_SOLUTION
            verdict = NONE if found == 0 else (UNIQUE if found == 1 else MULTIPLE)
        else:
            status = LIMIT
            verdict = MULTIPLE if found >= 2 else UNKNOWN
        stats[number, COUNT] = found
        stats[number, STATUS] = status
        stats[number, VERDICT] = verdict
        stats[number, STAT_NODES] = meta[NODES]
        stats[number, STAT_GUESSES] = meta[GUESSES]


# The columns of `solve_run`'s per-puzzle stats.
RUN_CODE, RUN_FOUND, RUN_UNTRIED = 0, 1, 2  # EXHAUSTED or AT_LIMIT, solutions, meta[UNTRIED]
RUN_NODES, RUN_GUESSES, RUN_NAKED, RUN_HIDDEN, RUN_LOCKED = 3, 4, 5, 6, 7
RUN_STATS = 8


@njit(cache=True)
def _keep_stats(meta: np.ndarray, code: int, row: np.ndarray) -> None:
    row[RUN_CODE] = code
    row[RUN_FOUND] = meta[FOUND]
    row[RUN_UNTRIED] = meta[UNTRIED]
    row[RUN_NODES] = meta[NODES]
    row[RUN_GUESSES] = meta[GUESSES]
    row[RUN_NAKED] = meta[NAKED]
    row[RUN_HIDDEN] = meta[HIDDEN]
    row[RUN_LOCKED] = meta[LOCKED]


@njit(cache=True)
def solve_run(
    grids: np.ndarray, first: int, limit: int, budget: int, s: np.ndarray, meta: np.ndarray,
    buffer: np.ndarray, owners: np.ndarray, stats: np.ndarray,
) -> int:  # fmt: skip
    """Solve rows `first`, `first + 1`, ... of `grids` (n x 81 digits, 0 = empty) to `limit`
    solutions each, resuming the puzzle `meta` holds when `meta[STARTED]` is set; return the
    number of the first row not finished (its search paused in `meta`, or n).

    The call returns once `budget` search nodes are spent (a puzzle costs at least its
    root), or when the buffer is full, so that Python reads the clock between calls as
    `search` lets it. Every solution goes to the next free row of `buffer`, and the number
    of its puzzle to `owners` (`meta[BUFFERED]` rows in use when the call returns); a
    finished puzzle's code, counts and counters go to its row of `stats` (RUN_* columns),
    and `meta`'s state is cleared for the next one.
    """
    count = grids.shape[0]
    used = meta[BUFFERED]
    spent = 0
    number = first
    while number < count:
        if used >= buffer.shape[0]:
            break
        before = meta[NODES]
        meta[BUFFERED] = 0
        code = search(grids[number], s, meta, buffer[used:], limit, budget - spent, True, None)
        for row in range(used, used + meta[BUFFERED]):
            owners[row] = number
        used += meta[BUFFERED]
        spent += meta[NODES] - before
        if code == PAUSED:
            break
        _keep_stats(meta, code, stats[number])
        for index in range(STATE_SIZE):
            meta[index] = 0
        number += 1
        if spent >= budget:
            break
    meta[BUFFERED] = used
    return number
