"""The values the dialect layer hands out: a rendered catalog, a parsed turn, a message."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from callgate.contract import Tool, ToolCall, ToolResult
from callgate.dialects._aliases import Aliases
from callgate.dialects._coerce import Coercion, coerce_arguments, drop_strict_nulls
from callgate.dialects._kinds import Dialect, DialectWarning
from callgate.schema import parse_arguments

__all__ = ["Message", "ParsedTurn", "Rendered", "Role", "WireContext", "WireTool"]

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rendered:
    """A catalog rendered for one dialect, with what parsing the answer needs.

    Pass it back to `parse_response`, the stream accumulators and `render_results`, so
    aliases are reversed and strict-mode nulls are dropped.
    """

    dialect: Dialect
    payload: dict[str, Any]
    """Request fields to merge into the provider request (`tools`, `tool_choice`, ...);
    for `text`, `{"prompt": ...}` to put in the system prompt."""
    warnings: tuple[DialectWarning, ...] = ()
    """Everything the dialect could not carry as given, and what was done instead."""
    aliases: Aliases = field(default_factory=Aliases)
    """Canonical <-> wire names, for the names this dialect rejects."""
    tools: Mapping[str, Tool] = field(default_factory=dict)
    """The rendered tools by canonical name."""
    strict: frozenset[str] = frozenset()
    """Canonical names of the tools sent in strict mode."""


@dataclass(frozen=True, kw_only=True, slots=True)
class WireTool:
    """One tool as a dialect sends it: wire name, wire schema, strict flag."""

    tool: Tool
    name: str
    schema: dict[str, Any]
    strict: bool | None = None
    openapi: bool = False
    """Gemini only: `schema` is in the OpenAPI subset and goes in `parameters`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ParsedTurn:
    """One assistant turn read from a provider response."""

    text: str = ""
    """The assistant's text, parts joined ("" when it only called tools)."""
    calls: tuple[ToolCall, ...] = ()
    """Tool calls in the order the model made them."""
    state: Mapping[str, Any] = field(default_factory=dict)
    """Opaque per-provider turn state to echo to the same provider (Anthropic thinking
    blocks, Responses reasoning items, Gemini thought parts), keyed by provider."""
    finish_reason: str | None = None
    """The provider's own finish or stop reason, for information only: whether the model
    called tools is decided by `calls`, never by this."""

    @property
    def has_calls(self) -> bool:
        return bool(self.calls)

    def message(self) -> Message:
        """This turn as a transcript message."""
        return Message(role="assistant", text=self.text, calls=self.calls, state=self.state)


@dataclass(frozen=True, kw_only=True, slots=True)
class Message:
    """One message of a canonical transcript.

    `system` and `user` carry text; `assistant` carries text, calls and provider state;
    `tool` carries the results of the calls of the preceding assistant message.
    """

    role: Role
    text: str = ""
    calls: tuple[ToolCall, ...] = ()
    results: tuple[ToolResult, ...] = ()
    state: Mapping[str, Any] = field(default_factory=dict)
    """Opaque reasoning state by provider (`anthropic`, `openai`, `gemini`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class WireContext:
    """What reading one dialect needs besides the payload: names and schemas."""

    dialect: Dialect
    aliases: Aliases = field(default_factory=Aliases)
    tools: Mapping[str, Tool] = field(default_factory=dict)
    strict: frozenset[str] = frozenset()

    def canonical(self, name: str) -> str:
        return self.aliases.to_canonical(name)

    def wire(self, name: str) -> str:
        return self.aliases.to_wire(name)

    def finish(self, call: ToolCall, coercion: Coercion | None = None) -> ToolCall:
        """Canonical name, then strict nulls dropped and types coerced, each reported."""
        call = replace(call, name=self.canonical(call.name))
        tool = self.tools.get(call.name)
        if tool is None or (call.name not in self.strict and coercion is None):
            return call
        parsed = parse_arguments(call.arguments)
        if not isinstance(parsed, dict):
            return call
        notes: list[str] = []
        if call.name in self.strict:
            parsed, notes = drop_strict_nulls(parsed, tool.input_schema)
        if coercion is not None:
            parsed, more = coerce_arguments(parsed, tool.input_schema, coercion)
            notes += more
        if not notes:
            return call
        return replace(call, arguments=parsed, repairs=(*call.repairs, *notes))
