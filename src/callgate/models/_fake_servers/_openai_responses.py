"""A fake OpenAI Responses server (`POST /v1/responses`), streaming events included."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from callgate.models._fake_servers._base import FakeProviderServer, arguments_text, pieces
from callgate.models._script import ScriptError, Turn

__all__ = ["FakeOpenAIResponsesServer"]


class FakeOpenAIResponsesServer(FakeProviderServer):
    """Answers `/v1/responses` with scripted turns; `base_url` ends in `/v1`."""

    provider = "openai-responses"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def paths(self) -> list[str]:
        return ["/v1/responses"]

    def _items(self, turn: Turn) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        if turn.text is not None:
            items.append(
                {
                    "type": "message",
                    "id": self.next_id("msg_"),
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
                }
            )
        for call in turn.calls:
            n = self.next_id("")
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_{n}",
                    "call_id": call.id or f"call_{n}",
                    "name": call.name,
                    "arguments": arguments_text(call.arguments),
                    "status": "completed",
                }
            )
        return items

    def _response(self, turn: Turn, items: list[dict[str, Any]], status: str) -> dict[str, Any]:
        u = turn.usage
        return {
            "id": self.next_id("resp_"),
            "object": "response",
            "created_at": int(time.time()),
            "model": self.model,
            "status": status,
            "output": items,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": {
                "input_tokens": u.input_tokens,
                "output_tokens": u.output_tokens,
                "total_tokens": u.total_tokens,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        }

    def complete(self, turn: Turn, request: Any, body: Any) -> Any:
        return self._response(turn, self._items(turn), "completed")

    async def stream(self, turn: Turn, request: Any, body: Any) -> AsyncIterator[Any]:
        items = self._items(turn)
        seq = iter(range(1_000_000))

        def event(kind: str, **data: Any) -> dict[str, str]:
            return {
                "event": kind,
                "data": json.dumps({"type": kind, "sequence_number": next(seq), **data}),
            }

        yield event("response.created", response=self._response(turn, [], "in_progress"))
        for index, item in enumerate(items):
            for e in self._item_events(event, index, item):
                yield e
        yield event("response.completed", response=self._response(turn, items, "completed"))

    @staticmethod
    def _item_events(event: Any, index: int, item: dict[str, Any]) -> list[dict[str, str]]:
        if item["type"] == "message":
            text = item["content"][0]["text"]
            empty = {**item, "status": "in_progress", "content": []}
            part = {"type": "output_text", "text": "", "annotations": []}
            where = {"item_id": item["id"], "output_index": index, "content_index": 0}
            return [
                event("response.output_item.added", output_index=index, item=empty),
                event("response.content_part.added", part=part, **where),
                *(
                    event("response.output_text.delta", delta=p, logprobs=[], **where)
                    for p in pieces(text, 6)
                ),
                event("response.output_text.done", text=text, logprobs=[], **where),
                event("response.content_part.done", part={**part, "text": text}, **where),
                event("response.output_item.done", output_index=index, item=item),
            ]
        where = {"item_id": item["id"], "output_index": index}
        return [
            event(
                "response.output_item.added",
                output_index=index,
                item={**item, "arguments": "", "status": "in_progress"},
            ),
            *(
                event("response.function_call_arguments.delta", delta=p, **where)
                for p in pieces(item["arguments"])
            ),
            event(
                "response.function_call_arguments.done",
                name=item["name"],
                arguments=item["arguments"],
                **where,
            ),
            event("response.output_item.done", output_index=index, item=item),
        ]

    def error_body(self, error: ScriptError) -> Any:
        kind = "rate_limit_exceeded" if error.status == 429 else "server_error"
        return {"error": {"message": error.message, "type": kind, "param": None, "code": kind}}
