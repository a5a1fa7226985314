"""Variables a model assigns in the code around its calls (`params = {...}; f(params)`).

A call that passes a variable means the value the model assigned to it, when that value
is a literal written in the same text before the call: it is read (never run) and the
substitution is reported. A variable assigned anything else, or never, stays a name.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from callgate.dialects._text_scan import Scan
from callgate.dialects._text_values import (
    NO_VALUE,
    exprs_in,
    parse_python,
    read_value,
    to_value,
    without_comments,
)

__all__ = ["NOT_LITERAL", "Assignments"]

_TYPES = (
    r"(?:let|const|var|final|static|val|"
    r"[A-Za-z_][\w.]*(?:\s*<[^=;\n]*>)?(?:\s*\[\s*\])*)"
)
# `[ \t]` and not `\s`: a type list must not run across lines (that would be quadratic).
_LOOP = re.compile(r"\bfor\s*\(?\s*(?:[\w.<>\[\]]+[ \t]+)?([A-Za-z_]\w*)[ \t]+(?:in|of|:)[ \t]")
_PLACEHOLDERS = frozenset({"...", "\u2026"})
_ASSIGN = re.compile(rf"(?m)^[ \t]*(?:{_TYPES}[ \t]+)*([A-Za-z_]\w*)[ \t]*=(?![=>])[ \t]*")


class _NotLiteral:
    def __repr__(self) -> str:
        return "NOT_LITERAL"


NOT_LITERAL: Any = _NotLiteral()
"""What `Assignments.before` returns for a variable assigned something that is not a
literal (a loop variable, a call's result)."""


class Assignments:
    """`name = value` lines and loop variables of one text, by position."""

    def __init__(self, text: str, scan: Scan) -> None:
        self.at: dict[str, list[int]] = {}
        self.values: dict[tuple[str, int], Any] = {}
        for match in _LOOP.finditer(text):
            self._add(match.group(1), match.start(), NOT_LITERAL)
        for match in _ASSIGN.finditer(text):
            start = match.end()
            if start < len(text) and text[start] in "{[(":
                source = text[start : scan.end(start)]
            else:
                line_end = text.find("\n", start)
                source = without_comments(text[start : len(text) if line_end < 0 else line_end])
            source = source.strip().rstrip(";").strip()
            if source in _PLACEHOLDERS:
                # `InputStream in = ...;`: declared, its value left to the reader; the
                # name stands for the object, as if it were not assigned here at all.
                self._add(match.group(1), match.start(), NO_VALUE)
                continue
            value = _literal(source)
            self._add(match.group(1), match.start(), NOT_LITERAL if value is NO_VALUE else value)
        for places in self.at.values():
            places.sort()

    def _add(self, name: str, at: int, value: Any) -> None:
        self.at.setdefault(name, []).append(at)
        self.values[(name, at)] = value

    def before(self, name: str, position: int) -> Any:
        """What was last assigned to `name` before `position`: a literal, `NOT_LITERAL`,
        or `NO_VALUE` when the text assigns it nothing before (or only `...`)."""
        places = self.at.get(name)
        if not places:
            return NO_VALUE
        i = bisect.bisect_left(places, position)
        return self.values[(name, places[i - 1])] if i else NO_VALUE


def _literal(source: str) -> Any:
    source = source.strip()
    if not source:
        return NO_VALUE
    notes: list[str] = []
    node = parse_python(source)
    value = to_value(node, source, notes) if node is not None else read_value(source, notes)
    return NO_VALUE if value is NO_VALUE or exprs_in(value) else value
