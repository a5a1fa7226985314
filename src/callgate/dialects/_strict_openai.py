"""OpenAI strict mode: the Structured Outputs subset (dialects.md §6.1).

Unlike the SDK's converters, an optional property is made nullable before it is made
required, so it does not silently become mandatory; `drop_strict_nulls` undoes that on
the way back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.dialects._kinds import Dialect
from callgate.dialects._walker import NotStrict, SchemaWalker, accepts_null, is_object

__all__ = ["OpenAIStrict", "make_nullable"]

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


class OpenAIStrict(SchemaWalker):
    """Tighten a schema into OpenAI's strict subset, or raise `NotStrict`."""

    dialect = Dialect.OPENAI_CHAT

    def run(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        if "anyOf" in schema or "oneOf" in schema:
            raise NotStrict("", "anyOf", "the root of a strict schema must not be a union")
        if not is_object(schema) and schema.get("type") is not None:
            raise NotStrict("", "type", "the root of a strict schema must be an object")
        return super().run(schema)

    def keywords(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if "oneOf" in node:
            node["anyOf"] = node.pop("oneOf")
            self.warn(path, "oneOf", "rewritten", "oneOf sent as anyOf")
        if "allOf" in node:
            node = self._unwrap_all_of(node, path)
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
        if not is_object(node):
            return node
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
                f"{path}/properties/{name}",
                "required",
                "rewritten",
                f"optional '{name}' sent as required and nullable; a null is dropped "
                "before validation",
            )
        node["properties"] = props
        node["required"] = list(props)

    def _unwrap_all_of(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        branches = node.pop("allOf")
        if not (
            isinstance(branches, list)
            and len(branches) == 1
            and isinstance(branches[0], Mapping)
            and not set(branches[0]) & set(node)
        ):
            raise NotStrict(path, "allOf", "strict mode does not support 'allOf'")
        self.warn(path, "allOf", "rewritten", "single-branch allOf merged into its parent")
        return {**node, **branches[0]}


def make_nullable(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` widened to also accept null."""
    out = dict(schema)
    if accepts_null(out):
        return out
    kind = out.get("type")
    if isinstance(out.get("enum"), list):
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
