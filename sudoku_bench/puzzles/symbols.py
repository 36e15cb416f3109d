"""How values are written: `Alphabet` maps the values 1..N to one character each.

Past the alphabet's symbols (26 and more for the default one), values are written as
numbers separated by spaces (`1 . 36 ...`), as the grid format writes big rows.
"""

from __future__ import annotations

import unicodedata
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

    def covers(self, size: int) -> bool:
        """Whether each value of an N x N puzzle has a symbol (else values are numbers)."""
        return size <= len(self.symbols)

    def describe(self, size: int) -> str:
        """Words for the error message: what a cell of an N x N puzzle may hold."""
        if not self.covers(size):
            return f"a number from 1 to {size} or a blank {self.blanks!r}, separated by spaces"
        return f"one of {self.symbols[:size]!r} or a blank {self.blanks!r}"


# 1-9 then A-P: the convention of the public collections (16x16 uses 1-9, A-G).
DEFAULT = Alphabet("123456789ABCDEFGHIJKLMNOP", blanks=".0", name="default")
# 0-F: the hexadecimal convention some 16x16 collections use (0 is a value, not a blank).
HEX = Alphabet("0123456789ABCDEF", blanks=".", name="hex")
# A-Y: letters only, used by some 25x25 collections.
LETTERS = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXY", blanks=".0", name="letters")

ALPHABETS = {alphabet.name: alphabet for alphabet in (DEFAULT, HEX, LETTERS)}


# `--alphabet symbols:ABCD`: an alphabet spelled out. Bare symbols (`ABCD`) are read too
# where a file says it (the JSON `alphabet` key), but not on the command line, where a typo
# of a name (`--alphabet hexx`) was taken as a 4-symbol alphabet.
SPELLED = "symbols:"


def alphabet_named(name: str, *, bare_symbols: bool = True) -> Alphabet:
    """An alphabet by name, or a custom one given as its symbols (`symbols:ABCD`, or `ABCD`
    when `bare_symbols`)."""
    if name in ALPHABETS:
        return ALPHABETS[name]
    symbols = name.removeprefix(SPELLED)
    if name.startswith(SPELLED) or bare_symbols:
        if len(symbols) >= 4:
            odd = next((char for char in symbols if not char.isprintable() or char.isspace()), None)
            if odd is not None:
                raise ValueError(f"{describe_char(odd)} cannot be a symbol")
            return Alphabet(symbols, blanks=".", name=name)
        if name.startswith(SPELLED):
            raise ValueError(f"{name!r} spells out {len(symbols)} symbols: at least 4 are needed")
    raise ValueError(
        f"unknown alphabet {name!r}: use one of {', '.join(ALPHABETS)}, or spell out the "
        f"symbols as {SPELLED}ABCD..."
    )


def describe_char(char: str) -> str:
    """A character for an error message: quoted when it can be seen, else its code point and
    Unicode name (a zero-width space or a direction mark copied from a web page)."""
    if char.isprintable() and not char.isspace():
        return repr(char)
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else " (a control character)")
