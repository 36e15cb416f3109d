"""Knuth's Dancing Links (Algorithm X on a doubly linked sparse matrix), for any exact cover.

D. E. Knuth, "Dancing Links", arXiv cs/0011047. Given a 0/1 matrix whose columns are
primary (to be covered exactly once) or secondary (at most once), find every set of rows
that covers each primary column exactly once and no column twice. This engine knows
nothing about Sudoku; `sudoku_bench.reductions.exact_cover` turns a puzzle into such a matrix.

Data layout. Every 1 of the matrix is a node, and so is every column header and the root.
A node is an integer index into flat lists: L, R (left/right in its row, or in the header
row), U, D (up/down in its column), C (its column's header), and for rows ROW (the row it
belongs to). S[c] is the number of nodes left in column c. Flat lists of ints beat node
objects in CPython because a link is then one list subscript on a local variable, instead
of an attribute lookup through an instance dictionary, and the lists are built and
traversed without allocating an object per node.

Node 0 is the root; nodes 1..n are the column headers (column j of the matrix is header
j + 1). Primary headers are linked in a ring with the root; a secondary header is linked
to itself only, so it is never chosen, yet covering it still removes the rows that meet
it (Knuth's trick for secondary columns).

Colours (Knuth, TAOCP 7.2.2.1, Algorithm C: exact cover with colours, "XCC"). A node of a
secondary column may carry a colour (a positive integer; 0: none). A solution then covers
each secondary column at most once *or* only by rows that give it one and the same colour.
Choosing a row whose node colours column j with c "purifies" j: every other row of j with
another colour is hidden, and the nodes of colour c are marked (COLOR -1) as already agreed,
so that hiding their rows later leaves them in place and unpurifying finds them again.
Uncoloured nodes cover their column as in Algorithm X. The coloured moves are used only
when some node has a colour (`coloured`): a plain matrix runs the uncoloured code as before.

Counters, as in the paper: `nodes` is the number of nodes of the search tree (each row
tried, plus the root); `updates` is the number of times a node is unlinked from a list
(the paper's operation (1)): once for a column header and once for each node removed from
its column during a cover. `guesses` counts rows tried in a column that offered more than
one row: forced moves are not guesses. With colours, a row hidden by a purification counts
as an update too (each node unlinked from its column is one).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence

from sudoku_bench.solvers.base import Deadline, SearchTimeout

CHECK_EVERY = 512  # search nodes between two clock reads of the deadline


class DancingLinks:
    """The linked matrix of an exact-cover problem and the search over it.

    `rows[i]` lists the (0-based) columns where row i has a 1; columns `0 .. primary-1` are
    primary and `primary .. primary+secondary-1` secondary. As in Knuth's algorithm, a
    row is only ever chosen to cover a primary column, so rows with no primary column never
    appear in a solution. The matrix is restored after every search, even one stopped
    early, so one instance can be searched many times.
    """

    def __init__(
        self,
        rows: Sequence[Sequence[int]],
        primary: int,
        secondary: int = 0,
        colours: Sequence[Sequence[int]] = (),
    ) -> None:
        if primary < 0 or secondary < 0:
            raise ValueError("column counts must not be negative")
        width = primary + secondary
        headers = width + 1
        self.primary = primary
        self.secondary = secondary
        self.row_count = len(rows)
        # The header row: root 0 and primary headers 1..primary in one ring.
        self.L = [i - 1 for i in range(headers)]
        self.R = [i + 1 for i in range(headers)]
        self.L[0], self.R[primary] = primary, 0
        for header in range(primary + 1, headers):  # secondary: a ring of one
            self.L[header] = self.R[header] = header
        self.U = list(range(headers))
        self.D = list(range(headers))
        self.C = list(range(headers))
        self.S = [0] * headers
        self.ROW = [-1] * headers
        self._append_rows(rows, width)
        # COLOR per node (headers 0): `colours[i]` gives row i's colours, column by column
        self.coloured = any(any(row) for row in colours)
        self.COLOR: list[int] = [0] * len(self.L)
        if self.coloured:
            self._colour_rows(colours)
        self.nodes = 0
        self.updates = 0
        self.guesses = 0
        self.exhausted = False  # whether the last search explored everything
        self.selected: list[int] = []  # rows taken up front by `select`
        self.removed: set[int] = set()  # rows left out up front by `remove`
        self.clashes: list[int] = []  # columns two selected rows share (then: no solution)

    def _append_rows(self, rows: Sequence[Sequence[int]], width: int) -> None:
        """Link the nodes of every row: rows left to right, each column top to bottom."""
        L, R, U, D, C, S, ROW = self.L, self.R, self.U, self.D, self.C, self.S, self.ROW
        self.first: list[int] = []  # each row's leftmost node
        bottom = list(range(width + 1))  # the lowest node of each column so far
        for number, row in enumerate(rows):
            if not row or len(set(row)) != len(row) or min(row) < 0 or max(row) >= width:
                raise ValueError(
                    f"row {number} must name one or more distinct columns in 0..{width - 1}"
                    f", got {list(row)}"
                )
            first = len(L)
            self.first.append(first)
            last = first + len(row) - 1
            L.append(last)
            L.extend(range(first, last))
            R.extend(range(first + 1, last + 1))
            R.append(first)
            ROW.extend([number] * len(row))
            node = first
            for column in row:
                header = column + 1
                C.append(header)
                U.append(bottom[header])
                D.append(header)
                D[bottom[header]] = node
                bottom[header] = node
                S[header] += 1
                node += 1
        for header in range(1, width + 1):
            U[header] = bottom[header]

    def _colour_rows(self, colours: Sequence[Sequence[int]]) -> None:
        if len(colours) != self.row_count:
            raise ValueError(f"{len(colours)} rows of colours for {self.row_count} rows")
        COLOR, C = self.COLOR, self.C
        for number, row_colours in enumerate(colours):
            first = self.first[number]
            if len(row_colours) != len(self._columns_of(number)):
                raise ValueError(f"row {number}: give one colour (0: none) per column")
            for node, colour in enumerate(row_colours, first):
                if colour < 0 or (colour and C[node] <= self.primary):
                    raise ValueError(
                        f"row {number}: colours are positive and only on secondary columns"
                    )
                COLOR[node] = colour

    def column_sizes(self) -> list[int]:
        """How many rows meet each column (of the current, restored matrix)."""
        return self.S[1:]

    def active_columns(self) -> int:
        """Primary columns not yet covered (by `select`)."""
        count, c = 0, self.R[0]
        while c:
            count, c = count + 1, self.R[c]
        return count

    def copy(self) -> DancingLinks:
        """An independent copy (C-speed list copies: cheaper than linking the rows again).

        Only the links that a search or `select` changes are copied; the column and row of
        each node never change, so those lists are shared.
        """
        twin = copy.copy(self)
        twin.L, twin.R, twin.U, twin.D, twin.S = (
            self.L[:],
            self.R[:],
            self.U[:],
            self.D[:],
            self.S[:],
        )
        if self.coloured:  # purifying (in `select`) marks colours
            twin.COLOR = self.COLOR[:]
        twin.selected, twin.clashes = self.selected[:], self.clashes[:]
        twin.removed = set(self.removed)
        return twin

    def select(self, rows: Iterable[int]) -> None:
        """Take rows into every solution before the search, as if chosen at the root.

        Their columns are covered, which removes every row that meets one of them, so the
        search runs on the smaller matrix. This is permanent for this instance (search a
        `copy()` to keep the original). If two selected rows share a column, that column
        is recorded in `clashes` and the problem has no solution.
        """
        coloured = self.coloured
        taken = {
            column for row in self.selected for column in self._columns_of(row, uncoloured=True)
        }
        for row in rows:
            if row in self.removed:
                raise ValueError(f"row {row} was removed and cannot be selected")
            # with colours only the uncoloured columns can clash: two rows may agree on one
            columns = self._columns_of(row, uncoloured=coloured)
            clashing = [column for column in columns if column in taken]
            if clashing:
                self.clashes += clashing
                continue
            taken.update(columns)
            if coloured:  # commit every column of the row, its first one too
                first = self.first[row]
                if self.COLOR[first] > 0:
                    self._purify(first)
                elif self.COLOR[first] == 0:
                    self._cover_c(self.C[first])
                self._take_c(first)
            else:
                for column in columns:
                    self._cover(column + 1)
            self.selected.append(row)

    def remove(self, rows: Iterable[int]) -> None:
        """Leave rows out of the matrix before the search (options ruled out up front).

        Each row's nodes are unlinked from their columns, so no search or `select` meets
        them again. This is permanent for this instance (search a `copy()` to keep the
        original). Call it before `select`: a removed row cannot be selected.
        """
        U, D, C, S = self.U, self.D, self.C, self.S
        for row in rows:
            if row in self.removed:
                continue
            if row in self.selected:
                raise ValueError(f"row {row} was selected and cannot be removed")
            self._columns_of(row)  # checks the row number
            self.removed.add(row)
            first = node = self.first[row]
            while True:
                u, d = U[node], D[node]
                D[u] = d
                U[d] = u
                S[C[node]] -= 1
                node = self.R[node]
                if node == first:
                    break

    def _columns_of(self, row: int, uncoloured: bool = False) -> list[int]:
        """The row's columns (`uncoloured`: only those where it has no colour)."""
        if not 0 <= row < self.row_count:
            raise ValueError(f"no row {row}: the matrix has {self.row_count} rows")
        first = self.first[row]
        columns, node = [], first
        while True:
            if not (uncoloured and self.COLOR[node]):
                columns.append(self.C[node] - 1)
            node = self.R[node]
            if node == first:
                return columns

    def _cover(self, c: int) -> int:
        """Knuth's cover(c): unlink header c and every row that meets column c."""
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        L[R[c]] = L[c]
        R[L[c]] = R[c]
        count = 1
        i = D[c]
        while i != c:
            j = R[i]
            while j != i:
                u, d = U[j], D[j]
                D[u] = d
                U[d] = u
                S[C[j]] -= 1
                count += 1
                j = R[j]
            i = D[i]
        return count

    def _uncover(self, c: int) -> None:
        """Knuth's uncover(c): undo cover(c), relinking in the reverse order."""
        L, R, U, D, C, S = self.L, self.R, self.U, self.D, self.C, self.S
        i = U[c]
        while i != c:
            j = L[i]
            while j != i:
                S[C[j]] += 1
                D[U[j]] = j
                U[D[j]] = j
                j = L[j]
            i = U[i]
        L[R[c]] = c
        R[L[c]] = c

    def _take(self, x: int) -> int:
        """Choose the row of node x: cover the row's other columns (left to right)."""
        R, C, cover = self.R, self.C, self._cover
        count = 0
        j = R[x]
        while j != x:
            count += cover(C[j])
            j = R[j]
        return count

    def _untake(self, x: int) -> None:
        """Undo `_take(x)`: uncover the same columns right to left."""
        L, C, uncover = self.L, self.C, self._uncover
        j = L[x]
        while j != x:
            uncover(C[j])
            j = L[j]

    # ----- Algorithm C's moves (used when some node has a colour) -----------------------------

    def _hide_c(self, p: int) -> int:
        """Knuth's hide'(p): unlink the other nodes of p's row, except those marked agreed."""
        R, U, D, C, S, COLOR = self.R, self.U, self.D, self.C, self.S, self.COLOR
        count = 0
        q = R[p]
        while q != p:
            if COLOR[q] >= 0:
                u, d = U[q], D[q]
                D[u] = d
                U[d] = u
                S[C[q]] -= 1
                count += 1
            q = R[q]
        return count

    def _unhide_c(self, p: int) -> None:
        L, U, D, C, S, COLOR = self.L, self.U, self.D, self.C, self.S, self.COLOR
        q = L[p]
        while q != p:
            if COLOR[q] >= 0:
                S[C[q]] += 1
                D[U[q]] = q
                U[D[q]] = q
            q = L[q]

    def _cover_c(self, c: int) -> int:
        L, R, D, hide = self.L, self.R, self.D, self._hide_c
        L[R[c]] = L[c]
        R[L[c]] = R[c]
        count = 1
        i = D[c]
        while i != c:
            count += hide(i)
            i = D[i]
        return count

    def _uncover_c(self, c: int) -> None:
        L, R, U, unhide = self.L, self.R, self.U, self._unhide_c
        i = U[c]
        while i != c:
            unhide(i)
            i = U[i]
        L[R[c]] = c
        R[L[c]] = c

    def _purify(self, p: int) -> int:
        """Column C[p] takes p's colour: hide the rows that give it another, mark the
        others of the same colour as agreed (COLOR -1; p keeps its own)."""
        D, COLOR, hide = self.D, self.COLOR, self._hide_c
        colour, c = COLOR[p], self.C[p]
        count = 0
        q = D[c]
        while q != c:
            if COLOR[q] == colour:
                if q != p:
                    COLOR[q] = -1
            else:
                count += hide(q)
            q = D[q]
        return count

    def _unpurify(self, p: int) -> None:
        U, COLOR, unhide = self.U, self.COLOR, self._unhide_c
        colour, c = COLOR[p], self.C[p]
        q = U[c]
        while q != c:
            if COLOR[q] < 0:
                COLOR[q] = colour
            elif q != p:
                unhide(q)
            q = U[q]

    def _take_c(self, x: int) -> int:
        """Choose x's row: commit its other columns (cover the uncoloured ones, purify the
        coloured ones; a column already purified to the same colour needs nothing)."""
        R, C, COLOR = self.R, self.C, self.COLOR
        count = 0
        j = R[x]
        while j != x:
            colour = COLOR[j]
            if colour == 0:
                count += self._cover_c(C[j])
            elif colour > 0:
                count += self._purify(j)
            j = R[j]
        return count

    def _untake_c(self, x: int) -> None:
        L, C, COLOR = self.L, self.C, self.COLOR
        j = L[x]
        while j != x:
            colour = COLOR[j]
            if colour == 0:
                self._uncover_c(C[j])
            elif colour > 0:
                self._unpurify(j)
            j = L[j]

    def solutions(
        self, limit: int | None = None, deadline: Deadline | None = None
    ) -> Iterator[list[int]]:
        """Yield each exact cover as a list of row numbers: the `select`ed rows, then the
        rows the search chose, in the order it chose them.

        Stops after `limit` solutions. Raises `SearchTimeout` when `deadline` passes (the
        solutions yielded so far stand). Afterwards `exhausted` tells whether the search
        explored everything (also true when it stopped at `limit` with no row left to try
        at any level). The counters `nodes`, `updates` and `guesses` start at zero on each
        call and are current whenever a solution is yielded and when the generator ends.
        """
        R, D, C, S, ROW = self.R, self.D, self.C, self.S, self.ROW
        cover, uncover, take, untake = self._cover, self._uncover, self._take, self._untake
        if self.coloured:
            cover, uncover = self._cover_c, self._uncover_c
            take, untake = self._take_c, self._untake_c
        chosen: list[int] = []  # the node of the row chosen at each level
        self.exhausted = False
        if self.clashes:  # selected rows overlap: nothing can complete them
            self.nodes, self.updates, self.guesses, self.exhausted = 1, 0, 0, True
            return
        selected = self.selected
        nodes, updates, guesses, found = 1, 0, 0, 0
        countdown = CHECK_EVERY
        try:
            while True:
                # Descend: choose the primary column with the fewest rows (first on ties).
                c = R[0]
                if c == 0:
                    found += 1
                    self.nodes, self.updates, self.guesses = nodes, updates, guesses
                    yield selected + [ROW[x] for x in chosen]
                    if limit is not None and found >= limit:
                        # Exhausted anyway if no level has another row left to try.
                        self.exhausted = all(D[x] == C[x] for x in chosen)
                        return
                else:
                    size = S[c]
                    if size > 1:
                        j = R[c]
                        while j:
                            if S[j] < size:
                                c, size = j, S[j]
                                if size <= 1:
                                    break
                            j = R[j]
                    if size:
                        updates += cover(c)
                        x = D[c]  # try the column's rows from the top
                        updates += take(x)
                        chosen.append(x)
                        nodes += 1
                        if size > 1:
                            guesses += 1
                        countdown -= 1
                        if not countdown:
                            countdown = CHECK_EVERY
                            if deadline is not None and deadline.spent(nodes):
                                raise SearchTimeout
                        continue
                # Backtrack: undo the deepest row and try the next row of its column.
                while chosen:
                    x = chosen.pop()
                    untake(x)
                    c = C[x]
                    x = D[x]
                    if x != c:
                        updates += take(x)
                        chosen.append(x)
                        nodes += 1
                        guesses += 1
                        break
                    uncover(c)
                else:
                    self.exhausted = True
                    return
        finally:
            self.nodes, self.updates, self.guesses = nodes, updates, guesses
            # Restore the matrix if the search stopped part-way (limit, deadline, close).
            while chosen:
                x = chosen.pop()
                untake(x)
                uncover(C[x])

    def count(self, limit: int | None = None, deadline: Deadline | None = None) -> int:
        """The number of exact covers (at most `limit`)."""
        return sum(1 for _ in self.solutions(limit, deadline))
