"""Normalised views of a text that undo simple obfuscation, mapped back to the original.

A phrase rule must see `IgNoRe`, `1gn0re`, `i g n o r e`, `іgnоrе` (Cyrillic letters),
`ｉｇｎｏｒｅ`, `𝐢𝐠𝐧𝐨𝐫𝐞` and `ig\u200bnore` as the same word, and a finding must still
quote the text as written. Each view keeps, for every character it holds, the index of the
original character it came from.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from callgate.lint._confusables import TO_CYRILLIC, TO_LATIN, script_of

__all__ = ["View", "ViewKind", "is_hidden", "printable", "view"]

ViewKind = Literal["light", "latin", "cyrillic"]

# Digits and signs used for letters ("1gn0r3", "$ecret"); `l` and `i` are merged because
# `1`, `l`, `|` and `!` all stand for either. Patterns go through the same mapping.
_LEET_LATIN = {
    "0": "o",
    "1": "i",
    "3": "e",
    "4": "a",
    "5": "s",
    "7": "t",
    "@": "a",
    "$": "s",
    "!": "i",
    "|": "i",
    "l": "i",
    "8": "b",
}
_CYRILLIC_FOLD = {"й": "и", "ё": "е"}
_KEEP_CONTROLS = frozenset("\t\n\r")


@lru_cache(maxsize=8192)
def is_hidden(char: str) -> bool:
    """Invisible in rendered text: format (Cf) and control (Cc) characters, variation
    selectors, lone surrogates and unassigned/private code points; tab and newlines are
    ordinary."""
    if char in _KEEP_CONTROLS:
        return False
    code = ord(char)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return True
    return unicodedata.category(char) in ("Cf", "Cc", "Cs", "Co", "Cn")


def printable(text: str) -> str:
    """`text` with lone surrogates written as `\\udXXX` escapes, so it can be encoded."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


@dataclass(frozen=True, slots=True)
class View:
    """A transformed text and, per character, the index of its source character (None
    when the view keeps every character in place, as it does for plain ASCII)."""

    text: str
    origin: tuple[int, ...] | None

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The original `[start, end)` for the view's `[start, end)` (end exclusive)."""
        if self.origin is None:
            return start, end
        if not self.origin or start >= end:
            return 0, 0
        return self.origin[start], self.origin[min(end, len(self.origin)) - 1] + 1


_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _ascii_table(kind: ViewKind) -> dict[int, str]:
    table = {}
    for code in range(128):
        char = chr(code).lower()
        if kind == "latin":
            char = _LEET_LATIN.get(char, char)
        elif kind == "cyrillic":
            char = TO_CYRILLIC.get(char, char)
        if kind != "light" and not char.isalnum():
            char = " "
        table[code] = char
    return table


_ASCII_TABLES = {kind: _ascii_table(kind) for kind in ("light", "latin", "cyrillic")}


@lru_cache(maxsize=16384)
def view(text: str, kind: ViewKind) -> View:
    """`light`: hidden characters removed, NFKC, case folded, punctuation kept.
    `latin`/`cyrillic`: also lookalikes and digits mapped into that alphabet, accents
    dropped, and everything but letters and digits turned into spaces. Plain ASCII maps
    one character to one, in place; other text collapses runs of spaces."""
    if text.isascii() and not _ASCII_CONTROL.search(text):
        return View(text.translate(_ASCII_TABLES[kind]), None)
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        for out in _map(char, kind):
            if kind != "light" and not out.isalnum():
                out = " "
            if out.isspace():
                if not chars or chars[-1] == " ":
                    continue
                out = " "
            chars.append(out)
            origin.append(index)
    return View("".join(chars), tuple(origin))


@lru_cache(maxsize=8192)
def _map(char: str, kind: ViewKind) -> str:
    if is_hidden(char):
        return ""
    if kind == "light":
        return unicodedata.normalize("NFKC", char).casefold()
    if script_of(char) == "CYRILLIC":
        lowered = char.lower()
        if kind == "latin":
            return TO_LATIN.get(lowered, lowered)
        return _CYRILLIC_FOLD.get(lowered, lowered)
    decomposed = unicodedata.normalize("NFKD", char)
    base = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    if kind == "latin":
        return "".join(_LEET_LATIN.get(c, TO_LATIN.get(c, c)) for c in base)
    return "".join(TO_CYRILLIC.get(c, c) for c in base)
