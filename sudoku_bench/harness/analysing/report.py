"""A run's report as text: a terminal table, Markdown, LaTeX, CSV (raw rows) or JSON."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.analysing import stats
from sudoku_bench.harness.analysing.pivot import DEFAULT_METRIC, pivot
from sudoku_bench.harness.analysing.summary import ALL, Row, Summary, summarize
from sudoku_bench.harness.results import RECORD_SCHEMA_VERSION
from sudoku_bench.harness.storing.store import HostInfo, RunInfo, Store
from sudoku_bench.puzzles.errors import SudokuBenchError

FORMATS = ("table", "md", "latex", "csv", "json", "html")

# The per-task rows of CSV and JSON, in this order (JSON adds `solutions` and `counters`).
# `geometry` is the published name of the store's `rules` column (`exported`).
RAW_KEYS = (
    "run",
    "task",
    "collection",
    "puzzle_id",
    "puzzle",
    "geometry",
    "solver",
    "configuration",
    "repeat",
    "status",
    "count",
    "exact",
    "verdict",
    "solution",
    "build_s",
    "solve_s",
    "total_s",
    "nodes",
    "guesses",
    "error",
    "worker",
    "finished",
    "wall_s",
    "cpu_s",
    "peak_rss_mb",
    "permutation",
    "host",
    # `bench --certify`: the task's certificate (yes / no / failed), the DRAT proof's size in
    # bytes and its check's CPU time; empty where the run was not certified
    "certified",
    "proof_bytes",
    "check_s",
)

COLUMNS = (
    ("solver", "solver"),
    ("collection", "collection"),
    ("tasks", "tasks"),
    ("solved", "solved"),
    ("gave_up", "gave up"),
    ("timeouts", "timeout"),
    ("memouts", "memout"),
    ("errors", "error"),
    ("median_s", "median ms"),
    ("mean_s", "mean ms"),
    ("max_s", "max ms"),
    ("sgm_s", "sgm ms"),
    ("par2_s", "PAR-2 ms"),
    ("per_second", "puzzles/s"),
    ("guesses", "guesses"),
    ("agree", "agree"),
)


# Thresholds of the stability warnings: a clock range above 10% of the top clock, and repeats
# whose coefficient of variation is above 10% (pyperf's threshold for an unstable benchmark).
CLOCK_SPREAD = 0.10
REPEAT_CV = 0.10


# Export key -> the store row's key it is read from, where the two names differ.
_EXPORT_SOURCES = {"geometry": "rules"}


def with_certificates(store: Store, run_id: int) -> list[Row]:
    """The run's result rows, each with its certificate's `certified`, `proof_bytes` and
    `check_s` (None where `bench --certify` did not certify it)."""
    certificates = store.certificates(run_id)
    rows = store.results(run_id)
    for row in rows:
        found = certificates.get(row["task"], {})
        row.update({key: found.get(key) for key in ("certified", "proof_bytes", "check_s")})
    return rows


def exported(row: Row) -> dict[str, Any]:
    """A store row (`Store.results()`) as a per-task row of the exports (`RAW_KEYS`)."""
    return {key: row.get(_EXPORT_SOURCES.get(key, key)) for key in RAW_KEYS}


class Report:
    """Everything a report shows, read once from the store."""

    def __init__(
        self,
        store: Store,
        run_id: int | None = None,
        *,
        solvers: Sequence[str] = (),
        collections: Sequence[str] = (),
    ) -> None:
        """The run's report; `solvers` and `collections` keep only those (default: all)."""
        self.run: RunInfo = store.run(run_id)
        self.rows: list[Row] = _chosen(with_certificates(store, self.run.id), "solver", solvers)
        self.rows = _chosen(self.rows, "collection", collections)
        self.planned = len(store.tasks(self.run.id))
        self.cutoff = float(self.run.settings["timeout"])
        order = [s for s in self.run.settings.get("solvers", []) if not solvers or s in solvers]
        self.summaries: list[Summary] = summarize(self.rows, self.cutoff, order)
        self.hosts: list[HostInfo] = store.hosts(self.run.id)
        self.made_by = ""  # the report command, shown in the Markdown header when known
        self.lock = store.run_lock(self.run.id)  # a process executing the run now, if any

    # ----- the hosts -----------------------------------------------------------------------

    def host_tasks(self) -> dict[str, int]:
        """Tasks run per host, in the order the hosts were recorded (skipped ones ran nowhere)."""
        counts: dict[str, int] = {host.name: 0 for host in self.hosts}
        for row in self.rows:
            if row.get("host"):
                counts[row["host"]] = counts.get(row["host"], 0) + 1
        return {name: count for name, count in counts.items() if count}

    def hosts_line(self) -> str:
        counts = self.host_tasks()
        known = {host.name: host for host in self.hosts}
        parts = []
        for name, count in counts.items():
            host = known.get(name)
            what = f"{host.machine.get('cpu')}, {host.machine.get('cores')} cores" if host else ""
            parts.append(f"{name} ({what}) {count} tasks" if what else f"{name} {count} tasks")
        return f"{len(counts)} host{'s' * (len(counts) != 1)}: " + "; ".join(parts)

    def host_warning(self) -> str:
        """Said when the run's tasks ran on machines of different kinds (CPU, cores, OS,
        Python, sudoku-bench commit or library versions), "" otherwise."""
        used = self.host_tasks()
        hosts = [host for host in self.hosts if host.name in used]
        if len(hosts) < 2:
            return ""
        first = hosts[0]
        kind = {first.name: 0}
        kinds = [first]
        notes = []
        for host in hosts[1:]:
            for number, other in enumerate(kinds):
                if not other.kind_differences(host):
                    kind[host.name] = number
                    break
            else:
                kind[host.name] = len(kinds)
                kinds.append(host)
                notes.append(
                    f"{host.name} has another {', '.join(first.kind_differences(host))} than {first.name}"
                )
        if len(kinds) < 2:
            return ""
        per_puzzle: dict[tuple[str, str], set[int]] = {}
        for row in self.rows:
            if row.get("host") in kind:
                key = (row["collection"], row["puzzle_id"])
                per_puzzle.setdefault(key, set()).add(kind[row["host"]])
        mixed = sum(len(found) > 1 for found in per_puzzle.values())
        within = (
            f"{mixed} puzzles compare back-ends measured on different kinds of machine"
            if mixed
            else "each puzzle's back-ends were measured on one kind of machine"
        )
        return (
            f"the run used {len(kinds)} kinds of machine ({'; '.join(notes)}): times from "
            f"different kinds are not one measurement; {within}"
        )

    # ----- the parts -----------------------------------------------------------------------

    def resumed_line(self) -> str:
        """Each resumption's start, and what it changed: mixed setups must not pass unseen."""
        parts = []
        for later in self.run.resumes:
            changed = self.run.differences(later)
            what = f"with another {', '.join(changed)}" if changed else "same machine and versions"
            jobs = later.settings.get("jobs")
            parts.append(f"{later.started} ({what}" + (f"; jobs {jobs})" if jobs else ")"))
        return "; ".join(parts)

    def jobs(self) -> list[int]:
        """Tasks at a time: at the start, then at each resumption that recorded it."""
        first = int(self.run.settings.get("jobs", 1))
        return [first] + [int(r.settings["jobs"]) for r in self.run.resumes if "jobs" in r.settings]

    def finished_words(self) -> str:
        if self.run.finished:
            return self.run.finished
        if self.lock is not None and not self.lock.gone():
            return f"not yet (being run by {self.lock.describe()})"
        return "not yet"

    def header(self) -> list[tuple[str, str]]:
        run, settings, machine = self.run, self.run.settings, self.run.machine
        every_jobs = self.jobs()
        jobs = max(every_jobs)
        jobs_text = " then ".join(str(j) for j in dict.fromkeys(every_jobs))
        if len(set(every_jobs)) > 1:
            jobs_text += " (changed on resuming)"
        lines = [
            ("run", f"{run.id}, started {run.started}, finished {self.finished_words()}"),
            ("command", run.command),
            ("tasks", f"{len(self.rows)} of {self.planned} finished"),
            (
                "settings",
                f"timeout {self.cutoff:g} s, limit {settings.get('limit', 1)}, "
                f"repeat {settings.get('repeat', 1)}, warm-up {settings.get('warmup', 0)}, "
                f"jobs {jobs_text}, seed {run.seed}",
            ),
            (
                "machine",
                f"{machine.get('cpu')}, {machine.get('cores')} cores, {machine.get('os')}, "
                f"load average {machine.get('load')} at the start"
                + (
                    f" (the driver: tasks ran on the cluster {settings['cluster']}, per host below)"
                    if settings.get("cluster")
                    else ""
                ),
            ),
            *([("hosts", self.hosts_line())] if self.host_tasks() else []),
            ("python", str(machine.get("python"))),
            ("sudoku-bench", run.git_commit or "(not a git checkout)"),
            ("libraries", libraries_line(run.versions, settings.get("solvers"))),
            *([("resumed", self.resumed_line())] if run.resumes else []),
            (
                "definitions",
                f"solved = answered within the time limit; median/mean/max over solved tasks; "
                f"sgm = shifted geometric mean, shift {stats.SHIFT_S * 1000:g} ms, failures at "
                f"the {self.cutoff:g} s cut-off; PAR-2 = mean time, failures at "
                f"{stats.PAR_FACTOR * self.cutoff:g} s (2 x cut-off); puzzles/s = solved per "
                f"second spent on all tasks; guesses = mean per solved task (- where the "
                f"back-end does not count guesses); agree = solved "
                f"tasks whose grids pass the rule checker and that no other answer disproves",
            ),
        ]
        lines += [("warning", text) for text in self.warnings()]
        if jobs > 1:
            part = "" if min(every_jobs) == jobs else " in part of the run"
            lines.append(
                (
                    "note",
                    f"{jobs} tasks ran at a time{part} and shared the machine (cores, caches, "
                    f"memory bandwidth): times can be higher than on an idle machine",
                )
            )
        return lines

    def caption(self) -> str:
        """Where a plot's numbers come from: run, date, commit and machine (one line)."""
        run, machine = self.run, self.run.machine
        return (
            f"sudoku-bench run {run.id} of {run.started[:10]}, commit "
            f"{(run.git_commit or 'unknown')[:12]}; {machine.get('cpu')}, "
            f"{machine.get('cores')} cores; time limit {self.cutoff:g} s"
        )

    def fastest(self, count: int) -> list[str]:
        """The back-ends with the most tasks solved, then the lowest shifted geometric mean,
        over all collections (the scatter plot's default pair)."""
        overall = [s for s in self.summaries if s.collection == ALL] or self.summaries
        ranked = sorted(
            overall,
            key=lambda s: (-s.solved, s.sgm_s if math.isfinite(s.sgm_s) else math.inf),
        )
        return list(dict.fromkeys(s.solver for s in ranked))[:count]

    def warnings(self) -> list[str]:
        """What makes the timings less trustworthy, as pyperf and hyperfine say it: a load
        above the cores, a CPU clock that changed during the run, repeats that vary a lot."""
        found = []
        cores = int(self.run.machine.get("cores") or 1)
        load = self.run.conditions.get("load_max")
        if load is not None and load > cores:
            found.append(
                f"the load average reached {load:g} on {cores} cores during the run: other "
                "work competed with it, so times are higher and noisier than on a quiet machine"
            )
        low, high = self.run.conditions.get("mhz_min"), self.run.conditions.get("mhz_max")
        if low and high and (high - low) / high > CLOCK_SPREAD:
            found.append(
                f"the CPU clock ranged from {low:.0f} to {high:.0f} MHz during the run "
                "(frequency scaling): times taken at different clocks are not comparable"
            )
        mixed = self.host_warning()
        if mixed:
            found.append(mixed)
        spread = stats.repeat_variation(self.rows)
        noisy = [cv for cv in spread if cv > REPEAT_CV]
        if noisy:
            found.append(
                f"{len(noisy)} of {len(spread)} repeated tasks vary by more than "
                f"{REPEAT_CV:.0%} between repeats (coefficient of variation up to "
                f"{max(noisy):.0%}): look for interference, or use more repeats"
            )
        return found

    def columns(self) -> list[tuple[str, str]]:
        """The table's columns; `memout` only where a run had a memory limit."""
        memory = self.run.settings.get("memory_limit_mb") is not None
        return [(key, title) for key, title in COLUMNS if key != "memouts" or memory]

    def table_rows(self) -> list[list[Any]]:
        # times are shown in milliseconds (the summaries and raw rows keep seconds)
        return [
            [
                _cell(getattr(s, key) * 1000 if key.endswith("_s") else getattr(s, key))
                for key, _ in self.columns()
            ]
            for s in self.summaries
        ]

    def headers(self) -> list[str]:
        return [title for _, title in self.columns()]

    def raw(self) -> list[dict[str, Any]]:
        return [exported(row) for row in self.rows]

    # ----- the formats ---------------------------------------------------------------------

    def render(self, fmt: str, images: Sequence[Path] = ()) -> str:
        return {
            "table": self.as_table,
            "md": lambda: self.as_markdown(images),
            "latex": self.as_latex,
            "csv": self.as_csv,
            "json": self.as_json,
            "html": lambda: self.as_html(images),
        }[fmt]()

    def as_html(self, images: Sequence[Path] = ()) -> str:
        from sudoku_bench.harness.analysing import html  # the page builder imports this module

        return html.render(self, images)

    def as_table(self, *, full: bool = False, metric: str = DEFAULT_METRIC) -> str:
        """The header, then the compact pivot of one metric, or with `full` every column."""
        header = "\n".join(f"{key}: {value}" for key, value in self.header())
        if full:
            table = tabulate(self.table_rows(), headers=self.headers(), tablefmt="simple")
        else:
            table = pivot(self.summaries, metric)
        return f"{header}\n\n{table}\n"

    def as_markdown(self, images: Sequence[Path] = ()) -> str:
        lines = [f"# sudoku-bench report: run {self.run.id}", ""]
        header = self.header()
        if self.made_by:
            header.insert(2, ("report", self.made_by))
        lines += [
            f"- **{key}**: `{value}`"
            if key in ("command", "report")
            else f"- **{key}**: {_md_escape(value)}"
            for key, value in header
        ]
        lines += ["", "## Results per back-end and collection", ""]
        lines.append(tabulate(self.table_rows(), headers=self.headers(), tablefmt="github"))
        for image in images:
            lines += ["", f"![{image.stem}]({image.as_posix()})"]
        return "\n".join(lines) + "\n"

    def as_latex(self) -> str:
        """The header as comments, a `\\newcommand` per cited figure (`sudoku_bench.harness.analysing.
        latex`), then the table float with caption and label (needs booktabs)."""
        from sudoku_bench.harness.analysing import latex

        header = "\n".join(f"% {key}: {value}" for key, value in self.header())
        tabular = tabulate(self.table_rows(), headers=self.headers(), tablefmt="latex_booktabs")
        caption = (
            f"sudoku-bench run {self.run.id}: per back-end and collection, times in ms "
            f"(sgm: shifted geometric mean, shift {stats.SHIFT_S * 1000:g} ms; PAR-2: failures "
            f"at twice the {self.cutoff:g} s time limit). {self.caption()}"
        )
        macros = latex.macros(self.summaries)
        float_ = latex.table(tabular, caption, f"tab:sudoku-bench-run-{self.run.id}")
        cite = "% the figures, to cite by name in the text\n" if macros else ""
        return f"{header}\n{cite}{chr(10).join(macros)}\n\n{float_}\n"

    def as_csv(self) -> str:
        """The raw rows, headed by the run's metadata as `#` comment lines (the same lines as
        the Markdown and LaTeX headers), so a file shared alone still says what it measured.
        pandas reads it with `read_csv(path, comment="#")`."""
        out = io.StringIO()
        out.write(
            f"# sudoku-bench report of run {self.run.id}: the lines that start with # are the "
            'run\'s metadata (pandas: read_csv(path, comment="#"))\n'
        )
        for key, value in self.header():
            out.write(f"# {key}: {' '.join(str(value).split())}\n")
        out.write(f"# metadata: {json.dumps(self.metadata(), sort_keys=True)}\n")
        writer = csv.DictWriter(out, fieldnames=RAW_KEYS, lineterminator="\n")
        writer.writeheader()
        for row in self.raw():
            writer.writerow({**row, "configuration": json.dumps(row["configuration"])})
        return out.getvalue()

    def metadata(self) -> dict[str, Any]:
        """What the run was, as every export carries it: command, commit, machine, versions,
        settings, conditions, warnings, resumptions and hosts (the JSON report's `run`)."""
        return {
            "id": self.run.id,
            "command": self.run.command,
            "started": self.run.started,
            "finished": self.run.finished,
            "seed": self.run.seed,
            "settings": self.run.settings,
            "machine": self.run.machine,
            "versions": self.run.versions,
            "git_commit": self.run.git_commit,
            "conditions": self.run.conditions,
            "warnings": self.warnings(),
            "resumes": [
                {**asdict(r), "differences": self.run.differences(r)} for r in self.run.resumes
            ],
            "hosts": [
                {
                    **host.machine,
                    "versions": host.versions,
                    "git_commit": host.git_commit,
                    "conditions": host.conditions,
                    "tasks": self.host_tasks().get(host.name, 0),
                }
                for host in self.hosts
            ],
        }

    def as_json(self) -> str:
        document = {
            "schema_version": RECORD_SCHEMA_VERSION,
            "run": self.metadata(),
            "definitions": {
                "shift_s": stats.SHIFT_S,
                "cutoff_s": self.cutoff,
                "par_factor": stats.PAR_FACTOR,
            },
            "summary": [s.record() for s in self.summaries],
            "tasks": [
                {**row, "solutions": r["solutions"], "counters": r["counters"]}
                for row, r in zip(self.raw(), self.rows, strict=True)
            ],
        }
        return json.dumps(document, indent=1) + "\n"


def _chosen(rows: list[Row], key: str, names: Sequence[str]) -> list[Row]:
    """The rows whose `key` is one of `names` (all of them when none is named); a name the
    run does not have is a user error that lists the ones it has."""
    if not names:
        return rows
    known = list(dict.fromkeys(row[key] for row in rows))
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SudokuBenchError(
            f"the run has no {key} {', '.join(unknown)} (it has {', '.join(known) or 'none'})"
        )
    return [row for row in rows if row[key] in names]


def libraries_line(versions: dict[str, str], solvers: list[str] | None = None) -> str:
    """Each library once, with the back-ends of the run that used it.

    e.g. "sudoku-bench 0.1.0 (backtracking, dlx); ortools 9.15.6755 (cpsat)". Runs recorded
    before versions were limited to the chosen back-ends listed every registered one, so the
    run's own solver list filters them.
    """
    users: dict[str, list[str]] = {}
    for solver, library in versions.items():
        if solvers is None or solver in solvers:
            users.setdefault(library, []).append(solver)
    return "; ".join(f"{library} ({', '.join(names)})" for library, names in users.items())


def _cell(value: Any) -> Any:
    """Floats to three significant digits, without exponents (1774, 12.3, 0.482)."""
    if not isinstance(value, float):
        return value
    if math.isnan(value):
        return "-"
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*")
