"""Sphinx configuration: Markdown pages (MyST), the API reference from docstrings (autodoc) and the CLI reference from the argparse parser (`_ext/cli_reference.py`).

Built strictly by `make docs` (`sphinx-build -W --keep-going -n`)."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE / "_ext")]

project = "sudoku-bench"
author = "the sudoku-bench authors"
copyright = "the sudoku-bench authors"
try:
    release = metadata.version("sudoku-bench")
except metadata.PackageNotFoundError:
    release = "unknown"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "cli_reference",
    "json_schemas",
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]
# Pages link to the JSON Schema files beside them, copied to the site as downloads.
myst_url_schemes = ["http", "https", "mailto"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
# No napoleon: the docstrings are prose (no Args:/Returns: sections anywhere), and napoleon
# would read a property's first sentence "Boxes, a box shape: ..." as "type: description".

# The strict build (-n) resolves every cross-reference; names from outside the project
# (the standard library's and third-party types in signatures) have no target here, since
# intersphinx needs the network.
nitpick_ignore_regex = [
    (r"py:.*", r"(collections\.abc|typing|types|enum|pathlib|argparse|sqlite3|io|os|re)\..*"),
    (r"py:.*", r"(numpy|pandas|matplotlib|ortools|sympy|pysat|dask|distributed)(\..*)?"),
    (r"py:.*", r"(str|int|float|bool|bytes|object|None|dict|list|tuple|set|frozenset|type)"),
    (r"py:.*", r"(abc\.ABC|Path|Store)"),
    (r"py:.*", r"(random\.)?Random"),  # the generator hooks' random source
    # type variables and classes below the documented surface (the modules that define them
    # are not part of the reference)
    (r"py:.*", r"(sudoku_bench\.)?(solvers|reductions)\.base\.(ModelT|AnswerT|Verdict)"),
    (r"py:.*", r"((sudoku_bench\.)?puzzles\.constraints\.base\.)?E"),
    (r"py:.*", r"comparing\.Ranking"),  # `compare`'s ranking, imported as `comparing`
]

html_theme = "alabaster"
html_title = f"sudoku-bench {release}"
html_static_path: list[str] = []
