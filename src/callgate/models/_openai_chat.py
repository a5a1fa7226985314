"""OpenAI Chat Completions through the official `openai` client; also any OpenAI-compatible
server (vLLM, Ollama, llama.cpp) through `base_url`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from callgate._extras import require
from callgate.dialects import Dialect, ParsedTurn, Rendered
from callgate.models._adapter import Final, SDKModel
from callgate.models._types import ArgumentsDelta, CallStarted, ModelRequest, StreamEvent, TextDelta
from callgate.models._types import Usage as _Usage

__all__ = ["OpenAIChatModel", "openai_client"]


def openai_client(client: Any, base_url: str | None, api_key: str | None) -> Any:
    """An `AsyncOpenAI` with the SDK's own retries off (callgate's `RetryPolicy` retries)."""
    if client is not None:
        return client.with_options(max_retries=0)
    openai = require("openai", extra="openai")
    # A local OpenAI-compatible server needs no key, but the SDK insists on one.
    key = api_key or (None if base_url is None else "not-needed")
    return openai.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0)


class OpenAIModel(SDKModel):
    """An adapter over the `openai` client: your own `client=`, or one made from
    `base_url`/`api_key` (any OpenAI-compatible server), closed with the model."""

    provider_name = "openai"

    def __init__(
        self,
        model: str,
        *,
        client: Any = None,
        base_url: str | None = None,
        api_key: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(model, client=openai_client(client, base_url, api_key), **kwargs)
        self.owns_client = client is None


class OpenAIChatModel(OpenAIModel):
    """`chat.completions.create`; streaming through the SDK's `chat.completions.stream`."""

    dialect = Dialect.OPENAI_CHAT

    def _body(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> dict[str, Any]:
        system = self.instructions(request, rendered)
        head = [{"role": "system", "content": system}] if system else []
        return {
            "model": self.model,
            "messages": [*head, *messages],
            **self.tool_fields(rendered),
            **self.options,
        }

    async def create(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> Any:
        return await self.client.chat.completions.create(**self._body(request, rendered, messages))

    async def open_stream(
        self,
        stack: contextlib.AsyncExitStack,
        request: ModelRequest,
        rendered: Rendered | None,
        messages: Sequence[Any],
    ) -> Any:
        body = self._body(request, rendered, messages)
        manager = self.client.chat.completions.stream(
            **body, stream_options={"include_usage": True}
        )
        return await stack.enter_async_context(manager)

    async def read_stream(self, events: Any) -> AsyncIterator[StreamEvent | Final]:
        async for event in events:
            if event.type != "chunk" or not event.chunk.choices:
                continue
            delta = event.chunk.choices[0].delta
            if delta.content:
                yield TextDelta(text=delta.content)
            for call in delta.tool_calls or ():
                fn = call.function
                if call.id and fn is not None and fn.name:
                    yield CallStarted(index=call.index, id=call.id, name=fn.name)
                if fn is not None and fn.arguments:
                    yield ArgumentsDelta(index=call.index, delta=fn.arguments)

    async def finish_stream(self, events: Any, final: Any) -> Any:
        return await events.get_final_completion()

    def usage(self, response: Any) -> _Usage:
        u = getattr(response, "usage", None)
        if u is None:
            return _Usage()
        return _Usage(input_tokens=u.prompt_tokens or 0, output_tokens=u.completion_tokens or 0)

    def raw_text(self, response: Any) -> str:
        return str(response.choices[0].message.content or "") if response.choices else ""

    def refused(self, response: Any, parsed: ParsedTurn) -> bool:
        choice = response.choices[0] if response.choices else None
        return choice is not None and (
            choice.finish_reason == "content_filter"
            or bool(getattr(choice.message, "refusal", None))
        )
