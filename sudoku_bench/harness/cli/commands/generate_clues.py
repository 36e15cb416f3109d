"""`sudoku-bench generate --kind K` / `--setter`: unique puzzles made of a kind's clues."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tabulate import tabulate

from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.generating.clues import ClueGenerator, CluePuzzle
from sudoku_bench.harness.running.progress import TaskProgress
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.formats import PuzzleEntry, format_of_path, write_file
from sudoku_bench.puzzles.rules import Rules

# what the ordinary generator's options mean has no counterpart here
_NOT_WITH_KINDS = (
    ("difficulty", None, "--difficulty"),
    ("variant", "classic", "--variant"),
    ("strategy", "remove", "--strategy"),
    ("symmetric", False, "--symmetric"),
    ("minimal", False, "--minimal"),
)


def kinds_of(args: argparse.Namespace) -> list[str]:
    """The kinds asked for: each --kind, commas splitting several."""
    return [name for value in args.kind or () for name in value.split(",") if name.strip()]


def run(args: argparse.Namespace) -> int:
    from sudoku_bench.harness.cli.commands.generate import geometry_of

    for key, default, option in _NOT_WITH_KINDS:
        if getattr(args, key) != default:
            raise SudokuBenchError(
                f"{option} is for the givens-only generator: --kind and --setter puzzles are "
                "unique by their clues and keep as few givens as they need"
            )
    if args.output and format_of_path(args.output).name not in ("json", "jsonl"):
        raise SudokuBenchError(
            f"{args.output}: puzzles with clues carry their rules, which only the JSON "
            "formats hold: write them to a .jsonl or .json file"
        )
    rules = geometry_of(args)
    if args.seed is None:  # a random seed, reported, so that any run can be repeated
        args.seed = random.SystemRandom().randrange(2**31)
    generator = ClueGenerator(
        rules,
        kinds_of(args),
        seed=args.seed,
        setter=args.setter,
        counter=args.counter,
        attempts=args.attempts,
    )
    return make_and_show(
        generator.one, rules, args, record, row, write, summary,
        ["#", "kinds", "clues", "givens", "puzzle"],
    )  # fmt: skip


Made = TypeVar("Made")


def make_and_show(
    one: Callable[[], Made],
    rules: Rules,
    args: argparse.Namespace,
    record: Callable[[int, Made, Rules, argparse.Namespace], dict[str, Any]],
    row: Callable[[int, Made], list[Any]],
    write: Callable[[Path, list[Made], Rules, argparse.Namespace], None],
    summary: Callable[[list[Made], Rules, argparse.Namespace], str],
    headers: list[str],
) -> int:
    """`generate`'s loop, for either generator: `args.count` puzzles from `one`, each a
    `--json` record as it comes (or a table row), then the file (`-o`) and the summary; on
    Ctrl-C the puzzles made so far are written before the interrupt goes on."""
    made: list[Made] = []
    rows = []
    with TaskProgress(
        args.count, "generate", enabled=args.count > 1 and sys.stderr.isatty()
    ) as bar:
        try:
            for number in range(1, args.count + 1):
                puzzle = one()
                made.append(puzzle)
                bar.advance()
                if args.json:
                    print_json(record(number, puzzle, rules, args))
                elif not args.output:
                    rows.append(row(number, puzzle))
        except KeyboardInterrupt:  # keep what was made: minutes of work for a long --count
            if args.output and made:
                write(Path(args.output), made, rules, args)
                print(
                    f"\ninterrupted: wrote the {len(made)} of {args.count} puzzles made so far "
                    f"to {args.output}",
                    file=sys.stderr,
                )
            raise
    if args.output:
        write(Path(args.output), made, rules, args)
    if rows:
        print(tabulate(rows, headers=headers))
    print(summary(made, rules, args), file=sys.stderr if args.json else sys.stdout)
    return 0


def command_line(rules: Rules, args: argparse.Namespace, made: int | None = None) -> str:
    """The command that makes these puzzles again."""
    kinds = kinds_of(args)
    return (
        f"sudoku-bench generate --geometry {rules.name}"
        + (f" --kind {','.join(kinds)}" if kinds else "")
        + (" --setter" if args.setter else "")
        + f" --count {args.count} --seed {args.seed}"
        + (f" --counter {args.counter}" if args.counter else "")
        + (f"  (interrupted: the first {made})" if made is not None and made < args.count else "")
    )


def record(number: int, made: CluePuzzle, rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    return {
        "id": f"generated:{number}",
        "puzzle": made.puzzle.to_line(),
        "solution": made.solution.to_line(),
        "geometry": rules.name,
        "rules": made.puzzle.rules.to_json(),
        "kinds": list(made.kinds),
        "setter": args.setter,
        "clues": made.clues,
        "givens": made.givens,
        "counted_by": list(made.counted_by),
        "seed": args.seed,
        "attempts": made.attempts,
        "seconds": round(made.seconds, 3),
    }


def row(number: int, made: CluePuzzle) -> list[Any]:
    return [number, "+".join(made.kinds), made.clues, made.givens, made.puzzle.to_line()]


def write(path: Path, made: list[CluePuzzle], rules: Rules, args: argparse.Namespace) -> None:
    command = command_line(rules, args, len(made))
    entries = [
        PuzzleEntry(
            f"generated:{number}",
            item.puzzle,
            item.solution,
            {
                "command": command,
                "kinds": list(item.kinds),
                "clues": item.clues,
                "givens": item.givens,
                "counted_by": list(item.counted_by),
            },
        )
        for number, item in enumerate(made, 1)
    ]
    write_file(entries, path)


def summary(made: list[CluePuzzle], rules: Rules, args: argparse.Namespace) -> str:
    givens = sorted(item.givens for item in made)
    mixes = Counter("+".join(item.kinds) for item in made)
    text = (
        f"{len(made)} {rules.name} puzzles of "
        + ", ".join(f"{mix} {n}" for mix, n in mixes.most_common())
        + f": givens {givens[0]}-{givens[-1]} (mean {sum(givens) / len(givens):.1f}); "
        f"seed {args.seed}"
    )
    return text + (f"; written to {args.output}" if args.output else "")
