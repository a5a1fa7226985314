"""Hostile values made inert for the page: bounded, and visible as what they are.

Arguments, results, reasons and names come from models, tools and peers. The template
engine escapes HTML; this module makes sure that what it escapes is *text*: characters
that do not show as themselves (controls, bidirectional overrides, zero-width marks, lone
surrogates, unassigned code points) are written as `\\uXXXX` escapes, so an approver
never reads a value other than the one that runs, and a lone surrogate cannot break the
UTF-8 encoding of the response. Every value is cut to a size a page can show, and a JSON
value to a depth and a number of items, with a notice that says so.
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass
from typing import Any, Literal

from callgate._visible import visible

__all__ = [
    "MAX_DEPTH",
    "MAX_ITEMS",
    "MAX_JSON_CHARS",
    "MAX_TEXT",
    "DiffLine",
    "Inert",
    "diff",
    "inert",
    "json_text",
]

MAX_TEXT = 2_000
"""Characters of one plain field (a name, a reason) shown before it is cut."""
MAX_JSON_CHARS = 20_000
"""Characters of one JSON value (arguments, a result) shown before it is cut."""
MAX_DEPTH = 16
"""Levels of nesting shown; deeper objects and arrays are summarized."""
MAX_ITEMS = 200
"""Members of one object or array shown; the rest are counted."""
_MAX_STRING = 4_000
_MAX_INT_BITS = 3_000  # about 900 decimal digits; Python refuses to write past 4,300


class Inert(str):
    """Text already made inert and bounded: the page shows it as it is (still HTML-escaped)."""

    __slots__ = ()


def inert(value: object, *, limit: int = MAX_TEXT, lines: bool = False) -> Inert:
    """`value` as text that shows as itself, at most about `limit` characters; `lines`
    keeps line breaks and tabs (for text shown as a block)."""
    if isinstance(value, Inert):
        return value
    text = value if isinstance(value, str) else _plain(value)
    cut = len(text) - limit
    if cut > 0:
        text = text[:limit]
    return Inert(visible(text, lines=lines) + (f"… ({cut:,} more characters)" if cut > 0 else ""))


def json_text(value: Any, *, sort_keys: bool = False) -> Inert:
    """`value` as indented JSON, inert and bounded (see the module notes)."""
    writer = _Writer(sort_keys=sort_keys)
    writer.value(value, 0)
    return Inert("".join(writer.parts) + writer.notice())


@dataclass(frozen=True, kw_only=True, slots=True)
class DiffLine:
    """One line of an edit's diff."""

    kind: Literal["same", "removed", "added"]
    text: Inert


def diff(before: Any, after: Any) -> list[DiffLine]:
    """The lines of `before` and `after` as sorted JSON, each marked kept, removed or added."""
    old = json_text(before, sort_keys=True).splitlines()
    new = json_text(after, sort_keys=True).splitlines()
    lines: list[DiffLine] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            lines += [DiffLine(kind="same", text=Inert(t)) for t in old[i1:i2]]
            continue
        lines += [DiffLine(kind="removed", text=Inert(t)) for t in old[i1:i2]]
        lines += [DiffLine(kind="added", text=Inert(t)) for t in new[j1:j2]]
    return lines


def _plain(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return _integer(value)
    try:
        return str(value)
    except Exception:  # a value whose own __str__ fails still gets a line on the page
        return f"<{type(value).__name__}>"


def _integer(value: int) -> str:
    if value.bit_length() > _MAX_INT_BITS:
        return f"<an integer of about {int(value.bit_length() * math.log10(2)):,} digits>"
    return str(value)


class _Writer:
    """Writes JSON by hand, only so it can stop at the bounds; `json` writes strings."""

    def __init__(self, *, sort_keys: bool) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.full = False
        self.sort_keys = sort_keys

    def emit(self, text: str) -> None:
        if self.full:
            return
        self.parts.append(text)
        self.size += len(text)
        self.full = self.size > MAX_JSON_CHARS

    def notice(self) -> str:
        return f"\n… (cut at {MAX_JSON_CHARS:,} characters)" if self.full else ""

    def value(self, value: Any, depth: int) -> None:
        if self.full:
            return
        if isinstance(value, dict):
            self.container(value, depth)
        elif isinstance(value, list | tuple):
            self.container(list(value), depth)
        else:
            self.emit(_scalar(value))

    def container(self, value: dict[Any, Any] | list[Any], depth: int) -> None:
        is_object = isinstance(value, dict)
        open_, close = ("{", "}") if is_object else ("[", "]")
        if not value:
            self.emit(open_ + close)
            return
        if depth >= MAX_DEPTH:
            self.emit(f"{open_} … {len(value):,} {'members' if is_object else 'items'} {close}")
            return
        items: list[tuple[Any, Any]] = (
            list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        )
        if self.sort_keys and is_object:
            items.sort(key=lambda kv: str(kv[0]))
        pad = "  " * (depth + 1)
        self.emit(open_)
        for index, (key, member) in enumerate(items[:MAX_ITEMS]):
            self.emit(("," if index else "") + "\n" + pad)
            if is_object:
                self.emit(_scalar(str(key)) + ": ")
            self.value(member, depth + 1)
        if len(items) > MAX_ITEMS:
            self.emit(f",\n{pad}… {len(items) - MAX_ITEMS:,} more")
        self.emit("\n" + "  " * depth + close)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        cut = len(value) - _MAX_STRING
        text = json.dumps(value[:_MAX_STRING], ensure_ascii=False)
        if cut > 0:
            text += f" … ({cut:,} more characters)"
        return inert(text, limit=len(text))
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return _integer(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return repr(value)
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    return inert(f"<{type(value).__name__}: {_plain(value)}>", limit=200)
