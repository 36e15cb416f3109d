"""`sudoku-bench facts --size 4|6`: the thesis's results chapter, computed for a small size."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from sudoku_bench.harness.cli.output import print_json
from sudoku_bench.harness.generating.facts_sizes import BAND_SIZES, EXPECTED_CORE_HOURS_9X9, SIZES
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.solvers.registry import create, get

if TYPE_CHECKING:  # numpy and numba are imported when the command runs, not when parsing
    from sudoku_bench.harness.generating.bands import BandCount
    from sudoku_bench.harness.generating.facts import ClassProof, Facts


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "facts",
        help="count the grids, the essentially different grids and the fewest clues (4x4, 6x6)",
        description="Count every complete grid of a small size; count the essentially different "
        "grids two ways that must agree (canonical forms, and Burnside's lemma over cell "
        "symmetries and digit relabellings); prove the fewest clues of a unique puzzle by "
        "unavoidable sets and an exhaustive hitting-set search over one grid of every class, "
        "and show a puzzle with that many clues that a back-end confirms unique. 6x6 (2x3 "
        "boxes) needs numba and takes seconds to minutes. With --bands, count the grids by "
        "Felgenhauer and Jarvis's band method instead (4, 6, and 9 as an opt-in long job).",
    )
    parser.add_argument(
        "--size",
        type=int,
        choices=sorted(set(SIZES) | set(BAND_SIZES)),
        default=4,
        help="grid side: 4 or 6 (default 4); 9 only with --bands",
    )
    parser.add_argument(
        "--bands",
        action="store_true",
        help="count the grids by the first band's classes (Felgenhauer-Jarvis): 9x9 takes "
        f"about {EXPECTED_CORE_HOURS_9X9} CPU hours",
    )
    parser.add_argument(
        "--solver",
        default="propagating",
        metavar="NAME",
        help="back-end that confirms the example puzzle unique (propagating)",
    )
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    parser.set_defaults(run=run)


def _confirm(example: Grid, solver: str) -> int | None:
    """The example's solution count (limit 2) by a back-end; None when it is not installed."""
    backend = get(solver)
    if not backend.available():
        print(f"example not confirmed: {backend.not_installed()}", file=sys.stderr)
        return None
    result = create(solver).solve(example, limit=2)
    return result.count


def _proof_record(proof: ClassProof) -> dict[str, Any]:
    return {
        "grid": "".join(map(str, proof.grid)),
        "clues": proof.clues,
        "unavoidable_sets": proof.unavoidable_sets,
        "added_sets": proof.added_sets,
        "nodes": proof.nodes,
        "checked": proof.checked,
    }


def record(found: Facts, solver: str, solutions: int | None) -> dict[str, Any]:
    from sudoku_bench.harness.generating.facts import Geometry

    example = found.minimum.example_puzzle(Geometry.of_size(found.size).rules)
    return {
        "size": found.size,
        "box": found.box,
        "grids": found.counted.grids,
        "first_row_fixed": found.counted.first_row_fixed,
        "relabellings": found.counted.relabellings,
        "classes": len(found.classes.sizes),
        "class_sizes": list(found.classes.sizes),
        "burnside": {
            "cell_maps": found.burnside.cell_maps,
            "group_order": found.burnside.group_order,
            "fixed_total": found.burnside.fixed_total,
            "maps_fixing_some_grid": found.burnside.maps_fixing_some_grid,
            "classes": found.burnside.classes,
        },
        "minimum_clues": found.minimum.minimum,
        "none_below": [_proof_record(p) for p in found.minimum.none_below],
        "example": {
            **_proof_record(found.minimum.example),
            "puzzle": example.to_line(),
            "checked_by": solver,
            "solutions": solutions,
        },
        "cpu_s": {part: round(seconds, 3) for part, seconds in found.cpu_s.items()},
    }


def band_record(counted: BandCount, cpu_s: float) -> dict[str, Any]:
    return {
        "size": counted.size,
        "normalised_bands": counted.normalised_bands,
        "band_orbits": counted.orbits,
        "band_classes": len(counted.class_sizes),
        "class_sizes": list(counted.class_sizes),
        "class_completions": list(counted.class_completions),
        "grids": counted.grids,
        "cpu_s": round(cpu_s, 3),
    }


def run_bands(args: argparse.Namespace) -> int:
    from sudoku_bench.harness.generating.bands import count_by_bands

    if args.size == 9:
        print(
            f"counting 9x9 grids by 44 band classes: about {EXPECTED_CORE_HOURS_9X9} CPU hours "
            "(one class at a time; progress below)",
            file=sys.stderr,
        )

    def progress(done: int, classes: int, completions: int) -> None:
        if args.size == 9:
            print(f"class {done}/{classes}: {completions:,} completions", file=sys.stderr)

    started = time.process_time()
    counted = count_by_bands(args.size, progress)
    cpu_s = time.process_time() - started
    if args.json:
        print_json(band_record(counted, cpu_s))
        return 0
    n = args.size
    print(
        f"{n}x{n} first bands with the first box 1..{n}: {counted.normalised_bands:,}, in "
        f"{counted.orbits} orbits of the band symmetries, {len(counted.class_sizes)} classes "
        "once orbits with the same column sets are merged"
    )
    print(f"complete grids: {n}! x sum of class size x completions = {counted.grids:,}")
    print(f"CPU seconds: {cpu_s:.2f}")
    return 0


def run(args: argparse.Namespace) -> int:
    from sudoku_bench.harness.generating.facts import FactsError, Geometry, compute

    if args.bands:
        return run_bands(args)
    if args.size not in SIZES:
        raise FactsError(
            f"facts --size {args.size} counts only by bands (--bands: an opt-in job of about "
            f"{EXPECTED_CORE_HOURS_9X9} CPU hours); the other facts are for sizes 4 and 6"
        )
    found = compute(args.size)
    example = found.minimum.example_puzzle(Geometry.of_size(args.size).rules)
    solutions = _confirm(example, args.solver)
    agree = (
        found.counted.grids == found.counted.first_row_fixed * found.counted.relabellings
        and found.burnside.classes == len(found.classes.sizes)
        and sum(found.classes.sizes) == found.counted.grids
        and solutions in (None, 1)
    )
    if args.json:
        print_json(record(found, args.solver, solutions))
        return 0 if agree else 1
    n, box = found.size, found.box
    counted = found.counted
    print(
        f"complete {n}x{n} grids ({box} boxes): {counted.grids:,} (backtracking from the empty "
        f"grid); {counted.first_row_fixed:,} with first row 1..{n}, x {counted.relabellings} "
        f"relabellings = {counted.first_row_fixed * counted.relabellings:,}"
    )
    by_burnside = found.burnside
    print(
        f"essentially different grids: {len(found.classes.sizes)} by canonical forms, "
        f"{by_burnside.classes} by Burnside's lemma ({by_burnside.fixed_total:,} fixed grids "
        f"over a group of {by_burnside.group_order:,}: {by_burnside.cell_maps} cell maps x "
        f"{counted.relabellings} relabellings)"
    )
    print(f"class sizes: {', '.join(f'{s:,}' for s in sorted(found.classes.sizes))}")
    minimum = found.minimum
    below = minimum.none_below
    if below:
        print(
            f"no unique puzzle with {minimum.minimum - 1} clues in any of the {len(below)} "
            f"classes: {sum(p.unavoidable_sets for p in below)} unavoidable sets collected, "
            f"{sum(p.added_sets for p in below)} added by the solver, "
            f"{sum(p.nodes for p in below):,} search nodes, "
            f"{sum(p.checked for p in below):,} hitting sets checked by the solver"
        )
    confirmed = f"; {args.solver} counts {solutions} solution(s)" if solutions is not None else ""
    print(f"a unique puzzle with {minimum.minimum} clues: {example.to_line()}{confirmed}")
    print(
        "CPU seconds: "
        + ", ".join(f"{part} {seconds:.2f}" for part, seconds in found.cpu_s.items())
    )
    if not agree:
        print("DISAGREEMENT: the counts above do not agree with each other")
        return 1
    return 0
