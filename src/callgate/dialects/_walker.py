"""A walker over JSON Schema subschemas; each provider transform overrides two hooks.

`keywords` rewrites one node's own keywords before its children are visited; `finish`
sees the node after its children were transformed. Every change is reported as a
`DialectWarning`; the host keeps validating against the original schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.dialects._kinds import Dialect, DialectWarning, WarningAction

__all__ = ["NotStrict", "SchemaWalker", "accepts_null", "is_object", "pointer_token"]

_MAPS = ("properties", "$defs", "definitions")
_ONE = ("items",)
_MANY = ("anyOf", "allOf")


class NotStrict(Exception):
    """The schema cannot be expressed in the provider's strict subset."""

    def __init__(self, path: str, keyword: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.keyword = keyword
        self.reason = reason


class SchemaWalker:
    """Base class of the provider transforms: visits every subschema once."""

    dialect: Dialect = Dialect.OPENAI_CHAT

    def __init__(self, tool: str) -> None:
        self.tool = tool
        self.warnings: list[DialectWarning] = []
        self.root: Mapping[str, Any] = {}

    def run(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        self.root = schema
        return self.node(schema, "")

    def node(self, node: Mapping[str, Any], path: str) -> dict[str, Any]:
        out = self.keywords(dict(node), path)
        for key in _MAPS:
            if isinstance(out.get(key), Mapping):
                out[key] = {
                    k: self.child(v, f"{path}/{key}/{pointer_token(k)}")
                    for k, v in out[key].items()
                }
        for key in _ONE:
            if isinstance(out.get(key), Mapping):
                out[key] = self.child(out[key], f"{path}/{key}")
        for key in _MANY:
            if isinstance(out.get(key), list):
                out[key] = [self.child(v, f"{path}/{key}/{i}") for i, v in enumerate(out[key])]
        return self.finish(out, path)

    def child(self, value: Any, path: str) -> Any:
        return self.node(value, path) if isinstance(value, Mapping) else value

    def keywords(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        return node

    def finish(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        return node

    def warn(self, path: str, keyword: str, action: WarningAction, message: str) -> None:
        self.warnings.append(
            DialectWarning(
                dialect=self.dialect,
                tool=self.tool,
                path=path,
                keyword=keyword,
                action=action,
                message=message,
            )
        )


def is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return (
        kind == "object"
        or (isinstance(kind, list) and "object" in kind)
        or (kind is None and "properties" in node)
    )


def accepts_null(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    branches = node.get("anyOf") or node.get("oneOf") or []
    return any(isinstance(b, Mapping) and accepts_null(b) for b in branches)


def pointer_token(key: str) -> str:
    """`key` as one JSON-pointer token (RFC 6901: `~` -> `~0`, `/` -> `~1`)."""
    return key.replace("~", "~0").replace("/", "~1")
