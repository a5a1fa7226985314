"""Variables a model assigns in the code around its calls (`params = {...}; f(params)`).

A call that passes a variable means the value the model assigned to it, when that value
is a literal written in the same text before the call: it is read (never run) and the
substitution is reported. A variable assigned anything else, or never, stays a name (the
word the model wrote); a loop variable stands for many values and is no value at all.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from callgate.dialects._text_scan import Scan
from callgate.dialects._text_values import (
    NO_VALUE,
    Expr,
    parse_python,
    read_value,
    split_top,
    to_value,
    without_comments,
)

__all__ = ["MAX_ENTRIES", "NOT_LITERAL", "Assignments"]

_TYPES = (
    r"(?:let|const|var|final|static|val|"
    r"[A-Za-z_][\w.]*(?:\s*<[^=;\n]*>)?(?:\s*\[\s*\])*)"
)
# `[ \t]` and not `\s`: a type list must not run across lines (that would be quadratic).
_LOOP = re.compile(r"\bfor\s*\(?\s*(?:[\w.<>\[\]]+[ \t]+)?([A-Za-z_]\w*)[ \t]+(?:in|of|:)[ \t]")
_PLACEHOLDERS = frozenset({"...", "\u2026"})
MAX_ENTRIES = 256
"""Most entries a map filled statement by statement is read with."""
_ASSIGN = re.compile(rf"(?m)^[ \t]*(?:{_TYPES}[ \t]+)*([A-Za-z_]\w*)[ \t]*=(?![=>])[ \t]*")


class _NotLiteral:
    def __repr__(self) -> str:
        return "NOT_LITERAL"


NOT_LITERAL: Any = _NotLiteral()
"""What `Assignments.before` returns for a loop variable: it takes many values, so the
call does not mean its name."""


class Assignments:
    """`name = value` lines and loop variables of one text, by position."""

    def __init__(self, text: str, scan: Scan) -> None:
        self.at: dict[str, list[int]] = {}
        self.values: dict[tuple[str, int], Any] = {}
        for match in _LOOP.finditer(text):
            self._add(match.group(1), match.start(), NOT_LITERAL)
        for match in _ASSIGN.finditer(text):
            source = _statement(text, match.end(), scan)
            # `InputStream in = ...;`, `Path p = Paths.get(...)`: the value is left to the
            # reader or is not a literal; the name stands for the object, as if it were
            # not assigned here at all (it is never looked up or computed).
            value = NO_VALUE if source in _PLACEHOLDERS else _literal(source)
            self._add(match.group(1), match.start(), value)
        for places in self.at.values():
            places.sort()
        self._entries(text, scan)

    def _entries(self, text: str, scan: Scan) -> None:
        """`params.put("a", 1);`, `params["a"] = 1`, `params.a = 1` after `params = new
        HashMap<>()` (or `{}`): the map holds each entry from its line on."""
        for match in _ENTRY.finditer(text):
            name = match.group("name")
            held = self.before(name, match.start())
            if not isinstance(held, dict):
                continue
            entry = _entry(match, text, scan)
            if entry is None:
                continue
            filled: Any = {**held, entry[0]: entry[1]}
            if len(filled) > MAX_ENTRIES:  # each entry copies the map: bounded, not quadratic
                reason = f"a map filled with more than {MAX_ENTRIES} entries, not read"
                filled = Expr(source=name, reason=reason)
            self._add(name, match.start(), filled)
            bisect.insort(self.at[name], self.at[name].pop())

    def _add(self, name: str, at: int, value: Any) -> None:
        self.at.setdefault(name, []).append(at)
        self.values[(name, at)] = value

    def before(self, name: str, position: int) -> Any:
        """What was last assigned to `name` before `position`: a literal, `NOT_LITERAL`
        for a loop variable, or `NO_VALUE` when the text assigns it no literal before."""
        places = self.at.get(name)
        if not places:
            return NO_VALUE
        i = bisect.bisect_left(places, position)
        return self.values[(name, places[i - 1])] if i else NO_VALUE


def _statement(text: str, start: int, scan: Scan) -> str:
    """The source of the value that starts at `start`: a bracketed span, else the line."""
    if start < len(text) and text[start] in "{[(":
        source = text[start : scan.end(start)]
    else:
        line_end = text.find("\n", start)
        source = without_comments(text[start : len(text) if line_end < 0 else line_end])
    return source.strip().rstrip(";").strip()


_ENTRY = re.compile(
    r"""(?m)^[ \t]*(?P<name>[A-Za-z_]\w*)(?:(?P<put>\.(?:put|set)\s*\()"""
    r"""|\[\s*(?P<key>"[^"\\\n]*"|'[^'\\\n]*')\s*\][ \t]*=(?![=>])[ \t]*"""
    r"""|\.(?P<attr>[A-Za-z_]\w*)[ \t]*=(?![=>])[ \t]*)"""
)
_EMPTY_MAP = re.compile(
    r"new\s+(?:\w+\.)*(?:\w*Map|JSONObject|Object)\s*(?:<[^()]*>)?\s*\(\s*\)|dict\(\s*\)"
)
"""A map made empty, to be filled entry by entry: `new HashMap<>()`, `new Map()`, `dict()`."""


def _entry(match: re.Match[str], text: str, scan: Scan) -> tuple[str, Any] | None:
    """The key and value one entry statement writes, or None when they are not read."""
    if match.group("put"):
        opener = match.end() - 1
        parts = split_top(text[opener + 1 : scan.end(opener) - 1])
        if len(parts) != 2:
            return None
        key, source = _literal(parts[0]), parts[1].strip()
    else:
        quoted = match.group("key")
        key = quoted[1:-1] if quoted else match.group("attr")
        source = _statement(text, match.end(), scan)
    if not isinstance(key, str) or not source:
        return None
    return key, _item(source)


def _item(source: str) -> Any:
    """An entry's value: a literal, a name (the word written), else the text as no value."""
    notes: list[str] = []
    node = parse_python(source)
    if node is not None:
        return to_value(node, source, notes)
    value = read_value(source, notes)
    return Expr(source=source, reason="text that is not a value") if value is NO_VALUE else value


def _literal(source: str) -> Any:
    source = source.strip()
    if not source:
        return NO_VALUE
    if _EMPTY_MAP.fullmatch(source):
        return {}
    notes: list[str] = []
    node = parse_python(source)
    value = to_value(node, source, notes) if node is not None else read_value(source, notes)
    return NO_VALUE if value is NO_VALUE or isinstance(value, Expr) else value
