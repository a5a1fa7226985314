"""Fuzz the dialect layer with hostile variants of valid provider payloads.

Properties: `parse_response`, the stream accumulators, `extract_calls` and `convert` give
a result or a `DialectError` (a `CallgateError`), within the deadline; and every call
they read, sent through the gate, runs only when its arguments are valid.

Budget: `HYPOTHESIS_PROFILE=long` runs the long profile (see `tests/fuzz/_harness.py`).
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from callgate import ToolCall
from callgate.dialects import (
    Converted,
    ParsedTurn,
    convert,
    extract_calls,
    parse_response,
    render_tools,
    stream_accumulator,
)
from tests.fuzz._harness import FUZZ, QUIET_REPR, scaled, within, within_async
from tests.fuzz._mutate import HOSTILE_TEXT, LONE_SURROGATE, valid_or_mutated
from tests.fuzz._tools import CATALOG, PLAIN, check_results

pytestmark = QUIET_REPR

ARGS = {"city": "Oslo", "days": 2}
ARGS_TEXT = json.dumps(ARGS)

RESPONSES: dict[str, Any] = {
    "openai_chat": {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "forecast", "arguments": ARGS_TEXT},
                        },
                        {
                            "id": "call_2",
                            "type": "function",
                            "function": {"name": "note", "arguments": '{"text": "x"}'},
                        },
                    ],
                },
            }
        ],
    },
    "openai_responses": {
        "status": "completed",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "forecast",
                "arguments": ARGS_TEXT,
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "checking"}],
            },
        ],
    },
    "anthropic": {
        "stop_reason": "tool_use",
        "content": [
            {"type": "thinking", "thinking": "the user wants weather", "signature": "c2ln"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "forecast", "input": dict(ARGS)},
        ],
    },
    "gemini": {
        "candidates": [
            {
                "finishReason": "STOP",
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Checking."},
                        {
                            "functionCall": {
                                "name": "forecast",
                                "args": {"city": "Oslo", "days": 2.0},
                            },
                            "thoughtSignature": "c2ln",
                        },
                    ],
                },
            }
        ]
    },
    "mcp": {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "forecast", "arguments": dict(ARGS)},
    },
    "text": {"content": f'<tool_call>{{"name": "forecast", "arguments": {ARGS_TEXT}}}</tool_call>'},
}

RENDERED = {d: render_tools(CATALOG, d) for d in RESPONSES}
STRICT = {d: render_tools(CATALOG, d, strict=True) for d in ("openai_chat", "anthropic")}


def through_gate(calls: Sequence[ToolCall]) -> None:
    if not calls:
        return
    results = within_async(lambda: PLAIN.run_batch(list(calls)))
    assert results is not None, "run_batch raised"
    check_results(calls, results)


@FUZZ
@given(
    st.sampled_from(sorted(RESPONSES)).flatmap(
        lambda d: st.tuples(st.just(d), valid_or_mutated(RESPONSES[d]))
    ),
    st.booleans(),
)
def test_parse_response(case: tuple[str, Any], strict: bool) -> None:
    dialect, payload = case
    rendered = STRICT.get(dialect, RENDERED[dialect]) if strict else RENDERED[dialect]
    turn = within(lambda: parse_response(dialect, payload, rendered=rendered))
    if turn is not None:
        assert isinstance(turn, ParsedTurn)
        through_gate(turn.calls)


def test_the_valid_payloads_parse_to_calls() -> None:
    for dialect, payload in RESPONSES.items():
        turn = parse_response(dialect, copy.deepcopy(payload), rendered=RENDERED[dialect])
        assert turn.calls and turn.calls[0].name == "forecast", dialect


def _chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


STREAMS: dict[str, list[Any]] = {
    "openai_chat": [
        _chat_chunk({"role": "assistant", "content": "Checking"}),
        _chat_chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "forecast", "arguments": ""},
                    }
                ]
            }
        ),
        _chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": '}}]}),
        _chat_chunk(
            {"tool_calls": [{"index": 0, "function": {"arguments": '"Oslo"}'}}]}, "tool_calls"
        ),
    ],
    "openai_responses": [
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {
                "type": "function_call",
                "call_id": "call_1",
                "name": "forecast",
                "arguments": "",
            },
        },
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"city": '},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '"Oslo"}'},
        {
            "type": "response.function_call_arguments.done",
            "output_index": 0,
            "arguments": '{"city": "Oslo"}',
        },
        {"type": "response.completed", "response": {"status": "completed"}},
    ],
    "anthropic": [
        {"type": "message_start", "message": {"role": "assistant"}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "Checking"},
        },
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "forecast", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"city": '},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '"Oslo"}'},
        },
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
    ],
    "gemini": [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Checking"}]}}]},
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [{"functionCall": {"name": "forecast", "args": dict(ARGS)}}],
                    },
                    "finishReason": "STOP",
                }
            ]
        },
    ],
}


@FUZZ
@given(
    st.sampled_from(sorted(STREAMS)).flatmap(
        lambda d: st.tuples(st.just(d), valid_or_mutated(STREAMS[d]))
    )
)
def test_stream_accumulators(case: tuple[str, Any]) -> None:
    dialect, events = case

    def accumulate() -> ParsedTurn:
        accumulator = stream_accumulator(dialect, rendered=RENDERED[dialect])
        for event in events if isinstance(events, list) else [events]:
            within(functools.partial(accumulator.feed, event))  # a bad event is not the end
        return accumulator.result()

    turn = within(accumulate)
    if turn is not None:
        through_gate(turn.calls)


TEXTS = [
    '<tool_call>{"name": "forecast", "arguments": {"city": "Oslo", "days": 2}}</tool_call>',
    'forecast(city="Oslo", days=2)',
    '[TOOL_CALLS][{"name": "note", "arguments": {"text": "milk"}}]',
    '```json\n{"name": "forecast", "arguments": {"city": "Oslo"}}\n```',
    '<|python_tag|>{"name": "note", "parameters": {"text": "milk", "count": 1}}',
]


@st.composite
def model_texts(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    kind = draw(st.sampled_from(["valid", "value", "prefix", "repeat", "cut"]))
    if kind == "value":
        return text.replace('"Oslo"', draw(st.sampled_from(HOSTILE_TEXT)), 1)
    if kind == "prefix":
        return draw(st.sampled_from(HOSTILE_TEXT)) + text
    if kind == "repeat":
        opening = min(i for i in (text.find("{"), text.find("(")) if i >= 0)
        return text[: opening + 1] * draw(st.sampled_from([2, 50, 400])) + text
    if kind == "cut":
        return text[: draw(st.integers(0, len(text)))]
    return text


def _no_known_text_defect(text: str) -> bool:
    # Excluded until fixed in text mode: test_found_defects.py::
    # test_extract_calls_survives_deep_brackets and
    # test_extract_calls_survives_a_lone_surrogate_in_a_pythonic_call.
    return text.count("[") + text.count("{") < 900 and LONE_SURROGATE.search(text) is None


@FUZZ
@given(model_texts().filter(_no_known_text_defect))
def test_extract_calls(text: str) -> None:
    found = within(lambda: extract_calls(text, CATALOG))
    if found is not None:
        through_gate(found.calls)


HISTORIES: dict[str, list[Any]] = {
    "openai_chat": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Oslo?"},
        RESPONSES["openai_chat"]["choices"][0]["message"],
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: failed"},
        {"role": "assistant", "content": "Sunny."},
    ],
    "openai_responses": [
        {"type": "message", "role": "user", "content": "Weather in Oslo?"},
        *RESPONSES["openai_responses"]["output"],
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
    ],
    "anthropic": [
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": RESPONSES["anthropic"]["content"]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}],
        },
    ],
    "gemini": [
        {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
        RESPONSES["gemini"]["candidates"][0]["content"],
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "forecast", "response": {"result": "sunny"}}}],
        },
    ],
    "text": [
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": RESPONSES["text"]["content"]},
        {
            "role": "user",
            "content": '<tool_response>{"name": "forecast", "content": "sunny"}</tool_response>',
        },
    ],
}
TARGETS = ["openai_chat", "openai_responses", "anthropic", "gemini", "text"]


_ID_KEYS = {"id", "call_id", "tool_call_id", "tool_use_id"}


def _no_known_id_defect(case: tuple[str, Any]) -> bool:
    # Excluded until fixed in the id mapping: test_found_defects.py::
    # test_convert_rewrites_a_call_id_with_a_lone_surrogate.
    stack = [case[1]]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in _ID_KEYS and isinstance(value, str) and LONE_SURROGATE.search(value):
                    return False
                stack.append(value)
        elif isinstance(item, list):
            stack += item[:50]
    return True


@scaled(40)
@given(
    st.sampled_from(sorted(HISTORIES))
    .flatmap(lambda d: st.tuples(st.just(d), valid_or_mutated(HISTORIES[d])))
    .filter(_no_known_id_defect),
    st.sampled_from(TARGETS),
)
def test_convert(case: tuple[str, Any], target: str) -> None:
    source, messages = case
    converted = within(lambda: convert(messages, source=source, target=target))
    if converted is not None:
        assert isinstance(converted, Converted)
        through_gate(converted.transcript.calls())


def test_the_valid_histories_convert_everywhere() -> None:
    for source, messages in HISTORIES.items():
        for target in TARGETS:
            converted = convert(copy.deepcopy(messages), source=source, target=target)
            # Text mode finds calls only among tools it is given; convert gives it none.
            assert converted.transcript.calls() or source == "text", (source, target)
            text = json.dumps(converted.messages, ensure_ascii=False)
            text.encode("utf-8")
