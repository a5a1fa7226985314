"""Malformed provider payloads give a `DialectError`, never another exception."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.dialects import (
    DialectError,
    convert,
    parse_response,
    read_messages,
    stream_accumulator,
)

KEYS = [
    "role",
    "content",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "id",
    "type",
    "choices",
    "message",
    "output",
    "call_id",
    "parts",
    "functionCall",
    "args",
    "functionResponse",
    "response",
    "candidates",
    "input",
    "tool_use_id",
    "text",
    "delta",
    "index",
    "finish_reason",
    "tool_call_id",
    "thoughtSignature",
    "params",
    "content_block",
    "partial_json",
    "output_index",
    "item",
    "item_id",
    "thinking",
    "signature",
    "status",
    "extra_content",
    "google",
    "thought_signature",
    "thought",
]
VALUES = [
    "assistant",
    "user",
    "tool",
    "model",
    "function",
    "function_call",
    "tool_use",
    "tool_result",
    "text",
    "message",
    "function_call_output",
    "thinking",
    "system",
    "content_block_start",
    "content_block_delta",
    "message_delta",
    "input_json_delta",
    "text_delta",
    "thinking_delta",
    "signature_delta",
    "response.output_item.added",
    "response.output_item.done",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_text.delta",
    "response.completed",
    "reasoning",
    "output_text",
    "input_text",
    "tools/call",
]

payloads = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from(VALUES), st.text()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=20,
)
DIALECTS = ["openai_chat", "openai_responses", "anthropic", "gemini", "mcp", "text"]
STREAMS = ["openai_chat", "openai_responses", "anthropic", "gemini"]


def _only_dialect_errors(fn: Any, *args: Any, **kwargs: Any) -> None:
    with contextlib.suppress(DialectError):  # any other exception fails the test
        fn(*args, **kwargs)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(DIALECTS), payloads)
def test_parse_response(dialect: str, payload: Any) -> None:
    _only_dialect_errors(parse_response, dialect, payload)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(DIALECTS), st.lists(payloads, max_size=4))
def test_read_and_convert(dialect: str, messages: list[Any]) -> None:
    _only_dialect_errors(read_messages, dialect, messages)
    _only_dialect_errors(convert, messages, source=dialect, target="anthropic")


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(STREAMS), st.lists(payloads, max_size=5))
def test_streams(dialect: str, events: list[Any]) -> None:
    acc = stream_accumulator(dialect)
    for event in events:
        _only_dialect_errors(acc.feed, event)
    _only_dialect_errors(acc.result)
