"""`sudoku-bench generate`: unique puzzles of a chosen size and difficulty, from a seed."""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path
from typing import Any

from sudoku_bench.harness.cli.arguments import int64, positive_int
from sudoku_bench.harness.cli.commands import generate_clues as clues
from sudoku_bench.harness.cli.inputs import geometry_argument
from sudoku_bench.harness.cli.output import write_output
from sudoku_bench.harness.generating.clues import generatable_kinds
from sudoku_bench.harness.generating.generator import (
    DIFFICULTIES,
    STRATEGIES,
    Generated,
    Generator,
    solution_counter,
    target_empty,
)
from sudoku_bench.harness.generating.variants import VARIANTS
from sudoku_bench.puzzles.errors import RulesError, SudokuBenchError
from sudoku_bench.puzzles.formats import PuzzleEntry, format_of_path, write_file
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="make unique puzzles: random full grid, cells removed while one solution remains",
        description="Generate puzzles as the source documents describe: a random full grid, "
        "then cells removed in random order while the puzzle keeps exactly one solution "
        "(counted by a fast back-end); or, with --strategy add, a sparse random set of clues "
        "with clues added until one solution is left. Where removal stalls, a local search "
        "(add one clue, remove two; swap one for another) goes on. Targets: easy 40, medium "
        "50, hard and extreme 60 empty cells on a 9x9, scaled by N²/81 for other sizes; the "
        "rating (see `rate`) must match the difficulty (hard accepts hard or expert, extreme "
        "needs forcing chains). When a grid cannot reach its target the output says how many "
        "empty cells it reached. The same seed gives the same puzzles.",
    )
    parser.add_argument("--size", type=int, metavar="N", help="side of the grid (9)")
    parser.add_argument(
        "--geometry",
        type=geometry_argument,
        metavar="GEOM",
        help="instead of --size: e.g. 6x6:3x2, 9x9-x (Sudoku-X)",
    )
    parser.add_argument("-x", "--sudoku-x", action="store_true", help="Sudoku-X (both diagonals)")
    parser.add_argument(
        "--variant",
        choices=tuple(VARIANTS),
        default="classic",
        help="the rules of the puzzles: "
        + "; ".join(f"{v.name}: {v.summary}" for v in VARIANTS.values())
        + " (default classic). Variant puzzles carry their rules: write them with "
        "-o FILE.jsonl (or .json)",
    )
    parser.add_argument(
        "--kind",
        action="append",
        metavar="KIND",
        help="make puzzles of this kind's clues (thermometer, killer_cage, parity, ...; "
        "repeat it or give several with commas to mix kinds): a random full grid, its clues of "
        "the kind added until one solution is left (counted by the first back-end that accepts "
        "the kind: cpsat first), then the clues and givens it does not need dropped; givens "
        "only where the clues do not suffice. The kinds that can: sudoku-bench generate "
        "--kind list",
    )
    parser.add_argument(
        "--setter",
        action="store_true",
        help="setter-style puzzles: 2-4 kinds mixed per puzzle (the --kind ones, or drawn at "
        "random from every kind that can be generated), few or no givens",
    )
    parser.add_argument(
        "--difficulty",
        choices=DIFFICULTIES,
        default=None,
        help="the rating the puzzles must have (easy; not with --kind or --setter)",
    )
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="remove",
        help="remove: cells removed from a full grid (the source documents'); add: clues "
        "added to a sparse random set until unique, then unneeded ones removed (remove)",
    )
    parser.add_argument(
        "--count", type=positive_int, default=1, metavar="K", help="how many puzzles (1)"
    )
    parser.add_argument("--seed", type=int64, metavar="S", help="random seed (default: random)")
    parser.add_argument(
        "--symmetric", action="store_true", help="keep 180° rotational symmetry of the givens"
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="remove until no given can go (ignores the target; with --symmetric, no "
        "symmetric pair can go)",
    )
    parser.add_argument(
        "--attempts",
        type=positive_int,
        default=50,
        metavar="A",
        help="full grids to try per puzzle for the difficulty (50)",
    )
    parser.add_argument(
        "--counter",
        default=None,
        metavar="SOLVER",
        help="back-end that counts solutions (propagating; with --kind or --setter: "
        "sat-incremental, one SAT formula per grid asked 'another solution?' under "
        "assumptions, its final puzzle counted again by the first of cpsat, sat, "
        "propagating, milp, python-constraint, dlx, backtracking that is installed and "
        "accepts the kinds; naming one of those counts every question with it instead)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write the puzzles, one per line")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle: id, puzzle, solution, geometry, difficulty, seed, "
        "symmetric, minimal, empty, target, rating, hardest, steps, score, techniques, "
        "estimate, hard_steps, attempts, note, strategy, seconds (with --kind or --setter: id, "
        "puzzle, solution, geometry, rules, kinds, setter, clues, givens, counted_by, seed, "
        "attempts, seconds)",
    )
    parser.set_defaults(run=run)


def geometry_of(args: argparse.Namespace) -> Rules:
    if args.size is not None and args.geometry is not None and args.size != args.geometry.size:
        raise SudokuBenchError(
            f"--size {args.size} and --geometry {args.geometry.name} disagree: give one of them"
        )
    if args.size is None:
        args.size = 9 if args.geometry is None else args.geometry.size
    size = args.size if args.geometry is None else args.geometry.size
    if size > len(DEFAULT.symbols):  # --size 99999 built tables until memory ran out
        raise RulesError(
            f"generate writes puzzles in the default alphabet, which has "
            f"{len(DEFAULT.symbols)} symbols: sizes up to {len(DEFAULT.symbols)}, not {size}"
        )
    if args.geometry is not None:
        rules: Rules = args.geometry
        return Rules(rules.size, rules.box_rows, rules.box_cols, args.sudoku_x or rules.diagonals)
    return Rules.of_size(args.size, diagonals=args.sudoku_x)


def run(args: argparse.Namespace) -> int:
    if args.kind and args.kind == ["list"]:
        print("\n".join(generatable_kinds()))
        return 0
    if args.kind or args.setter:
        return clues.run(args)
    args.difficulty = args.difficulty or "easy"
    args.counter = args.counter or "propagating"
    rules = geometry_of(args)
    if args.seed is None:  # a random seed, reported, so that any run can be repeated
        args.seed = random.SystemRandom().randrange(2**31)
    generator = Generator(
        rules,
        args.difficulty,
        seed=args.seed,
        symmetric=args.symmetric,
        minimal=args.minimal,
        counter=solution_counter(args.counter),
        attempts=args.attempts,
        strategy=args.strategy,
        variant=VARIANTS[args.variant],
    )
    if (
        args.variant != "classic"
        and args.output
        and format_of_path(args.output).name
        not in (
            "json",
            "jsonl",
        )
    ):
        raise SudokuBenchError(
            f"{args.output}: {args.variant} puzzles carry their rules, which only the JSON "
            "formats hold: write them to a .jsonl or .json file"
        )
    return clues.make_and_show(
        generator.one, rules, args, record, row, write, summary,
        ["#", "puzzle", "empty", "rating", "hardest", "tries", "note"],
    )  # fmt: skip


def record(number: int, made: Generated, rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    return {
        "id": f"generated:{number}",
        "puzzle": made.puzzle.to_line(),
        "solution": made.solution.to_line(),
        "geometry": rules.name,
        "variant": args.variant,
        "rules": made.puzzle.rules.to_json(),
        "difficulty": made.difficulty,
        "seed": args.seed,
        "symmetric": args.symmetric,
        "minimal": args.minimal,
        "empty": made.empty,
        "target": made.target,
        **made.rating.record(),
        "attempts": made.attempts,
        "note": made.note,
        "strategy": made.strategy,
        "seconds": round(made.seconds, 3),
    }


def row(number: int, made: Generated) -> list[Any]:
    return [
        number,
        made.puzzle.to_line(),
        made.empty,
        made.rating.label,
        made.rating.hardest or "-",
        made.attempts,
        made.note,
    ]


def write(path: Path, made: list[Generated], rules: Rules, args: argparse.Namespace) -> None:
    header = (
        f"# sudoku-bench generate --geometry {rules.name} --difficulty {args.difficulty} "
        f"--count {args.count} --seed {args.seed}"
        + (f" --variant {args.variant}" if args.variant != "classic" else "")
        + (" --symmetric" if args.symmetric else "")
        + (" --minimal" if args.minimal else "")
        + (f" --strategy {args.strategy}" if args.strategy != "remove" else "")
        + (f"  (interrupted: the first {len(made)})" if len(made) < args.count else "")
    )
    if format_of_path(path).name in ("json", "jsonl"):
        entries = [
            PuzzleEntry(
                f"generated:{number}",
                item.puzzle,
                item.solution,
                {"command": header.removeprefix("# "), **_rating_metadata(item)},
            )
            for number, item in enumerate(made, 1)
        ]
        write_file(entries, path)
        return
    lines = [header]
    for item in made:
        lines.append(
            f"{item.puzzle.to_line()}  // {item.empty} empty, {item.rating.label}"
            + (f" ({item.rating.hardest})" if item.rating.hardest else "")
            + (f"; {item.note}" if item.note else "")
        )
    write_output(path, "\n".join(lines) + "\n")


def _rating_metadata(item: Generated) -> dict[str, Any]:
    return {
        "empty": item.empty,
        "rating": item.rating.label,
        "hardest": item.rating.hardest,
        **({"note": item.note} if item.note else {}),
    }


def summary(made: list[Generated], rules: Rules, args: argparse.Namespace) -> str:
    target = target_empty(rules.size, args.difficulty)
    empties = sorted(item.empty for item in made)
    ratings = Counter(item.rating.label for item in made)
    short = sum(1 for item in made if not item.minimal and item.empty < target)
    text = (
        f"{len(made)} {rules} {args.difficulty} puzzles: empty cells {empties[0]}-{empties[-1]} "
        f"(mean {sum(empties) / len(empties):.1f}, target {'minimal' if args.minimal else target}); "
        f"ratings " + ", ".join(f"{label} {n}" for label, n in ratings.most_common())
    )
    if short:
        text += f"; {short} could not reach the target (no further cell could go)"
    text += f"; seed {args.seed}"
    return text + (f"; written to {args.output}" if args.output else "")
