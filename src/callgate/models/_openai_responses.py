"""OpenAI Responses (`responses.create`) through the official `openai` client."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from callgate.dialects import Dialect, ParsedTurn, Rendered
from callgate.models._adapter import Final
from callgate.models._openai_chat import OpenAIModel
from callgate.models._types import ArgumentsDelta, CallStarted, ModelRequest, StreamEvent, TextDelta
from callgate.models._types import Usage as _Usage

__all__ = ["OpenAIResponsesModel"]


class OpenAIResponsesModel(OpenAIModel):
    """`responses.create`; streaming reads the typed events, and the final response comes
    whole in `response.completed`."""

    dialect = Dialect.OPENAI_RESPONSES

    def _body(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> dict[str, Any]:
        system = self.instructions(request, rendered)
        body: dict[str, Any] = {
            "model": self.model,
            "input": list(messages),
            **self.tool_fields(rendered),
            **self.options,
        }
        if system:
            body["instructions"] = system
        return body

    async def create(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> Any:
        return await self.client.responses.create(**self._body(request, rendered, messages))

    async def open_stream(
        self,
        stack: contextlib.AsyncExitStack,
        request: ModelRequest,
        rendered: Rendered | None,
        messages: Sequence[Any],
    ) -> Any:
        stream = await self.client.responses.create(
            **self._body(request, rendered, messages), stream=True
        )
        stack.push_async_callback(stream.close)
        return stream

    async def read_stream(self, events: Any) -> AsyncIterator[StreamEvent | Final]:
        calls: dict[int, int] = {}  # output index -> position among the turn's calls
        async for event in events:
            kind = event.type
            if kind == "response.output_text.delta":
                yield TextDelta(text=event.delta)
            elif kind == "response.output_item.added" and event.item.type == "function_call":
                calls[event.output_index] = len(calls)
                yield CallStarted(
                    index=calls[event.output_index], id=event.item.call_id, name=event.item.name
                )
            elif kind == "response.function_call_arguments.delta":
                yield ArgumentsDelta(index=calls.get(event.output_index, 0), delta=event.delta)
            elif kind == "response.completed":
                yield Final(event.response)

    def usage(self, response: Any) -> _Usage:
        u = getattr(response, "usage", None)
        if u is None:
            return _Usage()
        return _Usage(input_tokens=u.input_tokens or 0, output_tokens=u.output_tokens or 0)

    def raw_text(self, response: Any) -> str:
        return str(getattr(response, "output_text", "") or "")

    def refused(self, response: Any, parsed: ParsedTurn) -> bool:
        return any(
            getattr(part, "type", None) == "refusal"
            for item in response.output or ()
            if item.type == "message"
            for part in item.content or ()
        )
