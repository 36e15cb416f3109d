"""The `--json` keys, report columns and store tables the README documents: the public contract.

Tests assert that each command prints exactly these keys (a new key must be added here and to
the README); `test_cli_contract.py` asserts that the README names every one of them.
"""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"

# `harness.cli.output.result_record`: every result-printing command
RESULT = frozenset(
    {
        "id",
        "puzzle",
        "solver",
        "status",
        "solutions",
        "count",
        "exact",
        "verdict",
        "build_s",
        "solve_s",
        "nodes",
        "guesses",
        "counters",
        "message",
    }
)
SOLVE = RESULT | {"verified"}  # count too
CHECK = RESULT | {"collection", "repeat", "total_s", "harness_status", "agrees"}
BENCH = RESULT | {"run", "task", "collection", "repeat", "total_s", "harness_status"}
RATE = RESULT | {"rating", "hardest", "steps", "score", "techniques"}
EXPLAIN = RATE | {"log", "step_details", "partial", "candidates"}
STEP_DETAIL = frozenset({"technique", "text", "placements", "eliminations"})

SOLVERS = frozenset({"name", "aliases", "available", "library", "version", "in_all", "summary"})
SHOW = frozenset({"id", "geometry", "givens", "puzzle", "picture", "solution", "metadata"})
COLLECTIONS = frozenset({"name", "file", "count", "sizes", "solutions", "summary", "source"})
GENERATE = frozenset(
    {
        "id",
        "puzzle",
        "solution",
        "geometry",
        "difficulty",
        "seed",
        "symmetric",
        "minimal",
        "empty",
        "target",
        "rating",
        "hardest",
        "steps",
        "score",
        "techniques",
        "attempts",
        "note",
    }
)
FACTS4X4 = frozenset(
    {"grids", "classes", "class_sizes", "by_givens", "minimum_givens", "counted_by", "counted"}
)
FACTS4X4_BY_GIVENS = frozenset({"givens", "puzzles", "unique"})

REDUCE = {
    "exact-cover": frozenset(
        {"id", "target", "geometry", "givens", "before", "after", "secondary", "clashes"}
    ),
    "polynomials": frozenset(
        {
            "id",
            "target",
            "field",
            "formulation",
            "order",
            "variables",
            "polynomials",
            "candidate_polynomials",
            "pair_polynomials",
            "unit_sums",
            "max_degree",
            "terms",
            "raw_variables",
            "raw_polynomials",
        }
    ),
    "cnf": frozenset(
        {
            "id",
            "target",
            "givens",
            "variables",
            "used_variables",
            "clauses",
            "literals",
            "unit_clauses",
            "clauses_cell-at-least",
            "clauses_cell-at-most",
            "clauses_unit-at-least",
            "clauses_unit-at-most",
            "clauses_givens",
        }
    ),
    "milp": frozenset({"id", "target", "solver", "variables", "constraints", "clashes"}),
    "cp-model": frozenset({"id", "target", "encoding", "variables", "constraints"}),
    "csp": frozenset({"id", "target", "givens", "variables", "constraints"}),
}
MATRIX_SIZE = frozenset({"columns", "rows", "ones"})  # exact-cover's `before` and `after`

# `report --format csv` columns, in order; `--format json` tasks add solutions and counters
REPORT_CSV = (
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
)
REPORT_JSON = frozenset({"run", "definitions", "summary", "tasks"})
REPORT_RUN = frozenset(
    {
        "id",
        "command",
        "started",
        "finished",
        "seed",
        "settings",
        "machine",
        "versions",
        "git_commit",
        "resumes",
    }
)
MACHINE = frozenset({"host", "cpu", "cores", "os", "python", "load"})
REPORT_RESUME = frozenset(
    {"started", "command", "machine", "versions", "git_commit", "settings", "differences"}
)
REPORT_DEFINITIONS = frozenset({"shift_s", "cutoff_s", "par_factor"})
REPORT_SUMMARY = frozenset(
    {
        "solver",
        "collection",
        "tasks",
        "solved",
        "gave_up",
        "timeouts",
        "errors",
        "median_s",
        "mean_s",
        "max_s",
        "sgm_s",
        "par2_s",
        "per_second",
        "guesses",
        "agree",
        "unsupported",
    }
)
REPORT_TASK = frozenset(REPORT_CSV) | {"solutions", "counters"}
SETTINGS = frozenset({"inputs", "solvers", "timeout", "limit", "warmup", "repeat", "jobs"})
CONFIGURATION = frozenset({"target", "options", "distribution", "version"})

# The results store's tables ("The results store" in the README)
_RUN_MACHINE = ("host", "cpu", "cores", "os", "python", "load", "versions", "git_commit")
_TASK = (
    "run",
    "task",
    "position",
    "collection",
    "puzzle_id",
    "geometry",
    "puzzle",
    "solver",
    "configuration",
    "repeat",
)
STORE_TABLES = {
    "runs": ("id", "started", "finished", "command", *_RUN_MACHINE, "seed", "settings"),
    "resumes": ("run", "started", "command", *_RUN_MACHINE, "settings"),
    "locks": ("run", "pid", "host", "process", "since"),
    "tasks": _TASK,
    "results": (
        *(column for column in _TASK if column != "position"),
        "status",
        "count",
        "exact",
        "verdict",
        "solution",
        "solutions",
        "build_s",
        "solve_s",
        "total_s",
        "nodes",
        "guesses",
        "counters",
        "error",
        "worker",
        "finished",
    ),
}

DOCUMENTED: dict[str, frozenset[str]] = {
    "solve and count --json": SOLVE,
    "check --json": CHECK,
    "bench --json": BENCH,
    "rate --json": RATE,
    "explain --json": EXPLAIN,
    "explain --json step_details": STEP_DETAIL,
    "solvers --json": SOLVERS,
    "show --json": SHOW,
    "collections --json": COLLECTIONS,
    "generate --json": GENERATE,
    "facts4x4 --json": FACTS4X4,
    "facts4x4 --json by_givens": FACTS4X4_BY_GIVENS,
    **{f"reduce --to {target} --json": keys for target, keys in REDUCE.items()},
    "reduce --to exact-cover before/after": MATRIX_SIZE,
    "report --format csv": frozenset(REPORT_CSV),
    "report --format json": REPORT_JSON,
    "report --format json run": REPORT_RUN,
    "report --format json machine": MACHINE,
    "report --format json resumes": REPORT_RESUME,
    "report --format json definitions": REPORT_DEFINITIONS,
    "report --format json summary": REPORT_SUMMARY,
    "report --format json tasks": REPORT_TASK,
    "runs.settings": SETTINGS,
    "tasks.configuration": CONFIGURATION,
    **{f"table {table}": frozenset(columns) for table, columns in STORE_TABLES.items()},
}
