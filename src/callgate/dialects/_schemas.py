"""Per-dialect wire schema of one tool, with the strict-mode fallbacks reported."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from callgate.contract import Tool
from callgate.dialects._gemini_schema import GeminiSubset
from callgate.dialects._kinds import Dialect, DialectWarning
from callgate.dialects._model import WireTool
from callgate.dialects._strict_anthropic import LIMITS, AnthropicStrict
from callgate.dialects._strict_openai import OpenAIStrict
from callgate.dialects._walker import NotStrict, SchemaWalker

__all__ = ["prepare", "strict_limits"]

_OPENAI = (Dialect.OPENAI_CHAT, Dialect.OPENAI_RESPONSES)


def prepare(
    tool: Tool, dialect: Dialect, name: str, *, strict: bool, openapi: bool
) -> tuple[WireTool, list[DialectWarning]]:
    """The wire form of `tool` for `dialect`, and what the transform changed."""
    schema = _object_root(tool.input_schema)
    if strict and dialect in _OPENAI:
        return _strict(tool, name, schema, OpenAIStrict(tool.name), dialect)
    if strict and dialect is Dialect.ANTHROPIC:
        return _strict(tool, name, schema, AnthropicStrict(tool.name), dialect)
    warnings: list[DialectWarning] = []
    if strict:
        warnings.append(
            _warning(
                dialect,
                tool.name,
                "",
                "strict",
                "ignored",
                f"{dialect} has no strict mode for tools",
            )
        )
    if dialect is Dialect.GEMINI and openapi:
        walker = GeminiSubset(tool.name)
        return (
            WireTool(tool=tool, name=name, schema=walker.run(schema), openapi=True),
            warnings + walker.warnings,
        )
    return WireTool(
        tool=tool, name=name, schema=schema, strict=False if dialect in _OPENAI else None
    ), warnings


def strict_limits(tools: Sequence[WireTool]) -> tuple[list[WireTool], list[DialectWarning]]:
    """Keep Anthropic's per-request strict budget; tools past it are sent non-strict."""
    used = {"tools": 0, "optional": 0, "unions": 0}
    out: list[WireTool] = []
    warnings: list[DialectWarning] = []
    for wire in tools:
        if not wire.strict:
            out.append(wire)
            continue
        cost = AnthropicStrict(wire.tool.name)
        cost.run(wire.schema)
        need = {"tools": 1, "optional": cost.optional, "unions": cost.unions}
        if all(used[k] + need[k] <= LIMITS[k] for k in used):
            used = {k: used[k] + need[k] for k in used}
            out.append(wire)
            continue
        over = next(k for k in used if used[k] + need[k] > LIMITS[k])
        warnings.append(
            _warning(
                Dialect.ANTHROPIC,
                wire.tool.name,
                "",
                "strict",
                "not_strict",
                f"sent without strict mode: the request would pass "
                f"Anthropic's limit of {LIMITS[over]} strict {over}",
            )
        )
        plain, _ = prepare(wire.tool, Dialect.ANTHROPIC, wire.name, strict=False, openapi=False)
        out.append(plain)
    return out, warnings


def _strict(
    tool: Tool, name: str, schema: dict[str, Any], walker: SchemaWalker, dialect: Dialect
) -> tuple[WireTool, list[DialectWarning]]:
    walker.dialect = dialect
    try:
        wire = walker.run(schema)
    except NotStrict as exc:
        warning = _warning(
            dialect,
            tool.name,
            exc.path,
            exc.keyword,
            "not_strict",
            f"sent without strict mode: {exc.reason}",
        )
        return WireTool(
            tool=tool, name=name, schema=schema, strict=False if dialect in _OPENAI else None
        ), [warning]
    return WireTool(tool=tool, name=name, schema=wire, strict=True), walker.warnings


def _object_root(schema: Any) -> dict[str, Any]:
    out = dict(schema)
    if out.get("type") is None and not any(k in out for k in ("anyOf", "oneOf", "allOf")):
        out["type"] = "object"
    if out.get("type") == "object" and "properties" not in out:
        # OpenAI requires `properties`; MCP does not (openai-agents adds `{}` too).
        out["properties"] = {}
    return out


def _warning(
    dialect: Dialect, tool: str, path: str, keyword: str, action: Any, message: str
) -> DialectWarning:
    return DialectWarning(
        dialect=dialect, tool=tool, path=path, keyword=keyword, action=action, message=message
    )
