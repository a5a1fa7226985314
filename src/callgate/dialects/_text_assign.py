"""Variables a model assigns in the code around its calls (`params = {...}; f(params)`).

A call that passes a variable means the value the model assigned to it, when that value
is a literal written in the same text before the call: it is read (never run) and the
substitution is reported. A variable assigned anything else, or never, stays a name (the
word the model wrote); a loop variable stands for many values and is no value at all.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
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
_DEEPEST = 32
"""Deepest put read, as for calls (`MAX_DEPTH` of the extractor)."""
MAX_ENTRIES = 256
"""Most entries a map filled statement by statement is read with."""
_ASSIGN = re.compile(rf"(?m)^[ \t]*(?:{_TYPES}[ \t]+)*([A-Za-z_]\w*)[ \t]*=(?![=>])[ \t]*")


class _NotLiteral:
    def __repr__(self) -> str:
        return "NOT_LITERAL"


NOT_LITERAL: Any = _NotLiteral()
"""What `Assignments.before` returns for a loop variable: it takes many values, so the
call does not mean its name."""


_WORD = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_CHANGED = re.compile(r"[ \t]*(?:\+\+|--|(?:[-+*/%&|^@]|<<|>>|\*\*|//)?=(?![=>]))")
"""After a name: an operator that changes what it holds (`x += 1`, `x = 2`, `x++`)."""
_REST = re.compile(r"[ \t]*;?[ \t]*(?://.*|#.*)?$", re.M)
"""What may follow a `put(...)` on its line: a `;`, a comment."""


class Assignments:
    """`name = value` lines and loop variables of one text, by position.

    A value is read only where nothing between the assignment and the call may have
    changed it: a map is filled only by plain `put`/item/attribute statements with
    string-literal keys, at the level of its assignment; any other use of it, an
    assignment inside a block the call is outside of, or a change to a scalar makes the
    variable no value, with the reason (`Expr`).
    """

    def __init__(self, text: str, scan: Scan, calls: Sequence[tuple[int, int]] = ()) -> None:
        self.text = text
        self.at: dict[str, list[int]] = {}
        self.values: dict[tuple[str, int], Any] = {}
        self.how: dict[tuple[str, int], tuple[str, ...]] = {}
        """(name, place) -> how the literal it holds there was read (repairs, entries)."""
        self.origin: dict[tuple[str, int], tuple[int, int]] = {}
        """(name, place) -> where the variable's assignment starts and ends."""
        self.opens = sorted(scan.ends)
        self.closes = sorted(scan.ends.values())
        for match in _LOOP.finditer(text):
            self._add(match.group(1), match.start(), NOT_LITERAL, match.end())
        for match in _ASSIGN.finditer(text):
            source = _statement(text, match.end(), scan)
            # `InputStream in = ...;`, `Path p = Paths.get(...)`: the value is left to the
            # reader or is not a literal; the name stands for the object, as if it were
            # not assigned here at all (it is never looked up or computed).
            notes: list[str] = []
            value = NO_VALUE if source in _PLACEHOLDERS else _literal(source, notes)
            end = _statement_end(text, match.end(), scan)
            self._add(match.group(1), match.start(), value, end)
            self.how[(match.group(1), match.start())] = tuple(notes)
        for places in self.at.values():
            places.sort()
        entries = self._entries(text, scan)
        self.uses, self.changes = self._touches(text, scan, calls, entries)

    def _entries(self, text: str, scan: Scan) -> set[int]:
        """`params.put("a", 1);`, `params["a"] = 1`, `params.a = 1` after `params = new
        HashMap<>()` (or `{}`): the map holds each entry from its line on. Returns where
        the name of each entry statement read stands."""
        names: set[int] = set()
        for match in _ENTRY.finditer(text):
            name = match.group("name")
            place = self._place(name, match.start())
            held = NO_VALUE if place is None else self.values[(name, place)]
            if place is None or not isinstance(held, dict | Expr) or self._loop(name, place):
                continue
            if isinstance(held, Expr) and self.origin[(name, place)][0] == place:
                continue  # assigned text that is not a map
            names.add(match.start("name"))
            origin = self.origin[(name, place)]
            notes = list(self.how.get((name, place), ()))
            filled: Any
            if isinstance(held, Expr):  # already no value: it stays so, and is not read
                self._add(name, match.start(), held, match.end(), origin)
                bisect.insort(self.at[name], self.at[name].pop())
                continue
            entry, end = _entry(match, text, scan, notes)
            if isinstance(entry, str):
                filled = Expr(source=name, reason=f"a map whose entry {entry}")
            elif self._level(match.start()) != self._level(origin[0]):
                reason = "a map filled inside a block (a condition, a loop, a function)"
                filled = Expr(source=name, reason=reason)
            else:
                filled = {**held, entry[0]: entry[1]}
                notes.append(f"{name}: entry {entry[0]!r} read from its own statement")
                if len(filled) > MAX_ENTRIES:  # each entry copies the map: bounded
                    reason = f"a map filled with more than {MAX_ENTRIES} entries, not read"
                    filled = Expr(source=name, reason=reason)
            self._add(name, match.start(), filled, end, origin)
            self.how[(name, match.start())] = tuple(notes)
            bisect.insort(self.at[name], self.at[name].pop())
        return names

    def _touches(
        self, text: str, scan: Scan, calls: Sequence[tuple[int, int]], entries: set[int]
    ) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Where each assigned name is used other than by an entry statement read or a
        tool call (`uses`), and where such a use changes it (`changes`), in text order."""
        uses: dict[str, list[int]] = {}
        changes: dict[str, list[int]] = {}
        starts = [start for start, _ in calls]
        for match in _WORD.finditer(text):
            name, at = match.group(0), match.start()
            if name not in self.at or at in entries or scan.string_at(at) is not None:
                continue
            call = bisect.bisect_right(starts, at) - 1
            if call >= 0 and at < calls[call][1]:
                continue
            uses.setdefault(name, []).append(at)
            if _CHANGED.match(text, match.end()):
                changes.setdefault(name, []).append(at)
        return uses, changes

    def _add(
        self, name: str, at: int, value: Any, end: int, origin: tuple[int, int] | None = None
    ) -> None:
        self.at.setdefault(name, []).append(at)
        self.values[(name, at)] = value
        self.origin[(name, at)] = origin or (at, end)

    def _place(self, name: str, position: int) -> int | None:
        places = self.at.get(name)
        if not places:
            return None
        i = bisect.bisect_left(places, position)
        return places[i - 1] if i else None

    def _loop(self, name: str, place: int) -> bool:
        return self.values[(name, place)] is NOT_LITERAL

    def read(self, name: str, position: int) -> tuple[Any, tuple[str, ...]]:
        """`before`, and how the value was read (repairs of its literal, its entries)."""
        value = self.before(name, position)
        place = self._place(name, position)
        return value, () if place is None else self.how.get((name, place), ())

    def before(self, name: str, position: int) -> Any:
        """What was last assigned to `name` before `position`: a literal, `NOT_LITERAL`
        for a loop variable, `NO_VALUE` when the text assigns it no literal before, or an
        `Expr` saying why what it holds at `position` is not read."""
        place = self._place(name, position)
        if place is None:
            return NO_VALUE
        value = self.values[(name, place)]
        if (
            value is NOT_LITERAL
            or value is NO_VALUE
            or (isinstance(value, Expr) and not value.bare)
        ):
            return value
        start, end = self.origin[(name, place)]
        if self._deeper(start, position):
            return Expr(source=name, reason="assigned inside a block the call is outside of")
        touched = self.uses if isinstance(value, dict | list) else self.changes
        at = _first_in(touched.get(name, []), end, position)
        if at is None:
            return value
        start = self.text.rfind("\n", 0, at) + 1
        line = self.text[start : self.text.find("\n", at) % (len(self.text) + 1)].strip()
        return Expr(
            source=name,
            reason=f"changed or used by code between its assignment and the call ({line[:60]!r})",
        )

    def _level(self, position: int) -> tuple[int, int]:
        """How deep `position` is nested: its line's indentation, the brackets around it."""
        line = self.text.rfind("\n", 0, position) + 1
        text = self.text[line : line + 200]  # an indentation longer than this is as deep
        indent = len(text) - len(text.lstrip(" \t"))
        inside = bisect.bisect_left(self.opens, position) - bisect.bisect_right(
            self.closes, position
        )
        return indent, inside

    def _deeper(self, assigned: int, call: int) -> bool:
        (a_indent, a_inside), (c_indent, c_inside) = self._level(assigned), self._level(call)
        return a_indent > c_indent or a_inside > c_inside


def _first_in(places: list[int], start: int, end: int) -> int | None:
    i = bisect.bisect_left(places, start)
    return places[i] if i < len(places) and places[i] < end else None


def _statement_end(text: str, start: int, scan: Scan) -> int:
    if start < len(text) and text[start] in "{[(":
        return scan.end(start)
    line_end = text.find("\n", start)
    return len(text) if line_end < 0 else line_end


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


def _entry(
    match: re.Match[str], text: str, scan: Scan, notes: list[str]
) -> tuple[tuple[str, Any] | str, int]:
    """The key and value one entry statement writes, or why they are not read; and
    where the statement ends."""
    if match.group("put"):
        opener = match.end() - 1
        end = scan.end(opener)
        if scan.depth.get(opener, 0) > _DEEPEST:  # each put read at most this deep: linear
            return f"is set by a put nested more than {_DEEPEST} levels deep", end
        parts = split_top(text[opener + 1 : end - 1])
        if not _REST.match(text, end):
            return "is set by a statement that goes on after the put (chained or more code)", end
        if len(parts) != 2:
            return f"is set by a put of {len(parts)} arguments", end
        key, source = _literal(parts[0], []), parts[1].strip()
        if not isinstance(key, str):
            return f"has a key that is not a string literal ({parts[0].strip()[:40]!r})", end
    else:
        quoted = match.group("key")
        key = quoted[1:-1] if quoted else match.group("attr")
        source = _statement(text, match.end(), scan)
        end = _statement_end(text, match.end(), scan)
    if not source:
        return "is set with no value", end
    return (key, _item(source, notes)), end


def _item(source: str, notes: list[str]) -> Any:
    """An entry's value: a literal, a name (the word written), else the text as no value."""
    node = parse_python(source)
    if node is not None:
        return to_value(node, source, notes)
    value = read_value(source, notes)
    return Expr(source=source, reason="text that is not a value") if value is NO_VALUE else value


def _literal(source: str, notes: list[str]) -> Any:
    source = source.strip()
    if not source:
        return NO_VALUE
    if _EMPTY_MAP.fullmatch(source):
        return {}
    node = parse_python(source)
    value = to_value(node, source, notes) if node is not None else read_value(source, notes)
    if isinstance(value, Expr) and not value.bare:
        return NO_VALUE
    return value  # a bare name is kept: it is judged where the variable is used
