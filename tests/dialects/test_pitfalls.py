"""Regression tests for the pitfalls of dialects.md §9 (differences), §10 (procedures)
and §11 (known library behaviours)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from callgate.contract import Effect, Route, Tool, ToolCall, ToolResult
from callgate.dialects import (
    INTERRUPTED,
    DialectError,
    ToolChoice,
    convert,
    parse_response,
    read_messages,
    render_results,
    render_tools,
)
from tests.dialects.catalogs import ORDER, tools

WEATHER = Tool(
    name="get_weather",
    description="Weather.",
    effect=Effect.READ,
    input_schema={
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    },
)
DOTTED = Tool(
    name="notes_search",
    description="Search.",
    effect=Effect.READ,
    input_schema={"type": "object", "properties": {}},
    metadata={"source_name": "notes.search"},
)


def ok(call_id: str, content: str = "18 C", name: str = "get_weather") -> ToolResult:
    return ToolResult(call_id=call_id, name=name, route=Route.COMPLETED, content=content)


def failed(call_id: str, content: str = "upstream timeout") -> ToolResult:
    return ToolResult(
        call_id=call_id, name="get_weather", route=Route.FAILED, content=content, is_error=True
    )


# --- §9: tool choice and parallel calls ----------------------------------------------------

CHOICE_TABLE: list[tuple[str, Any, Any]] = [
    ("openai_chat", "auto", "auto"),
    ("openai_chat", "required", "required"),
    ("openai_chat", "none", "none"),
    (
        "openai_chat",
        ToolChoice.tool("get_weather"),
        {"type": "function", "function": {"name": "get_weather"}},
    ),
    (
        "openai_responses",
        ToolChoice.tool("get_weather"),
        {"type": "function", "name": "get_weather"},
    ),
    (
        "openai_responses",
        ToolChoice.allowed(["get_weather"]),
        {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "function", "name": "get_weather"}],
        },
    ),
    ("anthropic", "auto", {"type": "auto"}),
    ("anthropic", "required", {"type": "any"}),
    ("anthropic", "none", {"type": "none"}),
    ("anthropic", ToolChoice.tool("get_weather"), {"type": "tool", "name": "get_weather"}),
]


@pytest.mark.parametrize(("dialect", "choice", "wire"), CHOICE_TABLE)
def test_tool_choice_maps_per_the_table(dialect: str, choice: Any, wire: Any) -> None:
    assert render_tools([WEATHER, DOTTED], dialect, choice=choice).payload["tool_choice"] == wire


@pytest.mark.parametrize(
    ("choice", "config"),
    [
        ("auto", {"mode": "AUTO"}),
        ("required", {"mode": "ANY"}),
        ("none", {"mode": "NONE"}),
        (ToolChoice.tool("get_weather"), {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
        (
            ToolChoice.allowed(["get_weather"]),
            {"mode": "VALIDATED", "allowedFunctionNames": ["get_weather"]},
        ),
    ],
)
def test_gemini_choice_modes_never_raise(choice: Any, config: Any) -> None:
    # any-llm maps only required/auto and raises KeyError on the rest (§11).
    payload = render_tools([WEATHER], "gemini", choice=choice).payload
    assert payload["toolConfig"] == {"functionCallingConfig": config}


def test_parallel_off_per_dialect() -> None:
    assert (
        render_tools([WEATHER], "openai_chat", parallel=False).payload["parallel_tool_calls"]
        is False
    )
    anthropic = render_tools([WEATHER], "anthropic", parallel=False).payload
    assert anthropic["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    # ToolChoiceNoneParam has no disable_parallel_tool_use (litellm skips it; any-llm adds it).
    assert render_tools([WEATHER], "anthropic", choice="none", parallel=False).payload[
        "tool_choice"
    ] == {"type": "none"}
    gemini = render_tools([WEATHER], "gemini", parallel=False)
    assert "parallel" not in json.dumps(gemini.payload)
    assert [w.keyword for w in gemini.warnings] == ["parallel_tool_calls"]


def test_anthropic_subset_choice_filters_the_tools_with_a_warning() -> None:
    rendered = render_tools(
        [WEATHER, DOTTED], "anthropic", choice=ToolChoice.allowed(["get_weather"])
    )
    assert [t["name"] for t in rendered.payload["tools"]] == ["get_weather"]
    assert rendered.payload["tool_choice"] == {"type": "auto"}
    assert any(w.keyword == "tool_choice" for w in rendered.warnings)


# --- §9/§10.2: calls, arguments, ids, "called tools" signal ------------------------------


def test_calls_are_detected_by_presence_not_finish_reason() -> None:
    chat = {
        "choices": [
            {
                "finish_reason": "stop",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": "{}"},
                        }
                    ],
                },
            }
        ]
    }
    assert parse_response("openai_chat", chat).has_calls
    gemini = {
        "candidates": [
            {
                "finishReason": "STOP",
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}],
                },
            }
        ]
    }
    assert parse_response("gemini", gemini).has_calls
    malformed = {
        "candidates": [
            {"finishReason": "MALFORMED_FUNCTION_CALL", "content": {"role": "model", "parts": []}}
        ]
    }
    turn = parse_response("gemini", malformed)
    assert not turn.has_calls and turn.finish_reason == "MALFORMED_FUNCTION_CALL"


def test_openai_arguments_stay_the_exact_string_even_when_malformed() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Par'},
            },
            {"id": "c2", "type": "function", "function": {"name": "get_weather", "arguments": ""}},
        ],
    }
    calls = parse_response("openai_chat", message).calls
    assert [c.arguments for c in calls] == ['{"city": "Par', ""]


def test_malformed_history_arguments_do_not_crash_conversion() -> None:
    # litellm and any-llm call json.loads unguarded on history (§10.2).
    chat = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{'city': 'Oslo',}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    out = convert(chat, source="openai_chat", target="anthropic")
    assert out.messages[1]["content"][0]["input"] == {"city": "Oslo"}
    assert any("not a JSON object" in n for n in out.notes)


def test_gemini_args_absent_integral_floats_and_missing_ids() -> None:
    rendered = render_tools([WEATHER], "gemini")
    content = {
        "role": "model",
        "parts": [
            {"functionCall": {"name": "get_weather"}},
            {"functionCall": {"name": "get_weather", "args": {"city": "Moab", "days": 3.0}}},
        ],
    }
    first, second = parse_response("gemini", content, rendered=rendered).calls
    assert first.arguments == {} and first.synthetic_id
    assert second.arguments == {"city": "Moab", "days": 3}
    assert type(second.arguments["days"]) is int
    assert second.repairs and "3.0 -> 3" in second.repairs[0]
    assert first.id != second.id


def test_generated_ids_never_derive_from_the_name_and_are_stable_strings() -> None:
    # brainlid/langchain#620: `call-<name>` ids collided; any-llm's hash() is per process.
    part = {"functionCall": {"name": "get_weather", "args": {}}}
    calls = parse_response("gemini", {"role": "model", "parts": [part, part]}).calls
    assert len({c.id for c in calls}) == 2
    assert all("get_weather" not in c.id for c in calls)


def test_gemini_id_is_echoed_only_when_the_model_sent_one() -> None:
    content = {
        "role": "model",
        "parts": [
            {"functionCall": {"id": "call_9", "name": "get_weather", "args": {}}},
            {"functionCall": {"name": "get_weather", "args": {}}},
        ],
    }
    calls = parse_response("gemini", content).calls
    (message,) = render_results("gemini", [ok(calls[0].id), failed(calls[1].id)], calls=calls)
    first, second = (p["functionResponse"] for p in message["parts"])
    assert first == {"id": "call_9", "name": "get_weather", "response": {"result": "18 C"}}
    assert second == {"name": "get_weather", "response": {"error": "upstream timeout"}}


def test_anthropic_streamed_truncated_input_is_kept_as_text() -> None:
    message = {
        "content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}],
        "stop_reason": "max_tokens",
    }
    assert parse_response("anthropic", message).calls[0].arguments == {}


# --- §9/§10.4: results and error flags ----------------------------------------------------


def test_results_per_dialect_and_error_flags() -> None:
    results = [ok("c1"), failed("c2")]
    chat = render_results("openai_chat", results)
    assert chat == [
        {"role": "tool", "tool_call_id": "c1", "content": "18 C"},
        {"role": "tool", "tool_call_id": "c2", "content": "Error: upstream timeout"},
    ]
    responses = render_results("openai_responses", results)
    assert [r["type"] for r in responses] == ["function_call_output"] * 2
    assert responses[1]["output"].startswith("Error: ")
    (anthropic,) = render_results("anthropic", results)
    assert anthropic["role"] == "user"
    assert [b.get("is_error") for b in anthropic["content"]] == [None, True]
    mcp = render_results("mcp", results)
    assert [r["isError"] for r in mcp] == [False, True]


def test_error_flag_survives_openai_and_back() -> None:
    chat = render_results("openai_chat", [failed("c1")])
    history = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{}"},
                }
            ],
        },
        *chat,
    ]
    (result,) = read_messages("openai_chat", history).messages[1].results
    assert result.is_error and result.content == "upstream timeout"
    assert result.name == "get_weather"  # recovered from the call for Gemini's sake


def test_anthropic_results_first_in_one_user_message_and_no_empty_text() -> None:
    chat = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "a",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{}"},
                },
                {
                    "id": "b",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{}"},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "1"},
        {"role": "tool", "tool_call_id": "b", "content": "2"},
        {"role": "user", "content": "thanks"},
    ]
    out = convert(chat, source="openai_chat", target="anthropic").messages
    assert [m["role"] for m in out] == ["user", "assistant", "user"]
    assert all(b["type"] == "tool_use" for b in out[1]["content"])  # no empty text block
    assert [b["type"] for b in out[2]["content"]] == ["tool_result", "tool_result", "text"]


def test_gemini_results_need_the_name_recovered_from_the_call() -> None:
    chat = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "18 C"},
    ]
    out = convert(chat, source="openai_chat", target="gemini").messages
    assert out[2]["parts"][0]["functionResponse"]["name"] == "get_weather"
    assert len(out[2]["parts"]) == len(out[1]["parts"])  # counts must match


@pytest.mark.parametrize(
    ("response", "content", "is_error"),
    [
        ({"result": "ok"}, "ok", False),
        ({"output": {"t": 1}}, '{"t": 1}', False),
        ({"error": "boom"}, "boom", True),
        ({"temp": 18}, '{"temp": 18}', False),
    ],
)
def test_gemini_response_wrappers_are_read_symmetrically(
    response: Any, content: str, is_error: bool
) -> None:
    contents = [
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": response}}]},
    ]
    (call,) = read_messages("gemini", contents).messages[0].calls
    (result,) = read_messages("gemini", contents).messages[1].results
    assert (result.content, result.is_error) == (content, is_error)
    assert result.call_id  # bound to the call by order
    assert call.synthetic_id


def test_mcp_result_keeps_structured_content_beside_the_text() -> None:
    result = ToolResult(
        call_id="1", name="f", route=Route.COMPLETED, content='{"a": 1}', structured={"a": 1}
    )
    (wire,) = render_results("mcp", [result])
    assert wire == {
        "content": [{"type": "text", "text": '{"a": 1}'}],
        "structuredContent": {"a": 1},
        "isError": False,
    }


def test_non_text_tool_output_is_refused_not_silently_dropped() -> None:
    # openai-agents drops non-text tool output for Chat (§2.6); callgate says so.
    items = [
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": [{"type": "input_image", "image_url": "data:image/png;base64,AA"}],
        },
    ]
    with pytest.raises(DialectError, match="input_image"):
        convert(items, source="openai_responses", target="openai_chat")


# --- §10.1: names ---------------------------------------------------------------------------


def test_names_a_dialect_rejects_are_aliased_in_catalog_choice_and_history() -> None:
    odd = Tool(name="1password_lookup", description="", input_schema={"type": "object"})
    rendered = render_tools([odd], "gemini", choice=ToolChoice.tool("1password_lookup"))
    alias = rendered.aliases.to_wire("1password_lookup")
    assert alias != "1password_lookup" and alias[0] == "_"
    decl = rendered.payload["tools"][0]["functionDeclarations"][0]
    assert decl["name"] == alias
    assert rendered.payload["toolConfig"]["functionCallingConfig"]["allowedFunctionNames"] == [
        alias
    ]
    turn = parse_response(
        "gemini",
        {"role": "model", "parts": [{"functionCall": {"name": alias, "args": {}}}]},
        rendered=rendered,
    )
    assert turn.calls[0].name == "1password_lookup"
    assert render_tools([odd], "gemini").aliases == rendered.aliases  # stable


def test_dotted_mcp_names_in_history_are_aliased_for_openai_and_anthropic() -> None:
    contents = [
        {
            "role": "model",
            "parts": [{"functionCall": {"name": "notes.search", "args": {}, "id": "x1"}}],
        },
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "name": "notes.search",
                        "id": "x1",
                        "response": {"result": "r"},
                    }
                }
            ],
        },
    ]
    for target in ("openai_chat", "anthropic"):
        out = convert(contents, source="gemini", target=target)
        assert "notes.search" not in json.dumps(out.messages)
        assert out.aliases.to_canonical("notes_search") == "notes.search"


# --- §10.1: schemas ----------------------------------------------------------------------------


def test_anthropic_gets_the_full_schema() -> None:
    # litellm keeps only type/properties/required/$defs...; any-llm drops $defs (§10.1).
    schema = {
        "type": "object",
        "description": "root",
        "definitions": {"X": {"type": "string"}},
        "properties": {"x": {"$ref": "#/definitions/X"}},
    }
    tool = Tool(name="f", description="", input_schema=schema)
    wire = render_tools([tool], "anthropic").payload["tools"][0]["input_schema"]
    assert wire["definitions"] == {"X": {"type": "string"}} and wire["description"] == "root"


def test_openai_gets_properties_even_when_the_schema_has_none() -> None:
    tool = Tool(name="ping", description="", input_schema={"type": "object"})
    fn = render_tools([tool], "openai_chat").payload["tools"][0]["function"]
    assert fn["parameters"] == {"type": "object", "properties": {}}


def test_gemini_prefers_json_schema_and_rewrites_the_openapi_subset() -> None:
    tool = Tool(name="place_order", description="", input_schema=ORDER)
    plain = render_tools([tool], "gemini").payload["tools"][0]["functionDeclarations"][0]
    assert plain["parametersJsonSchema"]["$defs"] == ORDER["$defs"]
    rendered = render_tools([tool], "gemini", gemini_schema="openapi")
    params = rendered.payload["tools"][0]["functionDeclarations"][0]["parameters"]
    text = json.dumps(params)
    assert "$ref" not in text and "additionalProperties" not in text and '"null"' not in text
    assert params["properties"]["items"]["items"]["properties"]["note"]["nullable"] is True
    assert params["properties"]["priority"]["enum"] == ["1", "2", "3"]
    assert params["properties"]["gift"] == {"type": "BOOLEAN", "nullable": True}
    kinds = {(w.keyword, w.action) for w in rendered.warnings}
    assert ("$ref", "rewritten") in kinds and ("additionalProperties", "dropped") in kinds


# --- §10.5: conversation procedures -------------------------------------------------------------


def test_a_dangling_call_is_answered_with_a_synthetic_error() -> None:
    chat = [
        {"role": "user", "content": "pay"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "pay", "arguments": "{}"}},
                {"id": "c2", "type": "function", "function": {"name": "pay", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "paid"},
        {"role": "user", "content": "did it work?"},
    ]
    for target in ("openai_chat", "anthropic", "gemini", "openai_responses"):
        out = convert(chat, source="openai_chat", target=target)
        results = out.transcript.messages[2].results
        assert [r.call_id for r in results] == ["c1", "c2"]
        assert results[1].is_error and results[1].content == INTERRUPTED
        assert results[1].route is Route.UNKNOWN_OUTCOME
        assert any("synthetic" in n for n in out.notes)


def test_trailing_calls_are_left_for_the_caller_to_answer() -> None:
    chat = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
    ]
    out = convert(chat, source="openai_chat", target="anthropic")
    assert len(out.messages) == 2 and not out.notes


def test_reused_ids_across_turns_are_made_unique_for_anthropic() -> None:
    turn = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_0", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_0", "content": "x"},
    ]
    chat = [{"role": "user", "content": "go"}, *turn, {"role": "user", "content": "again"}, *turn]
    out = convert(chat, source="openai_chat", target="anthropic").messages
    first, second = out[1]["content"][0]["id"], out[3]["content"][0]["id"]
    assert first != second
    assert out[2]["content"][0]["tool_use_id"] == first
    assert out[4]["content"][0]["tool_use_id"] == second


def test_foreign_reasoning_state_is_dropped_with_a_note_and_kept_for_its_provider() -> None:
    history = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hm", "signature": "sig"},
                {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "r"}]},
    ]
    same = convert(history, source="anthropic", target="anthropic")
    assert same.messages[1]["content"][0]["type"] == "thinking" and not same.notes
    other = convert(history, source="anthropic", target="gemini")
    assert "thinking" not in json.dumps(other.messages)
    assert any("anthropic reasoning state" in n for n in other.notes)


def test_gemini_thought_signature_stays_on_its_part_and_not_elsewhere() -> None:
    contents = [
        {"role": "user", "parts": [{"text": "go"}]},
        {
            "role": "model",
            "parts": [
                {"functionCall": {"id": "a", "name": "f", "args": {}}, "thoughtSignature": "c2ln"},
                {"functionCall": {"id": "b", "name": "f", "args": {}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"id": "a", "name": "f", "response": {"result": 1}}},
                {"functionResponse": {"id": "b", "name": "f", "response": {"result": 2}}},
            ],
        },
    ]
    same = convert(contents, source="gemini", target="gemini").messages
    assert same[1]["parts"][0]["thoughtSignature"] == "c2ln"
    assert "thoughtSignature" not in same[1]["parts"][1]
    chat = convert(contents, source="gemini", target="openai_chat")
    assert "c2ln" not in json.dumps(chat.messages)


def test_responses_reasoning_items_precede_the_calls_on_replay() -> None:
    output = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "f",
            "arguments": "{}",
        },
    ]
    turn = parse_response("openai_responses", {"output": output, "status": "completed"})
    assert turn.calls[0].id == "call_1" and turn.state["openai"]["items"][0]["id"] == "rs_1"
    history = [
        {"role": "user", "content": "go"},
        *output,
        {"type": "function_call_output", "call_id": "call_1", "output": "r"},
    ]
    back = convert(history, source="openai_responses", target="openai_responses").messages
    assert [i.get("type") for i in back[1:3]] == ["reasoning", "function_call"]
    assert back[2]["id"] == "fc_1"  # keyed by call_id, item id kept for replay


# --- §11: known library behaviours ----------------------------------------------------------------


def test_legacy_function_call_and_function_role_results() -> None:
    chat = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
        },
        {"role": "function", "name": "get_weather", "content": "cold"},
    ]
    transcript = read_messages("openai_chat", chat)
    (call,) = transcript.messages[1].calls
    (result,) = transcript.messages[2].results
    assert result.call_id == call.id  # litellm's uuid4 would match nothing


def test_unknown_or_malformed_payloads_raise_dialect_errors() -> None:
    with pytest.raises(DialectError, match="role"):
        read_messages("openai_chat", [{"role": "wizard", "content": "x"}])
    with pytest.raises(DialectError, match="tool_calls"):
        parse_response("openai_chat", {"role": "assistant", "tool_calls": "nope"})
    with pytest.raises(DialectError, match="args"):
        parse_response(
            "gemini", {"role": "model", "parts": [{"functionCall": {"name": "f", "args": [1]}}]}
        )
    with pytest.raises(DialectError, match="server_tool_use"):
        parse_response("anthropic", {"content": [{"type": "server_tool_use", "id": "s"}]})
    with pytest.raises(DialectError, match="no choices"):
        parse_response("openai_chat", {"choices": []})


def test_text_that_calls_nothing_stays_text_like_vllm_parsers() -> None:
    rendered = render_tools([WEATHER], "text")
    turn = parse_response("text", 'Use {"city": "Oslo"} as input.', rendered=rendered)
    assert not turn.calls and turn.text == 'Use {"city": "Oslo"} as input.'


def test_hermes_tool_responses_carry_the_name() -> None:
    (message,) = render_results("text", [ok("c1")])
    assert '"name": "get_weather"' in message["content"]


def test_dialects_import_no_sdk_at_import_time() -> None:
    code = (
        "import sys, callgate.dialects; "
        "print([m for m in ('openai', 'anthropic', 'google.genai', 'mcp') "
        "if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_catalog_fixture_renders_everywhere() -> None:
    for dialect in ("openai_chat", "openai_responses", "anthropic", "gemini", "mcp", "text"):
        assert render_tools(tools(), dialect).payload
    _ = ToolCall
