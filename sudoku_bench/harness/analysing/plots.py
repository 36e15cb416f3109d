"""Plots of a run (matplotlib, Agg back-end, PNG): cactus, performance profile, scatter.

Each plot takes per-puzzle times: back-end -> puzzle -> seconds (None where it failed).
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sudoku_bench.harness.analysing import stats
from sudoku_bench.puzzles.errors import SudokuBenchError

Times = Mapping[str, Mapping[Any, float | None]]
VIRTUAL_BEST = "virtual best"
# Matplotlib's palette has 10 colours: the 11th back-end on a plot gets a new line style.
LINE_STYLES = ("-", "--", "-.", ":")
# Text sizes in points: legible when the PNG is shown at half its width in a page or a paper.
LABEL_POINTS = 12
LEGEND_POINTS = 11
TICK_POINTS = 10


def _style(number: int) -> str:
    return LINE_STYLES[number // 10 % len(LINE_STYLES)]


def available() -> bool:
    """Whether matplotlib is installed: the plots need it, the tables do not."""
    return importlib.util.find_spec("matplotlib") is not None


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SudokuBenchError("plots need matplotlib: pip install 'sudoku-bench[plots]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def cactus(times: Times, path: Path, cutoff: float, title: str = "", caption: str = "") -> Path:
    """The cactus plot (`cactus_figure`) written as a PNG to `path`."""
    plt = _pyplot()
    fig, _ = plt.subplots(figsize=(9, 4.8))
    return _save(cactus_figure(times, cutoff, title, ax=fig.axes[0]), plt, path, caption)


def cactus_figure(times: Times, cutoff: float, title: str = "", *, ax: Any = None) -> Any:
    """Puzzles solved (x) against the time each needed (y, log), one line per back-end,
    and the virtual best: for each puzzle the fastest back-end. The time limit is drawn only
    when some back-end reached it (else it would squeeze the lines to the bottom). Drawn on
    `ax` (a new figure when None); returns the figure.

        >>> fig = cactus_figure({"dlx": {"p1": 0.01, "p2": None}}, cutoff=2.0)
    """
    fig, ax = _axes(ax, (9, 4.8))
    lines = {**times, VIRTUAL_BEST: stats.virtual_best(times)}
    for number, (name, per_puzzle) in enumerate(lines.items()):
        solved = stats.cactus(per_puzzle.values())
        style = (
            {"color": "black", "linestyle": "--"}
            if name == VIRTUAL_BEST
            else {"linestyle": _style(number)}
        )
        ax.step(
            range(1, len(solved) + 1),
            [max(t, stats.TIME_FLOOR_S) for t in solved],
            where="post",
            label=f"{name} ({len(solved)})",
            **style,
        )
    if _any_failed(times):
        ax.axhline(cutoff, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yscale("log")
    ax.set_xlabel("puzzles solved")
    ax.set_ylabel("time per puzzle (s, log)")
    ax.set_title(title or f"Cactus plot (time limit {cutoff:g} s)")
    _legible(ax)
    _legend_outside(ax)
    return fig


def performance_profile(times: Times, path: Path, title: str = "", caption: str = "") -> Path:
    """The performance profile (`profile_figure`) written as a PNG to `path`."""
    plt = _pyplot()
    fig, _ = plt.subplots(figsize=(9, 4.8))
    return _save(profile_figure(times, title, ax=fig.axes[0]), plt, path, caption)


def profile_figure(times: Times, title: str = "", *, ax: Any = None) -> Any:
    """Dolan–Moré: the share of puzzles each back-end solves within tau x the best time; the
    legend gives each back-end's puzzles solved. Drawn on `ax` (a new figure when None);
    returns the figure.

        >>> fig = profile_figure({"dlx": {"p1": 0.01}, "cpsat": {"p1": 0.02}})
    """
    ratios = stats.performance_ratios(times)
    finite = [r for per in ratios.values() for r in per.values() if math.isfinite(r)]
    top = max(2.0, max(finite, default=2.0) * 1.2)
    taus = [top ** (i / 400) for i in range(401)]
    fig, ax = _axes(ax, (9, 4.8))
    for number, (name, per_puzzle) in enumerate(ratios.items()):
        share = stats.profile(per_puzzle.values(), taus)
        solved = sum(1 for t in times[name].values() if t is not None)
        label = f"{name} ({solved}/{len(times[name])} solved)"
        ax.step(taus, share, where="post", label=label, linestyle=_style(number))
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("tau: within this factor of the best back-end's time (log2)")
    ax.set_ylabel("share of puzzles")
    ax.set_title(title or "Performance profile (Dolan–Moré)")
    _legible(ax)
    _legend_outside(ax)
    return fig


def scatter(
    times: Times, pair: Sequence[str], path: Path, cutoff: float, caption: str = ""
) -> Path:
    """The scatter plot (`scatter_figure`) written as a PNG to `path`."""
    plt = _pyplot()
    fig, _ = plt.subplots(figsize=(5.5, 5.5))
    return _save(scatter_figure(times, pair, cutoff, ax=fig.axes[0]), plt, path, caption)


def scatter_figure(times: Times, pair: Sequence[str], cutoff: float, *, ax: Any = None) -> Any:
    """Per puzzle, back-end `a`'s time (x) against `b`'s (y), log-log; failures at 2 x cut-off.
    The axes reach the cut-off only when one of the two failed somewhere. Drawn on `ax` (a
    new figure when None); returns the figure.

        >>> fig = scatter_figure({"a": {"p": 0.01}, "b": {"p": None}}, ("a", "b"), cutoff=2.0)
    """
    a, b = pair
    keys = sorted(set(times[a]) & set(times[b]))
    failed_at = 2 * cutoff
    failures = any(times[a][k] is None or times[b][k] is None for k in keys)

    def placed(t: float | None) -> float:
        return failed_at if t is None else max(t, stats.TIME_FLOOR_S)

    xs = [placed(times[a][k]) for k in keys]
    ys = [placed(times[b][k]) for k in keys]
    fig, ax = _axes(ax, (5.5, 5.5))
    ax.scatter(xs, ys, s=10, alpha=0.6)
    low = min([*xs, *ys], default=cutoff) / 2
    high = failed_at * 1.5 if failures else max([*xs, *ys], default=cutoff) * 2
    ax.plot([low, high], [low, high], color="grey", linewidth=0.8)
    if failures:
        for line in (ax.axvline, ax.axhline):
            line(cutoff, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"{a} (s)")
    ax.set_ylabel(f"{b} (s)")
    failed = f"; failures at {failed_at:g} s" if failures else "; no failures"
    ax.set_title(f"{a} vs {b}\none dot per puzzle{failed}")
    _legible(ax)
    return fig


def _axes(ax: Any, size: tuple[float, float]) -> tuple[Any, Any]:
    """The figure and axes to draw on: the caller's `ax`, else a new figure of `size` (made
    through pyplot's object API, so nothing is shown or kept by pyplot's state)."""
    if ax is not None:
        return ax.figure, ax
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise SudokuBenchError("plots need matplotlib: pip install 'sudoku-bench[plots]'") from None
    fig = Figure(figsize=size)
    return fig, fig.add_subplot()


def _any_failed(times: Times) -> bool:
    return any(t is None for per_puzzle in times.values() for t in per_puzzle.values())


def _legible(ax: Any) -> None:
    """Axis labels, ticks and title at the module's sizes."""
    ax.xaxis.label.set_size(LABEL_POINTS)
    ax.yaxis.label.set_size(LABEL_POINTS)
    ax.tick_params(labelsize=TICK_POINTS)
    ax.title.set_size(LABEL_POINTS)


def _legend_outside(ax: Any) -> None:
    """Right of the axes, so that no line is hidden however many back-ends there are."""
    ax.legend(fontsize=LEGEND_POINTS, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)


def _save(fig: Any, plt: Any, path: Path, caption: str = "") -> Path:
    """Write the figure, with the caption (run, commit, machine) in small print below it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.tight_layout(rect=(0, 0.04, 1, 1) if caption else (0, 0, 1, 1))
        if caption:
            fig.text(0.01, 0.01, caption, fontsize=8, color="dimgrey", wrap=True)
        fig.savefig(path, dpi=110)
    except FileExistsError:  # mkdir's word for "a file stands where the folder should"
        raise SudokuBenchError(f"{path.parent} is a file, not a folder for the plots") from None
    except OSError as error:
        raise SudokuBenchError(f"{path}: cannot write: {error.strerror}") from None
    finally:
        plt.close(fig)
    return path


def critical_difference(
    labels: Sequence[str],
    average_ranks: Sequence[float],
    groups: Sequence[Sequence[str]],
    path: Path,
    title: str = "",
) -> Path:
    """Demšar's critical-difference diagram: average ranks on an axis (1 = fastest) and a
    thick line joining each group of back-ends that are not significantly different. The
    groups come from the caller's test (`compare` passes the Holm-adjusted Wilcoxon cliques
    that its table shows), so the diagram and the table agree."""
    plt = _pyplot()
    order = sorted(range(len(labels)), key=lambda i: average_ranks[i])
    rank_of = dict(zip(labels, average_ranks, strict=True))
    k = len(labels)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.35 * k))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(-k - 1, 1.2)
    ax.axhline(0, color="black", lw=1)
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [0, 0.15], color="black", lw=1)
        ax.text(tick, 0.35, str(tick), ha="center", fontsize="small")
    for row, index in enumerate(order, 1):
        rank = average_ranks[index]
        ax.plot([rank, rank], [0, -row], color="grey", lw=0.8)
        ax.text(rank + 0.05, -row, f"{labels[index]} ({rank:.2f})", va="center", fontsize="small")
    for number, group in enumerate(groups):
        ranks = [rank_of[label] for label in group]
        y = -0.4 - 0.25 * number
        ax.plot([min(ranks), max(ranks)], [y, y], lw=4, color="C3")
    ax.axis("off")
    ax.set_title(
        title or "average rank per puzzle (1 = fastest); joined: no significant difference",
        fontsize="medium",
    )
    return _save(fig, plt, path)
