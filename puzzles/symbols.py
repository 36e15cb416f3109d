"""How values are written: `Alphabet` maps the values 1..N to one character each."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Alphabet:
    """`symbols[v - 1]` writes value v; any character of `blanks` reads as an empty cell.

    Letters are read case-insensitively. The first blank is the one written.
    """

    symbols: str
    blanks: str = "."
    name: str = ""

    def __post_init__(self) -> None:
        if set(self.symbols) & set(self.blanks):
            raise ValueError("an alphabet's symbols and blanks must not overlap")
        if len(set(self.symbols.upper())) != len(self.symbols):
            raise ValueError("an alphabet's symbols must be distinct")

    def value_of(self, char: str) -> int | None:
        """The value a character stands for, 0 for a blank, None if it is not in the alphabet."""
        if char in self.blanks:
            return 0
        index = self.symbols.find(char.upper())
        return index + 1 if index >= 0 else None

    def describe(self, size: int) -> str:
        """Words for the error message: what a cell of an N x N puzzle may hold."""
        return f"one of {self.symbols[:size]!r} or a blank {self.blanks!r}"


# 1-9 then A-P: the convention of the public collections (16x16 uses 1-9, A-G).
DEFAULT = Alphabet("123456789ABCDEFGHIJKLMNOP", blanks=".0", name="default")
# 0-F: the hexadecimal convention some 16x16 collections use (0 is a value, not a blank).
HEX = Alphabet("0123456789ABCDEF", blanks=".", name="hex")
# A-Y: letters only, used by some 25x25 collections.
LETTERS = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXY", blanks=".0", name="letters")

ALPHABETS = {alphabet.name: alphabet for alphabet in (DEFAULT, HEX, LETTERS)}


def alphabet_named(name: str) -> Alphabet:
    """An alphabet by name, or a custom one given as its symbols (e.g. `'ABCD'`)."""
    if name in ALPHABETS:
        return ALPHABETS[name]
    if len(name) >= 4:
        return Alphabet(name, blanks=".", name=name)
    raise ValueError(
        f"unknown alphabet {name!r}: use one of {', '.join(ALPHABETS)} or spell out the symbols"
    )
