"""Named collections bundled with sudoku-bench (package data), and loading by name or path."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from puzzles.errors import UnknownCollectionError
from puzzles.formats import PuzzleEntry, ReadOptions, ReadReport, read_file, read_text


@dataclass(frozen=True)
class Bundled:
    name: str
    file: str
    summary: str
    source: str = ""  # where it comes from (full provenance in puzzles/data/SOURCES.md)


BUNDLED: dict[str, Bundled] = {
    b.name: b
    for b in (
        Bundled(
            "easy50",
            "easy50.txt",
            "50 easy 9x9 (Project Euler 96)",
            "Project Euler 96 via Norvig's pytudes (MIT)",
        ),
        Bundled(
            "top95",
            "top95.txt",
            "95 hard 9x9 (magictour top95)",
            "magictour top95 via Norvig's pytudes (MIT)",
        ),
        Bundled(
            "hardest",
            "hardest.txt",
            "11 9x9 collected by Norvig as 'hardest'",
            "Norvig's pytudes (MIT)",
        ),
        Bundled(
            "17clue",
            "17clue.txt",
            "1,000 of the 49,158 known 17-clue 9x9 puzzles",
            "Gordon Royle's 17-clue list via tdoku",
        ),
        Bundled(
            "forum-hardest",
            "forum-hardest.txt",
            "1,000 of the forum's hardest 9x9 (SE 11+)",
            "Enjoy Sudoku forum via tdoku",
        ),
        Bundled(
            "multi",
            "multi.txt",
            "200 9x9 with two or more solutions (serg benchmark)",
            "tdoku puzzles7_serg_benchmark",
        ),
        Bundled(
            "gecode9",
            "gecode9.txt",
            "18 9x9 from Gecode's examples",
            "Gecode's sudoku.cpp via hakank/hakank (MIT)",
        ),
        Bundled("4x4", "4x4.txt", "100 4x4 puzzles", "VU Amsterdam KR course (owhygithub/KR)"),
        Bundled(
            "16x16", "16x16.txt", "100 16x16 puzzles", "VU Amsterdam KR course (owhygithub/KR)"
        ),
        Bundled(
            "gecode16",
            "gecode16.txt",
            "55 16x16 from Gecode's examples",
            "Gecode's sudoku.cpp via hakank/hakank (MIT)",
        ),
        Bundled(
            "25x25",
            "25x25.txt",
            "18 25x25 from Gecode's examples (A. Frisch)",
            "Gecode's sudoku.cpp via hakank/hakank (MIT)",
        ),
        Bundled(
            "seeds",
            "seeds.csv",
            "the 5 example boards of the source documents, solved",
            "the project's source documents",
        ),
    )
}


def bundled_text(name: str) -> str:
    return resources.files("puzzles").joinpath("data", BUNDLED[name].file).read_text("utf-8")


def split_selector(spec: str) -> tuple[str, str] | None:
    """`top95:7` -> (`top95`, `7`): one puzzle of a collection or file, named by its id.

    None when `spec` is not of that form, or names an existing file itself.
    """
    source, colon, line = spec.rpartition(":")
    if not colon or not line.isdigit() or spec in BUNDLED or Path(spec).exists():
        return None
    if source in BUNDLED or Path(source).is_file():
        return source, line
    return None


def load(
    spec: str,
    options: ReadOptions = ReadOptions(),
    report: ReadReport | None = None,
    fmt: str | None = None,
) -> list[PuzzleEntry]:
    """The puzzles of a bundled collection (`top95`) or of a file path; ids are `name:line`.

    An id given back (`top95:7`, `mine.txt:12`) loads that one puzzle, so every id the tool
    prints names its puzzle. `fmt` (a format name such as `grid`) overrides the file's extension.
    """
    selector = split_selector(spec)
    if selector is not None:
        source, line = selector
        entries = load(source, options, report, fmt)
        chosen = [entry for entry in entries if entry.id.rpartition(":")[2] == line]
        if not chosen:
            raise UnknownCollectionError(
                f"{source} has no puzzle starting at line {line} "
                f"(its ids run from {entries[0].id} to {entries[-1].id})"
                if entries
                else f"{source} holds no puzzles"
            )
        return chosen
    if spec in BUNDLED:
        suffix = Path(BUNDLED[spec].file).suffix
        return read_text(bundled_text(spec), spec, suffix, options, report)
    path = Path(spec)
    if path.is_file():
        return read_file(path, options, report, fmt=fmt)
    if path.is_dir():
        raise UnknownCollectionError(
            f"{spec} is a folder: name the puzzle files in it (e.g. {path / '*.txt'})"
        )
    raise UnknownCollectionError(
        f"{spec!r} is neither a file nor a bundled collection ({', '.join(BUNDLED)})"
    )
