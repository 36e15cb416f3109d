"""The CLI reference, written from `sudoku_bench.harness.cli.build_parser()`: one section per sub-command
with its usage, description and every option, so the reference cannot drift from the parser.

`cli_markdown()` renders it as Markdown (the test of the reference reads that); as a Sphinx
extension, the page `reference/cli` gets it appended to its source when it is read.
"""

from __future__ import annotations

import argparse
from typing import Any

PAGE = "reference/cli"


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.items())
    return []


def _option_line(action: argparse.Action) -> str:
    names = (
        ", ".join(f"`{name}`" for name in action.option_strings)
        or f"`{action.metavar or action.dest}`"
    )
    if action.option_strings and action.nargs != 0:
        metavar = action.metavar or action.dest.upper()
        if isinstance(metavar, tuple):
            metavar = " ".join(metavar)
        names += f" *{metavar}*"
    text = (action.help or "").replace("%(default)s", str(action.default)).replace("%%", "%")
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        text += " (one of: " + ", ".join(f"`{choice}`" for choice in action.choices) + ")"
    return f"- {names}: {' '.join(text.split())}"


def _fenced(text: str) -> list[str]:
    return ["```text", text.rstrip(), "```", ""]


def _prose(text: str) -> list[str]:
    """A description as paragraphs; an indented block (examples) stays preformatted."""
    out: list[str] = []
    for block in text.strip().split("\n\n"):
        if any(line.startswith("  ") for line in block.splitlines()):
            out += _fenced(block)
        else:
            out += [" ".join(block.split()), ""]
    return out


def cli_markdown() -> str:
    """The reference of every sub-command, as Markdown with one `##` section per command."""
    from sudoku_bench.harness.cli import build_parser

    parser = build_parser()
    lines: list[str] = ["## sudoku-bench", "", *_fenced(parser.format_usage())]
    if parser.description:
        lines += _prose(parser.description)
    if parser.epilog:
        lines += _fenced(parser.epilog)
    for name, sub in _subcommands(parser):
        lines += [f"## sudoku-bench {name}", "", *_fenced(sub.format_usage())]
        if sub.description:
            lines += _prose(sub.description)
        for group in sub._action_groups:
            actions = [a for a in group._group_actions if a.help != argparse.SUPPRESS]
            if not actions:
                continue
            lines += [f"**{group.title}**", ""]
            lines += [_option_line(action) for action in actions]
            lines.append("")
        if sub.epilog:
            lines += _fenced(sub.epilog)
    return "\n".join(lines) + "\n"


def _append_reference(app: Any, docname: str, source: list[str]) -> None:
    if docname == PAGE:
        source[0] += "\n" + cli_markdown()


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _append_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
