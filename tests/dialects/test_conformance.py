"""Every rendered request validates against the official SDKs' own request types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.contract import Route, Tool, ToolCall, ToolResult
from callgate.dialects import (
    Dialect,
    ToolChoice,
    convert,
    parse_response,
    render_results,
    render_tools,
    write_messages,
)
from callgate.dialects._convert import prepare_transcript
from tests.conftest import require
from tests.dialects import sdk
from tests.dialects.catalogs import mcp_catalog, tools
from tests.dialects.test_roundtrip import transcripts

CHOICES: list[Any] = [
    None,
    "auto",
    "required",
    "none",
    ToolChoice.tool("get_weather"),
    ToolChoice.allowed(["get_weather", "place_order"]),
    ToolChoice.allowed(["get_weather", "ping"], required=True),
]

RESULTS = [
    ToolResult(call_id="call_1", name="get_weather", route=Route.COMPLETED, content="18 C"),
    ToolResult(
        call_id="call_2",
        name="place_order",
        route=Route.INVALID,
        is_error=True,
        content="fix field items[0].qty, e.g. 1",
    ),
]
CALLS = [
    ToolCall(id="call_1", name="get_weather", arguments='{"city": "Paris"}'),
    ToolCall(id="call_2", name="place_order", arguments={"items": []}),
]


def _request(dialect: str, catalog: list[Tool], **options: Any) -> dict[str, Any]:
    rendered = render_tools(catalog, dialect, **options)
    results = render_results(dialect, RESULTS, calls=CALLS, rendered=rendered)
    if dialect == "openai_chat":
        messages: list[Any] = [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": "{}"},
                    }
                    for c in CALLS
                ],
            },
        ]
        return {"messages": [*messages, *results], **rendered.payload}
    if dialect == "openai_responses":
        calls = [
            {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": "{}"}
            for c in CALLS
        ]
        return {"input": [{"role": "user", "content": "hi"}, *calls, *results], **rendered.payload}
    if dialect == "anthropic":
        uses = [{"type": "tool_use", "id": c.id, "name": c.name, "input": {}} for c in CALLS]
        return {
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": uses},
                *results,
            ],
            **rendered.payload,
        }
    parts: list[Any] = [{"functionCall": {"id": c.id, "name": c.name, "args": {}}} for c in CALLS]
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": parts},
            *results,
        ],
        **rendered.payload,
    }


VALIDATORS = {
    "openai_chat": sdk.openai_chat_request,
    "openai_responses": sdk.openai_responses_request,
    "anthropic": sdk.anthropic_request,
    "gemini": sdk.gemini_request,
}


@pytest.mark.parametrize("dialect", list(VALIDATORS))
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize("parallel", [None, False, True])
def test_rendered_request_validates(
    dialect: str, strict: bool, choice: Any, parallel: bool | None
) -> None:
    VALIDATORS[dialect](_request(dialect, tools(), strict=strict, choice=choice, parallel=parallel))


def test_gemini_openapi_subset_validates() -> None:
    sdk.gemini_request(
        _request(
            "gemini", tools(), gemini_schema="openapi", choice=ToolChoice.allowed(["get_weather"])
        )
    )


@pytest.mark.parametrize("dialect", [*VALIDATORS, "gemini_openapi"])
@pytest.mark.parametrize("strict", [False, True])
def test_published_mcp_catalog_validates(data_dir: Path, dialect: str, strict: bool) -> None:
    catalog = mcp_catalog(data_dir)
    assert len(catalog) > 300
    if dialect == "gemini_openapi":
        sdk.gemini_request(_request("gemini", catalog, gemini_schema="openapi"))
    else:
        VALIDATORS[dialect](_request(dialect, catalog, strict=strict))


def test_mcp_tools_and_results_validate() -> None:
    rendered = render_tools(tools(), "mcp")
    for tool in rendered.payload["tools"]:
        sdk.mcp_tool(tool)
    structured = ToolResult(
        call_id="1",
        name="place_order",
        route=Route.COMPLETED,
        content='{"id": "o1"}',
        structured={"id": "o1"},
    )
    for result in render_results("mcp", [*RESULTS, structured]):
        sdk.mcp_result(result)


# --- whole conversations, converted, validate too ------------------------------------------


RICH_ANTHROPIC: list[Any] = [
    {"role": "user", "content": "weather in Oslo and Rome?"},
    {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "two cities", "signature": "c2ln"},
            {"type": "text", "text": "Checking both."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
            {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Rome"}},
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "cold"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "down", "is_error": True},
            {"type": "text", "text": "and tomorrow?"},
        ],
    },
    {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "toolu_3", "name": "get_weather", "input": {"city": "Oslo"}}
        ],
    },
]


def _conversation_request(dialect: str, wire: Any) -> dict[str, Any]:
    return {**wire.request(), **render_tools(tools(), dialect).payload}


@pytest.mark.parametrize("target", list(VALIDATORS))
def test_converted_conversation_validates(target: str) -> None:
    out = convert(RICH_ANTHROPIC, source="anthropic", target=target, system="Be brief.")
    VALIDATORS[target](_conversation_request(target, out))
    back = convert(out.messages, source=target, target="anthropic", system=out.system)
    sdk.anthropic_request(_conversation_request("anthropic", back))


@settings(max_examples=25, deadline=None)
@given(transcripts(), st.sampled_from(list(VALIDATORS)))
def test_any_written_conversation_validates(transcript: Any, target: str) -> None:
    prepared, _ = prepare_transcript(transcript, Dialect(target))
    VALIDATORS[target](_conversation_request(target, write_messages(target, prepared)))


# --- SDK response objects parse like raw dicts -----------------------------------------------


def test_sdk_response_objects_parse() -> None:
    require("openai", extra="openai")
    require("anthropic", extra="anthropic")
    require("google.genai", extra="gemini")
    from anthropic.types import Message as AnthropicMessage
    from google.genai import types
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    chat = ChatCompletion.model_validate(
        {
            "id": "x",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
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
                                "function": {
                                    "name": "get_weather",
                                    "arguments": '{"city": "Oslo"}',
                                },
                            }
                        ],
                    },
                }
            ],
        }
    )
    response = Response.model_validate(
        {
            "id": "r",
            "object": "response",
            "created_at": 1,
            "model": "m",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "get_weather",
                    "arguments": '{"city": "Oslo"}',
                    "status": "completed",
                },
            ],
        }
    )
    message = AnthropicMessage.model_validate(
        {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "c",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [
                {
                    "type": "tool_use",
                    "id": "call_1",
                    "name": "get_weather",
                    "input": {"city": "Oslo"},
                }
            ],
        }
    )
    gemini = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                finish_reason=types.FinishReason.STOP,
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(
                            function_call=types.FunctionCall(
                                id="call_1", name="get_weather", args={"city": "Oslo"}
                            ),
                            thought_signature=b"sig",
                        )
                    ],
                ),
            )
        ]
    )
    parsed = {
        "openai_chat": parse_response("openai_chat", chat),
        "openai_responses": parse_response("openai_responses", response),
        "anthropic": parse_response("anthropic", message),
        "gemini": parse_response("gemini", gemini),
    }
    for dialect, turn in parsed.items():
        (call,) = turn.calls
        assert (call.id, call.name) == ("call_1", "get_weather"), dialect
        arguments = call.arguments
        parsed_args = json.loads(arguments) if isinstance(arguments, str) else arguments
        assert parsed_args == {"city": "Oslo"}, dialect
    assert parsed["gemini"].calls[0].provider_state == {"gemini": {"thought_signature": "c2ln"}}
    assert parsed["openai_responses"].state["openai"]["items"][0]["id"] == "rs_1"
