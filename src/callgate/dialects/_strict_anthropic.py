"""Anthropic strict tool use (dialects.md §6.2), after the SDK's `transform_schema`.

Keywords the grammar engine does not support are moved into the description, so the
model still reads them; the host still enforces them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from callgate.dialects._kinds import Dialect
from callgate.dialects._strict_openai import OriginalPaths
from callgate.dialects._walker import NotStrict, is_object

__all__ = ["LIMITS", "AnthropicStrict", "StrictCost"]

_KEEP = frozenset(
    {
        "type",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "enum",
        "const",
        "description",
        "title",
        "default",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "format",
        "pattern",
        "minItems",
    }
)
_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)


@dataclass(frozen=True, kw_only=True, slots=True)
class StrictCost:
    """What one strict schema counts against Anthropic's per-request limits."""

    optional: int
    unions: int


LIMITS = {"tools": 20, "optional": 24, "unions": 16}
"""Per request, across all strict tools (Anthropic structured-outputs documentation)."""


class AnthropicStrict(OriginalPaths):
    """Tighten a schema for `strict: true`, or raise `NotStrict`."""

    dialect = Dialect.ANTHROPIC

    def __init__(self, tool: str) -> None:
        super().__init__(tool)
        self.optional = 0
        self.unions = 0

    def run(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        if _recursive(schema):
            raise NotStrict("", "$ref", "recursive schemas are not supported in strict mode")
        return super().run(schema)

    @property
    def cost(self) -> StrictCost:
        return StrictCost(optional=self.optional, unions=self.unions)

    def keywords(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if not self.one_of_as_any_of(node, path):
            raise NotStrict(path, "oneOf", "a node with both oneOf and anyOf cannot be strict")
        moved: dict[str, Any] = {}
        for key in list(node):
            if key not in _KEEP or not _supported(key, node[key]):
                moved[key] = node.pop(key)
                self.warn(
                    path,
                    key,
                    "described",
                    f"'{key}' is not supported in strict mode; stated in the description",
                )
        if moved:
            note = json.dumps(moved, ensure_ascii=False, sort_keys=True)
            text = node.get("description")
            node["description"] = f"{text}\n\n{note}" if text else note
        if "anyOf" in node or isinstance(node.get("type"), list):
            self.unions += 1
        return node

    def finish(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        if not is_object(node):
            return node
        if "properties" not in node and path:
            raise NotStrict(path, "properties", "a free-form object cannot be strict")
        extra = node.get("additionalProperties")
        if extra is None:
            node["additionalProperties"] = False
            self.warn(
                path,
                "additionalProperties",
                "rewritten",
                "closed to unknown properties, as strict mode requires",
            )
        elif extra is not False:
            raise NotStrict(
                path, "additionalProperties", "an object open to extra properties cannot be strict"
            )
        required = set(node.get("required") or ())
        self.optional += sum(1 for name in node.get("properties") or {} if name not in required)
        return node


def _supported(key: str, value: Any) -> bool:
    if key == "format":
        return value in _FORMATS
    if key == "minItems":
        return value in (0, 1)
    return True


def _recursive(schema: Mapping[str, Any]) -> bool:
    """True when a `$ref` leads back to a schema that contains it."""
    graph = {
        f"#/{kind}/{name}": _refs(body)
        for kind in ("$defs", "definitions")
        for name, body in (schema.get(kind) or {}).items()
    }
    root_refs = _refs({k: v for k, v in schema.items() if k not in ("$defs", "definitions")})
    if "#" in root_refs or any("#" in refs for refs in graph.values()):
        return True
    return any(_reaches(start, start, graph, set()) for start in graph)


def _reaches(target: str, at: str, graph: Mapping[str, set[str]], seen: set[str]) -> bool:
    for ref in graph.get(at, ()):
        if ref == target:
            return True
        if ref not in seen:
            seen.add(ref)
            if _reaches(target, ref, graph, seen):
                return True
    return False


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            ref = item.get("$ref")
            if isinstance(ref, str):
                found.add(ref)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
