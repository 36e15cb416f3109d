"""The report of an experiment, `DIR/NAME.md` with its plots `DIR/NAME-*.png` beside it.

An experiment's `analyse` adds the pieces of its results section to a `Document`
(`heading`, `paragraph`, `table`, `plot`); `render` puts them between the fixed sections
every report has, in this order (`SECTIONS`): the question and the paper, the design, the
results, the comparison with the paper, the command that reproduces it, machine and versions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from sudoku_bench.puzzles.errors import SudokuBenchError

if TYPE_CHECKING:
    from sudoku_bench.harness.experiments.base import Design, Experiment, Results

# The sections of every report, in order (tests assert each one is there).
SECTIONS = (
    "Question and paper",
    "Design",
    "Results",
    "Compared with the paper",
    "Reproduce",
    "Machine and versions",
)
MISSING = "–"  # a cell with no value (e.g. a median of no solved puzzles)


def number(value: Any) -> str:
    """A table cell: integers as they are, other numbers to 3 significant digits."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.3g}" if abs(value) < 1e5 else f"{value:.3e}"
    return str(value)


def percent(value: float | None) -> str:
    """A share as a percentage, to one decimal."""
    return MISSING if value is None else f"{100 * value:.1f}%"


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Document:
    """The results section of a report, built by an experiment's `analyse`; `folder` and
    `name` place the plots (`folder/name-stem.png`)."""

    folder: Path
    name: str
    blocks: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    plots: list[Path] = field(default_factory=list)

    def heading(self, text: str) -> None:
        self.blocks.append(f"### {text}")

    def paragraph(self, text: str) -> None:
        self.blocks.append(text.strip())

    def table(
        self, headers: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = ""
    ) -> Table:
        """A Markdown table: numbers are formatted by `number`; strings are kept as given."""
        cells = [[number(value) for value in row] for row in rows]
        table = Table(list(headers), cells, caption)
        self.tables.append(table)
        text = tabulate(cells, headers=list(headers), tablefmt="github", disable_numparse=True)
        self.blocks.append(f"{caption.strip()}\n\n{text}" if caption else text)
        return table

    def plot(
        self,
        stem: str,
        caption: str,
        draw: Callable[[Any], None],
        size: tuple[float, float] = (6.4, 4.4),
    ) -> Path:
        """A PNG beside the report: `draw(figure)` fills a matplotlib figure (Agg back-end)."""
        plt = pyplot()
        figure = plt.figure(figsize=size)
        try:
            draw(figure)
            figure.tight_layout()
            path = self.folder / f"{self.name}-{stem}.png"
            figure.savefig(path, dpi=110)
        finally:
            plt.close(figure)
        self.plots.append(path)
        self.blocks.append(f"![{caption}]({path.name})\n\n*{caption}*")
        return path


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SudokuBenchError(
            "experiment reports draw plots with matplotlib: pip install 'sudoku-bench[plots]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def render(
    experiment: Experiment,
    design: Design,
    results: Results,
    doc: Document,
    comparison: str,
    *,
    quick: bool,
    command: str,
    store: str,
) -> str:
    """The whole report, as Markdown."""
    lines = [f"# Experiment `{experiment.name}`: {experiment.summary}", ""]
    if quick:
        lines += [
            "> Quick mode: a handful of puzzles, to check that the experiment runs. The figures "
            "below say little; the full run (without `--quick`) is the one to read.",
            "",
        ]
    lines += [
        f"## {SECTIONS[0]}",
        "",
        experiment.question.strip(),
        "",
        f"Paper: {experiment.paper}",
        "",
    ]
    lines += [f"## {SECTIONS[1]}", "", *_design_lines(design, quick), ""]
    lines += [f"## {SECTIONS[2]}", ""]
    for block in doc.blocks:
        lines += [block, ""]
    lines += [f"## {SECTIONS[3]}", "", comparison.strip(), ""]
    lines += [f"## {SECTIONS[4]}", "", "```", command, "```", ""]
    lines += [
        f"The results are in the store `{store}` (runs "
        + ", ".join(f"{label}: {b.run.id}" for label, b in results.batches.items())
        + "); running the command again reuses the finished runs and resumes unfinished ones, "
        "and `sudoku-bench report --db STORE --run RUN` shows any of them as a bench report.",
        "",
    ]
    lines += [f"## {SECTIONS[5]}", "", *_machine_lines(results), ""]
    return "\n".join(lines)


def _design_lines(design: Design, quick: bool) -> list[str]:
    lines = [f"Mode: {'quick' if quick else 'full'}. {len(design.batches)} bench run(s):", ""]
    rows = []
    for batch in design.batches:
        rows.append(
            [
                batch.label,
                "; ".join(batch.inputs),
                str(len(batch.entries)),
                ", ".join(f"`{b.name}`" for b in batch.backends),
                f"{batch.timeout:g} s",
                str(batch.limit),
                str(batch.tasks),
            ]
        )
    headers = ["run", "puzzles", "count", "back-ends", "time limit", "limit", "tasks"]
    lines.append(tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True))
    lines += [
        "",
        "The back-end configurations (`module:Class` and options, as the store records them):",
        "",
    ]
    seen: set[str] = set()
    for batch in design.batches:
        for backend in batch.backends:
            if backend.name in seen:
                continue
            seen.add(backend.name)
            lines.append(
                f"- `{backend.name}`: {backend.summary} (`{_target_words(backend.target, backend.options)}`)"
            )
    if design.notes:
        lines += ["", *(f"- {note}" for note in design.notes)]
    return lines


def _target_words(target: str, options: Any) -> str:
    """`module:Class(option=value, ...)`, a long list of values shortened to its length."""
    told = []
    for key, value in dict(options).items():
        if isinstance(value, (list, tuple)) and len(value) > 4:
            told.append(f"{key}=<{len(value)} items>")
        else:
            told.append(f"{key}={value!r}")
    return f"{target}({', '.join(told)})"


def _machine_lines(results: Results) -> list[str]:
    runs = results.runs
    if not runs:
        return ["(no run)"]
    first = runs[0]
    machine = first.machine
    lines = [
        f"- machine: {machine.get('host')}, {machine.get('cpu')}, {machine.get('cores')} cores, "
        f"{machine.get('os')}",
        f"- Python: {machine.get('python')}",
        f"- git commit: {first.git_commit or '(unknown)'}",
    ]
    for label, batch in results.batches.items():
        run = batch.run
        load = run.conditions.get("load_max")
        ran = f"started {run.started}, finished {run.finished or '(unfinished)'}"
        if run.settings.get("jobs"):
            ran += f", {run.settings['jobs']} worker(s)"
        if run.git_commit and run.git_commit != first.git_commit:
            ran += f", git commit {run.git_commit}"
        if run.resumes:
            ran += f", resumed {len(run.resumes)} time(s)"
        if load is not None:
            ran += f", highest load average {load:g}"
        lines.append(f"- run {run.id} ({label}): {ran}")
    # the store records a version per back-end ("cpsat": "ortools 9.15"): name each library once
    versions = sorted({version for run in runs for version in run.versions.values()})
    if versions:
        lines.append("- versions: " + ", ".join(versions))
    return lines
