"""Running an experiment's design through the harness: each batch is one stored bench run.

A batch's run is recorded with the batch's fingerprint as its first input, so a second start
of the same experiment finds it: a finished run is reused as it is, an unfinished one resumed
(the harness's own `--resume`), and only a batch with no run is started afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sudoku_bench.harness.experiments.base import Batch, BatchResults, Design, Experiment, Results
from sudoku_bench.harness.experiments.document import Document, render
from sudoku_bench.harness.running import session
from sudoku_bench.harness.running.progress import TaskProgress
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import RunInfo, Store, open_store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.solvers.registry import register

FINGERPRINT_PREFIX = "experiment"


@dataclass(frozen=True)
class Conduct:
    """How to run: workers at a time, the command line to record, the progress bar, and
    where warnings go."""

    jobs: int
    command: str
    progress: bool = True
    warn: Callable[[str], None] = lambda text: None


def fingerprint_input(experiment: str, batch: Batch) -> str:
    """The first `inputs` entry of a batch's stored run: how a later start finds it."""
    return f"{FINGERPRINT_PREFIX} {experiment} {batch.label} #{batch.fingerprint(experiment)}"


def find_run(store: Store, key: str) -> RunInfo | None:
    """The newest stored run of the batch with this fingerprint input, if any."""
    found = [run for run in store.runs() if (run.settings.get("inputs") or [None])[0] == key]
    return max(found, key=lambda run: run.id) if found else None


def run_batch(store: Store, experiment: str, batch: Batch, how: Conduct) -> BatchResults:
    """The batch's stored results: reused, resumed, or run now."""
    for backend in batch.backends:  # so `sudoku-bench` finds these configurations by name here
        register(backend)
    key = fingerprint_input(experiment, batch)
    stored = find_run(store, key)
    if stored is not None and len(store.statuses(stored.id)) == len(store.tasks(stored.id)):
        if not stored.finished:
            store.finish_run(stored.id)
        info = store.run(stored.id)
        return BatchResults(batch, info, store.results(info.id), reused=True)
    if stored is not None:
        how.warn(f"resuming run {stored.id} ({experiment} {batch.label})")
        work = session.resume(store, stored.id, how.jobs, command=how.command, warn=how.warn)
    else:
        seed = int(batch.fingerprint(experiment)[:8], 16) % 2**31  # the same order each time
        work = session.start(
            store,
            list(batch.entries),
            list(batch.backends),
            Settings(batch.timeout, batch.limit, 0, node_limit=batch.node_limit),
            repeat=batch.repeat,
            jobs=how.jobs,
            seed=seed,
            inputs=[key, *batch.inputs],
            command=how.command,
        )
    done = work.total - len(work.tasks)
    with TaskProgress(
        work.total, f"{experiment} {batch.label}", enabled=how.progress, done=done
    ) as bar:
        try:
            session.execute(store, work, bar.done, bar.tick)
        except (KeyboardInterrupt, SudokuBenchError):  # what finished is stored: say so
            how.warn(
                f"stopped in run {work.run_id} ({experiment} {batch.label}): the same command "
                "resumes it"
            )
            raise
    info = store.run(work.run_id)
    return BatchResults(batch, info, store.results(info.id))


def run_design(store: Store, experiment: str, design: Design, how: Conduct) -> Results:
    results = Results()
    for batch in design.batches:
        results.batches[batch.label] = run_batch(store, experiment, batch, how)
    return results


@dataclass(frozen=True)
class Written:
    """What `perform` made: the report, its plots, the store, and each batch's results."""

    report: Path
    plots: tuple[Path, ...]
    store: Path
    results: Results


def perform(
    experiment: Experiment,
    *,
    quick: bool,
    folder: Path,
    db: Path | None,
    how: Conduct,
) -> Written:
    """Run the experiment's design into the store (`folder/NAME.sqlite` unless `db`), analyse
    the stored results and write `folder/NAME.md` with its plots."""
    design = experiment.design(quick)
    folder.mkdir(parents=True, exist_ok=True)
    path = db if db is not None else folder / f"{experiment.name}.sqlite"
    store = open_store(path)
    try:
        results = run_design(store, experiment.name, design, how)
    finally:
        store.close()
    doc = Document(folder, experiment.name)
    experiment.analyse(results, doc)
    comparison = experiment.compare(results)
    text = render(
        experiment,
        design,
        results,
        doc,
        comparison,
        quick=quick,
        command=how.command,
        store=str(path),
    )
    report = folder / f"{experiment.name}.md"
    report.write_text(text, encoding="utf-8")
    return Written(report, tuple(doc.plots), path, results)
