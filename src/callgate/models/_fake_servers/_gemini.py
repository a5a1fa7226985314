"""A fake Gemini Developer API server (`generateContent` / `streamGenerateContent?alt=sse`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from callgate.models._fake_servers._base import FakeProviderServer, arguments_object, pieces
from callgate.models._script import ScriptError, Turn

__all__ = ["FakeGeminiServer"]

_STATUS = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


class FakeGeminiServer(FakeProviderServer):
    """Answers `/v1beta/models/{model}:generateContent` (and the streaming form)."""

    provider = "gemini"

    def paths(self) -> list[str]:
        return ["/{version}/models/{target:path}"]

    def wants_stream(self, request: Any, body: Any) -> bool:
        return str(request.url.path).endswith(":streamGenerateContent")

    def _call_parts(self, turn: Turn) -> list[dict[str, Any]]:
        return [
            {
                "functionCall": {
                    "id": c.id or self.next_id("call_"),
                    "name": c.name,
                    "args": arguments_object(c.arguments),
                }
            }
            for c in turn.calls
        ]

    def _chunk(self, turn: Turn, parts: list[dict[str, Any]], last: bool) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if last:
            candidate["finishReason"] = "SAFETY" if turn.refusal else "STOP"
        u = turn.usage
        return {
            "candidates": [candidate],
            "modelVersion": self.model,
            "usageMetadata": {
                "promptTokenCount": u.input_tokens,
                "candidatesTokenCount": u.output_tokens,
                "totalTokenCount": u.total_tokens,
            },
        }

    def complete(self, turn: Turn, request: Any, body: Any) -> Any:
        parts = ([{"text": turn.text}] if turn.text else []) + self._call_parts(turn)
        return self._chunk(turn, parts, last=True)

    async def stream(self, turn: Turn, request: Any, body: Any) -> AsyncIterator[Any]:
        # Text streams in pieces; each function call arrives whole in a chunk of its own
        # (dialects.md §4.7), and the last chunk carries the finish reason.
        chunks = [[{"text": p}] for p in pieces(turn.text, 6)] if turn.text else []
        chunks += [[part] for part in self._call_parts(turn)]
        chunks = chunks or [[{"text": ""}]]
        for i, parts in enumerate(chunks):
            yield json.dumps(self._chunk(turn, parts, last=i == len(chunks) - 1))

    def error_body(self, error: ScriptError) -> Any:
        return {
            "error": {
                "code": error.status,
                "message": error.message,
                "status": _STATUS.get(error.status, "UNKNOWN"),
            }
        }
