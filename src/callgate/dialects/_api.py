"""Parse model output and render tool results, for any dialect."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from callgate.contract import ToolCall, ToolResult
from callgate.dialects._errors import malformed
from callgate.dialects._kinds import Dialect
from callgate.dialects._model import ParsedTurn, Rendered, WireContext
from callgate.dialects._registry import codec
from callgate.dialects._render import to_dialect

__all__ = ["context_for", "parse_response", "render_results"]


def parse_response(
    dialect: Dialect | str, response: Any, *, rendered: Rendered | None = None
) -> ParsedTurn:
    """The text, tool calls and provider state of one model response.

    `response` is a raw response dict or the official SDK object (`ChatCompletion`,
    `Response`, `Message`, `GenerateContentResponse`), or just the assistant message /
    content; for `mcp`, a `tools/call` request; for `text`, the model's text. Pass the
    `Rendered` catalog the request used, so aliases map back to canonical names, strict
    mode's nulls are dropped and text-mode calls are recognised. Malformed payloads raise
    `DialectError`; malformed *arguments* do not (the gate reports them to the model).
    """
    target = to_dialect(dialect)
    with malformed(target, "response"):
        return codec(target).parse(response, context_for(target, rendered))


def render_results(
    dialect: Dialect | str,
    results: Sequence[ToolResult],
    *,
    calls: Iterable[ToolCall] = (),
    rendered: Rendered | None = None,
) -> list[dict[str, Any]]:
    """The messages (or items) that carry `results` back to the model, to append in order.

    OpenAI Chat: one `role: tool` message per result; Responses: `function_call_output`
    items; Anthropic: one user message with every `tool_result` block; Gemini: one user
    content with `functionResponse` parts; MCP: one `CallToolResult` per result; text:
    one user message. Where a dialect has no error flag the text starts with "Error: ".
    Pass the turn's `calls` for Gemini, so ids the model did not send are not echoed.
    """
    target = to_dialect(dialect)
    by_id: Mapping[str, ToolCall] = {c.id: c for c in calls}
    return codec(target).results(list(results), by_id, context_for(target, rendered))


def context_for(dialect: Dialect, rendered: Rendered | None) -> WireContext:
    if rendered is None:
        return WireContext(dialect=dialect)
    return WireContext(
        dialect=dialect, aliases=rendered.aliases, tools=rendered.tools, strict=rendered.strict
    )
