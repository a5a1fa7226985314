"""Render a catalog for one dialect: names, schema transforms, tool choice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Literal

from callgate._errors import UserError
from callgate.contract import Catalog, Tool
from callgate.dialects._aliases import Aliases, make_aliases
from callgate.dialects._kinds import ChoiceMode, Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Rendered, WireContext, WireTool
from callgate.dialects._registry import codec
from callgate.dialects._schemas import prepare, strict_limits

__all__ = ["GeminiSchema", "render_tools", "to_dialect", "to_tool_choice"]

GeminiSchema = Literal["json_schema", "openapi"]

_LIMITS = {Dialect.OPENAI_CHAT: 128, Dialect.OPENAI_RESPONSES: 128, Dialect.GEMINI: 512}


def render_tools(
    tools: Catalog | Iterable[Tool],
    dialect: Dialect | str,
    *,
    strict: bool = False,
    choice: ToolChoice | ChoiceMode | None = None,
    parallel: bool | None = None,
    gemini_schema: GeminiSchema = "json_schema",
) -> Rendered:
    """Render `tools` as request fields of `dialect`.

    `strict` asks for the provider's strict mode (OpenAI, Anthropic): each schema is
    tightened into the strict subset, and a tool whose schema cannot be is sent without
    strict mode, with a warning. `choice` of None leaves the provider default (auto);
    `parallel=False` allows at most one call per turn where the dialect can say so.
    `gemini_schema="openapi"` sends Gemini the OpenAPI subset in `parameters` instead of
    JSON Schema in `parametersJsonSchema`. Nothing is dropped silently: see `warnings`.
    """
    target = to_dialect(dialect)
    listed = list(tools)
    aliases = make_aliases([t.name for t in listed], target)
    warnings = _alias_warnings(aliases, target)
    wire: list[WireTool] = []
    for tool in listed:
        made, more = prepare(
            tool,
            target,
            aliases.to_wire(tool.name),
            strict=strict,
            openapi=gemini_schema == "openapi",
        )
        wire.append(made)
        warnings += more
    if strict and target is Dialect.ANTHROPIC:
        wire, more = strict_limits(wire)
        warnings += more
    warnings += _size_warnings(listed, target)
    ctx = WireContext(
        dialect=target,
        aliases=aliases,
        tools={t.name: t for t in listed},
        strict=frozenset(w.tool.name for w in wire if w.strict),
    )
    if choice is not None and not listed:
        warnings.append(_no_choice(target))
        choice = None  # with no tools a choice is meaningless, and providers reject it
    payload, more = codec(target).tools(wire, to_tool_choice(choice, ctx), parallel, ctx)
    return Rendered(
        dialect=target,
        payload=payload,
        warnings=(*warnings, *more),
        aliases=aliases,
        tools=ctx.tools,
        strict=ctx.strict,
    )


def to_dialect(value: Dialect | str) -> Dialect:
    try:
        return Dialect(value)
    except ValueError:
        known = ", ".join(d.value for d in Dialect)
        raise UserError(f"unknown dialect {value!r}; expected one of {known}") from None


def to_tool_choice(choice: ToolChoice | ChoiceMode | None, ctx: WireContext) -> ToolChoice | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        if choice not in ("auto", "required", "none"):
            raise UserError(
                f"tool choice {choice!r} must be 'auto', 'required', 'none' or a "
                "ToolChoice (ToolChoice.tool(name) forces one tool)"
            )
        return ToolChoice(mode=choice)
    unknown = [n for n in choice.tools if n not in ctx.tools]
    if unknown:
        raise UserError(f"tool choice names tools that are not rendered: {unknown}")
    return replace(choice, tools=tuple(dict.fromkeys(choice.tools)))


def _no_choice(dialect: Dialect) -> DialectWarning:
    return DialectWarning(
        dialect=dialect,
        tool=None,
        path="",
        keyword="tool_choice",
        action="ignored",
        message="no tools are rendered, so no tool choice is sent",
    )


def _alias_warnings(aliases: Aliases, dialect: Dialect) -> list[DialectWarning]:
    return [
        DialectWarning(
            dialect=dialect,
            tool=name,
            path="",
            keyword="name",
            action="aliased",
            message=f"sent as {alias!r}: {dialect} rejects the name {name!r}",
        )
        for name, alias in aliases.forward.items()
    ]


def _size_warnings(tools: Sequence[Tool], dialect: Dialect) -> list[DialectWarning]:
    out = []
    limit = _LIMITS.get(dialect)
    if limit is not None and len(tools) > limit:
        out.append(
            DialectWarning(
                dialect=dialect,
                tool=None,
                path="",
                keyword="tools",
                action="ignored",
                message=f"{len(tools)} tools; {dialect} accepts at most {limit}",
            )
        )
    if dialect in (Dialect.OPENAI_CHAT, Dialect.OPENAI_RESPONSES):
        out += [
            DialectWarning(
                dialect=dialect,
                tool=t.name,
                path="",
                keyword="description",
                action="ignored",
                message=f"description of {len(t.description)} characters; OpenAI accepts 1024",
            )
            for t in tools
            if len(t.description) > 1024
        ]
    return out
