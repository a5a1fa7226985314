"""Gemini's `parameters` field: the OpenAPI 3.0 subset of `types.Schema` (dialects.md §4.6).

Used only when the caller asks for it; `parametersJsonSchema` takes JSON Schema as is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from callgate.dialects._kinds import Dialect
from callgate.dialects._strict_openai import OriginalPaths
from callgate.dialects._walker import pointer_token
from callgate.schema import resolve_local

__all__ = ["GeminiSubset"]

_KEEP = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "anyOf",
        "default",
        "example",
        "propertyOrdering",
    }
)
_PROPERTY = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"


class GeminiSubset(OriginalPaths):
    """Rewrite JSON Schema into what `types.Schema` and the Developer API accept."""

    dialect = Dialect.GEMINI

    def __init__(self, tool: str) -> None:
        super().__init__(tool)
        self._expanding: list[str] = []

    def node(self, node: Mapping[str, Any], path: str) -> dict[str, Any]:
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return super().node(node, path)
        if ref in self._expanding or resolve_local(self.root, node) is node:
            self.warn(
                path,
                "$ref",
                "dropped",
                f"recursive or unresolvable $ref {ref!r} sent as an unconstrained schema",
            )
            return {}
        target = resolve_local(self.root, node)
        self.moved(target, _pointer_of(self.root, ref))
        self._expanding.append(ref)
        try:
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            self.warn(path, "$ref", "rewritten", f"$ref {ref!r} inlined")
            return super().node({**target, **siblings}, path)
        finally:
            self._expanding.pop()

    def keywords(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if not path:
            node.pop("$defs", None)
            node.pop("definitions", None)
        if isinstance(node.get("allOf"), list):
            merged = self.merge_all_of(node, path)
            if merged is None:
                node.pop("allOf")
                self.warn(path, "allOf", "dropped", "allOf is not part of Gemini's subset")
            else:
                node = merged
        if not self.one_of_as_any_of(node, path):
            node.pop("oneOf")
            self.warn(path, "oneOf", "dropped", "oneOf beside anyOf cannot be sent")
        self._types(node, path)
        self._unions(node, path)
        self._enum(node, path)
        for key in list(node):
            if key not in _KEEP:
                self.warn(path, key, "dropped", f"'{key}' is not part of Gemini's schema subset")
                del node[key]
        self._check_names(node, path)
        return node

    def finish(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if isinstance(node.get("type"), str):
            node["type"] = node["type"].upper()
        if node.get("anyOf") == []:
            del node["anyOf"]
        return node

    def _types(self, node: dict[str, Any], path: str) -> None:
        kind = node.get("type")
        if kind == "null":
            node.pop("type")
            node["nullable"] = True
            self.warn(path, "type", "rewritten", "type null sent as nullable")
        elif isinstance(kind, list):
            kinds = [k for k in kind if k != "null"]
            if "null" in kind:
                node["nullable"] = True
            if len(kinds) == 1:
                node["type"] = kinds[0]
            else:
                node.pop("type")
                node["anyOf"] = [{"type": k} for k in kinds]
            self.warn(path, "type", "rewritten", f"type {kind!r} rewritten for Gemini")

    def _unions(self, node: dict[str, Any], path: str) -> None:
        branches = node.get("anyOf")
        if isinstance(branches, list) and {"type": "null"} in branches:
            node["anyOf"] = [b for b in branches if b != {"type": "null"}]
            node["nullable"] = True
            self.warn(path, "anyOf", "rewritten", "null branch sent as nullable")
            if len(node["anyOf"]) == 1 and isinstance(node["anyOf"][0], Mapping):
                only = node.pop("anyOf")[0]
                node.update({k: v for k, v in only.items() if k not in node})
                self._types(node, path)

    def _enum(self, node: dict[str, Any], path: str) -> None:
        if "const" in node:
            node["enum"] = [node.pop("const")]
            self.warn(path, "const", "rewritten", "const sent as a one-value enum")
        values = node.get("enum")
        if not isinstance(values, list):
            return
        if None in values:
            node["nullable"] = True
        texts = [v if isinstance(v, str) else _text(v) for v in values if v is not None]
        if texts != values:
            self.warn(path, "enum", "rewritten", "enum values sent as strings")
        node["enum"] = texts
        if node.get("type") not in (None, "string"):
            self.warn(
                path,
                "type",
                "rewritten",
                "an enum is sent as a string enum; the "
                "value is converted back to the declared type when parsed",
            )
        node["type"] = "string"
        node["format"] = "enum"

    def _check_names(self, node: dict[str, Any], path: str) -> None:
        for name, value in (node.get("properties") or {}).items():
            if not re.match(_PROPERTY, name):
                self.warn(
                    self.path_of(value, f"{path}/properties/{pointer_token(name)}"),
                    "properties",
                    "ignored",
                    f"property name {name!r} is outside Gemini's documented charset",
                )


def _pointer_of(root: Mapping[str, Any], ref: str) -> str:
    """Where the schema a (possibly chained) local `$ref` ends at sits in `root`."""
    for _ in range(32):
        target = resolve_local(root, {"$ref": ref}, max_hops=1)
        nxt = target.get("$ref")
        if not isinstance(nxt, str) or not nxt.startswith("#"):
            break
        ref = nxt
    return ref[1:]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
