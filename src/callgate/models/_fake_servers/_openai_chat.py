"""A fake OpenAI Chat Completions server (`POST /v1/chat/completions`), SSE included.

Also stands in for OpenAI-compatible servers (vLLM, Ollama, llama.cpp): same wire format.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from callgate.models._fake_servers._base import FakeProviderServer, arguments_text, pieces
from callgate.models._script import ScriptError, Turn

__all__ = ["FakeOpenAIChatServer"]


class FakeOpenAIChatServer(FakeProviderServer):
    """Answers `/v1/chat/completions` with scripted turns; `base_url` ends in `/v1`."""

    provider = "openai"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def paths(self) -> list[str]:
        return ["/v1/chat/completions"]

    def _tool_calls(self, turn: Turn) -> list[dict[str, Any]]:
        return [
            {
                "id": c.id or self.next_id("call_"),
                "type": "function",
                "function": {"name": c.name, "arguments": arguments_text(c.arguments)},
            }
            for c in turn.calls
        ]

    def _usage(self, turn: Turn) -> dict[str, int]:
        u = turn.usage
        return {
            "prompt_tokens": u.input_tokens,
            "completion_tokens": u.output_tokens,
            "total_tokens": u.total_tokens,
        }

    @staticmethod
    def _finish(turn: Turn) -> str:
        if turn.refusal:
            return "content_filter"
        return "tool_calls" if turn.calls else "stop"

    def _envelope(self, kind: str) -> dict[str, Any]:
        return {
            "id": self.next_id("chatcmpl-"),
            "object": kind,
            "created": int(time.time()),
            "model": self.model,
        }

    def complete(self, turn: Turn, request: Any, body: Any) -> Any:
        message: dict[str, Any] = {"role": "assistant", "content": turn.text}
        calls = self._tool_calls(turn)
        if calls:
            message["tool_calls"] = calls
        return {
            **self._envelope("chat.completion"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": self._finish(turn),
                    "logprobs": None,
                }
            ],
            "usage": self._usage(turn),
        }

    async def stream(self, turn: Turn, request: Any, body: Any) -> AsyncIterator[Any]:
        head = self._envelope("chat.completion.chunk")

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            return json.dumps(
                {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            )

        yield chunk({"role": "assistant", "content": ""})
        for piece in pieces(turn.text or "", 6) if turn.text else []:
            yield chunk({"content": piece})
        for index, call in enumerate(self._tool_calls(turn)):
            fn = call["function"]
            # As the real API does: id, type and name come once, then argument fragments.
            yield chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": fn["name"], "arguments": ""},
                        }
                    ]
                }
            )
            for piece in pieces(fn["arguments"]):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield chunk({}, self._finish(turn))
        options = body.get("stream_options") or {}
        if options.get("include_usage"):
            yield json.dumps({**head, "choices": [], "usage": self._usage(turn)})
        yield "[DONE]"

    def error_body(self, error: ScriptError) -> Any:
        kind = "rate_limit_exceeded" if error.status == 429 else "server_error"
        return {"error": {"message": error.message, "type": kind, "param": None, "code": kind}}
