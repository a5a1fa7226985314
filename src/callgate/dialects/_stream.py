"""Accumulate streamed responses into one `ParsedTurn` (dialects.md §1.5, §2.5, §3.5, §4.7).

Feed every event or chunk as it arrives (SDK objects or dicts); `result()` gives the
same turn the blocking API would have returned.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from callgate.dialects._api import context_for
from callgate.dialects._data import as_data, field, items
from callgate.dialects._errors import DialectError, malformed
from callgate.dialects._kinds import Dialect
from callgate.dialects._model import ParsedTurn, Rendered, WireContext
from callgate.dialects._registry import codec
from callgate.dialects._render import to_dialect

__all__ = ["StreamAccumulator", "stream_accumulator"]


class StreamAccumulator(ABC):
    """Collects one streamed model turn."""

    dialect: Dialect

    def __init__(self, ctx: WireContext) -> None:
        self.ctx = ctx

    def feed(self, event: Any) -> None:
        """Add one streamed event or chunk."""
        data = as_data(event, self.dialect)
        if not isinstance(data, Mapping):
            raise DialectError(self.dialect, "a stream event must be an object")
        with malformed(self.dialect, "stream event"):
            self._feed(data)

    def result(self) -> ParsedTurn:
        """The turn so far, calls complete as far as their arguments arrived."""
        with malformed(self.dialect, "stream"):
            return self._result()

    @abstractmethod
    def _feed(self, data: Mapping[str, Any]) -> None: ...

    @abstractmethod
    def _result(self) -> ParsedTurn: ...


class OpenAIChatStream(StreamAccumulator):
    """Deltas keyed by `index`; id and name from the first delta that has them.

    Names are never concatenated: some servers repeat the name in every delta.
    """

    dialect = Dialect.OPENAI_CHAT

    def __init__(self, ctx: WireContext) -> None:
        super().__init__(ctx)
        self.text: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}
        self.finish: str | None = None

    def _feed(self, data: Mapping[str, Any]) -> None:
        for choice in items(data.get("choices"), self.dialect, "choices")[:1]:
            self.finish = choice.get("finish_reason") or self.finish
            delta = choice.get("delta") or {}
            if isinstance(delta.get("content"), str):
                self.text.append(delta["content"])
            for i, part in enumerate(
                items(delta.get("tool_calls"), self.dialect, "delta.tool_calls")
            ):
                self._call(part, i)

    def _call(self, part: Mapping[str, Any], position: int) -> None:
        index = part.get("index", position)
        slot = self.calls.setdefault(
            index, {"type": "function", "function": {"name": None, "arguments": ""}}
        )
        if part.get("id") and not slot.get("id"):
            slot["id"] = part["id"]
        fn = part.get("function") or {}
        if fn.get("name") and not slot["function"]["name"]:
            slot["function"]["name"] = fn["name"]
        if isinstance(fn.get("arguments"), str):
            slot["function"]["arguments"] += fn["arguments"]
        if part.get("extra_content"):
            slot["extra_content"] = part["extra_content"]

    def _result(self) -> ParsedTurn:
        message = {
            "role": "assistant",
            "content": "".join(self.text),
            "tool_calls": [self.calls[i] for i in sorted(self.calls)],
        }
        turn = codec(self.dialect).parse(message, self.ctx)
        return ParsedTurn(text=turn.text, calls=turn.calls, finish_reason=self.finish)


class ResponsesStream(StreamAccumulator):
    """Items keyed by `output_index`; a finished item replaces what deltas built."""

    dialect = Dialect.OPENAI_RESPONSES

    def __init__(self, ctx: WireContext) -> None:
        super().__init__(ctx)
        self.items: dict[int, dict[str, Any]] = {}
        self.status: str | None = None

    def _feed(self, data: Mapping[str, Any]) -> None:
        kind = data.get("type")
        index = data.get("output_index", 0)
        if kind in ("response.output_item.added", "response.output_item.done"):
            self.items[index] = dict(data.get("item") or {})
        elif kind == "response.function_call_arguments.delta":
            item = self.items.setdefault(index, {"type": "function_call", "arguments": ""})
            item["arguments"] = (item.get("arguments") or "") + str(data.get("delta", ""))
        elif kind == "response.function_call_arguments.done":
            self.items.setdefault(index, {"type": "function_call"})["arguments"] = data.get(
                "arguments", ""
            )
        elif kind == "response.output_text.delta":
            item = self.items.setdefault(index, {"type": "message", "role": "assistant"})
            parts = item.setdefault("content", [])
            if not parts:
                parts.append({"type": "output_text", "text": ""})
            parts[-1]["text"] = parts[-1].get("text", "") + str(data.get("delta", ""))
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            self.status = (data.get("response") or {}).get("status")

    def _result(self) -> ParsedTurn:
        output = [_output_item(self.items[i]) for i in sorted(self.items)]
        turn = codec(self.dialect).parse({"output": output}, self.ctx)
        return ParsedTurn(
            text=turn.text, calls=turn.calls, state=turn.state, finish_reason=self.status
        )


class AnthropicStream(StreamAccumulator):
    """Blocks keyed by `index`; `partial_json` concatenated and parsed at the end.

    An empty buffer means `{}` (tools without parameters stream only `""`).
    """

    dialect = Dialect.ANTHROPIC

    def __init__(self, ctx: WireContext) -> None:
        super().__init__(ctx)
        self.blocks: dict[int, dict[str, Any]] = {}
        self.buffers: dict[int, str] = {}
        self.stop: str | None = None

    def _feed(self, data: Mapping[str, Any]) -> None:
        kind = data.get("type")
        index = data.get("index", 0)
        if kind == "content_block_start":
            block = dict(data.get("content_block") or {})
            self.blocks[index] = block
            if block.get("type") == "tool_use":
                self.buffers[index] = ""
        elif kind == "content_block_delta":
            self._delta(index, data.get("delta") or {})
        elif kind == "message_delta":
            self.stop = (data.get("delta") or {}).get("stop_reason") or self.stop

    def _delta(self, index: int, delta: Mapping[str, Any]) -> None:
        block = self.blocks.setdefault(index, {"type": "text", "text": ""})
        kind = delta.get("type")
        if kind == "input_json_delta":
            self.buffers[index] = self.buffers.get(index, "") + delta.get("partial_json", "")
        elif kind == "text_delta":
            block["text"] = block.get("text", "") + delta.get("text", "")
        elif kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta.get("thinking", "")
        elif kind == "signature_delta":
            block["signature"] = delta.get("signature", "")

    def _result(self) -> ParsedTurn:
        blocks = []
        for index in sorted(self.blocks):
            block = dict(self.blocks[index])
            if index in self.buffers:
                block["input"] = _partial_object(self.buffers[index])
            blocks.append(block)
        turn = codec(self.dialect).parse({"content": blocks}, self.ctx)
        return ParsedTurn(
            text=turn.text, calls=turn.calls, state=turn.state, finish_reason=self.stop
        )


class GeminiStream(StreamAccumulator):
    """Parts in arrival order: each call comes whole, in its own chunk, without an index."""

    dialect = Dialect.GEMINI

    def __init__(self, ctx: WireContext) -> None:
        super().__init__(ctx)
        self.parts: list[Mapping[str, Any]] = []
        self.finish: str | None = None

    def _feed(self, data: Mapping[str, Any]) -> None:
        for candidate in items(data.get("candidates"), self.dialect, "candidates")[:1]:
            self.finish = field(candidate, "finishReason", "finish_reason") or self.finish
            content = candidate.get("content") or {}
            self.parts += items(content.get("parts"), self.dialect, "content.parts")

    def _result(self) -> ParsedTurn:
        turn = codec(self.dialect).parse({"role": "model", "parts": self.parts}, self.ctx)
        return ParsedTurn(
            text=turn.text, calls=turn.calls, state=turn.state, finish_reason=self.finish
        )


def stream_accumulator(
    dialect: Dialect | str, *, rendered: Rendered | None = None
) -> StreamAccumulator:
    """A fresh accumulator for one streamed turn of `dialect`."""
    target = to_dialect(dialect)
    kinds: dict[Dialect, type[StreamAccumulator]] = {
        Dialect.OPENAI_CHAT: OpenAIChatStream,
        Dialect.OPENAI_RESPONSES: ResponsesStream,
        Dialect.ANTHROPIC: AnthropicStream,
        Dialect.GEMINI: GeminiStream,
    }
    if target not in kinds:
        raise DialectError(target, "this dialect does not stream model turns")
    return kinds[target](context_for(target, rendered))


def _output_item(item: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(item)
    if out.get("type") == "function_call":
        out.setdefault("arguments", "")
    return out


def _partial_object(buffer: str) -> Any:
    """The streamed input: `{}` for nothing, the object, or the raw text if cut off."""
    if not buffer.strip():
        return {}
    try:
        value = json.loads(buffer)
    except ValueError:
        return buffer
    return value if isinstance(value, dict) else buffer
