"""What every format shares: the entries read, the reading and writing options, error location."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sudoku_bench.puzzles.checker import conflicts, has_conflicts, solution_problems
from sudoku_bench.puzzles.constraints import Diagonal
from sudoku_bench.puzzles.errors import InvalidPuzzleError, PuzzleFormatError, RulesError
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules
from sudoku_bench.puzzles.symbols import DEFAULT, Alphabet


@dataclass(frozen=True)
class PlayerState:
    """A puzzle part-way through: the values filled so far (givens included) and pencil marks.

    `candidates[cell]` is the set of digits pencilled into that cell (empty: no marks).
    """

    values: Grid
    candidates: tuple[frozenset[int], ...]

    @classmethod
    def blank(cls, puzzle: Grid) -> PlayerState:
        return cls(puzzle, (frozenset(),) * puzzle.rules.cell_count)


@dataclass(frozen=True)
class PuzzleEntry:
    """A puzzle read from a collection: `id` is `source:line`; `solution` if the file has one.

    `metadata` holds what the file said about the puzzle (author, source, difficulty, ...);
    `state` a player's progress (JSON only).
    """

    id: str
    puzzle: Grid
    solution: Grid | None = None
    metadata: dict[str, Any] = field(default_factory=dict, compare=False)
    state: PlayerState | None = None


@dataclass
class ReadReport:
    """What a read skipped (with `skip_invalid=True`): one error per bad entry."""

    skipped: list[PuzzleFormatError] = field(default_factory=list)


@dataclass(frozen=True)
class ReadOptions:
    alphabet: Alphabet = DEFAULT
    rules: Rules | None = None  # None: inferred from each puzzle's length
    diagonals: bool = False  # read every puzzle as Sudoku-X
    check_givens: bool = True  # reject puzzles whose givens repeat a digit in a unit
    skip_invalid: bool = False
    # f-puzzles: pass over cosmetic lines, shapes and texts that draw no rule key's cells,
    # as f-puzzles' own solver does (by default they are refused: a setter may have meant
    # a rule by them)
    ignore_cosmetics: bool = False


@dataclass(frozen=True)
class WriteOptions:
    alphabet: Alphabet = DEFAULT
    blank: str | None = None  # None: the format's usual blank (`.`; `0` for Kaggle CSV)


def parse_puzzle(text: str, options: ReadOptions = ReadOptions()) -> Grid:
    """One puzzle from one line of text, checked as `options` say."""
    grid = Grid.from_string(text, options.rules, alphabet=options.alphabet)
    try:
        return checked(grid, options)
    except InvalidPuzzleError as error:  # point at the repeated given's character
        columns = [column for column, char in enumerate(text, 1) if not char.isspace()]
        error.column = columns[conflict_cell(grid, options)]
        raise


def conflict_cell(grid: Grid, options: ReadOptions) -> int:
    """The cell to point an error at: the last cell of the first broken rule (the second of
    a pair of repeated givens; the cell itself for a one-cell rule such as parity)."""
    if options.diagonals:
        grid = Grid(with_diagonals(grid.rules), grid.values)
    return conflicts(grid)[0].cells[-1]


def checked(grid: Grid, options: ReadOptions) -> Grid:
    """`grid` made Sudoku-X if the options say so, and its givens checked against the rules."""
    if options.diagonals and not grid.rules.diagonals:
        grid = Grid(with_diagonals(grid.rules), grid.values)
    if options.check_givens and has_conflicts(grid):
        raise InvalidPuzzleError(
            "the givens break the rules: "
            + "; ".join(c.describe(grid) for c in conflicts(grid))
            + " (--allow-conflicts reads it anyway)"
        )
    return grid


def chosen_rules(given: Rules | None, carried: Rules | None) -> Rules | None:
    """The rules a puzzle is read under: `--rules` (`given`) where the file carries none or
    classic rules of that shape (the option adds rules to a classic puzzle), the file's own
    (`carried`) otherwise. A file whose variant rules differ from the option's is an error,
    never silently replaced (a killer's cages dropped) nor guessed at."""
    if given is None or carried is None or given == carried:
        return given or carried
    if (
        carried.is_classic
        and not carried.diagonals
        and carried.shape_name == given.shape_name.removesuffix("-x")
    ):
        return given
    raise PuzzleFormatError(
        f"the puzzle carries its own rules ({carried.name}) and --rules gives others "
        f"({given.name}): drop --rules to read the file's, or write the rules you mean into "
        "the file"
    )


@lru_cache(maxsize=64)  # bounded: a file of killers has as many rules as puzzles
def with_diagonals(rules: Rules) -> Rules:
    """The rules with both diagonals added (every other rule kept): one shared instance per
    rules in use, so its tables are built once."""
    return rules.with_constraints(*Diagonal.pair())


def check_solution(puzzle: Grid, solution: Grid) -> Grid:
    """`solution`, if it solves `puzzle`; a file whose solution does not is bad input."""
    problems = solution_problems(puzzle, solution)
    if problems:
        raise InvalidPuzzleError("the solution does not solve the puzzle: " + "; ".join(problems))
    return solution


def blank_for(fmt_blank: str, options: WriteOptions, size: int) -> str:
    """The blank to write: the user's, else the format's usual one unless it is a symbol."""
    symbols = options.alphabet.symbols[:size]
    if options.blank is not None:
        if len(options.blank) != 1 or options.blank.upper() in symbols.upper():
            raise PuzzleFormatError(
                f"the blank {options.blank!r} must be one character that is not a symbol "
                f"({symbols!r})"
            )
        return options.blank
    if fmt_blank.upper() in symbols.upper():
        return options.alphabet.blanks[0]
    return fmt_blank


def encode(grid: Grid, options: WriteOptions, fmt_blank: str = ".") -> str:
    """The grid as one line in the options' alphabet (numbers separated by spaces past the
    alphabet's symbols, as `Grid.to_line` writes them)."""
    return grid.to_line(options.alphabet, blank_for(fmt_blank, options, grid.rules.size))


class located:
    """Context manager: attach file and line to a format error; swallow it when skipping."""

    def __init__(self, source: str, line: int, options: ReadOptions, report: ReadReport) -> None:
        self.source, self.line, self.options, self.report = source, line, options, report

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: object
    ) -> bool:
        if isinstance(error, RulesError):  # a size no Sudoku has, read from the file
            error = PuzzleFormatError(str(error))
        if not isinstance(error, PuzzleFormatError):
            return False
        where = error.located(source=self.source, line=self.line)
        if self.options.skip_invalid:
            self.report.skipped.append(where)
            return True
        raise where from None


Reader = Callable[[Iterable[str], str, ReadOptions, ReadReport], Iterator[PuzzleEntry]]
Writer = Callable[[Sequence[PuzzleEntry], WriteOptions], str]


@dataclass(frozen=True)
class Format:
    """A file format: its name, file extensions, reader and writer, and what it can hold."""

    name: str
    extensions: tuple[str, ...]
    summary: str
    read: Reader
    write: Writer
    # of "solution", "metadata", "state", "box", "diagonals", "rules" (variant rules)
    keeps: frozenset[str] = frozenset()
    metadata_keys: frozenset[str] | None = None  # the metadata it keeps, if not all
    # which metadata items (key, value) the writer keeps, where that depends on the value too
    keeps_item: Callable[[str, Any], bool] | None = None

    def dropped_metadata(self, entry: PuzzleEntry) -> list[str]:
        """The metadata keys of `entry` that writing it in this format leaves out."""
        if self.keeps_item is not None:
            return [key for key, value in entry.metadata.items() if not self.keeps_item(key, value)]
        if "metadata" not in self.keeps:
            return list(entry.metadata)
        kept = self.metadata_keys
        return [] if kept is None else [key for key in entry.metadata if key not in kept]

    def losses(self, entries: Sequence[PuzzleEntry]) -> list[str]:
        """What writing `entries` in this format leaves out, in words (for a warning)."""
        dropped = [self.dropped_metadata(e) for e in entries]
        keys = sorted({key for keys in dropped for key in keys})
        lost = {
            "solution": sum(1 for e in entries if e.solution is not None),
            "metadata": sum(1 for keys in dropped if keys),
            "state": sum(1 for e in entries if e.state is not None),
            "box": sum(1 for e in entries if _unusual_box(e.puzzle.rules)),
            "diagonals": sum(1 for e in entries if e.puzzle.rules.diagonals),
            "rules": sum(1 for e in entries if not e.puzzle.rules.is_classic),
        }
        shown = ", ".join(keys[:5]) + (", ..." if len(keys) > 5 else "")
        words = {
            "solution": "solutions",
            "metadata": f"metadata ({shown})",
            "state": "player states",
            "box": "box shapes other than the usual one (e.g. 6x6:3x2)",
            "diagonals": "diagonals (Sudoku-X: they read back as plain Sudoku)",
            "rules": "variant rules (jigsaw, anti-knight, killer, ...: they read back as "
            "classic Sudoku unless --rules gives them)",
        }
        return [
            f"{_of_puzzles(count)} {words[kind]}"
            for kind, count in lost.items()
            if count and (kind == "metadata" or kind not in self.keeps)
        ]


def _of_puzzles(count: int) -> str:
    return "1 puzzle's" if count == 1 else f"{count} puzzles'"


def _unusual_box(rules: Rules) -> bool:
    usual = Rules.of_size(rules.size)
    return (rules.box_rows, rules.box_cols) != (usual.box_rows, usual.box_cols)
