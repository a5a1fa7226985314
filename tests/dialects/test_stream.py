"""Streaming accumulation gives the same turn as the blocking API (dialects.md §1.5-§4.7)."""

from __future__ import annotations

from typing import Any

import pytest

from callgate.contract import Effect, Tool
from callgate.dialects import DialectError, render_tools, stream_accumulator
from tests.conftest import require

TOOL = Tool(
    name="get_weather",
    description="",
    effect=Effect.READ,
    input_schema={"type": "object", "properties": {"location": {"type": "string"}}},
)


def _chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def test_openai_chat_deltas_by_index_names_not_concatenated() -> None:
    require("openai", extra="openai")
    from openai.types.chat import ChatCompletionChunk

    chunks = [
        _chat_chunk({"role": "assistant", "content": "Checking"}),
        _chat_chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_A",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ]
            }
        ),
        _chat_chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "call_B",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ]
            }
        ),
        # vLLM#14951: a server that repeats the name in every delta.
        _chat_chunk(
            {
                "tool_calls": [
                    {"index": 0, "function": {"name": "get_weather", "arguments": '{"loc'}}
                ]
            }
        ),
        _chat_chunk({"tool_calls": [{"index": 1, "function": {"arguments": "{}"}}]}),
        _chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'ation": "Oslo"}'}}]}),
        _chat_chunk({}, finish="tool_calls"),
    ]
    acc = stream_accumulator("openai_chat")
    for chunk in chunks:
        acc.feed(ChatCompletionChunk.model_validate(chunk))
    turn = acc.result()
    assert turn.text == "Checking" and turn.finish_reason == "tool_calls"
    assert [(c.id, c.name, c.arguments) for c in turn.calls] == [
        ("call_A", "get_weather", '{"location": "Oslo"}'),
        ("call_B", "get_weather", "{}"),
    ]


def test_responses_events() -> None:
    item = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": "",
    }
    events = [
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "reasoning", "id": "rs_1", "summary": []},
        },
        {"type": "response.output_item.added", "output_index": 1, "item": item},
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 1,
            "item_id": "fc_1",
            "delta": '{"location":',
        },
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 1,
            "item_id": "fc_1",
            "delta": ' "Paris"}',
        },
        {"type": "response.output_text.delta", "output_index": 2, "delta": "Done"},
        {"type": "response.completed", "response": {"status": "completed"}},
    ]
    acc = stream_accumulator("openai_responses")
    for event in events:
        acc.feed(event)
    turn = acc.result()
    assert turn.calls[0].id == "call_1" and turn.calls[0].arguments == '{"location": "Paris"}'
    assert turn.state["openai"]["items"][0]["id"] == "rs_1"
    assert turn.text == "Done" and turn.finish_reason == "completed"


def test_responses_done_item_replaces_what_deltas_built() -> None:
    acc = stream_accumulator("openai_responses")
    acc.feed(
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{garbage"}
    )
    acc.feed(
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {
                "type": "function_call",
                "call_id": "c",
                "name": "get_weather",
                "arguments": "{}",
            },
        }
    )
    assert acc.result().calls[0].arguments == "{}"


def _anthropic_events(partials: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "type": "message_start",
            "message": {
                "id": "m",
                "type": "message",
                "role": "assistant",
                "content": [],
                "model": "c",
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "On it."},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "get_weather",
                "input": {},
            },
        },
        *(
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": p},
            }
            for p in partials
        ),
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
    ]


@pytest.mark.parametrize(
    ("partials", "arguments"),
    [
        (["", '{"location":', ' "Paris"}'], {"location": "Paris"}),
        ([""], {}),  # a tool without parameters streams only ""
        (['{"location": "Pa'], '{"location": "Pa'),  # cut off: kept for the gate to report
    ],
)
def test_anthropic_input_json_delta(partials: list[str], arguments: Any) -> None:
    acc = stream_accumulator("anthropic")
    for event in _anthropic_events(partials):
        acc.feed(event)
    turn = acc.result()
    assert turn.text == "On it." and turn.finish_reason == "tool_use"
    assert turn.calls[0].arguments == arguments


def test_anthropic_thinking_is_accumulated_into_state() -> None:
    acc = stream_accumulator("anthropic")
    acc.feed(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        }
    )
    acc.feed(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "hmm"},
        }
    )
    acc.feed(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "sig"},
        }
    )
    (block,) = acc.result().state["anthropic"]["blocks"]
    assert block == {"type": "thinking", "thinking": "hmm", "signature": "sig"}


def test_gemini_whole_calls_in_arrival_order_without_index() -> None:
    require("google.genai", extra="gemini")
    from google.genai import types

    rendered = render_tools([TOOL], "gemini")
    acc = stream_accumulator("gemini", rendered=rendered)
    for city in ("Denver", "Moab"):
        acc.feed(
            types.GenerateContentResponse(
                candidates=[
                    types.Candidate(
                        content=types.Content(
                            role="model",
                            parts=[
                                types.Part(
                                    function_call=types.FunctionCall(
                                        name="get_weather", args={"location": city}
                                    )
                                )
                            ],
                        )
                    )
                ]
            )
        )
    acc.feed(
        {
            "candidates": [
                {"finishReason": "STOP", "content": {"role": "model", "parts": [{"text": "."}]}}
            ]
        }
    )
    turn = acc.result()
    assert [c.arguments for c in turn.calls] == [{"location": "Denver"}, {"location": "Moab"}]
    assert turn.finish_reason == "STOP" and turn.text == "."


def test_streams_reject_malformed_events() -> None:
    acc = stream_accumulator("openai_chat")
    with pytest.raises(DialectError):
        acc.feed({"choices": "nope"})
    with pytest.raises(DialectError):
        stream_accumulator("mcp")
