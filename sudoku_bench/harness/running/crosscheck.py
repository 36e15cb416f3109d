"""Do the back-ends agree? Every returned grid goes through the independent rule checker, and
the answers of each pair of back-ends on a puzzle are compared.

Two answers contradict when one claims an exact count (the search was exhausted) and the
other found more solutions, or a different one where the first said it is unique. A lower
bound (`limit` reached, timed out with solutions) contradicts nothing by being low. Answers
holding a grid that breaks the rules are reported as wrong and left out of the comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from sudoku_bench.harness.results import Outcome
from sudoku_bench.puzzles.checker import solution_problems
from sudoku_bench.puzzles.errors import SudokuBenchError
from sudoku_bench.puzzles.grid import Grid

# The pseudo back-end standing for a solution that came with the collection.
KNOWN = "collection's solution"


@dataclass(frozen=True)
class Claim:
    """What one back-end claims about one puzzle's solutions: how many (exactly, or at least)
    and which. (A checked answer with its whole result is `sudoku_bench.harness.running.solving.Answer`.)"""

    solver: str
    count: int
    exact: bool
    solutions: tuple[str, ...]

    @classmethod
    def of(cls, outcome: Outcome) -> Claim:
        return cls(outcome.task.solver, outcome.count, outcome.exact, tuple(outcome.solutions))

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> Claim:
        """The claim of a store row (`Store.results()`)."""
        return cls(row["solver"], row["count"], row["exact"], tuple(row["solutions"]))

    def describe(self) -> str:
        """E.g. `unique (534678912...)`, `exactly 2`, `at least 1`, `none`."""
        if self.exact:
            said = {0: "none", 1: "unique"}.get(self.count, f"exactly {self.count}")
        else:
            said = f"at least {self.count}"
        if self.count == 1:
            said += f" ({self.solutions[0][:12]}...)"
        return said


def wrong_grids(puzzle: Grid, answer: Claim) -> list[str]:
    """Why the returned grids are not distinct solutions of `puzzle` (empty when they are)."""
    problems = []
    for number, line in enumerate(answer.solutions, 1):
        try:
            found = solution_problems(puzzle, Grid.from_string(line, puzzle.rules))
        except SudokuBenchError as error:
            found = [f"cannot be read: {error}"]
        if found:
            problems.append(f"grid {number}: " + "; ".join(found[:3]))
    if len(set(answer.solutions)) < len(answer.solutions):
        problems.append("the same grid is returned twice")
    return problems


def contradiction(a: Claim, b: Claim) -> tuple[str, str] | None:
    """Which of `a` and `b` is proven wrong by the other, and why; None when both can be true.

    Both hold only checked, distinct solutions, so the one that claimed an exact count is the
    one proven wrong when the other found more solutions or a different unique one.
    """
    for first, second in ((a, b), (b, a)):
        if not first.exact:
            continue
        if second.count > first.count:
            return first.solver, (
                f"{first.solver} says {first.describe()}, "
                f"but {second.solver} found {second.count} valid solutions"
            )
        other = set(second.solutions) - set(first.solutions)
        if first.count == 1 and other:
            return first.solver, (
                f"{first.solver} says {first.describe()}, "
                f"but {second.solver} found another valid solution ({min(other)[:12]}...)"
            )
    return None


@dataclass
class PuzzleCheck:
    """The verdict of the cross-check on one puzzle: back-end -> what is wrong with its answer."""

    wrong: dict[str, list[str]] = field(default_factory=dict)  # grids that break the rules
    contradicted: dict[str, list[str]] = field(default_factory=dict)  # exact claims disproved

    @property
    def ok(self) -> bool:
        return not self.wrong and not self.contradicted

    def blamed(self) -> set[str]:
        return set(self.wrong) | set(self.contradicted)


def check_puzzle(puzzle: Grid, answers: Iterable[Claim], known: Grid | None = None) -> PuzzleCheck:
    """Check each answer's grids, then compare the sound answers pairwise (and with the
    collection's solution, when it came with one)."""
    result = PuzzleCheck()
    sound: list[Claim] = []
    for answer in answers:
        problems = wrong_grids(puzzle, answer)
        if problems:
            result.wrong.setdefault(answer.solver, []).extend(problems)
        else:
            sound.append(answer)
    if known is not None and not solution_problems(puzzle, known):
        sound.append(Claim(KNOWN, 1, False, (known.to_line(),)))
    for a, b in combinations(sound, 2):
        found = contradiction(a, b)
        if found is not None:
            blamed, why = found
            if why not in result.contradicted.get(blamed, []):
                result.contradicted.setdefault(blamed, []).append(why)
    return result


def answers_of(outcomes: Sequence[Outcome]) -> list[Claim]:
    """The answers worth comparing: every outcome that returned grids or an exact count."""
    return [Claim.of(o) for o in outcomes if o.exact or o.solutions]
