"""Walk JSON values and JSON Schemas, keeping the JSON pointer of every node."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["SchemaNode", "StringSite", "escape", "iter_schema_nodes", "iter_strings", "join"]

_MAX_DEPTH = 64
"""Deeper nesting is not walked: no real schema needs it and cycles of copies stop here."""

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
    return str(part).replace("~", "~0").replace("/", "~1")


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
    """Every subschema of `schema` (itself first), depth first, in document order."""
    yield from _nodes(schema, pointer, None, None, 0)


def _nodes(
    node: Mapping[str, Any],
    pointer: str,
    prop: str | None,
    parent: Mapping[str, Any] | None,
    depth: int,
) -> Iterator[SchemaNode]:
    yield SchemaNode(pointer=pointer, node=node, property=prop, parent=parent, depth=depth)
    if depth >= _MAX_DEPTH:
        return
    for key, value in node.items():
        if key in _MAPS and isinstance(value, Mapping):
            for name, child in value.items():
                if isinstance(child, Mapping):
                    yield from _nodes(
                        child,
                        join(pointer, key, name),
                        name if key == "properties" else None,
                        node,
                        depth + 1,
                    )
        elif key in _ONE and isinstance(value, Mapping):
            yield from _nodes(value, join(pointer, key), None, node, depth + 1)
        elif key in _MANY and isinstance(value, list):
            for i, child in enumerate(value):
                if isinstance(child, Mapping):
                    yield from _nodes(child, join(pointer, key, i), None, node, depth + 1)


@dataclass(frozen=True, kw_only=True, slots=True)
class StringSite:
    """A string a model may read, and the role it plays where it sits."""

    pointer: str
    text: str
    field: str
    """`name`, `property` (a property name), `description`, `title`, `enum`, `default`,
    `examples`, `const` or `other`."""


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


def iter_strings(value: Any, pointer: str = "") -> Iterator[StringSite]:
    """Every string inside `value` at any depth: values, and property names of schemas."""
    yield from _strings(value, pointer, "other", 0)


def _strings(value: Any, pointer: str, field: str, depth: int) -> Iterator[StringSite]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield StringSite(pointer=pointer, text=value, field=field)
    elif isinstance(value, Mapping):
        for key, child in value.items():
            key = str(key)
            where = join(pointer, key)
            if key in _STRUCTURAL:
                continue
            if key in ("properties", "patternProperties", "$defs", "definitions") and isinstance(
                child, Mapping
            ):
                for name in child:
                    yield StringSite(
                        pointer=join(where, str(name)), text=str(name), field="property"
                    )
            inner = _FIELDS.get(
                key, field if field in ("enum", "default", "examples", "const") else "other"
            )
            yield from _strings(child, where, inner, depth + 1)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _strings(child, join(pointer, i), field, depth + 1)
