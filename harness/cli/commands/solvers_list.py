"""`sudoku-bench solvers`: every back-end with its availability and library version."""

from __future__ import annotations

import argparse
from typing import Any

from tabulate import tabulate

from harness.cli.output import print_json
from solvers.registry import backends


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solvers",
        help="list the back-ends, whether each is installed, and its library version",
        description="List every registered back-end: name, aliases, availability, version.",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per back-end")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rows = []
    for backend in backends():
        available = backend.available()
        record = {
            "name": backend.name,
            "aliases": list(backend.aliases),
            "available": available,
            "library": backend.distribution,
            "version": backend.version() if available else None,
            "in_all": backend.in_all,
            "summary": backend.summary,
        }
        if args.json:
            print_json(record)
        else:
            status = "yes" if available else f"no (pip install 'sudoku-bench[{backend.extra}]')"
            rows.append(
                [
                    backend.name,
                    ", ".join(backend.aliases),
                    status,
                    f"{backend.distribution} {record['version'] or ''}".strip(),
                    backend.summary,
                ]
            )
    if not args.json:
        print(tabulate(rows, headers=["solver", "aliases", "available", "library", "method"]))
    return 0
