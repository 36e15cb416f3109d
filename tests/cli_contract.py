"""The `--json` keys, report columns and store tables the documentation names: the public
contract.

Tests assert that each command prints exactly these keys (a new key must be added here and
named in the documentation: README.md or a page under docs/); `test_cli_contract.py` asserts
that the documentation names every one of them, and `docs/_ext/json_schemas.py` writes the
JSON Schema files of docs/reference/schemas/ from these sets.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def documentation() -> str:
    """The user documentation as one text: the README, then every page under `docs/` in
    path order. The contract holds when the documentation names a thing somewhere."""
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n\n".join(page.read_text(encoding="utf-8") for page in pages)


# `sudoku_bench.harness.cli.output.result_record`: every result-printing command
RESULT = frozenset(
    {
        "id",
        "puzzle",
        "rules",
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
# `count --certify` and `check --certify` add these to every record; `certificate` is an object
CERTIFIED = frozenset({"certified", "certificate"})
CERTIFICATE = frozenset(
    {
        "outcome",
        "verdict",
        "method",
        "proof_bytes",
        "lemmas",
        "solve_s",
        "check_s",
        "second_checker",
        "second_check_s",
        "prover",
        "message",
    }
)
CHECK = RESULT | {"collection", "repeat", "total_s", "harness_status", "agrees"}
# `check --summary-json`: one object after the records, with one count row per back-end
CHECK_SUMMARY = frozenset(
    {"puzzles", "checked", "verified", "failures", "interrupted", "timeout_s", "solvers"}
)
CHECK_SUMMARY_SOLVER = frozenset(
    {
        "solver",
        "agreed",
        "none",
        "unique",
        "multiple",
        "unknown",
        "gave_up",
        "timeout",
        "error",
        "unsupported",
        "wrong_grid",
        "disproved",
        "disagreed",
    }
)
BENCH = RESULT | {"run", "task", "collection", "repeat", "total_s", "harness_status", "host"}
# `bench --plan --json`: one object, with one estimate per back-end and collection
PLAN = frozenset(
    {
        "tasks",
        "puzzles",
        "cpu_s",
        "wall_s",
        "workers",
        "skipped",
        "pilot_tasks",
        "pilot_s",
        "estimates",
    }
)
PLAN_ESTIMATE = frozenset(
    {
        "solver",
        "collection",
        "tasks",
        "per_task_s",
        "timeout_share",
        "source",
        "samples",
        "cpu_s",
        "skipped",
    }
)
RATE = RESULT | {"rating", "hardest", "steps", "score", "techniques", "estimate", "hard_steps"}
EXPLAIN = RATE | {"log", "step_details", "partial", "candidates"}
STEP_DETAIL = frozenset({"technique", "text", "placements", "eliminations"})

SOLVERS = frozenset({"name", "aliases", "available", "library", "version", "in_all", "summary"})
SOLVER_KINDS = frozenset({"name", "available", "kinds"})  # `solvers --kinds --json`
SHOW = frozenset({"id", "geometry", "rules", "givens", "puzzle", "picture", "solution", "metadata"})
COLLECTIONS = frozenset({"name", "file", "count", "sizes", "solutions", "summary", "source"})
GENERATE = frozenset(
    {
        "id",
        "puzzle",
        "solution",
        "geometry",
        "difficulty",
        "variant",
        "rules",
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
        "estimate",
        "hard_steps",
        "attempts",
        "note",
        "strategy",
        "seconds",
    }
)
# `generate --kind K --json` and `generate --setter --json`: puzzles made of a kind's clues
GENERATE_CLUES = frozenset(
    {
        "id",
        "puzzle",
        "solution",
        "geometry",
        "rules",
        "kinds",
        "setter",
        "clues",
        "givens",
        "counted_by",
        "seed",
        "attempts",
        "seconds",
    }
)
FACTS4X4 = frozenset(
    {"grids", "classes", "class_sizes", "by_givens", "minimum_givens", "counted_by", "counted"}
)
FACTS4X4_BY_GIVENS = frozenset({"givens", "puzzles", "unique"})
FACTS = frozenset(
    {
        "size",
        "box",
        "grids",
        "first_row_fixed",
        "relabellings",
        "classes",
        "class_sizes",
        "burnside",
        "minimum_clues",
        "none_below",
        "example",
        "cpu_s",
    }
)
FACTS_BURNSIDE = frozenset(
    {"cell_maps", "group_order", "fixed_total", "maps_fixing_some_grid", "classes"}
)
FACTS_PROOF = frozenset({"grid", "clues", "unavoidable_sets", "added_sets", "nodes", "checked"})
FACTS_EXAMPLE = FACTS_PROOF | {"puzzle", "checked_by", "solutions"}
FACTS_CPU = frozenset({"grids", "classes", "burnside", "minimum_clues"})
MINIMUM_CLUES = frozenset(
    {"grid", "unavoidable_sets", "set_sizes", "collect_cpu_s", "cpu_s", "stages"}
)
MINIMUM_CLUES_STAGE = frozenset(
    {
        "clues",
        "puzzles",
        "exhaustive",
        "proven_none",
        "tasks",
        "nodes",
        "tests",
        "added_sets",
        "cpu_s",
    }
)
FACTS_BANDS = frozenset(
    {
        "size",
        "normalised_bands",
        "band_orbits",
        "band_classes",
        "class_sizes",
        "class_completions",
        "grids",
        "cpu_s",
    }
)

REDUCE = {
    "exact-cover": frozenset(
        {
            "id",
            "target",
            "geometry",
            "givens",
            "before",
            "after",
            "secondary",
            "clashes",
            "cages",
            "cage_options",
            "coloured_options",
        }
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
            "nonconsecutive_polynomials",
            "relation_polynomials",
            "cage_sums",
            "linear_polynomials",
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
            "encoding",
            "variables",
            "used_variables",
            "clauses",
            "literals",
            "unit_clauses",
            "clauses_cell-at-least",
            "clauses_cell-at-most",
            "clauses_unit-at-least",
            "clauses_unit-at-most",
            "clauses_pair-distinct",
            "clauses_nonconsecutive",
            "clauses_parity",
            "clauses_cage-at-most",
            "clauses_cage-sum",
            "clauses_givens",
        }
    ),
    "milp": frozenset(
        {
            "id",
            "target",
            "solver",
            "model",
            "variables",
            "constraints",
            "clashes",
            "reduced_variables",
            "reduced_constraints",
            "textbook_variables",
            "textbook_constraints",
        }
    ),
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
    "wall_s",
    "cpu_s",
    "peak_rss_mb",
    "permutation",
    "host",
    "certified",
    "proof_bytes",
    "check_s",
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
        "conditions",
        "warnings",
        "hosts",
    }
)
REPORT_HOST = frozenset(
    {"host", "cpu", "cores", "os", "python", "load", "versions", "git_commit", "conditions", "tasks"}
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
        "memouts",
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
        "skipped",
    }
)
REPORT_TASK = frozenset(REPORT_CSV) | {"solutions", "counters"}
# `report --diff RUN_A RUN_B --format json`: the two runs, and one object per back-end and
# collection (also the columns of its csv)
REPORT_DIFF = frozenset({"run_a", "run_b", "diff"})
REPORT_DIFF_ROW = frozenset(
    {"solver", "collection", "puzzles", "ratio", "ci_low", "ci_high", "p_value", "verdict"}
)
COMPARE = frozenset(
    {
        "a",
        "b",
        "puzzles",
        "ratio",
        "ci_low",
        "ci_high",
        "p_value",
        "statistic",
        "method",
        "a_faster",
        "b_faster",
        "censored",
        "dropped",
        "p_holm",
        "significant",
        "warnings",
    }
)
# `compare A B --aa`: the A/A baseline beside the comparison
COMPARE_AA = COMPARE | {
    "aa_reference",
    "aa_across_runs",
    "aa_ratio",
    "aa_ci_low",
    "aa_ci_high",
    "aa_p_value",
}
SETTINGS = frozenset(
    {
        "inputs",
        "solvers",
        "timeout",
        "node_limit",
        "limit",
        "warmup",
        "memory_limit_mb",
        "permute",
        "repeat",
        "jobs",
        "repeat_timeouts",
        "shard",
        "cluster",
    }
)
# settings a run stores only when asked for: `bench --aa NAME`
SETTINGS_OPTIONAL = frozenset({"aa_reference"})
CONFIGURATION = frozenset({"target", "options", "distribution", "version"})

# `experiment --list --json`: one object per experiment
EXPERIMENT_LIST = frozenset({"name", "summary", "paper"})
# `experiment NAME --json`: one object saying what was written, with one entry per bench run
EXPERIMENT_RUN = frozenset({"experiment", "quick", "report", "plots", "store", "runs"})
EXPERIMENT_RUN_BATCH = frozenset({"label", "run", "tasks", "reused"})

# The results store's tables (docs/howto/store.md)
_RUN_MACHINE = ("host", "cpu", "cores", "os", "python", "load", "versions", "git_commit")
_TASK = (
    "run",
    "task",
    "position",
    "collection",
    "puzzle_id",
    "rules",  # `geometry` up to schema version 4
    "puzzle",
    "solver",
    "configuration",
    "repeat",
)
STORE_TABLES = {
    "runs": (
        "id",
        "started",
        "finished",
        "command",
        *_RUN_MACHINE,
        "seed",
        "settings",
        "conditions",
    ),
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
        "wall_s",
        "cpu_s",
        "peak_rss_mb",
        "permutation",
        "host",
    ),
    "hosts": ("run", *_RUN_MACHINE, "conditions"),
    "certificates": (
        "run",
        "task",
        "certified",
        "method",
        "proof_bytes",
        "solve_s",
        "check_s",
        "second_checker",
        "message",
    ),
}

# Every top-level record and JSON report leads with the version of its key set.
VERSIONED = frozenset({"schema_version"})
SOLVE = SOLVE | VERSIONED
CHECK = CHECK | VERSIONED
CHECK_SUMMARY = CHECK_SUMMARY | VERSIONED
BENCH = BENCH | VERSIONED
PLAN = PLAN | VERSIONED
RATE = RATE | VERSIONED
EXPLAIN = EXPLAIN | VERSIONED
SOLVERS = SOLVERS | VERSIONED
SOLVER_KINDS = SOLVER_KINDS | VERSIONED
SHOW = SHOW | VERSIONED
COLLECTIONS = COLLECTIONS | VERSIONED
GENERATE = GENERATE | VERSIONED
FACTS4X4 = FACTS4X4 | VERSIONED
FACTS = FACTS | VERSIONED
FACTS_BANDS = FACTS_BANDS | VERSIONED
COMPARE = COMPARE | VERSIONED
COMPARE_AA = COMPARE_AA | VERSIONED
EXPERIMENT_LIST = EXPERIMENT_LIST | VERSIONED
EXPERIMENT_RUN = EXPERIMENT_RUN | VERSIONED
REPORT_JSON = REPORT_JSON | VERSIONED
REPORT_DIFF = REPORT_DIFF | VERSIONED
GENERATE_CLUES = GENERATE_CLUES | VERSIONED
MINIMUM_CLUES = MINIMUM_CLUES | VERSIONED
REDUCE = {target: keys | VERSIONED for target, keys in REDUCE.items()}

DOCUMENTED: dict[str, frozenset[str]] = {
    "solve and count --json": SOLVE,
    "check --json": CHECK,
    "check --summary-json": CHECK_SUMMARY,
    "check --summary-json solvers": CHECK_SUMMARY_SOLVER,
    "count and check --certify --json": CERTIFIED,
    "count and check --certify --json certificate": CERTIFICATE,
    "bench --json": BENCH,
    "bench --plan --json": PLAN,
    "bench --plan --json estimates": PLAN_ESTIMATE,
    "rate --json": RATE,
    "explain --json": EXPLAIN,
    "explain --json step_details": STEP_DETAIL,
    "solvers --json": SOLVERS,
    "solvers --kinds --json": SOLVER_KINDS,
    "show --json": SHOW,
    "collections --json": COLLECTIONS,
    "generate --json": GENERATE,
    "generate --kind --json": GENERATE_CLUES,
    "facts4x4 --json": FACTS4X4,
    "facts4x4 --json by_givens": FACTS4X4_BY_GIVENS,
    "facts --json": FACTS,
    "facts --json burnside": FACTS_BURNSIDE,
    "facts --json none_below": FACTS_PROOF,
    "facts --json example": FACTS_EXAMPLE,
    "facts --json cpu_s": FACTS_CPU,
    "facts --bands --json": FACTS_BANDS,
    "minimum-clues --json": MINIMUM_CLUES,
    "minimum-clues --json stages": MINIMUM_CLUES_STAGE,
    **{f"reduce --to {target} --json": keys for target, keys in REDUCE.items()},
    "reduce --to exact-cover before/after": MATRIX_SIZE,
    "compare --json": COMPARE,
    "compare --aa --json": COMPARE_AA,
    "experiment --list --json": EXPERIMENT_LIST,
    "experiment --json": EXPERIMENT_RUN,
    "experiment --json runs": EXPERIMENT_RUN_BATCH,
    "report --format csv": frozenset(REPORT_CSV),
    "report --format json": REPORT_JSON,
    "report --format json run": REPORT_RUN,
    "report --format json machine": MACHINE,
    "report --format json resumes": REPORT_RESUME,
    "report --format json hosts": REPORT_HOST,
    "report --format json definitions": REPORT_DEFINITIONS,
    "report --format json summary": REPORT_SUMMARY,
    "report --format json tasks": REPORT_TASK,
    "report --diff --format json": REPORT_DIFF,
    "report --diff --format json diff": REPORT_DIFF_ROW,
    "runs.settings": SETTINGS | SETTINGS_OPTIONAL,
    "tasks.configuration": CONFIGURATION,
    **{f"table {table}": frozenset(columns) for table, columns in STORE_TABLES.items()},
}
