"""The Python API: whole comparisons, checks, counts and ratings from a script or a notebook.

Each function does what the CLI command of the same name does, through the same code (hard
timeouts in worker processes, the SQLite store, resume, the rule checker), and returns
records or pandas DataFrames instead of printing. Errors are `SudokuBenchError` subclasses
with a message a user can act on.

    >>> from sudoku_bench.harness.api import bench
    >>> run = bench(["top95"], solvers=["dlx", "backtracking"], timeout=2, repeat=3)
    >>> run.summary()                    # per back-end and collection, as `report` shows
    >>> run.compare("dlx", "backtracking")  # paired ratio, bootstrap CI, Wilcoxon p
    >>> run.frame()                      # one row per task, as `sudoku_bench.harness.load_results`
    >>> fig = run.cactus()               # matplotlib figures; `ax=` draws into yours

`Run.open(db)` reads a run that `sudoku-bench bench --db DB` stored, and a run made here is
read by `sudoku-bench report --db DB` alike.
"""

from __future__ import annotations

import argparse
import html
import tempfile
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudoku_bench.harness import defaults
from sudoku_bench.harness.analysing import compare as comparing
from sudoku_bench.harness.analysing import plots
from sudoku_bench.harness.analysing.frame import results_frame
from sudoku_bench.harness.analysing.report import FORMATS, Report
from sudoku_bench.harness.analysing.summary import puzzle_times
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_inputs
from sudoku_bench.harness.running import session
from sudoku_bench.harness.running.solving import Answer, Solving, solve_all
from sudoku_bench.harness.running.worker import Settings
from sudoku_bench.harness.storing.store import Store, open_store
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid

if TYPE_CHECKING:
    import pandas

__all__ = [
    "Comparison",
    "Run",
    "bench",
    "check",
    "count",
    "generate",
    "minimum_clues",
    "rate",
    "read_puzzles",
]

Puzzles = str | Grid | PuzzleEntry | Iterable[str | Grid | PuzzleEntry]
Solvers = str | Sequence[str]


def read_puzzles(puzzles: Puzzles, **reading: Any) -> list[PuzzleEntry]:
    """The puzzles named as the CLI's PUZZLE arguments name them: a bundled collection
    (`"top95"`), a file, a puzzle string or an f-puzzles link; `Grid` and `PuzzleEntry`
    objects are taken as they are. `reading` holds the CLI's reading options by their
    argument names (`rules="6x6:3x2"`, `sudoku_x=True`, `skip_invalid=True`, ...).

        >>> entries = read_puzzles(["top95", "53..7....6..195....98....6.8...6...3" + "." * 45])
    """
    items: list[str | Grid | PuzzleEntry] = (
        [puzzles] if isinstance(puzzles, str | Grid | PuzzleEntry) else list(puzzles)
    )
    if not items:
        raise SudokuBenchError("no puzzles given: name a collection, a file or a puzzle")
    entries: list[PuzzleEntry] = []
    specs = [item for item in items if isinstance(item, str)]
    by_spec: list[PuzzleEntry] = _read_specs(specs, reading) if specs else []
    # keep the caller's order: the specs' entries where the first spec stood
    spec_done = False
    for number, item in enumerate(items, 1):
        if isinstance(item, PuzzleEntry):
            entries.append(item)
        elif isinstance(item, Grid):
            entries.append(PuzzleEntry(f"arg{number}", item))
        elif not spec_done:
            entries += by_spec
            spec_done = True
    return entries


def _read_specs(specs: Sequence[str], reading: dict[str, Any]) -> list[PuzzleEntry]:
    parser = argparse.ArgumentParser(prog="sudoku_bench", add_help=False, exit_on_error=False)
    add_puzzle_arguments(parser, nargs="*")
    words = []
    for name, value in reading.items():
        flag = "--" + {"rules": "rules", "input_format": "from"}.get(name, name.replace("_", "-"))
        if value is True:
            words.append(flag)
        elif value not in (None, False):
            words += [flag, str(value)]
    try:
        args, unknown = parser.parse_known_args([*words, "--", *specs])
    except argparse.ArgumentError as error:
        raise SudokuBenchError(str(error)) from None
    if unknown:
        raise SudokuBenchError(f"unknown reading option(s): {', '.join(unknown)}")
    return read_inputs(args)


def _names(solvers: Solvers) -> str:
    return solvers if isinstance(solvers, str) else ",".join(solvers)


def _warn(text: str) -> None:
    warnings.warn(text, stacklevel=3)


def bench(
    puzzles: Puzzles | None = None,
    solvers: Solvers = "all",
    *,
    timeout: float = defaults.TIMEOUT_S,
    repeat: int = 3,
    db: str | Path | None = None,
    jobs: int = 1,
    seed: int | None = None,
    limit: int = defaults.SOLVE_LIMIT,
    warmup: int = 0,
    permute: bool = False,
    memory_limit_mb: float | None = None,
    repeat_timeouts: bool = False,
    resume: bool | int = False,
    **reading: Any,
) -> Run:
    """Time `solvers` on `puzzles`, `repeat` times each, as `sudoku-bench bench` does: each
    task in a worker process killed at `timeout` seconds, every result stored as it ends in
    the SQLite store `db` (a temporary one, kept as long as the `Run`, when None).

    `resume=True` finishes the latest unfinished run in `db` (`resume=ID`: that run) with its
    own settings, as `bench --resume`; a run that is already complete is returned as it is.
    `reading` holds the CLI's reading options (see `read_puzzles`).

        >>> run = bench("top95", ["dlx", "backtracking"], timeout=2, repeat=3, db="r.sqlite")
        >>> run.summary()[["solver", "collection", "solved", "sgm_s"]]
    """
    folder = tempfile.TemporaryDirectory(prefix="sudoku-bench-") if db is None else None
    path = Path(folder.name) / "results.sqlite" if folder is not None else Path(db or "")
    if resume is not False and resume is not None:
        if folder is not None:
            raise SudokuBenchError("resume=... needs db=: the store that holds the stopped run")
        store = open_store(path, create=False)
        try:
            run_id = None if resume is True else int(resume)
            try:
                work = session.resume(
                    store, run_id, jobs, command="sudoku_bench.bench(resume=...)", warn=_warn
                )
            except session.RunComplete:
                return Run(path, store.run(run_id).id)
            session.execute(store, work)
            return Run(path, work.run_id)
        finally:
            store.close()
    entries = read_puzzles(puzzles, **reading) if puzzles is not None else None
    if entries is None:
        raise SudokuBenchError("bench() needs puzzles, e.g. bench('top95', ['dlx'])")
    chosen = session.choose_backends(_names(solvers), _warn)
    if seed is None:
        seed = session.new_seed()
    settings = Settings(
        timeout,
        limit,
        warmup,
        memory_limit_mb=memory_limit_mb,
        permute_seed=seed if permute else None,
    )
    inputs = [item if isinstance(item, str) else "(Python objects)" for item in _listed(puzzles)]
    store = open_store(path, create=True)
    try:
        work = session.start(
            store,
            entries,
            chosen,
            settings,
            repeat=repeat,
            jobs=jobs,
            seed=seed,
            inputs=inputs,
            command=_call(
                "bench",
                inputs,
                chosen=[b.name for b in chosen],
                timeout=timeout,
                repeat=repeat,
                seed=seed,
                limit=limit,
            ),
            repeat_timeouts=repeat_timeouts,
        )
        session.execute(store, work)
    finally:
        store.close()
    run = Run(path, work.run_id)
    run._folder = folder
    return run


def _listed(puzzles: Puzzles | None) -> list[Any]:
    if puzzles is None:
        return []
    return [puzzles] if isinstance(puzzles, str | Grid | PuzzleEntry) else list(puzzles)


def _call(name: str, inputs: Sequence[str], **settings: Any) -> str:
    """How a run made from Python is recorded as its command (the report shows it)."""
    words = ", ".join([repr(list(inputs)), *(f"{k}={v!r}" for k, v in settings.items())])
    return f"sudoku_bench.{name}({words})"


@dataclass
class Comparison:
    """`compare`'s paired statistics of two or more back-ends of a run: `pairs` (one row per
    pair: B's time over A's as a geometric mean `ratio` with its bootstrap CI, the Wilcoxon
    `p_value`, `p_holm` with three or more), `ranking` (the Friedman test and average ranks,
    three or more) and `groups` (the Holm cliques of the critical-difference diagram)."""

    pairs: pandas.DataFrame
    ranking: comparing.Ranking | None
    groups: list[tuple[str, ...]]
    alpha: float

    def _repr_html_(self) -> str:
        parts = [self.pairs.to_html(index=False, float_format=lambda v: f"{v:.4g}")]
        if self.ranking is not None:
            r = self.ranking
            ranks = ", ".join(
                f"{html.escape(label)} {rank:.2f}"
                for label, rank in zip(r.labels, r.average_ranks, strict=True)
            )
            parts.append(
                f"<p>Friedman on {r.puzzles} puzzles: statistic {r.statistic:.4g}, "
                f"p {r.p_value:.3g}; average ranks: {ranks}; Holm groups (alpha "
                f"{self.alpha:g}): {html.escape(str(self.groups))}</p>"
            )
        return "\n".join(parts)


class Run:
    """A run in a results store: what `bench` returns, or `Run.open(db, run)` reads.

    >>> run = Run.open("results.sqlite")       # the latest run
    >>> run.id, run.db
    >>> run.frame().groupby("solver")["total_s"].median()
    """

    def __init__(self, db: str | Path, run_id: int) -> None:
        self.db = Path(db)
        self.id = run_id
        self._folder: tempfile.TemporaryDirectory[str] | None = None  # a temporary store

    @classmethod
    def open(cls, db: str | Path, run: int | None = None) -> Run:
        """The run `run` of the store `db` (None: the latest)."""
        with _store(db) as store:
            return cls(db, store.run(run).id)

    def __repr__(self) -> str:
        return f"Run(id={self.id}, db={str(self.db)!r})"

    def _report(self, solvers: Sequence[str] = (), collections: Sequence[str] = ()) -> Report:
        with _store(self.db) as store:
            return Report(store, self.id, solvers=solvers, collections=collections)

    def frame(self) -> pandas.DataFrame:
        """One row per task (the columns of `sudoku_bench.harness.load_results` and `report --format csv`)."""
        with _store(self.db) as store:
            return results_frame(store, self.id)

    def summary(self, solvers: Sequence[str] = (), collections: Sequence[str] = ()) -> Any:
        """Per back-end and collection (and `(all)`), what `sudoku-bench report` shows: tasks,
        solved, timeouts, errors, median/mean/max/sgm/PAR-2 in seconds, puzzles per second,
        guesses and agreement. A pandas DataFrame.

            >>> run.summary().set_index(["solver", "collection"])["sgm_s"]
        """
        from sudoku_bench.harness.analysing.frame import _pandas

        report = self._report(solvers, collections)
        return _pandas().DataFrame([s.record() for s in report.summaries])

    def compare(
        self,
        a: str,
        b: str,
        *more: str,
        metric: str = "total_s",
        alpha: float = 0.05,
        resamples: int = 2000,
        seed: int = 0,
    ) -> Comparison:
        """`sudoku-bench compare A B ...` on this run: the same samples and statistics
        (failures at the cut-off, bootstrap CI of the ratio, Wilcoxon, Holm and Friedman
        with three or more). A name may be `RUN:NAME` to take a back-end from another run.

            >>> run.compare("dlx", "backtracking").pairs[["a", "b", "ratio", "ci_low", "ci_high"]]
        """
        from sudoku_bench.harness.analysing.frame import _pandas

        with _store(self.db) as store:
            samples = [
                replace(comparing.load_sample(store, spec, metric), label=spec)
                if ":" in spec
                else replace(comparing.load_sample(store, f"{self.id}:{spec}", metric), label=spec)
                for spec in (a, b, *more)
            ]
        pairs, ranking = comparing.compare_all(samples, resamples=resamples, seed=seed)
        groups: list[tuple[str, ...]] = []
        if ranking is not None:
            order = sorted(
                ranking.labels, key=lambda x: ranking.average_ranks[ranking.labels.index(x)]
            )
            groups = comparing.holm_groups(order, pairs, alpha)
        rows = [
            {
                **c.record(),
                "significant": c.significant(alpha),
                "verdict": comparing.verdict(c, alpha),
            }
            for c in pairs
        ]
        return Comparison(_pandas().DataFrame(rows), ranking, groups, alpha)

    def report(self, format: str = "md", *, scatter: Sequence[str] | None = None) -> str:
        """The run's report as text, in one of `report --format`'s text formats (table, md,
        latex, csv, json, html); html embeds the plots when matplotlib is installed."""
        if format not in FORMATS:
            raise SudokuBenchError(f"format {format!r}: choose one of {', '.join(FORMATS)}")
        report = self._report()
        if format != "html":
            return report.render(format)
        from sudoku_bench.harness.cli.commands.report import _plots

        with tempfile.TemporaryDirectory() as folder:
            try:
                images = _plots(
                    report, Path(folder), ",".join(scatter) if scatter else None, quiet=True
                )
            except SudokuBenchError as error:
                if "matplotlib" not in str(error):
                    raise
                images = []
            return report.render("html", images)

    def times(self) -> dict[str, dict[tuple[str, str], float | None]]:
        """Per back-end (in the run's order), per puzzle (collection, id): the median time
        over its repeats, None where it failed: what the plots draw."""
        return _ordered_times(self._report())

    def cactus(self, *, ax: Any = None) -> Any:
        """The cactus plot (with the virtual best) as a matplotlib figure, drawn on `ax`."""
        report = self._report()
        return plots.cactus_figure(_ordered_times(report), report.cutoff, ax=ax)

    def profile(self, *, ax: Any = None) -> Any:
        """The Dolan–Moré performance profile as a matplotlib figure, drawn on `ax`."""
        return plots.profile_figure(self.times(), ax=ax)

    def scatter(self, a: str | None = None, b: str | None = None, *, ax: Any = None) -> Any:
        """Per puzzle, `a`'s time against `b`'s (default: the two fastest), drawn on `ax`."""
        report = self._report()
        times = _ordered_times(report)
        pair = [a, b] if a and b else report.fastest(2)
        if len(pair) != 2 or any(name not in times for name in pair):
            raise SudokuBenchError(f"scatter needs two back-ends of the run ({', '.join(times)})")
        return plots.scatter_figure(times, [str(name) for name in pair], report.cutoff, ax=ax)

    def _repr_html_(self) -> str:
        summary = self.summary()
        return (
            f"<p><b>run {self.id}</b> in <code>{html.escape(str(self.db))}</code></p>"
            + summary.to_html(index=False, float_format=lambda v: f"{v:.4g}")
        )


def _ordered_times(report: Report) -> dict[str, dict[tuple[str, str], float | None]]:
    """The per-puzzle times with the back-ends in the run's order (as `report --plots`)."""
    times = puzzle_times(report.rows)
    order = [s for s in report.run.settings.get("solvers", []) if s in times]
    return {name: times[name] for name in [*order, *sorted(set(times) - set(order))]}


class _store:
    """A read-only store, closed on leaving (`with _store(db) as store:`)."""

    def __init__(self, db: str | Path) -> None:
        self.store: Store = open_store(db, read_only=True)

    def __enter__(self) -> Store:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()


def count(
    puzzles: Puzzles,
    solvers: Solvers = "all",
    *,
    limit: int = defaults.COUNT_LIMIT,
    timeout: float | None = None,
    **reading: Any,
) -> Any:
    """`sudoku-bench count`: each puzzle's solutions counted up to `limit` by each back-end
    in a worker process, every returned grid checked. A DataFrame, one row per puzzle and
    back-end, with the keys of `count --json` (`count`, `exact`, `verdict`, `wrong`, ...).

        >>> count("................", ["backtracking"], limit=1000)[["count", "exact"]]
    """
    from sudoku_bench.harness.analysing.frame import _pandas
    from sudoku_bench.harness.running.solving import choose

    entries = read_puzzles(puzzles, **reading)
    records: list[dict[str, Any]] = []
    with Solving(choose(_names(solvers)), limit=limit, timeout=timeout) as solving:
        solving.run(entries, lambda answer: records.append(answer.record()))
    return _pandas().DataFrame(records)


def check(
    puzzles: Puzzles,
    solvers: Solvers = "all",
    *,
    timeout: float = defaults.TIMEOUT_S,
    jobs: int = 1,
    **reading: Any,
) -> Any:
    """`sudoku-bench check`: every back-end on every puzzle (counting to two), each answer
    checked by the rule checker and against the others'. A DataFrame, one row per puzzle and
    back-end, with `agrees` False where its grid is wrong or its claim disproved.

        >>> found = check("top95", ["dlx", "backtracking"])
        >>> found[~found["agrees"]]      # empty when all is well
    """
    from sudoku_bench.harness.analysing.frame import _pandas
    from sudoku_bench.harness.cli.records import outcome_record
    from sudoku_bench.harness.results import Outcome
    from sudoku_bench.harness.running.crosscheck import answers_of, check_puzzle
    from sudoku_bench.harness.running.runner import Pool
    from sudoku_bench.harness.running.tasks import plan

    entries = read_puzzles(puzzles, **reading)
    chosen = session.choose_backends(_names(solvers), _warn)
    settings = Settings(timeout, limit=defaults.COUNT_LIMIT)
    tasks = plan(entries, [b.name for b in chosen], 1)
    found: dict[int, list[Outcome]] = {}
    with Pool(min(jobs, len(tasks)), settings, {b.name: b for b in chosen}) as pool:
        pool.run(tasks, lambda o: found.setdefault(o.task.key // len(chosen), []).append(o))
    records = []
    for number, entry in enumerate(entries):
        outcomes = found.get(number, [])
        blamed = check_puzzle(entry.puzzle, answers_of(outcomes), entry.solution).blamed()
        for outcome in outcomes:
            record = outcome_record(outcome, agrees=outcome.task.solver not in blamed)
            records.append({"puzzle_id": entry.id, **record})
    return _pandas().DataFrame(records)


def rate(puzzles: Puzzles, *, timeout: float | None = None, **reading: Any) -> Any:
    """`sudoku-bench rate`: each puzzle's difficulty by the hardest human technique the logic
    back-end needs. A DataFrame with the keys of `rate --json` (`rating`, `estimate`,
    `hardest`, `steps`, `score`, ...).

        >>> rate("top95")[["rating", "estimate"]].value_counts()
    """
    from sudoku_bench.harness.analysing.frame import _pandas
    from sudoku_bench.harness.cli.output import result_record
    from sudoku_bench.harness.generating.rating import rating_of
    from sudoku_bench.solvers.registry import get

    entries = read_puzzles(puzzles, **reading)
    records: list[dict[str, Any]] = []

    def heard(answer: Answer) -> None:
        records.append(
            result_record(answer.entry, answer.result) | rating_of(answer.result).record()
        )

    solve_all(entries, [get("logic")], heard, limit=1, timeout=timeout)
    return _pandas().DataFrame(records)


def generate(
    count: int = 1,
    *,
    difficulty: str = "easy",
    size: int | None = None,
    geometry: str | None = None,
    sudoku_x: bool = False,
    variant: str = "classic",
    strategy: str = "remove",
    seed: int | None = None,
    symmetric: bool = False,
    minimal: bool = False,
    attempts: int = 50,
    counter: str | None = None,
    kind: str | Sequence[str] | None = None,
    setter: bool = False,
) -> Any:
    """`sudoku-bench generate`: `count` unique puzzles of the difficulty, from `seed` (the
    same seed, the same puzzles). A DataFrame with the keys of `generate --json` (`puzzle`,
    `solution`, `rating`, `empty`, `seed`, ...) and `grid`, the puzzle as a `Grid`.
    With `kind` (a kind's name, or several to mix) or `setter`, puzzles made of the kinds'
    clues (`generate --kind`): the keys of `generate --kind --json` (`kinds`, `clues`,
    `givens`, ...); `difficulty`, `variant`, `strategy`, `symmetric` and `minimal` then stay
    at their defaults.

        >>> made = generate(3, difficulty="medium", seed=1)
        >>> made.loc[0, "grid"]          # drawn as SVG in a notebook
        >>> killer = generate(2, size=6, kind="killer_cage", seed=1)
    """
    import random

    from sudoku_bench.harness.analysing.frame import _pandas
    from sudoku_bench.harness.cli.commands import generate as command
    from sudoku_bench.harness.cli.inputs import geometry_argument
    from sudoku_bench.harness.generating.generator import (
        DIFFICULTIES,
        STRATEGIES,
        Generator,
        solution_counter,
    )
    from sudoku_bench.harness.generating.variants import VARIANTS

    for name, value, allowed in (
        ("difficulty", difficulty, DIFFICULTIES),
        ("strategy", strategy, STRATEGIES),
        ("variant", variant, tuple(VARIANTS)),
    ):
        if value not in allowed:
            raise SudokuBenchError(f"{name} {value!r}: choose one of {', '.join(allowed)}")
    if count < 1 or attempts < 1:
        raise SudokuBenchError("count and attempts are at least 1")
    try:
        shape = geometry_argument(geometry) if geometry is not None else None
    except argparse.ArgumentTypeError as error:
        raise SudokuBenchError(f"geometry {geometry!r}: {error}") from None
    kinds = [kind] if isinstance(kind, str) else list(kind or ())
    if kinds or setter:
        return _generate_clues(count, size, shape, sudoku_x, kinds, setter, seed, attempts, counter)
    counter = counter or "propagating"
    args = argparse.Namespace(
        size=size,
        geometry=shape,
        sudoku_x=sudoku_x,
        variant=variant,
        difficulty=difficulty,
        strategy=strategy,
        count=count,
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        symmetric=symmetric,
        minimal=minimal,
        attempts=attempts,
        counter=counter,
    )
    rules = command.geometry_of(args)
    generator = Generator(
        rules,
        difficulty,
        seed=args.seed,
        symmetric=symmetric,
        minimal=minimal,
        counter=solution_counter(counter),
        attempts=attempts,
        strategy=strategy,
        variant=VARIANTS[variant],
    )
    records = []
    for number in range(1, count + 1):
        made = generator.one()
        records.append({**command.record(number, made, rules, args), "grid": made.puzzle})
    return _pandas().DataFrame(records)


def _generate_clues(
    count: int,
    size: int | None,
    shape: Any,
    sudoku_x: bool,
    kinds: list[str],
    setter: bool,
    seed: int | None,
    attempts: int,
    counter: str | None,
) -> Any:
    """`generate(kind=...)`: the records of `generate --kind --json`, and `grid`."""
    import random

    from sudoku_bench.harness.analysing.frame import _pandas
    from sudoku_bench.harness.cli.commands import generate as command
    from sudoku_bench.harness.cli.commands import generate_clues
    from sudoku_bench.harness.generating.clues import ClueGenerator

    args = argparse.Namespace(
        size=size,
        geometry=shape,
        sudoku_x=sudoku_x,
        kind=kinds,
        setter=setter,
        count=count,
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        attempts=attempts,
        counter=counter,
    )
    rules = command.geometry_of(args)
    generator = ClueGenerator(
        rules, kinds, seed=args.seed, setter=setter, counter=counter, attempts=attempts
    )
    records = []
    for number in range(1, count + 1):
        made = generator.one()
        records.append({**generate_clues.record(number, made, rules, args), "grid": made.puzzle})
    return _pandas().DataFrame(records)


def minimum_clues(
    grid: str,
    *,
    clues: Sequence[int] = (16, 17),
    all_puzzles: bool = False,
    require: Sequence[int] = (),
    state: str | Path | None = None,
    resume: bool = False,
) -> Any:
    """`sudoku-bench minimum-clues`: search one 9x9 grid (81 digits, or a puzzle line with one
    solution) for unique puzzles of each k in `clues`, in order; a stage with no puzzle that
    searched every clue set proves there is none of k clues (or fewer). Returns a
    `sudoku_bench.harness.generating.minimum_clues.MinimumClues` (its `stages`, `cpu_s`).

        >>> found = minimum_clues(puzzle_line, clues=(16, 17))
        >>> [(s.clues, s.proven_none, s.puzzles) for s in found.stages]
    """
    from sudoku_bench.harness.generating import minimum_clues as search

    values = search.grid_of_puzzle(grid)
    return search.minimum_clues(
        values,
        clues=clues,
        first_only=not all_puzzles,
        required=require,
        state_path=None if state is None else Path(state),
        resume=resume,
    )
