"""The small interface each dialect module implements, and helpers they share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from callgate.contract import Route, ToolCall, ToolResult
from callgate.dialects._errors import DialectError
from callgate.dialects._kinds import Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, WireContext, WireTool

__all__ = ["ERROR_PREFIX", "Codec", "bind_results", "from_marked", "marked", "result_of"]

ERROR_PREFIX = "Error: "
"""Where a dialect has no error flag, an error result's text starts with this marker."""


class Codec:
    """Converters between one dialect and the canonical model (no I/O)."""

    dialect: Dialect = Dialect.OPENAI_CHAT

    def tools(
        self,
        tools: Sequence[WireTool],
        choice: ToolChoice | None,
        parallel: bool | None,
        ctx: WireContext,
    ) -> tuple[dict[str, Any], list[DialectWarning]]:
        raise NotImplementedError

    def parse(self, data: Any, ctx: WireContext) -> ParsedTurn:
        raise DialectError(self.dialect, "this dialect has no model responses to parse")

    def results(
        self, results: Sequence[ToolResult], calls: Mapping[str, ToolCall], ctx: WireContext
    ) -> list[dict[str, Any]]:
        raise NotImplementedError

    def read(self, messages: Sequence[Any], ctx: WireContext) -> list[Message]:
        raise DialectError(self.dialect, "this dialect carries no conversation")

    def write(self, messages: Sequence[Message], ctx: WireContext) -> list[dict[str, Any]]:
        raise DialectError(self.dialect, "this dialect carries no conversation")

    def warning(self, keyword: str, message: str) -> DialectWarning:
        return DialectWarning(
            dialect=self.dialect,
            tool=None,
            path="",
            keyword=keyword,
            action="ignored",
            message=message,
        )


def marked(result: ToolResult) -> str:
    """The result text, with the error marker for dialects that have no error flag."""
    return ERROR_PREFIX + result.content if result.is_error else result.content


def from_marked(text: str) -> tuple[str, bool]:
    """Undo `marked`: (content, is_error)."""
    if text.startswith(ERROR_PREFIX):
        return text[len(ERROR_PREFIX) :], True
    return text, False


def result_of(
    call_id: str, content: str, is_error: bool, *, name: str = "", structured: Any = None
) -> ToolResult:
    """A canonical result read from history (the route is all the wire tells)."""
    return ToolResult(
        call_id=call_id,
        name=name,
        content=content,
        structured=structured,
        is_error=is_error,
        route=Route.FAILED if is_error else Route.COMPLETED,
    )


def bind_results(messages: list[Message]) -> None:
    """Results without ids answer the calls of the turn before them, in order."""
    pending: list[ToolCall] = []
    for i, message in enumerate(messages):
        if message.role == "assistant":
            pending = list(message.calls)
            continue
        if message.role != "tool":
            continue
        bound = []
        for result in message.results:
            match = next((c for c in pending if c.id == result.call_id), None) or next(
                (c for c in pending if c.name == result.name), None
            )
            if match is not None:
                pending.remove(match)
                if not result.call_id:
                    result = replace(result, call_id=match.id)
            bound.append(result)
        messages[i] = Message(role="tool", results=tuple(bound))
