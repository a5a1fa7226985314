"""One linear pass over model text: where each bracket closes, skipping quoted strings.

Every later step asks this map instead of scanning again, so finding calls stays linear in
the length of the text whatever its shape (a thousand `[` in a row, an unclosed call
repeated to the end). Prose is not code: a quote that is not closed on its line is taken
as an apostrophe, and a stray closing bracket is ignored.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

__all__ = ["Scan", "closing"]

_PAIRS = {"(": ")", "[": "]", "{": "}"}
_OPENS_QUOTE = frozenset("=:,[({ \t\n")


@dataclass(slots=True)
class _Open:
    char: str
    at: int
    level: int
    deepest: int


@dataclass(slots=True)
class Scan:
    """Bracket spans of `text`; an unclosed bracket's span runs to the end of the text."""

    text: str
    ends: dict[int, int] = field(default_factory=dict)
    """Index of each opening bracket -> index just after its closing bracket."""
    depth: dict[int, int] = field(default_factory=dict)
    """Index of each opening bracket -> how many levels of brackets its span holds."""
    strings: list[tuple[int, int]] = field(default_factory=list)
    """Quoted strings in text order: (index of the opening quote, index of its end)."""
    bracketed: set[int] = field(default_factory=set)
    """Opening quotes of the strings that open inside brackets (`f(a="x")`), not in prose."""

    def __post_init__(self) -> None:
        stack: list[_Open] = []
        quote = ""
        text = self.text
        for i, char in enumerate(text):
            if quote:
                if char == "\n" or (char == quote and not _escaped(text, i)):
                    quote = ""
                    self.strings[-1] = (self.strings[-1][0], i)
            elif char == '"' or (char == "'" and (i == 0 or text[i - 1] in _OPENS_QUOTE)):
                quote = char
                self.strings.append((i, len(text)))
                if stack:
                    self.bracketed.add(i)
            elif char in _PAIRS:
                stack.append(_Open(char=char, at=i, level=len(stack), deepest=len(stack)))
            elif char in ")]}":
                self._close(stack, char, i + 1)
        while stack:
            self._finish(stack, len(text))

    def _close(self, stack: list[_Open], char: str, end: int) -> None:
        # A mismatched closer ends an opener one level down (`[f(a=1]`), else it is noise.
        for back in (1, 2):
            if len(stack) >= back and _PAIRS[stack[-back].char] == char:
                for _ in range(back):
                    self._finish(stack, end)
                return

    def _finish(self, stack: list[_Open], end: int) -> None:
        done = stack.pop()
        self.ends[done.at] = end
        self.depth[done.at] = done.deepest - done.level + 1
        if stack:
            stack[-1].deepest = max(stack[-1].deepest, done.deepest)

    def end(self, opener: int) -> int:
        """Index after the bracket that closes the one at `opener`."""
        return self.ends.get(opener, len(self.text))

    def string_at(self, i: int) -> tuple[int, int] | None:
        """The quoted string that holds index `i`, if any."""
        index = bisect_right(self.strings, (i, len(self.text))) - 1
        if index < 0 or not self.strings[index][0] < i < self.strings[index][1]:
            return None
        return self.strings[index]


def closing(text: str, opener: int, limit: int) -> tuple[bool, int]:
    """Whether the bracket at `opener` closes on its own line, reading quotes from
    `opener` on as `Scan` does, and the index where reading stopped: after the closing
    bracket, else at the line's end or at `limit`. For a call written inside a string,
    whose own quotes may be of the string's kind (`'f(a='x')'`)."""
    stack: list[str] = []
    quote = ""
    end = min(len(text), limit)
    for i in range(opener, end):
        char = text[i]
        if char == "\n":
            return False, i
        if quote:
            if char == quote and not _escaped(text, i):
                quote = ""
        elif char == '"' or (char == "'" and text[i - 1] in _OPENS_QUOTE):
            quote = char
        elif char in _PAIRS:
            stack.append(_PAIRS[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return True, i + 1
    return False, end


def _escaped(text: str, i: int) -> bool:
    count = 0
    while i > count and text[i - count - 1] == "\\":
        count += 1
    return count % 2 == 1
