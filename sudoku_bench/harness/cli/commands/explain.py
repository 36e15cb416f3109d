"""`sudoku-bench explain PUZZLE`: the logic solver's steps in words, then the grid it reached."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from sudoku_bench.harness.cli.arguments import positive_float
from sudoku_bench.harness.cli.commands.show import picture
from sudoku_bench.harness.cli.inputs import add_puzzle_arguments, read_inputs
from sudoku_bench.harness.cli.output import print_json, result_record
from sudoku_bench.harness.generating.rating import rating_of
from sudoku_bench.harness.running.solving import Answer, solve_all
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT
from sudoku_bench.solvers.base import Result, Status
from sudoku_bench.solvers.engines.logic import TECHNIQUES, LogicSolver
from sudoku_bench.solvers.engines.logic.state import SYMBOLS
from sudoku_bench.solvers.registry import Backend, get


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="solve with human techniques and show every step in words",
        description="Solve each puzzle with the logic back-end (pencil marks and human "
        "techniques, the easiest that applies first) and print every step, e.g. "
        "'r4c5 = 8: hidden single in box 5', then the boxed grid. When no technique applies "
        "it stops and shows the candidates left; it never guesses.",
    )
    add_puzzle_arguments(parser)
    parser.add_argument(
        "--techniques",
        metavar="KEYS",
        help="use only these techniques (comma-separated keys: "
        + ", ".join(t.key for t in TECHNIQUES if t.default)
        + "; with --uniqueness also "
        + ", ".join(t.key for t in TECHNIQUES if not t.default)
        + ")",
    )
    parser.add_argument("--timeout", type=positive_float, metavar="S", help="stop after S seconds")
    add_uniqueness_argument(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle: the solve record plus steps, log, rating, "
        "partial and candidates",
    )
    parser.set_defaults(run=run)


def add_uniqueness_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--uniqueness",
        action="store_true",
        help="also use unique rectangles and BUG+1, which assume the puzzle has one solution",
    )


def techniques_of(args: argparse.Namespace) -> list[str] | None:
    if not args.techniques:
        return None
    return [key.strip() for key in args.techniques.split(",") if key.strip()]


def logic_backend(args: argparse.Namespace) -> Backend:
    """The logic back-end with the chosen techniques (checked here: a bad key is a user error,
    not an error in every worker)."""
    techniques = techniques_of(args)
    uniqueness = getattr(args, "uniqueness", False)
    try:
        LogicSolver(techniques, uniqueness=uniqueness)
    except ValueError as error:
        raise SudokuBenchError(str(error)) from None
    backend = get("logic")
    options = dict(backend.options)
    if techniques is not None:
        options["techniques"] = techniques
    if uniqueness:
        options["uniqueness"] = True
    return replace(backend, options=options)


def run(args: argparse.Namespace) -> int:
    entries = read_inputs(args)
    shown = 0

    def show(answer: Answer) -> None:
        nonlocal shown
        explain(answer, args.json, first=not shown)
        shown += 1

    solve_all(entries, [logic_backend(args)], show, limit=1, timeout=args.timeout, keep_result=True)
    return 0


def explain(answer: Answer, as_json: bool, *, first: bool) -> None:
    entry, result = answer.entry, answer.result
    answer.report_failure()
    rating = rating_of(result)
    if as_json:
        record = result_record(entry, result)
        record |= rating.record()
        record["log"] = result.details.get("log", [])
        record["step_details"] = result.details.get("steps", [])
        record["partial"] = result.partial.to_line() if result.partial else None
        record["candidates"] = result.details.get("candidates")
        print_json(record)
        return
    if not first:
        print()
    print(f"{entry.id} ({entry.puzzle.rules}, {entry.puzzle.givens} givens)")
    print(picture(entry.puzzle, DEFAULT))  # with what the rules mark: cages, parity, regions
    print()
    for line in result.details.get("log", []):
        print(line)
    print()
    print(ending(result, rating.label, rating.hardest))
    grid = result.solutions[0] if result.solutions else result.partial
    if grid is not None:
        print(grid.picture())
    marks = result.details.get("candidates")
    if marks:
        print()
        print("candidates left:")
        print(candidates_picture(entry.puzzle.rules, grid.values if grid else (), marks))


def ending(result: Result, label: str, hardest: str | None) -> str:
    steps = len(result.details.get("log", []))
    if result.status is Status.SOLVED:
        return f"solved in {steps} steps; hardest technique: {hardest or 'none'}; rating: {label}"
    if result.status is Status.NO_SOLUTION:
        return f"{result.message} (after {steps} steps)"
    if result.status is Status.TIMEOUT:
        return f"timed out after {steps} steps; the grid so far:"
    if result.status in (Status.ERROR, Status.UNSUPPORTED):
        return f"{result.status.value}: {result.message}"
    return f"gave up after {steps} steps: {result.message}; the grid so far:"


def _symbol(value: int, size: int) -> str:
    if not value:
        return "."
    return SYMBOLS[value - 1] if size <= len(SYMBOLS) else str(value)


def candidates_picture(rules: Rules, values: tuple[int, ...] | Any, marks: dict[str, str]) -> str:
    """The pencil marks as a boxed grid: each empty cell shows its candidates."""
    texts = [
        marks.get(rules.cell_name(cell)) or _symbol(values[cell], rules.size)
        for cell in rules.cells
    ]
    width = max(len(text) for text in texts)
    lines = []
    for row in range(rules.size):
        if row and row % rules.box_rows == 0:
            stack = "-" * ((width + 1) * rules.box_cols - 1)
            lines.append("-+-".join([stack] * (rules.size // rules.box_cols)))
        cells = [texts[rules.cell(row, col)].ljust(width) for col in range(rules.size)]
        stacks = [
            " ".join(cells[c : c + rules.box_cols]) for c in range(0, rules.size, rules.box_cols)
        ]
        lines.append(" | ".join(stacks).rstrip())
    return "\n".join(lines)
