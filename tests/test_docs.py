"""The documentation site's generated references cover the whole public contract: every
option of every sub-command is in the CLI reference, every documented `--json` key and store
column is in the JSON reference, and the committed JSON Schema files are the ones the
generator writes now. (CI builds the site itself strictly: `make docs`.)"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sudoku_bench.harness.cli import build_parser
from tests.cli_contract import DOCUMENTED, STORE_TABLES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _extension(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, DOCS / "_ext" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


cli_reference = _extension("cli_reference")
json_schemas = _extension("json_schemas")


def _commands() -> dict[str, argparse.ArgumentParser]:
    (subparsers,) = (
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    return dict(subparsers.choices)


def test_the_cli_reference_has_every_option_of_every_command() -> None:
    text = cli_reference.cli_markdown()
    sections = dict(re.findall(r"^## sudoku-bench (\S+)\n(.*?)(?=^## |\Z)", text, re.M | re.S))
    commands = _commands()
    assert set(sections) == set(commands)
    missing = {
        name: [
            option
            for action in parser._actions
            for option in action.option_strings
            if action.help != argparse.SUPPRESS and f"`{option}`" not in sections[name]
        ]
        for name, parser in commands.items()
    }
    assert {name: options for name, options in missing.items() if options} == {}


def test_the_cli_reference_names_each_choice() -> None:
    text = cli_reference.cli_markdown()
    assert "`parquet`" in text and "`html`" in text  # report --format's choices


def test_the_json_reference_names_every_documented_key() -> None:
    text = json_schemas.reference_markdown()
    missing = {
        what: sorted(key for key in keys if f"`{key}`" not in text)
        for what, keys in DOCUMENTED.items()
    }
    assert {what: keys for what, keys in missing.items() if keys} == {}


def test_the_committed_schemas_are_the_generated_ones() -> None:
    expected = json_schemas.schemas()
    folder = DOCS / "reference" / "schemas"
    committed = {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.json")}
    regenerate = "regenerate them: PYTHONPATH=. python docs/_ext/json_schemas.py"
    assert set(committed) == set(expected), regenerate
    for name, schema in expected.items():
        assert committed[name] == json_schemas.render(schema), f"{name}: {regenerate}"


def test_each_schema_lists_exactly_its_contract() -> None:
    folder = DOCS / "reference" / "schemas"
    for what, keys in DOCUMENTED.items():
        table = what.removeprefix("table ")
        name = f"table-{table}.schema.json" if table != what else json_schemas.file_name(what)
        schema = json.loads((folder / name).read_text(encoding="utf-8"))
        assert set(schema["properties"]) == set(keys) == set(schema["required"]), what
        assert schema["additionalProperties"] is False
    for table, columns in STORE_TABLES.items():
        schema = json.loads((folder / f"table-{table}.schema.json").read_text(encoding="utf-8"))
        assert list(schema["properties"]) == list(columns)  # in the table's column order


@pytest.mark.parametrize("section", ["howto", "methods", "measurements", "tutorials", "reference"])
def test_each_section_lists_its_pages_by_glob(section: str) -> None:
    """Pages added to a section join the site without editing its index."""
    index = (DOCS / section / "index.md").read_text(encoding="utf-8")
    assert re.search(r"```\{toctree\}\n(:[^\n]*\n)*:glob:\n(:[^\n]*\n)*\n\*\n```", index)


def test_every_page_starts_with_its_title() -> None:
    for page in DOCS.rglob("*.md"):
        assert page.read_text(encoding="utf-8").startswith("# "), page


def test_the_readme_is_one_screen_and_a_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 100
    first_screen = "\n".join(readme.splitlines()[:25])
    assert "make bench" in first_screen and "make test" in first_screen
