"""The lint input model: one tool declaration as written, where it came from, and its reading.

Lint works on declarations, not only on `Tool`s, so that a name or schema the `Tool`
constructor would reject can still be reported at its exact place.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from callgate._errors import UserError
from callgate.contract import Declaration, Tool, read_declaration, tool_from_declaration
from callgate.contract._declaration import MAX_DECLARATION_DEPTH
from callgate.lint._finding import Location
from callgate.lint._text import printable
from callgate.lint._walk import MAX_DIGITS, bounds, escape, iter_schema_nodes
from callgate.schema import json_problems

__all__ = [
    "ToolEntry",
    "entry_from_declaration",
    "entry_from_tool",
    "matches_rule",
    "moved",
]

_SCHEMA_KEYS = {
    "mcp": "/inputSchema",
    "anthropic": "/input_schema",
    "gemini": "/parametersJsonSchema",
    "openai_chat": "/function/parameters",
    "openai_responses": "/parameters",
    "plain": "/parameters",
    "legacy_arguments": "/arguments",
}
_DEPRECATED_TEXT = re.compile(r"^\W*deprecated\b|\(deprecated\)|\[deprecated\]", re.IGNORECASE)


class _Unmade:
    """Stands for a `Tool` not made yet."""

    def __repr__(self) -> str:
        return "<made when first asked for>"


_UNMADE: Any = _Unmade()


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolEntry:
    """One declaration of a catalog being linted or scanned."""

    name: str
    """The name as declared (`math.sum`, `get weather`), which may not be a valid `Tool` name."""
    raw: Mapping[str, Any]
    """The declaration as written, dialect envelope included."""
    declaration: Declaration
    """The dialect-neutral reading: description, input schema with non-standard types mapped."""
    body_pointer: str = ""
    """Where name and description sit inside `raw` (`/function` for OpenAI Chat)."""
    schema_pointer: str = "/inputSchema"
    """Where the input schema sits inside `raw`."""
    source: str | None = None
    source_pointer: str | None = None
    line: int | None = None
    group: str | None = None
    """Server or entry the tool belongs to; catalog rules compare tools within a group."""
    server: str | None = None
    """The MCP server offering the tool, when the source says (shadowing compares servers;
    a BFCL entry is a group but not a server)."""
    trusted: bool = False
    """True for tools from the developer's own code; their inline suppressions also apply to
    poisoning rules (an upstream server must not be able to silence the scanner)."""
    deprecated: bool = False
    replacement: str | None = None
    version: str | None = None
    suppress: tuple[str, ...] = ()
    """Rule ids or prefixes suppressed for the whole tool."""
    node_suppress: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(pointer, rule ids) pairs from `x-callgate-ignore` inside the schema."""
    unreadable: tuple[tuple[str, str], ...] = ()
    """(pointer, reason) for each part of `raw` that cannot be read (not JSON, nested too
    deep, ...). Such an entry is reported as a whole and its `declaration` is empty: no
    tool can be made of it, though a host might still send its text to a model."""
    tool: Tool | None = field(default=_UNMADE, compare=False, repr=False)
    """The `Tool` this declaration makes, when it makes one; unless given, made when first
    asked for (a scan without pins never asks)."""
    _legacy: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    _covered: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def readable(self) -> bool:
        return not self.unreadable

    @property
    def description(self) -> str:
        return self.declaration.description

    @property
    def input_schema(self) -> Mapping[str, Any]:
        return self.declaration.input_schema

    @property
    def title(self) -> str | None:
        return self.declaration.annotations.title

    def location(self, pointer: str = "") -> Location:
        return Location(
            tool=self.name,
            pointer=pointer,
            source=self.source,
            source_pointer=(self.source_pointer or "") + pointer
            if self.source_pointer is not None
            else None,
            line=self.line,
            group=self.group,
        )

    def at_body(self, key: str) -> Location:
        """Location of a top-level key of the declaration (`description`, `name`)."""
        return self.location(f"{self.body_pointer}/{escape(key)}")

    def at_schema(self, schema_pointer: str) -> Location:
        """Location of a pointer inside the (read) input schema, mapped back to the raw form."""
        if self.declaration.shape != "legacy_arguments":
            return self.location(self.schema_pointer + schema_pointer)
        return self.location(self._legacy_pointer(schema_pointer))

    def suppressed(self, rule: str, pointer: str) -> bool:
        """True when an inline suppression covers `rule` at `pointer` or above it."""
        if any(matches_rule(rule, s) for s in self.suppress):
            return True
        if not self._covered:
            return False
        # the pointer and each of its ancestors: one lookup per level, not per suppression
        ends = [i for i, c in enumerate(pointer) if c == "/"] + [len(pointer)]
        return any(
            matches_rule(rule, s) for end in ends for s in self._covered.get(pointer[:end], ())
        )

    def _legacy_pointer(self, schema_pointer: str) -> str:
        # The legacy `arguments` list is read into a schema; map `/properties/q/description`
        # back to `/arguments/3/desc` so the location points at what the author wrote.
        parts = schema_pointer.split("/")[1:]
        if len(parts) >= 2 and parts[0] == "properties":
            index = self._legacy.get(parts[1].replace("~1", "/").replace("~0", "~"))
            if index is not None:
                rest = ["desc" if p == "description" else p for p in parts[2:3]] + parts[3:]
                return "/".join(["/arguments", str(index), *rest]).rstrip("/")
        return "/arguments"


class _MadeWhenAsked:
    """Reads the `tool` slot of an entry: one that holds `_UNMADE` gets the `Tool` its
    declaration makes (or None) on first reading. The slot stays a dataclass field, so
    `ToolEntry(tool=...)` and `replace` take it as before."""

    def __init__(self, slot: Any) -> None:
        self._slot = slot

    def __get__(self, entry: ToolEntry | None, owner: type | None = None) -> Any:
        if entry is None:
            return self
        made = self._slot.__get__(entry, owner)
        if made is _UNMADE:
            made = _make_tool(entry.declaration) if entry.readable else None
            self._slot.__set__(entry, made)
        return made

    def __set__(self, entry: ToolEntry, value: Tool | None) -> None:
        self._slot.__set__(entry, value)

    def stored(self, entry: ToolEntry) -> Tool | None:
        """The slot as it is: `_UNMADE` until the Tool is asked for."""
        return cast("Tool | None", self._slot.__get__(entry, ToolEntry))


_TOOL = _MadeWhenAsked(ToolEntry.__dict__["tool"])
setattr(ToolEntry, "tool", _TOOL)  # noqa: B010 (the class is made by the decorator first)


def moved(entry: ToolEntry, **changes: Any) -> ToolEntry:
    """`replace(entry, **changes)` that keeps a Tool not made yet unmade (`replace` reads
    every field, and reading `tool` makes it); a new declaration makes its own Tool."""
    if "tool" not in changes:
        fresh = "declaration" in changes or "raw" in changes
        changes["tool"] = _UNMADE if fresh else _TOOL.stored(entry)
    return replace(entry, **changes)


def matches_rule(rule: str, selector: str) -> bool:
    """`selector` names `rule` exactly, is a prefix of it (`S`, `S00`), or is `*`/`ALL`."""
    selector = selector.strip().upper()
    return selector in ("*", "ALL") or rule.upper().startswith(selector)


def entry_from_declaration(
    raw: Mapping[str, Any],
    *,
    source: str | None = None,
    source_pointer: str | None = None,
    line: int | None = None,
    group: str | None = None,
    server: str | None = None,
    trusted: bool = False,
) -> ToolEntry:
    """Read one declaration of any dialect; `UserError` when it has no usable shape.

    A declaration that is not plain JSON or is nested too deep becomes an entry with
    `unreadable` set, read no further: the JSON, schema and contract code underneath
    cannot take it, and the reasons are findings of their own.
    """
    if not isinstance(raw, Mapping):
        raise UserError(f"a tool declaration must be an object, got {type(raw).__name__}")
    where: dict[str, Any] = {
        "source": source,
        "source_pointer": source_pointer,
        "line": line,
        "group": group,
        "server": server,
        "trusted": trusted,
    }
    problems, depth = bounds(raw)
    if not problems and (depth >= MAX_DECLARATION_DEPTH or not _same_digit_limit()):
        problems = _past_declaration_limits(raw)
    return _unreadable_entry(raw, problems, where) if problems else _readable_entry(raw, where)


def _past_declaration_limits(raw: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """Plain JSON within the scan's bounds may still be more than a declaration may be (the
    contract's own limits): then it is unreadable as a tool, and its text is still scanned.
    The one walk of `bounds` finds all the contract's reader would, but for nesting past
    its limit and for integers when Python's own digit limit has been changed."""
    problem = next(json_problems(raw, max_depth=MAX_DECLARATION_DEPTH, root=""), None)
    return () if problem is None else (("", problem.message),)


def _same_digit_limit() -> bool:
    return sys.get_int_max_str_digits() == MAX_DIGITS


def _readable_entry(raw: Mapping[str, Any], where: dict[str, Any]) -> ToolEntry:
    declaration = read_declaration(raw, checked=True)  # `bounds` walked it
    body_pointer = "/function" if declaration.shape == "openai_chat" else ""
    body = raw.get("function") if declaration.shape == "openai_chat" else raw
    body = body if isinstance(body, Mapping) else raw
    meta = _meta(body)
    deprecated = (
        _flag(body, "deprecated")
        or _flag(meta, "deprecated")
        or bool(_DEPRECATED_TEXT.search(declaration.description[:60]))
    )
    replacement = _text(body, "replacement") or _text(meta, "replacement")
    version = _text(body, "version") or _text(meta, "version")
    schema_pointer = _SCHEMA_KEYS[declaration.shape]
    node_suppress = tuple(
        (schema_pointer + p, ids) for p, ids in _node_ignores(declaration.input_schema)
    )
    return ToolEntry(
        name=declaration.name,
        raw=raw,
        declaration=declaration,
        body_pointer=body_pointer,
        schema_pointer=schema_pointer,
        deprecated=deprecated,
        replacement=replacement,
        version=version,
        suppress=_ignores(meta),
        node_suppress=node_suppress,
        _legacy=_legacy_positions(raw) if declaration.shape == "legacy_arguments" else {},
        _covered=_covering(node_suppress),
        **where,
    )


def _unreadable_entry(
    raw: Mapping[str, Any], problems: tuple[tuple[str, str], ...], where: dict[str, Any]
) -> ToolEntry:
    function = raw.get("function")
    declared = (function if isinstance(function, Mapping) else raw).get("name")
    name = printable(declared) if isinstance(declared, str) and declared else ""
    name = name if len(name) <= 200 else name[:197] + "..."
    return ToolEntry(
        name=name or f"#{where['source_pointer'] or ''}",
        raw=raw,
        declaration=Declaration(shape="plain", name=name, description="", input_schema={}),
        unreadable=problems,
        **where,
    )


def _make_tool(declaration: Declaration) -> Tool | None:
    try:
        return tool_from_declaration(declaration)
    except (UserError, ValueError, TypeError):
        return None


def _legacy_positions(raw: Mapping[str, Any]) -> dict[str, int]:
    """Argument name -> its index in a legacy `arguments` list (the first one wins)."""
    positions: dict[str, int] = {}
    for index, argument in enumerate(raw.get("arguments") or ()):
        if isinstance(argument, Mapping) and isinstance(argument.get("name"), str):
            positions.setdefault(argument["name"], index)
    return positions


def _covering(node_suppress: Iterable[tuple[str, tuple[str, ...]]]) -> dict[str, tuple[str, ...]]:
    covered: dict[str, tuple[str, ...]] = {}
    for pointer, ids in node_suppress:
        covered[pointer] = covered.get(pointer, ()) + ids
    return covered


def entry_from_tool(
    tool: Tool, *, source: str | None = None, group: str | None = None
) -> ToolEntry:
    """An entry for a `Tool` from the developer's own code, shown as its MCP declaration."""
    raw: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": dict(tool.input_schema),
    }
    if tool.output_schema is not None:
        raw["outputSchema"] = dict(tool.output_schema)
    annotations = tool.annotations.to_mcp()
    if annotations:
        raw["annotations"] = annotations
    entry = entry_from_declaration(
        raw, source=source, group=group or tool.namespace, server=group, trusted=True
    )
    meta = tool.metadata.get("callgate") if isinstance(tool.metadata, Mapping) else None
    ignores = _ignores({"callgate": meta}) if isinstance(meta, Mapping) else ()
    return replace(
        entry,
        tool=tool,
        deprecated=tool.deprecated,
        replacement=tool.replacement,
        version=tool.version,
        suppress=ignores,
    )


def _meta(body: Mapping[str, Any]) -> Mapping[str, Any]:
    """Inline metadata: MCP `_meta`, or `metadata`, or `x-callgate` on other dialects."""
    for key in ("_meta", "metadata"):
        value = body.get(key)
        if isinstance(value, Mapping):
            return value
    value = body.get("x-callgate")
    return {"callgate": value} if isinstance(value, Mapping) else {}


def _ignores(meta: Mapping[str, Any]) -> tuple[str, ...]:
    own = meta.get("callgate")
    value = own.get("ignore") if isinstance(own, Mapping) else None
    return _ids(value)


def _node_ignores(schema: Mapping[str, Any]) -> Iterable[tuple[str, tuple[str, ...]]]:
    for site in iter_schema_nodes(schema):
        ids = _ids(site.node.get("x-callgate-ignore"))
        if ids:
            yield site.pointer, ids


def _ids(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if isinstance(value, list):
        return tuple(v.strip() for v in value if isinstance(v, str) and v.strip())
    return ()


def _flag(body: Mapping[str, Any], key: str) -> bool:
    return body.get(key) is True


def _text(body: Mapping[str, Any], key: str) -> str | None:
    value = body.get(key)
    return value if isinstance(value, str) and value else None
