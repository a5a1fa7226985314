"""Walk JSON values and JSON Schemas iteratively, keeping the JSON pointer of every node.

Every walk here is explicitly bounded (`MAX_DEPTH`, `MAX_VALUES`) and none recurses, so
no declaration can exhaust the stack. `unreadable()` is the one place that says where a
bound stops a walk, so what the other walks leave out is always reported.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from callgate.lint._text import View, ViewKind, printable, view

__all__ = [
    "MAX_DEPTH",
    "MAX_VALUES",
    "SchemaNode",
    "TextSite",
    "bounds",
    "escape",
    "iter_schema_nodes",
    "iter_strings",
    "join",
    "unreadable",
]

MAX_DEPTH = 256
"""Objects and arrays nested deeper than this are not read (128 schema levels: no real
schema comes near, and the JSON and schema libraries underneath recurse)."""
MAX_VALUES = 100_000
"""Values read from one declaration at most: no model API takes a tool that large, and
shared sub-objects of a Python value could otherwise multiply without end."""
MAX_DIGITS = 4300
"""Longest integer Python turns into text by default (`sys.get_int_max_str_digits`)."""
_MAX_REPORTED = 20

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_ONE = (
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_MANY = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_KEYWORDS = frozenset(_MAPS + _ONE + _MANY)

# Values of these keys are machine keywords, never text a model reads as prose.
_STRUCTURAL = frozenset(
    {
        "type",
        "$schema",
        "$ref",
        "$id",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "format",
        "required",
        "contentEncoding",
        "contentMediaType",
    }
)


def escape(part: str | int) -> str:
    """One JSON pointer reference token (RFC 6901)."""
    text = part if isinstance(part, str) else str(part)
    if "~" not in text and "/" not in text:
        return text
    return text.replace("~", "~0").replace("/", "~1")


def join(pointer: str, *parts: str | int) -> str:
    return pointer + "".join("/" + escape(p) for p in parts)


@dataclass(frozen=True, kw_only=True, slots=True)
class SchemaNode:
    """One subschema, with where it is and, for a property, its name."""

    pointer: str
    node: Mapping[str, Any]
    property: str | None = None
    """Set when the node is `properties/<name>` of its parent."""
    parent: Mapping[str, Any] | None = None
    depth: int = 0


def iter_schema_nodes(schema: Mapping[str, Any], pointer: str = "") -> Iterator[SchemaNode]:
    """Every subschema of `schema` (itself first), depth first, in document order.

    Subschemas deeper than `MAX_DEPTH` are left out; `unreadable()` reports them.
    """
    stack = [SchemaNode(pointer=pointer, node=schema)]
    while stack:
        site = stack.pop()
        yield site
        if site.depth < MAX_DEPTH:
            stack.extend(reversed(list(_children(site))))


def _is_map(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _children(site: SchemaNode) -> Iterator[SchemaNode]:
    node, pointer, depth = site.node, site.pointer, site.depth + 1
    for key, value in node.items():
        if key not in _KEYWORDS:
            continue
        if key in _MAPS and _is_map(value):
            for name, child in value.items():
                if _is_map(child):
                    yield SchemaNode(
                        pointer=join(pointer, key, name),
                        node=child,
                        property=name if key == "properties" else None,
                        parent=node,
                        depth=depth,
                    )
        elif key in _ONE and _is_map(value):
            yield SchemaNode(pointer=join(pointer, key), node=value, parent=node, depth=depth)
        elif key in _MANY and isinstance(value, list):
            for i, child in enumerate(value):
                if _is_map(child):
                    yield SchemaNode(
                        pointer=join(pointer, key, i), node=child, parent=node, depth=depth
                    )


@dataclass(frozen=True, kw_only=True, slots=True)
class TextSite:
    """A string a model may read, where it sits and the role it plays there: what the walk
    finds and what each poisoning check looks at."""

    pointer: str
    text: str
    field: str
    """`name`, `property` (a property name), `description`, `title`, `enum`, `default`,
    `examples`, `const` or `other`."""
    decoded_from: str | None = None
    """Set when the text was hidden or encoded in the declaration (`tag characters`, ...)."""

    def view(self, kind: ViewKind) -> View:
        return view(self.text, kind)


_FIELDS = {
    "description": "description",
    "title": "title",
    "enum": "enum",
    "default": "default",
    "examples": "examples",
    "example": "examples",
    "const": "const",
    "name": "name",
}
_DATA = frozenset({"enum", "default", "examples", "example", "const"})
_NAMES = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_ROOTS = frozenset(
    {"inputSchema", "input_schema", "parameters", "parametersJsonSchema", "outputSchema"}
)

# Where a value sits decides what its keys are. In a schema (and in the envelope around
# it) keys are keywords; under `properties` and the like they are names a model reads, and
# their values are schemas again; under `default`, `enum`, `examples` and `const` every key
# and string is data. A property called `type` is a name, not the `type` keyword.
_Position = str
_ENVELOPE, _SCHEMA, _NAMED_MAP, _DATA_VALUE = "envelope", "schema", "names", "data"
_Frame = tuple[Any, str, str, int, _Position]


def iter_strings(value: Any, pointer: str = "") -> Iterator[TextSite]:
    """Every string a model may read inside `value` (a declaration as written), in document
    order: texts, data values and property names, each with its role. Keyword values such
    as `"type": "string"` are machine text and left out, unless they hold prose (a space).
    Within `MAX_DEPTH` and `MAX_VALUES`; `unreadable()` reports what lies beyond."""
    stack: list[_Frame] = [(value, pointer, "other", 0, _ENVELOPE)]
    seen = 0
    while stack and seen < MAX_VALUES:
        current, where, field, depth, position = stack.pop()
        seen += 1
        if isinstance(current, str):
            yield TextSite(pointer=where, text=current, field=field)
        elif depth < MAX_DEPTH and isinstance(current, Mapping):
            stack.extend(reversed(list(_members(current, where, field, depth + 1, position))))
        elif depth < MAX_DEPTH and isinstance(current, list | tuple):
            stack.extend(
                (child, join(where, i), field, depth + 1, position)
                for i, child in reversed(list(enumerate(current)))
            )


def _members(
    node: Mapping[Any, Any], where: str, field: str, depth: int, position: _Position
) -> Iterator[_Frame]:
    for key, child in node.items():
        if not isinstance(key, str):
            continue
        inner = join(where, key)
        if position == _DATA_VALUE:
            yield key, inner, field, depth, position
            yield child, inner, field, depth, position
        elif position == _NAMED_MAP:
            yield key, inner, "property", depth, position
            yield child, inner, "other", depth, _SCHEMA if _is_map(child) else _ENVELOPE
        elif key in _STRUCTURAL and _machine(child):
            continue
        else:
            yield child, inner, _FIELDS.get(key, "other"), depth, _inner(key, child, position)


def _inner(key: str, child: Any, position: _Position) -> _Position:
    if key in _DATA:
        return _DATA_VALUE
    if position == _SCHEMA and key in _NAMES and _is_map(child):
        return _NAMED_MAP
    if position == _ENVELOPE and key in _SCHEMA_ROOTS:
        return _SCHEMA
    return position


def _machine(value: Any) -> bool:
    """A keyword value that is not prose: a word, or a list of words (`required`)."""
    if isinstance(value, str):
        return not any(c.isspace() for c in value)
    if isinstance(value, list | tuple):
        return all(isinstance(v, str) and not any(c.isspace() for c in v) for v in value)
    return False


_Path = tuple[Any, str | int] | None
"""A pointer as a chain (parent chain, token), made into text only when reported."""


def unreadable(value: Any, pointer: str = "") -> tuple[tuple[str, str], ...]:
    """(pointer, reason) for each part of `value` that is not plain JSON or lies beyond a
    walking bound: lone surrogates, NaN and infinities, integers of more than 4,300
    digits, keys that are not strings, values of other types, nesting deeper than
    `MAX_DEPTH`, more than `MAX_VALUES` values. At most 20 are listed, then a count."""
    return bounds(value, pointer)[0]


def bounds(value: Any, pointer: str = "") -> tuple[tuple[tuple[str, str], ...], int]:
    """What `unreadable()` finds, and how deep the walk went (`value` itself is level 0):
    one walk tells both whether a declaration can be read and whether it is nested past
    a reader's own limit."""
    found: list[tuple[str, str]] = []
    more = 0
    stack: list[tuple[Any, _Path, int]] = [(value, None, 0)]
    seen = deepest = 0
    while stack:
        current, path, depth = stack.pop()
        seen += 1
        deepest = depth if depth > deepest else deepest
        if seen > MAX_VALUES:
            found.append(
                (_text(pointer, path), f"more than {MAX_VALUES:,} values; the rest unread")
            )
            break
        reasons = _inspect(current, path, depth, stack)
        for reason in reasons:
            if len(found) < _MAX_REPORTED:
                found.append((_text(pointer, path), reason))
            else:
                more += 1
    if more:
        found.append((printable(pointer), f"and {more:,} more parts that cannot be read"))
    return tuple(found), deepest


def _text(pointer: str, path: _Path) -> str:
    tokens: list[str | int] = []
    while path is not None:
        path, token = path
        tokens.append(token)
    return printable(join(pointer, *reversed(tokens)))


def _inspect(value: Any, path: _Path, depth: int, stack: list[tuple[Any, _Path, int]]) -> list[str]:
    """Why `value` itself cannot be read; its children go on `stack`, last one first."""
    kind = type(value)
    mapping = kind is dict or (kind is not list and isinstance(value, Mapping))
    if not mapping and not isinstance(value, list | tuple):
        return _scalar_problems(value)
    if depth >= MAX_DEPTH:
        return [f"nested deeper than {MAX_DEPTH} levels; what lies below was not read"]
    if not mapping:
        stack.extend((value[i], (path, i), depth + 1) for i in range(len(value) - 1, -1, -1))
        return []
    reasons: list[str] = []
    for key, child in reversed(list(value.items())):
        if not isinstance(key, str):
            reasons.append(f"a key of type {type(key).__name__} is not a JSON object key")
            continue
        if not key.isascii():
            reasons += [f"key {key[:40]!r}: {reason}" for reason in _text_problems(key)]
        stack.append((child, (path, key), depth + 1))
    reasons.reverse()
    return reasons


def _scalar_problems(value: Any) -> list[str]:
    if isinstance(value, str):
        return [] if value.isascii() else _text_problems(value)
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, int):
        return _integer_problems(value)
    if isinstance(value, float):
        return [] if math.isfinite(value) else [_NON_FINITE[str(float(value))]]
    return [f"a Python {type(value).__name__} is not a JSON value"]


_NON_FINITE = {
    "nan": "NaN is not a JSON number",
    "inf": "Infinity is not a JSON number",
    "-inf": "-Infinity is not a JSON number",
}


def _text_problems(text: str) -> list[str]:
    if text.isascii():
        return []
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return [f"lone surrogate U+{ord(text[exc.start]):04X} is not Unicode text"]
    return []


_DIGIT_BITS = int(MAX_DIGITS / math.log10(2))
_TOO_LONG = 10**MAX_DIGITS


def _integer_problems(number: int) -> list[str]:
    if number.bit_length() < _DIGIT_BITS or abs(number) < _TOO_LONG:
        return []
    return [f"an integer of more than {MAX_DIGITS:,} digits"]
