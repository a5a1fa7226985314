"""What a poisoning check looks at (one string a model reads) and what it reports (a hit)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from callgate.lint._finding import Severity
from callgate.lint._walk import TextSite

__all__ = ["ScanHit", "TextCheck", "TextSite", "sentence_around"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ScanHit:
    """A match inside one site: rule, severity, message and the span in the original text."""

    rule: str
    severity: Severity
    message: str
    start: int
    end: int
    hint: str = ""
    decoded: str | None = None
    """What the span says once decoded, when it was hidden or encoded."""
    target: str | None = None
    """What the hit is about, when it names something: a file, a host, another tool."""


TextCheck = Callable[[TextSite], Iterable[ScanHit]]

_SENTENCE_END = re.compile(r"[.!?;\n](?:\s|$)|\n")


def sentence_around(text: str, start: int, end: int, reach: int = 240) -> tuple[int, int]:
    """The sentence holding `[start, end)`, at most `reach` characters each side."""
    left = max(0, start - reach)
    ends = [m.end() for m in _SENTENCE_END.finditer(text, left, start)]
    begin = ends[-1] if ends else left
    after = _SENTENCE_END.search(text, end, min(len(text), end + reach))
    return begin, after.start() + 1 if after else min(len(text), end + reach)
