"""A fake Anthropic Messages server (`POST /v1/messages`), streaming events included."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from callgate.models._fake_servers._base import (
    FakeProviderServer,
    arguments_object,
    arguments_text,
    pieces,
)
from callgate.models._script import ScriptError, Turn

__all__ = ["FakeAnthropicServer"]


class FakeAnthropicServer(FakeProviderServer):
    """Answers `/v1/messages` with scripted turns; `base_url` is the server root."""

    provider = "anthropic"

    def paths(self) -> list[str]:
        return ["/v1/messages"]

    def _blocks(self, turn: Turn) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        if turn.text:
            blocks.append({"type": "text", "text": turn.text})
        blocks += [
            {
                "type": "tool_use",
                "id": c.id or self.next_id("toolu_"),
                "name": c.name,
                "input": arguments_object(c.arguments),
            }
            for c in turn.calls
        ]
        return blocks

    @staticmethod
    def _stop(turn: Turn) -> str:
        if turn.refusal:
            return "refusal"
        return "tool_use" if turn.calls else "end_turn"

    def _message(
        self, turn: Turn, content: list[dict[str, Any]], stop: str | None
    ) -> dict[str, Any]:
        return {
            "id": self.next_id("msg_"),
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {
                "input_tokens": turn.usage.input_tokens,
                "output_tokens": turn.usage.output_tokens,
            },
        }

    def complete(self, turn: Turn, request: Any, body: Any) -> Any:
        return self._message(turn, self._blocks(turn), self._stop(turn))

    async def stream(self, turn: Turn, request: Any, body: Any) -> AsyncIterator[Any]:
        def event(kind: str, **data: Any) -> dict[str, str]:
            return {"event": kind, "data": json.dumps({"type": kind, **data})}

        start = self._message(turn, [], None)
        start["usage"] = {"input_tokens": turn.usage.input_tokens, "output_tokens": 1}
        yield event("message_start", message=start)
        for index, block in enumerate(self._blocks(turn)):
            for e in self._block_events(event, index, block):
                yield e
        yield event(
            "message_delta",
            delta={"stop_reason": self._stop(turn), "stop_sequence": None},
            usage={"output_tokens": turn.usage.output_tokens},
        )
        yield event("message_stop")

    @staticmethod
    def _block_events(event: Any, index: int, block: dict[str, Any]) -> list[dict[str, str]]:
        if block["type"] == "text":
            head: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": p} for p in pieces(block["text"], 6)]
        else:
            head = {**block, "input": {}}
            # A leading empty fragment, as recorded real streams show (dialects.md §3.5).
            raw = arguments_text(block["input"]) if block["input"] else ""
            fragments = ["", *pieces(raw)] if raw else [""]
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in fragments]
        return [
            event("content_block_start", index=index, content_block=head),
            *(event("content_block_delta", index=index, delta=d) for d in deltas),
            event("content_block_stop", index=index),
        ]

    def error_body(self, error: ScriptError) -> Any:
        kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(error.status, "api_error")
        if 400 <= error.status < 429:
            kind = "invalid_request_error"
        return {"type": "error", "error": {"type": kind, "message": error.message}}
