"""OpenAI strict mode: the Structured Outputs subset (dialects.md §6.1).

Unlike the SDK's converters, an optional property is made nullable before it is made
required, so it does not silently become mandatory; `drop_strict_nulls` undoes that on
the way back. Every node gets a type (strict mode refuses one without), single-branch
`allOf`s are merged however deeply they nest, and the documented limits are checked on
the result: a schema past them is sent without strict mode, with a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.dialects._kinds import Dialect
from callgate.dialects._walker import (
    NotStrict,
    SchemaWalker,
    accepts_null,
    is_object,
    pointer_token,
)

__all__ = [
    "ANY_JSON",
    "LIMITS",
    "OpenAIStrict",
    "OriginalPaths",
    "make_nullable",
    "strict_problems",
]

_KEEP = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "enum",
        "const",
        "description",
        "title",
        "$ref",
        "$defs",
        "definitions",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    }
)
_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_REJECTS = ("not", "if", "then", "else", "dependentRequired", "dependentSchemas")
_TYPED = ("type", "anyOf", "$ref")
_IMPLIED = {
    "items": "array",
    "minItems": "array",
    "maxItems": "array",
    "pattern": "string",
    "format": "string",
    "minimum": "number",
    "maximum": "number",
    "exclusiveMinimum": "number",
    "exclusiveMaximum": "number",
    "multipleOf": "number",
}
"""A keyword that applies to one type only implies that type for an untyped node."""

ANY_JSON = "callgate_any_json"
"""The `$defs` entry an untyped subschema is sent as: any JSON value but an object."""
_ANY = {
    "anyOf": [
        {"type": "string"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "array", "items": {"$ref": f"#/$defs/{ANY_JSON}"}},
    ]
}

LIMITS = {
    "nesting": 10,
    "properties": 5000,
    "enum_values": 1000,
    "text": 120_000,
    "large_enum": 250,
    "large_enum_text": 15_000,
}
"""OpenAI's documented Structured Outputs limits (dialects.md §6.1)."""


class OriginalPaths(SchemaWalker):
    """A walker that moves subschemas (an `allOf` branch merged into its parent, a `$ref`
    inlined) while its warnings keep pointing where they are in the original schema."""

    def __init__(self, tool: str) -> None:
        super().__init__(tool)
        self._origin: dict[int, str] = {}
        self._placed: dict[int, str] = {}

    def moved(self, source: Mapping[str, Any], pointer: str) -> None:
        """The children of `source`, which sits at `pointer` in the original, move (the
        first place recorded wins: a child moved twice is still where it was at first)."""
        for key in ("properties", "$defs", "definitions"):
            if isinstance(source.get(key), Mapping):
                for name, value in source[key].items():
                    self._origin.setdefault(id(value), f"{pointer}/{key}/{pointer_token(name)}")
        if isinstance(source.get("items"), Mapping):
            self._origin.setdefault(id(source["items"]), f"{pointer}/items")
        for key in ("anyOf", "oneOf", "allOf"):
            for i, value in enumerate(source.get(key) or ()):
                self._origin.setdefault(id(value), f"{pointer}/{key}/{i}")

    def child(self, value: Any, path: str) -> Any:
        where = self._origin.get(id(value), path)
        out = super().child(value, where)
        self._placed[id(out)] = where
        return out

    def path_of(self, child: Any, fallback: str) -> str:
        """Where a child (as given, or as transformed) sits in the original schema."""
        return self._placed.get(id(child)) or self._origin.get(id(child), fallback)

    def one_of_as_any_of(self, node: dict[str, Any], path: str) -> bool:
        """`oneOf` sent as `anyOf` (no provider subset has `oneOf`); False when the node
        has both, which no single `anyOf` can say."""
        if "oneOf" not in node:
            return True
        if "anyOf" in node:
            return False
        self.moved({"oneOf": node["oneOf"]}, path)
        node["anyOf"] = node.pop("oneOf")
        self.warn(path, "oneOf", "rewritten", "oneOf sent as anyOf")
        return True

    def merge_all_of(self, node: dict[str, Any], path: str) -> dict[str, Any] | None:
        """`node` with its single `allOf` branch merged in, or None when it has more."""
        where = path
        while isinstance(node.get("allOf"), list):
            branches = node["allOf"]
            if len(branches) != 1 or not isinstance(branches[0], Mapping):
                return None
            where = f"{where}/allOf/0"
            self.moved(branches[0], where)
            rest = {k: v for k, v in node.items() if k != "allOf"}
            if set(branches[0]) & set(rest):
                return None
            node = {**rest, **branches[0]}
            self.warn(path, "allOf", "rewritten", "single-branch allOf merged into its parent")
        return node


class OpenAIStrict(OriginalPaths):
    """Tighten a schema into OpenAI's strict subset, or raise `NotStrict`."""

    dialect = Dialect.OPENAI_CHAT

    def __init__(self, tool: str) -> None:
        super().__init__(tool)
        self.any_json = False

    def run(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        if "anyOf" in schema or "oneOf" in schema:
            raise NotStrict("", "anyOf", "the root of a strict schema must not be a union")
        if not is_object(schema) and schema.get("type") is not None:
            raise NotStrict("", "type", "the root of a strict schema must be an object")
        out = super().run(schema)
        if self.any_json:
            out["$defs"] = {**(out.get("$defs") or {}), ANY_JSON: _ANY}
        problem = next(iter(strict_problems(out)), None)
        if problem is not None:
            raise NotStrict("", problem[0], problem[1])
        return out

    def keywords(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if "allOf" in node:
            merged = self.merge_all_of(node, path)
            if merged is None:
                raise NotStrict(path, "allOf", "strict mode does not support 'allOf'")
            node = merged
        if not self.one_of_as_any_of(node, path):
            raise NotStrict(path, "oneOf", "a node with both oneOf and anyOf cannot be strict")
        for key in list(node):
            if key in _REJECTS:
                raise NotStrict(path, key, f"strict mode does not support '{key}'")
            if key not in _KEEP:
                self.warn(path, key, "dropped", f"'{key}' is not supported in strict mode")
                del node[key]
        if node.get("format") is not None and node["format"] not in _FORMATS:
            self.warn(path, "format", "dropped", f"format {node['format']!r} is not supported")
            del node["format"]
        return node

    def finish(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if is_object(node):
            return self._close(node, path)
        if any(k in node for k in _TYPED):
            return node
        values = [node["const"]] if "const" in node else node.get("enum")
        if isinstance(values, list) and values:
            node["type"] = _types_of(values)
            self.warn(path, "type", "rewritten", "type added from the enum values")
            return node
        implied = next((kind for key, kind in _IMPLIED.items() if key in node), None)
        if implied is not None:
            node["type"] = implied
            self.warn(path, "type", "rewritten", f"type {implied!r} added from its keywords")
            return node
        self.any_json = True
        self.warn(
            path,
            "type",
            "rewritten",
            "an untyped value sent as any JSON value but an object (strict mode needs a "
            "type, and cannot describe an open object); the host still accepts any value",
        )
        extra: dict[str, Any] = {k: node[k] for k in ("description", "title") if k in node}
        return {"$ref": f"#/$defs/{ANY_JSON}", **extra} if not extra else {**_ANY, **extra}

    def _close(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        node.setdefault("type", "object")
        extra = node.get("additionalProperties")
        if extra not in (None, False):
            raise NotStrict(
                path, "additionalProperties", "an object open to extra properties cannot be strict"
            )
        if "properties" not in node:
            if path:
                raise NotStrict(path, "properties", "a free-form object cannot be strict")
            node["properties"] = {}
        if extra is None:
            node["additionalProperties"] = False
            self.warn(
                path,
                "additionalProperties",
                "rewritten",
                "closed to unknown properties, as strict mode requires",
            )
        self._require_all(node, path)
        return node

    def _require_all(self, node: dict[str, Any], path: str) -> None:
        required = set(node.get("required") or ())
        props = dict(node["properties"])
        for name, schema in props.items():
            if name in required or not isinstance(schema, Mapping):
                continue
            props[name] = make_nullable(schema)
            self.warn(
                self.path_of(schema, f"{path}/properties/{pointer_token(name)}"),
                "required",
                "rewritten",
                f"optional '{name}' sent as required and nullable; a null is dropped "
                "before validation",
            )
        node["properties"] = props
        node["required"] = list(props)


def make_nullable(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` widened to also accept null."""
    out = dict(schema)
    if accepts_null(out):
        return out
    kind = out.get("type")
    if isinstance(out.get("enum"), list):
        if None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        if kind is not None:
            out["type"] = [*kind, "null"] if isinstance(kind, list) else [kind, "null"]
        return out
    if isinstance(kind, str) and "$ref" not in out:
        out["type"] = [kind, "null"]
        return out
    if isinstance(kind, list):
        out["type"] = [*kind, "null"]
        return out
    description = out.pop("description", None)
    wrapped: dict[str, Any] = {"anyOf": [out, {"type": "null"}]}
    if description is not None:
        wrapped["description"] = description
    return wrapped


def strict_problems(schema: Mapping[str, Any]) -> list[tuple[str, str]]:
    """How `schema` breaks OpenAI's documented size limits, as (keyword, reason)."""
    stats = _Stats()
    stats.walk(schema)
    out = []
    if stats.nesting > LIMITS["nesting"]:
        out.append(("properties", f"{stats.nesting} levels of nested objects; OpenAI allows 10"))
    if stats.properties > LIMITS["properties"]:
        out.append(("properties", f"{stats.properties} properties; OpenAI allows 5000"))
    if stats.enum_values > LIMITS["enum_values"]:
        out.append(("enum", f"{stats.enum_values} enum values; OpenAI allows 1000"))
    if stats.text > LIMITS["text"]:
        out.append(("enum", f"{stats.text} characters of names and values; OpenAI allows 120000"))
    if stats.large_enum_text > LIMITS["large_enum_text"]:
        out.append(
            ("enum", "a string enum of more than 250 values holds more than 15000 characters")
        )
    return out


class _Stats:
    """Counts over a schema, iterative (a hostile schema must not exhaust the stack)."""

    def __init__(self) -> None:
        self.nesting = self.properties = self.enum_values = self.text = 0
        self.large_enum_text = 0

    def walk(self, schema: Mapping[str, Any]) -> None:
        stack: list[tuple[Any, int]] = [(schema, 0)]
        while stack:
            node, depth = stack.pop()
            if not isinstance(node, Mapping):
                continue
            if is_object(node):
                depth += 1
                self.nesting = max(self.nesting, depth)
            self._count(node)
            for key in ("$defs", "definitions"):
                for name, sub in (node.get(key) or {}).items():
                    self.text += len(name)
                    stack.append((sub, 0))
            props = node.get("properties")
            if isinstance(props, Mapping):
                self.properties += len(props)
                self.text += sum(len(n) for n in props)
                stack += [(sub, depth) for sub in props.values()]
            if isinstance(node.get("items"), Mapping):
                stack.append((node["items"], depth))
            stack += [(sub, depth) for sub in node.get("anyOf") or () if isinstance(sub, Mapping)]

    def _count(self, node: Mapping[str, Any]) -> None:
        values = node.get("enum")
        if isinstance(values, list):
            self.enum_values += len(values)
            strings = [v for v in values if isinstance(v, str)]
            self.text += sum(len(v) for v in strings)
            if len(strings) > LIMITS["large_enum"]:
                self.large_enum_text = max(self.large_enum_text, sum(len(v) for v in strings))
        if isinstance(node.get("const"), str):
            self.text += len(node["const"])


def _types_of(values: list[Any]) -> str | list[str]:
    names = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        type(None): "null",
        list: "array",
        dict: "object",
    }
    found = list(dict.fromkeys(names.get(type(v), "string") for v in values))
    if "integer" in found and "number" in found:
        found.remove("integer")
    return found[0] if len(found) == 1 else found
