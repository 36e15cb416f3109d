"""JSON Schema files for every documented `--json` record and every table of the results store.

The keys come from `tests/cli_contract.py` (the contract the command tests hold each command
to); the store's columns, their types and whether they may be NULL come from a store created
by this version (`PRAGMA table_info`). The files live in `docs/reference/schemas/`; a test
checks that they are what this module writes, so regenerate them after changing either:

    PYTHONPATH=. python docs/_ext/json_schemas.py

As a Sphinx extension it appends to the page `reference/json` one section per record and per
table, naming every key.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "reference" / "schemas"
PAGE = "reference/json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SQL_TYPES = {"INTEGER": "integer", "REAL": "number", "TEXT": "string"}


def _contract() -> Any:
    spec = importlib.util.spec_from_file_location(
        "cli_contract", ROOT / "tests" / "cli_contract.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def file_name(what: str) -> str:
    """`reduce --to cnf --json` -> `reduce-to-cnf.schema.json`."""
    words = re.sub(r"--json|--format|--", " ", what).replace("/", " ").replace(".", " ")
    return "-".join(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", words.lower())) + ".schema.json"


def _record_schema(what: str, keys: frozenset[str]) -> dict[str, Any]:
    return {
        "$schema": DIALECT,
        "$id": file_name(what),
        "title": f"sudoku-bench {what}",
        "description": f"The keys of `{what}`: every one is present; none other is. "
        "Types, units and nullability: see the page that describes the record.",
        "type": "object",
        "properties": {key: {} for key in sorted(keys)},
        "required": sorted(keys),
        "additionalProperties": False,
    }


def _table_columns() -> dict[str, list[tuple[str, str, bool]]]:
    """Each table's columns as (name, SQL type, may be NULL), from a store made now."""
    from sudoku_bench.harness.storing.store import open_store

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "schema.sqlite"
        open_store(path).close()
        db = sqlite3.connect(path)
        try:
            tables = [
                row[0]
                for row in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            return {
                table: [
                    (name, kind.split()[0].upper(), not notnull and not primary)
                    for _, name, kind, notnull, _, primary in db.execute(
                        f"PRAGMA table_info({table})"
                    )
                ]
                for table in tables
            }
        finally:
            db.close()


def _table_schema(table: str, columns: list[tuple[str, str, bool]]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, kind, nullable in columns:
        json_type = _SQL_TYPES.get(kind, "string")
        properties[name] = {
            "type": [json_type, "null"] if nullable else json_type,
            "x-sql-type": kind,
        }
    return {
        "$schema": DIALECT,
        "$id": f"table-{table}.schema.json",
        "title": f"sudoku-bench results store: table {table}",
        "description": f"One row of the SQLite table `{table}`, in column order.",
        "type": "object",
        "properties": properties,
        "required": [name for name, _, _ in columns],
        "additionalProperties": False,
    }


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> schema, for every documented record and every store table."""
    contract = _contract()
    out = {
        file_name(what): _record_schema(what, keys)
        for what, keys in contract.DOCUMENTED.items()
        if not what.startswith("table ")
    }
    for table, columns in _table_columns().items():
        out[f"table-{table}.schema.json"] = _table_schema(table, columns)
    return out


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def reference_markdown() -> str:
    """One section per record and table: its schema file and every key, in backticks."""
    contract = _contract()
    lines = ["## Records", ""]
    for what, keys in contract.DOCUMENTED.items():
        if what.startswith("table "):
            continue
        lines += [f"### {what}", "", f"Schema: {{download}}`schemas/{file_name(what)}`", ""]
        lines += [", ".join(f"`{key}`" for key in sorted(keys)), ""]
    lines += ["## The results store's tables", ""]
    for table, columns in _table_columns().items():
        lines += [
            f"### table {table}",
            "",
            f"Schema: {{download}}`schemas/table-{table}.schema.json`",
            "",
        ]
        lines += ["| column | SQL type | NULL |", "|---|---|---|"]
        lines += [
            f"| `{name}` | {kind} | {'yes' if nullable else 'no'} |"
            for name, kind, nullable in columns
        ]
        lines.append("")
    return "\n".join(lines)


def _append_reference(app: Any, docname: str, source: list[str]) -> None:
    if docname == PAGE:
        source[0] += "\n" + reference_markdown()


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _append_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main() -> None:
    SCHEMAS.mkdir(parents=True, exist_ok=True)
    for stale in SCHEMAS.glob("*.schema.json"):
        stale.unlink()
    for name, schema in schemas().items():
        (SCHEMAS / name).write_text(render(schema), encoding="utf-8")
    print(f"wrote {len(schemas())} schemas to {SCHEMAS}", file=sys.stderr)


if __name__ == "__main__":
    main()
