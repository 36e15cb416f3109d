"""The harness's defaults in one table: time limits (`timeout`, in seconds) and solution
limits (`limit`: how many solutions a search looks for before it stops).

Every command and module takes its default from here; the help texts print these values.
"""

from __future__ import annotations

# Seconds per task (a puzzle and a back-end) of `bench` and `check`.
TIMEOUT_S = 10.0
# Seconds per task of `bench`'s default suite: the cut-off of its report.
SUITE_TIMEOUT_S = 1.0
# `solve`, `count` and `explain` have no time limit unless one is given.
SOLVE_TIMEOUT_S: float | None = None

# Solutions looked for: 1 finds one (`solve`, `bench`); 2 also settles uniqueness (`count`,
# `check`: none, unique or multiple).
SOLVE_LIMIT = 1
COUNT_LIMIT = 2

# The back-end of `solve`, `count` and `explain` when none is named.
SOLVER = "propagating"
