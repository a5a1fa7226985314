"""A small phrase language compiled to regular expressions over a normalised view.

    "ignore|disregard ~3 previous|prior ~2 instruction*|rules|system prompt"

`~N` separates slots and lets up to N other words stand between them (`~0`: adjacent);
`a|b` inside a slot are alternatives, each one or more words; a trailing `*` on a word
matches any ending. Every word passes through the same normalisation as the text (`view`),
so patterns are written in plain words and still match `1gn0re`, `іgnоrе` or
`i g n o r e`: letters inside a word may be separated by single spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from callgate.lint._text import ViewKind, view

__all__ = ["Phrase", "compile_phrase"]

_LETTERS = {"latin": "a-z0-9", "cyrillic": "а-яa-z0-9", "light": r"\w"}
_GAP = re.compile(r"\s*~(\d+)\s*")


@dataclass(frozen=True, kw_only=True, slots=True)
class Phrase:
    """A compiled phrase and the view it matches on."""

    pattern: re.Pattern[str]
    source: str
    kind: ViewKind
    needle: re.Pattern[str] | None = None
    """The rarest-looking slot's alternatives, spaces removed: a text with its spaces
    removed must contain one, a cheap test that spares most full searches."""

    def search(self, text: str, compact: str) -> re.Match[str] | None:
        """Search `text` (a view); `compact` is the same text with spaces removed."""
        if self.needle is not None and self.needle.search(compact) is None:
            return None
        return self.pattern.search(text)


@lru_cache(maxsize=1024)
def compile_phrase(source: str, kind: ViewKind = "latin") -> Phrase:
    letters = _LETTERS[kind]
    pieces = _GAP.split(source.strip())
    body = _slot(pieces[0], kind, letters)
    for gap, slot in zip(pieces[1::2], pieces[2::2], strict=True):
        body += _gap(int(gap)) + _slot(slot, kind, letters)
    pattern = re.compile(rf"(?<![{letters}]){body}(?![{letters}])")
    # the slot with the fewest alternatives filters best
    slot = min(pieces[0::2], key=lambda p: len(p.split("|")))
    words = sorted({_needle(alt, kind) for alt in slot.split("|")} - {""})
    needle = re.compile("|".join(map(re.escape, words))) if words else None
    return Phrase(pattern=pattern, source=source, kind=kind, needle=needle)


def _needle(alternative: str, kind: ViewKind) -> str:
    return "".join(view(w.rstrip("*"), kind).text.replace(" ", "") for w in alternative.split())


def _gap(words: int) -> str:
    if words == 0:
        return r"\s?"
    return rf"(?:\s?|\s(?:\S+\s){{0,{words}}})"


def _slot(slot: str, kind: ViewKind, letters: str) -> str:
    options = [_alternative(alt, kind, letters) for alt in slot.split("|")]
    return "(?:" + "|".join(o for o in options if o) + ")"


def _alternative(alternative: str, kind: ViewKind, letters: str) -> str:
    words = []
    for word in alternative.split():
        prefix = word.endswith("*")
        text = view(word.rstrip("*"), kind).text.replace(" ", "")
        if not text:
            continue
        # single spaces may separate the letters of a word ("i g n o r e", "ig-nore")
        spelled = r"\s?".join(re.escape(c) for c in text)
        words.append(spelled + (f"[{letters}]*" if prefix else ""))
    return r"\s?".join(words)
