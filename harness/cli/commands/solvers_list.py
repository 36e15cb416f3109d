"""`sudoku-bench solvers`: every back-end with its availability and library version."""

from __future__ import annotations

import argparse
from typing import Any

from tabulate import tabulate

from harness.cli.output import print_json
from puzzles.constraints import (
    AntiKing,
    AntiKnight,
    Cage,
    Constraint,
    ExtraRegion,
    NonConsecutive,
    Parity,
)
from puzzles.rules import RuleKind
from solvers.base import Solver
from solvers.registry import backends, select


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solvers",
        help="list the back-ends, whether each is installed, and its library version",
        description="List every registered back-end: name, aliases, availability, version.",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per back-end")
    parser.add_argument(
        "--rules",
        action="store_true",
        help="which kinds of rule each installed back-end of -s all accepts (its own `accepts`)",
    )
    parser.add_argument(
        "--format", choices=("table", "md"), default="table", help="with --rules (table)"
    )
    parser.set_defaults(run=run)


# The constraint kinds each column of the table stands for (irregular regions are the
# shape's, which a back-end with an encoder table always takes).
_COLUMN_KINDS: dict[RuleKind, tuple[type[Constraint], ...]] = {
    RuleKind.REGIONS: (),
    RuleKind.EXTRA_UNITS: (ExtraRegion,),
    RuleKind.DISTINCT_PAIRS: (AntiKnight, AntiKing),
    RuleKind.NONCONSECUTIVE: (NonConsecutive,),
    RuleKind.PARITY: (Parity,),
    RuleKind.CAGES: (Cage,),
}


def _declares(solver_class: type[Solver[Any]], kind: RuleKind) -> bool:
    """Whether a back-end takes a column's kind: from its encoder table where it has one,
    else from its declared `rule_kinds`."""
    if solver_class.encoders is not None:
        return all(solver_class.encoders.encodes(each) for each in _COLUMN_KINDS[kind])
    return kind in solver_class.rule_kinds


def rules_table(style: str = "simple") -> str:
    """Back-end x rule kind, from each back-end's encoder table or declared `rule_kinds`
    (the README's table)."""
    kinds = list(RuleKind)
    rows = [
        [
            backend.name,
            *("yes" if _declares(backend.solver_class(), kind) else "-" for kind in kinds),
        ]
        for backend in select("all")
    ]
    return tabulate(rows, headers=["back-end", *kinds], tablefmt=style)


def run(args: argparse.Namespace) -> int:
    if args.rules:
        print(rules_table("github" if args.format == "md" else "simple"))
        return 0
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
