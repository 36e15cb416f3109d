"""Budget control: a puzzle and back-end whose first repeat timed out is not repeated.

A timeout costs the whole time limit and says nothing new when repeated (the report counts
it as a failure either way), so by default the other repeats of that puzzle and back-end
are recorded as `skipped`, which the report counts as timeouts. `--repeat-timeouts` runs
them all, as before.

Tasks run in two rounds: first every task whose puzzle and back-end has no result yet (one
repeat of each: the probe) or whose probe did not time out, then the other repeats of the
probed ones that did not time out. Both rounds keep the run's shuffled order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sudoku_bench.harness.results import TIMED_OUT, Group, Outcome, Task
from sudoku_bench.solvers.base import Status

# Runs tasks, calling back with each outcome as it ends (a pool's `run`).
Runner = Callable[[Sequence[Task], Callable[[Outcome], None]], None]


def skipped(task: Task, probe: int | None) -> Outcome:
    which = f"repeat {probe}" if probe is not None else "an earlier repeat"
    return Outcome(
        task,
        Status.SKIPPED,
        error=f"not run: {which} of this puzzle and back-end timed out "
        "(--repeat-timeouts runs every repeat)",
    )


def timed_out_groups(finished: Iterable[tuple[Task, str]]) -> set[Group]:
    return {task.group for task, status in finished if status in TIMED_OUT}


def run_with_skips(
    run: Runner,
    tasks: Sequence[Task],
    on_done: Callable[[Outcome], None],
    *,
    timed_out: set[Group],
    probed: set[Group],
) -> None:
    """Run `tasks`, skipping the repeats of each puzzle and back-end that timed out.

    `timed_out`: groups with a timed-out result already (their tasks are all skipped);
    `probed`: groups with a result already that did not time out (theirs all run at once).
    """
    first: list[Task] = []
    later: list[Task] = []
    leading: dict[Group, int] = {}  # the probe's key, for each group with no result yet
    for task in tasks:
        group = task.group
        if group in timed_out:
            on_done(skipped(task, None))
        elif group in probed:
            first.append(task)
        elif group in leading:
            later.append(task)
        else:
            leading[group] = task.key
            first.append(task)
    failed: dict[Group, int] = {}

    def first_done(outcome: Outcome) -> None:
        # by key: the outcome's task may be a copy (from a worker or a cluster node)
        task = outcome.task
        if outcome.status in TIMED_OUT and leading.get(task.group) == task.key:
            failed[task.group] = task.repeat
        on_done(outcome)

    if first:
        run(first, first_done)
    rest = []
    for task in later:
        if task.group in failed:
            on_done(skipped(task, failed[task.group]))
        else:
            rest.append(task)
    if rest:
        run(rest, on_done)
