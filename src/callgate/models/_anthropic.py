"""Anthropic Messages through the official `anthropic` client."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from callgate._extras import require
from callgate.dialects import Dialect, ParsedTurn, Rendered
from callgate.models._adapter import Final, SDKModel
from callgate.models._types import ArgumentsDelta, CallStarted, ModelRequest, StreamEvent, TextDelta
from callgate.models._types import Usage as _Usage

__all__ = ["AnthropicModel"]


class AnthropicModel(SDKModel):
    """`messages.create`; streaming through the SDK's `messages.stream` helper."""

    dialect = Dialect.ANTHROPIC
    provider_name = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        client: Any = None,
        base_url: str | None = None,
        api_key: str | None = None,
        max_tokens: int = 4096,
        **kwargs: Any,
    ) -> None:
        if client is None:
            anthropic = require("anthropic", extra="anthropic")
            made = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=0)
        else:
            made = client.with_options(max_retries=0)
        super().__init__(model, client=made, **kwargs)
        self.owns_client = client is None
        self.max_tokens = max_tokens
        """Anthropic requires a cap on output tokens for every request."""

    def _body(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": list(messages),
            **self.tool_fields(rendered),
            **self.options,
        }
        system = self.instructions(request, rendered)
        if system:
            body["system"] = system
        return body

    async def create(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> Any:
        return await self.client.messages.create(**self._body(request, rendered, messages))

    async def open_stream(
        self,
        stack: contextlib.AsyncExitStack,
        request: ModelRequest,
        rendered: Rendered | None,
        messages: Sequence[Any],
    ) -> Any:
        manager = self.client.messages.stream(**self._body(request, rendered, messages))
        return await stack.enter_async_context(manager)

    async def read_stream(self, events: Any) -> AsyncIterator[StreamEvent | Final]:
        calls: dict[int, int] = {}  # content block index -> position among the calls
        async for event in events:
            if event.type == "content_block_start" and event.content_block.type == "tool_use":
                calls[event.index] = len(calls)
                yield CallStarted(
                    index=calls[event.index],
                    id=event.content_block.id,
                    name=event.content_block.name,
                )
            elif event.type == "content_block_delta":
                delta = event.delta
                if delta.type == "text_delta":
                    yield TextDelta(text=delta.text)
                elif delta.type == "input_json_delta" and delta.partial_json:
                    yield ArgumentsDelta(index=calls.get(event.index, 0), delta=delta.partial_json)

    async def finish_stream(self, events: Any, final: Any) -> Any:
        return await events.get_final_message()

    def usage(self, response: Any) -> _Usage:
        u = response.usage
        return _Usage(input_tokens=u.input_tokens or 0, output_tokens=u.output_tokens or 0)

    def raw_text(self, response: Any) -> str:
        return "".join(b.text for b in response.content if b.type == "text")

    def refused(self, response: Any, parsed: ParsedTurn) -> bool:
        return bool(response.stop_reason == "refusal")
