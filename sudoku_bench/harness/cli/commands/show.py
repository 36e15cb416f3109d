"""`sudoku-bench show PUZZLE...`: a boxed picture of each puzzle (and its solution, state)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, alphabet_of, read_inputs
from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.puzzles.drawing import grid_png, grid_svg
from sudoku_bench.puzzles.formats import PuzzleEntry
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.picture import marks
from sudoku_bench.puzzles.symbols import Alphabet


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "show",
        help="print each puzzle as a boxed picture",
        description="Print each puzzle as a boxed picture, with its id, rules and number "
        "of givens; --solution adds the solution the file gives, if any. A jigsaw is drawn "
        "with its region borders; extra regions, odd and even cells and killer cages are "
        "drawn below it (cages with a legend of their sums).",
        epilog="examples:\n  sudoku-bench show seeds --solution\n  sudoku-bench show 16x16 "
        "--to-alphabet hex\n  sudoku-bench show puzzle.json --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(parser)
    parser.add_argument(
        "--solution", action="store_true", help="also show the solution the file gives"
    )
    parser.add_argument(
        "--to-alphabet", metavar="NAME", help="the alphabet to draw in (default: --alphabet)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle: id, geometry, rules, givens, puzzle, picture, "
        "solution, metadata",
    )
    parser.add_argument(
        "--svg",
        type=Path,
        metavar="DIR",
        help="also write each puzzle's picture (regions, cages, lines, dots, outside clues: "
        "each kind's marks) as DIR/<number>.svg",
    )
    parser.add_argument(
        "--png",
        type=Path,
        metavar="DIR",
        help="also write each puzzle's picture as DIR/<number>.png (needs cairosvg: pip "
        "install 'sudoku-bench[pictures]')",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    alphabet = alphabet_of(args.to_alphabet or args.alphabet)
    entries = read_inputs(args)
    write_pictures(entries, args.svg, args.png)
    for number, entry in enumerate(entries):
        if args.json:
            print_json(show_record(entry, alphabet))
            continue
        if number:
            print()
        print(describe(entry, alphabet, with_solution=args.solution))
    return 0


def write_pictures(entries: Sequence[PuzzleEntry], svg: Path | None, png: Path | None) -> None:
    """Each puzzle's picture as DIR/<number>.svg and .png (numbered from 1 in input order);
    PNGs are all rendered before any is written, so a missing cairosvg writes nothing."""
    if png is not None:
        rendered = [grid_png(entry.puzzle) for entry in entries]
        png.mkdir(parents=True, exist_ok=True)
        for number, data in enumerate(rendered, 1):
            (png / f"{number}.png").write_bytes(data)
    if svg is not None:
        svg.mkdir(parents=True, exist_ok=True)
        for number, entry in enumerate(entries, 1):
            (svg / f"{number}.svg").write_text(grid_svg(entry.puzzle), encoding="utf-8")


def describe(entry: PuzzleEntry, alphabet: Alphabet, *, with_solution: bool = False) -> str:
    """The id line and the picture(s) of one entry."""
    puzzle = entry.puzzle
    title = entry.metadata.get("title") or entry.metadata.get("description")
    header = f"{entry.id}  {puzzle.rules}, {puzzle.givens} givens" + (
        f"  ({title})" if title else ""
    )
    parts = [header, picture(puzzle, alphabet)]
    if entry.state is not None:
        marked = sum(1 for digits in entry.state.candidates if digits)
        parts += [
            f"player state: {_cells(entry.state.values.givens - puzzle.givens)} filled, "
            f"{_cells(marked)} with pencil marks",
            entry.state.values.picture(alphabet),
        ]
    if with_solution:
        if entry.solution is None:
            parts.append("(no solution in the file)")
        else:
            parts += ["solution:", entry.solution.picture(alphabet)]
    return "\n".join(parts)


def picture(puzzle: Grid, alphabet: Alphabet) -> str:
    """The puzzle's picture (a jigsaw with its region borders), then what its rules mark on
    cells: extra regions, odd and even cells, cages with their sums."""
    drawn = puzzle.picture(alphabet)
    overlays = marks(puzzle.rules)
    return f"{drawn}\n{overlays}" if overlays else drawn


def _cells(count: int) -> str:
    return "1 cell" if count == 1 else f"{count} cells"


def show_record(entry: PuzzleEntry, alphabet: Alphabet) -> dict[str, Any]:
    """The `show --json` object: id, geometry, rules, givens, puzzle, picture, solution,
    metadata."""
    solution = entry.solution
    return {
        "id": entry.id,
        "geometry": entry.puzzle.rules.name,
        "rules": entry.puzzle.rules.to_json(),
        "givens": entry.puzzle.givens,
        "puzzle": entry.puzzle.to_line(alphabet),
        "picture": picture(entry.puzzle, alphabet),
        "solution": solution.to_line(alphabet) if solution is not None else None,
        "metadata": entry.metadata,
    }
