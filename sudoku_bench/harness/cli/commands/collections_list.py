"""`sudoku-bench collections`: the bundled collections with their size and source."""

from __future__ import annotations

import argparse
from typing import Any

from tabulate import tabulate

from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.puzzles.collections import BUNDLED, load


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "collections",
        help="list the bundled puzzle collections (use their names as PUZZLE arguments)",
        description="List the collections bundled with sudoku-bench: name, number of puzzles, "
        "size, how many come with a solution, summary and source (full provenance in "
        "sudoku_bench/puzzles/data/SOURCES.md).",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per collection: name, file, count, sizes, solutions, summary, source",
    )
    parser.set_defaults(run=run)


def collection_records() -> list[dict[str, Any]]:
    records = []
    for bundled in BUNDLED.values():
        entries = load(bundled.name)
        # one entry per kind of puzzle, not per rules: a jigsaw collection's puzzles each
        # have their own regions, a killer's its own cages, all "9x9 jigsaw" / "9x9 killer"
        kinds = {entry.puzzle.rules.name: entry.puzzle.rules.size for entry in entries}
        records.append(
            {
                "name": bundled.name,
                "file": bundled.file,
                "count": len(entries),
                "sizes": sorted(kinds, key=lambda name: (kinds[name], name)),
                "solutions": sum(1 for entry in entries if entry.solution is not None),
                "summary": bundled.summary,
                "source": bundled.source,
            }
        )
    return records


SIZES_SHOWN = 3


def sizes_cell(sizes: list[str]) -> str:
    """The table's size column: a mixed collection names a few of its rule sets and counts
    the rest, so one line stays readable (`--json` lists them all)."""
    if len(sizes) <= SIZES_SHOWN:
        return ", ".join(sizes)
    shown = ", ".join(sizes[: SIZES_SHOWN - 1])
    return f"{shown} and {len(sizes) - SIZES_SHOWN + 1} more rule sets"


def run(args: argparse.Namespace) -> int:
    records = collection_records()
    if args.json:
        for record in records:
            print_json(record)
        return 0
    rows = [
        [
            r["name"],
            r["count"],
            sizes_cell(r["sizes"]),
            r["solutions"] or "",
            r["summary"],
            r["source"],
        ]
        for r in records
    ]
    print(
        tabulate(
            rows,
            headers=["name", "puzzles", "size", "solutions", "summary", "source"],
            colalign=("left", "right", "left", "right", "left", "left"),
        )
    )
    return 0
