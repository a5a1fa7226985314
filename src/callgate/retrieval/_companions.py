"""Companions: tools another tool needs first, which the user's request never names.

"How long is my commute from 12 Oak Street to the station?" finds a commute tool that
takes coordinates; the geocoder that turns the addresses into coordinates shares no
word with the request. A companion is offered with the tool that needs it.

Companions are declared by the user (`ToolIndex(companions={"commute": ["geocode"]})`)
or learned from the catalog's own parameters, within one server or namespace (a
server's helpers serve its own tools; across servers the guess would be noise):

* a required coordinates parameter (`latitude`, `lon`, `coordinates`, ...) is served by
  a tool of the same server that mentions coordinates or geocoding and needs none;
* a required date or time parameter is served by a tool of the same server that gives
  the current date or time and needs no argument;
* a required `<thing>_id` is served by a tool of the same server that lists, searches or
  finds `<thing>`s and does not need that id itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from callgate.contract import Tool
from callgate.retrieval._card import split_words

__all__ = ["Companions"]

_COORDINATE = re.compile(r"(?:^|_)(?:lat|latitude|lon|lng|longitude|coordinates?)$")
_TIME = re.compile(r"(?:^|_)(?:date|time|datetime|timestamp|since|until)(?:_|$)")
_TIME_FORMATS = frozenset({"date", "date-time", "time"})
_ID = re.compile(r"^(?P<thing>[a-z][a-z0-9_]*?)_?ids?$")
_FINDERS = frozenset({"list", "search", "find", "lookup", "query", "browse", "all"})
_MAX_LEARNED = 2
_NOT_THINGS = frozenset({"", "page", "request", "session"})


class Companions:
    """The companions of each indexed tool, declared and learned.

    Learned companions are kept per server or namespace and learned again only for a
    group whose members changed, so adding a tool to one server of a large catalog does
    not revisit the others.
    """

    def __init__(self, *, declared: Mapping[str, Iterable[str]] | None = None) -> None:
        self.declared = {name: tuple(found) for name, found in (declared or {}).items()}
        self._members: dict[str, dict[str, Tool]] = {}
        self._learned: dict[str, dict[str, tuple[str, ...]]] = {}

    def added(self, tool: Tool) -> None:
        group = _group(tool)
        if group:
            self._members.setdefault(group, {})[tool.name] = tool
            self._learned.pop(group, None)

    def removed(self, tool: Tool) -> None:
        group = _group(tool)
        if group and self._members.get(group, {}).pop(tool.name, None) is not None:
            self._learned.pop(group, None)

    def of(self, name: str, tools: Mapping[str, Tool]) -> tuple[str, ...]:
        """Companions of `name` that are indexed: declared ones first, then learned."""
        tool = tools.get(name)
        group = _group(tool) if tool is not None else None
        learned: tuple[str, ...] = ()
        if group:
            if group not in self._learned:
                self._learned[group] = learn(list(self._members.get(group, {}).values()))
            learned = self._learned[group].get(name, ())
        found = [*self.declared.get(name, ()), *learned]
        return tuple(c for c in dict.fromkeys(found) if c in tools and c != name)


def learn(members: list[Tool]) -> dict[str, tuple[str, ...]]:
    """Companions learned from required parameters among the tools of one group.

    Providers are sorted out once per group, so learning is linear in its size.
    """
    if len(members) < 2:
        return {}
    required = {m.name: _required(m) for m in members}
    coordinates = [m.name for m in members if _gives_coordinates(m, required[m.name])]
    now = [m.name for m in members if _gives_now(m, required[m.name])]
    finders: dict[str, list[Tool]] = {}
    for m in members:
        words = {_singular(w) for w in _words(m)}
        if words & _FINDERS:
            for word in words - _FINDERS:
                finders.setdefault(word, []).append(m)
    learned: dict[str, tuple[str, ...]] = {}
    for tool in members:
        needs = required[tool.name]
        if not needs:
            continue
        found: list[str] = []
        if any(_COORDINATE.search(p) for p in needs):
            found += coordinates
        if any(_TIME.search(p) or _format(tool, p) in _TIME_FORMATS for p in needs):
            found += now
        for parameter in needs:
            match = _ID.match(parameter)
            if match and match.group("thing") not in _NOT_THINGS:
                thing = _singular(split_words(match.group("thing"))[-1])
                found += [
                    m.name for m in finders.get(thing, ()) if parameter not in required[m.name]
                ]
        found = [n for n in dict.fromkeys(found) if n != tool.name]
        if found:
            learned[tool.name] = tuple(found[:_MAX_LEARNED])
    return learned


def _group(tool: Tool) -> str | None:
    server = tool.metadata.get("server")
    return server if isinstance(server, str) and server else tool.namespace


def _required(tool: Tool) -> list[str]:
    """Required top-level parameter names, lower-cased with `_` between words."""
    required = tool.input_schema.get("required")
    if not isinstance(required, list):
        return []
    return ["_".join(split_words(p)) for p in required if isinstance(p, str)]


def _format(tool: Tool, parameter: str) -> Any:
    properties = tool.input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return None
    for name, schema in properties.items():
        if "_".join(split_words(str(name))) == parameter and isinstance(schema, Mapping):
            return schema.get("format")
    return None


def _words(tool: Tool) -> set[str]:
    source = tool.metadata.get("source_name")
    return set(split_words(source if isinstance(source, str) else tool.name))


def _gives_coordinates(tool: Tool, required: list[str]) -> bool:
    if any(_COORDINATE.search(p) for p in required):
        return False
    text = " ".join([*_words(tool), tool.description.lower()])
    return "geocod" in text or "coordinates" in text


def _gives_now(tool: Tool, required: list[str]) -> bool:
    words = _words(tool)
    return (
        not required
        and bool(words & {"current", "now", "today"})
        and bool(words & {"time", "date", "datetime", "timestamp"})
    )


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word
