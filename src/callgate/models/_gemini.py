"""Gemini through the official `google-genai` client."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from callgate._extras import require
from callgate.dialects import Dialect, ParsedTurn, Rendered
from callgate.models._adapter import Final, SDKModel
from callgate.models._types import ArgumentsDelta, CallStarted, ModelRequest, StreamEvent, TextDelta
from callgate.models._types import Usage as _Usage

__all__ = ["GeminiModel"]


class GeminiModel(SDKModel):
    """`aio.models.generate_content` and `generate_content_stream`."""

    dialect = Dialect.GEMINI
    provider_name = "gemini"

    def __init__(
        self,
        model: str,
        *,
        client: Any = None,
        base_url: str | None = None,
        api_key: str | None = None,
        **kwargs: Any,
    ) -> None:
        if client is None:
            genai = require("google.genai", extra="gemini", package="google-genai")
            options = None if base_url is None else {"base_url": base_url}
            client = genai.Client(api_key=api_key, http_options=options)
            owns = True
        else:
            owns = False
        super().__init__(model, client=client, **kwargs)
        self.owns_client = owns

    async def aclose(self) -> None:
        if self.owns_client:
            await self.client.aio.aclose()
            self.client.close()

    def _args(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> dict[str, Any]:
        # The SDK's config models accept the REST (camelCase) field names the dialect emits.
        config: dict[str, Any] = {**self.tool_fields(rendered), **self.options}
        system = self.instructions(request, rendered)
        if system:
            config["systemInstruction"] = system
        return {"model": self.model, "contents": list(messages), "config": config or None}

    async def create(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> Any:
        response = await self.client.aio.models.generate_content(
            **self._args(request, rendered, messages)
        )
        return _plain(response)

    async def open_stream(
        self,
        stack: contextlib.AsyncExitStack,
        request: ModelRequest,
        rendered: Rendered | None,
        messages: Sequence[Any],
    ) -> Any:
        stream = await self.client.aio.models.generate_content_stream(
            **self._args(request, rendered, messages)
        )
        stack.push_async_callback(stream.aclose)
        # google-genai sends the request when the first chunk is read: read it here, inside
        # the retried attempt, so a 429 or 5xx on a stream is retried like any other.
        try:
            first = await anext(stream)
        except StopAsyncIteration:
            return _chain_first(None, stream)
        return _chain_first(first, stream)

    async def read_stream(self, events: Any) -> AsyncIterator[StreamEvent | Final]:
        chunks: list[dict[str, Any]] = []
        calls = 0
        async for chunk in events:
            plain = _plain(chunk)
            chunks.append(plain)
            for part in _parts(plain):
                if part.get("text") and not part.get("thought"):
                    yield TextDelta(text=part["text"])
                call = part.get("functionCall")
                if call is not None:
                    # Gemini sends each call whole, in a chunk of its own, with no index.
                    yield CallStarted(
                        index=calls, id=call.get("id") or f"#{calls}", name=call.get("name", "")
                    )
                    yield ArgumentsDelta(index=calls, delta=json.dumps(call.get("args") or {}))
                    calls += 1
        yield Final(_join(chunks))

    def usage(self, response: Any) -> _Usage:
        u = response.get("usageMetadata") or {}
        return _Usage(
            input_tokens=u.get("promptTokenCount") or 0,
            output_tokens=(u.get("candidatesTokenCount") or 0) + (u.get("thoughtsTokenCount") or 0),
        )

    def raw_text(self, response: Any) -> str:
        return "".join(p.get("text", "") for p in _parts(response) if not p.get("thought"))

    def refused(self, response: Any, parsed: ParsedTurn) -> bool:
        candidates = response.get("candidates") or [{}]
        return candidates[0].get("finishReason") in ("SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST")


async def _chain_first(first: Any, rest: AsyncIterator[Any]) -> AsyncIterator[Any]:
    if first is not None:
        yield first
    async for item in rest:
        yield item


def _plain(response: Any) -> dict[str, Any]:
    """The SDK object as the REST JSON (camelCase, bytes as base64)."""
    out: dict[str, Any] = response.model_dump(mode="json", by_alias=True, exclude_none=True)
    return out


def _parts(response: dict[str, Any]) -> list[dict[str, Any]]:
    candidates = response.get("candidates") or [{}]
    parts: list[dict[str, Any]] = (candidates[0].get("content") or {}).get("parts") or []
    return parts


def _join(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """One response from the streamed chunks: text pieces merged, other parts in order.

    A part carrying a thought signature is never merged, so the signature stays on the
    exact part it came with (dialects.md §4.4).
    """
    parts: list[dict[str, Any]] = []
    for chunk in chunks:
        for part in _parts(chunk):
            last = parts[-1] if parts else None
            if last is not None and set(part) == {"text"} and set(last) == {"text"}:
                parts[-1] = {"text": last["text"] + part["text"]}
            else:
                parts.append(dict(part))
    last_chunk = chunks[-1] if chunks else {}
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}}
    finish = ((last_chunk.get("candidates") or [{}])[0]).get("finishReason")
    if finish:
        candidate["finishReason"] = finish
    usage: dict[str, Any] = next(
        (c["usageMetadata"] for c in reversed(chunks) if c.get("usageMetadata")), {}
    )
    return {"candidates": [candidate], "usageMetadata": usage}
