"""Provider schema transforms: what they change, that they say so, and their fallbacks."""

from __future__ import annotations

from typing import Any

import pytest

from callgate.contract import Catalog, Tool
from callgate.dialects import DialectWarning, make_aliases, name_ok, parse_response, render_tools
from callgate.schema import compile_schema
from tests.dialects.catalogs import CONDITIONAL, OPEN_MAP, ORDER, TREE, WEATHER


def _tool(schema: dict[str, Any], name: str = "t") -> Tool:
    return Tool(name=name, description="d", input_schema=schema)


def _fn(rendered: Any) -> dict[str, Any]:
    function: dict[str, Any] = rendered.payload["tools"][0]["function"]
    return function


def _by_keyword(warnings: tuple[DialectWarning, ...]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for w in warnings:
        out.setdefault(w.keyword, set()).add(w.action)
    return out


def test_openai_strict_makes_optional_nullable_not_mandatory() -> None:
    rendered = render_tools([_tool(WEATHER)], "openai_chat", strict=True)
    fn = _fn(rendered)
    assert fn["strict"] is True
    params = fn["parameters"]
    assert params["required"] == ["city", "unit", "days"]
    assert params["additionalProperties"] is False
    assert params["properties"]["unit"] == {"type": ["string", "null"], "enum": ["c", "f", None]}
    assert params["properties"]["days"]["type"] == ["integer", "null"]
    assert "default" not in params["properties"]["unit"]
    kinds = _by_keyword(rendered.warnings)
    assert kinds["default"] == {"dropped"} and kinds["required"] == {"rewritten"}
    assert all(
        w.tool == "t" and w.path.startswith("/properties")
        for w in rendered.warnings
        if w.keyword == "required"
    )


def test_strict_nulls_are_dropped_before_validation_and_reported() -> None:
    tool = _tool(WEATHER, "get_weather")
    rendered = render_tools([tool], "openai_chat", strict=True)
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "arguments": '{"city": "Oslo", "unit": null, "days": null}',
                },
            }
        ],
    }
    call = parse_response("openai_chat", message, rendered=rendered).calls[0]
    assert call.arguments == {"city": "Oslo"}
    assert len(call.repairs) == 2
    assert compile_schema(WEATHER).is_valid(dict(call.arguments))


def test_strict_nulls_in_refs_are_dropped_too() -> None:
    tool = _tool(ORDER, "place_order")
    rendered = render_tools([tool], "openai_responses", strict=True)
    output = [
        {
            "type": "function_call",
            "call_id": "c",
            "name": "place_order",
            "arguments": '{"items": [{"sku": "ABC-1", "qty": 1, "note": null}], "email": null}',
        }
    ]
    call = parse_response("openai_responses", {"output": output}, rendered=rendered).calls[0]
    # `note` allows null in the original schema; `email` does not.
    assert call.arguments == {"items": [{"sku": "ABC-1", "qty": 1, "note": None}]}


@pytest.mark.parametrize(
    ("schema", "keyword"),
    [
        (OPEN_MAP, "additionalProperties"),
        (CONDITIONAL, "if"),
        ({"anyOf": [{"type": "object"}, {"type": "null"}]}, "anyOf"),
    ],
)
def test_openai_strict_falls_back_per_tool_with_a_warning(
    schema: dict[str, Any], keyword: str
) -> None:
    rendered = render_tools([_tool(schema), _tool(WEATHER, "w")], "openai_chat", strict=True)
    first, second = rendered.payload["tools"]
    assert first["function"]["strict"] is False and second["function"]["strict"] is True
    (warning,) = [w for w in rendered.warnings if w.action == "not_strict"]
    assert warning.keyword == keyword and warning.tool == "t"
    assert rendered.strict == frozenset({"w"})


def test_openai_strict_rewrites_oneof_and_drops_unsupported_formats() -> None:
    rendered = render_tools([_tool(ORDER)], "openai_chat", strict=True)
    params = _fn(rendered)["parameters"]
    assert (
        "anyOf" in params["properties"]["ship"]["anyOf"][0] or params["properties"]["ship"]["anyOf"]
    )
    assert "format" not in str(params["properties"]["site"])
    assert params["properties"]["when"]["format"] == "date-time"
    kinds = _by_keyword(rendered.warnings)
    assert "rewritten" in kinds["oneOf"] and "dropped" in kinds["uniqueItems"]


def test_responses_always_sends_strict_explicitly() -> None:
    tool = render_tools([_tool(WEATHER)], "openai_responses").payload["tools"][0]
    assert tool["strict"] is False


def test_anthropic_strict_describes_what_it_cannot_enforce() -> None:
    rendered = render_tools([_tool(WEATHER)], "anthropic", strict=True)
    tool = rendered.payload["tools"][0]
    assert tool["strict"] is True
    days = tool["input_schema"]["properties"]["days"]
    assert "minimum" not in days and '"minimum": 1' in days["description"]
    assert tool["input_schema"]["required"] == ["city"]  # optional stays optional
    assert _by_keyword(rendered.warnings)["minimum"] == {"described"}


def test_anthropic_strict_refuses_recursion_and_open_maps() -> None:
    rendered = render_tools([_tool(TREE, "a"), _tool(OPEN_MAP, "b")], "anthropic", strict=True)
    assert all("strict" not in t for t in rendered.payload["tools"])
    assert [w.tool for w in rendered.warnings if w.action == "not_strict"] == ["a", "b"]


def test_anthropic_strict_limits_per_request() -> None:
    many = [
        _tool(
            {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(5)}},
            f"t{n}",
        )
        for n in range(8)
    ]
    rendered = render_tools(many, "anthropic", strict=True)
    strict = [t["name"] for t in rendered.payload["tools"] if t.get("strict")]
    # 5 optional parameters each: the 24-optional budget admits four tools.
    assert strict == ["t0", "t1", "t2", "t3"]
    assert sum(w.action == "not_strict" for w in rendered.warnings) == 4
    assert rendered.strict == frozenset(strict)


def test_gemini_and_mcp_have_no_strict_flag() -> None:
    for dialect in ("gemini", "mcp"):
        rendered = render_tools([_tool(WEATHER)], dialect, strict=True)
        assert "strict" not in str(rendered.payload)
        assert any(w.keyword == "strict" and w.action == "ignored" for w in rendered.warnings)


def test_gemini_openapi_recursion_becomes_unconstrained_with_a_warning() -> None:
    rendered = render_tools([_tool(TREE)], "gemini", gemini_schema="openapi")
    params = rendered.payload["tools"][0]["functionDeclarations"][0]["parameters"]
    assert params["properties"]["root"]["properties"]["children"]["items"] == {}
    assert any(w.keyword == "$ref" and w.action == "dropped" for w in rendered.warnings)


def test_original_schema_still_validates_what_the_wire_schema_let_through() -> None:
    # The host keeps enforcing what a transform dropped.
    compiled = Catalog([_tool(WEATHER, "w")]).compiled("w")
    assert compiled is not None and not compiled.input.is_valid({"city": "x", "days": 99})


def test_aliases_are_stable_two_way_and_collision_free() -> None:
    names = ["a.b", "a_b", "x" * 80, "x" * 81, "1st"]
    first = make_aliases(names, "openai_chat")
    assert first == make_aliases(names, "openai_chat")
    assert first.to_wire("a_b") == "a_b" and first.to_wire("a.b") != "a_b"
    wires = [first.to_wire(n) for n in names]
    assert len(set(wires)) == len(names)
    assert all(name_ok(w, "openai_chat") for w in wires)
    assert all(first.to_canonical(first.to_wire(n)) == n for n in names)
    assert make_aliases(["1st"], "gemini").to_wire("1st") == "_1st"
    assert make_aliases(["send-mail"], "text").to_wire("send-mail") == "send_mail"


def test_unknown_dialect_and_choice_are_user_errors() -> None:
    from callgate._errors import UserError
    from callgate.dialects import ToolChoice

    with pytest.raises(UserError, match="unknown dialect"):
        render_tools([], "cohere")
    with pytest.raises(UserError, match="not rendered"):
        render_tools([_tool(WEATHER)], "openai_chat", choice=ToolChoice.tool("nope"))


# --- regressions: strict-schema edges -------------------------------------------------


def _strict_params(schema: dict[str, Any], dialect: str = "openai_chat") -> dict[str, Any]:
    rendered = render_tools([_tool(schema)], dialect, strict=True)
    fn = _fn(rendered)
    assert fn["strict"] is True, rendered.warnings
    params: dict[str, Any] = fn["parameters"]
    return params


def test_openai_strict_types_an_untyped_value_as_any_json_but_an_object() -> None:
    params = _strict_params(
        {"type": "object", "properties": {"v": {"description": "anything"}}, "required": ["v"]}
    )
    v = params["properties"]["v"]
    kinds = {b.get("type") for b in v["anyOf"]}
    assert {"string", "number", "boolean", "null", "array"} <= kinds
    assert v["description"] == "anything"
    assert params["$defs"]["callgate_any_json"]["anyOf"]
    checked = compile_schema(params)
    assert all(checked.is_valid({"v": x}) for x in ("a", 1, 2.5, True, None, [1, ["x"]]))


def test_openai_strict_types_a_typeless_enum_and_implied_types() -> None:
    params = _strict_params(
        {
            "type": "object",
            "properties": {"e": {"enum": ["a", 1]}, "xs": {"items": {"type": "string"}}},
            "required": ["e", "xs"],
        }
    )
    assert params["properties"]["e"]["type"] == ["string", "integer"]
    assert params["properties"]["xs"]["type"] == "array"


def test_a_single_branch_allof_survives_however_deeply_it_nests() -> None:
    host = {"allOf": [{"allOf": [{"type": "string", "format": "hostname"}]}]}
    params = _strict_params({"type": "object", "properties": {"h": host}, "required": ["h"]})
    assert params["properties"]["h"] == {"type": "string", "format": "hostname"}


def test_allof_around_oneof_becomes_anyof() -> None:
    either = {"allOf": [{"oneOf": [{"type": "string"}, {"type": "integer"}]}]}
    params = _strict_params({"type": "object", "properties": {"x": either}, "required": ["x"]})
    assert params["properties"]["x"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}


def test_strict_nulls_are_dropped_inside_arrays_and_under_allof() -> None:
    item = {
        "type": "object",
        "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
        "required": ["sku"],
    }
    schema = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": item},
            "meta": {"allOf": [{"type": "object", "properties": {"tag": {"type": "string"}}}]},
        },
        "required": ["items"],
    }
    tool = _tool(schema, "order")
    rendered = render_tools([tool], "openai_chat", strict=True)
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {
                    "name": "order",
                    "arguments": '{"items": [{"sku": "A1", "qty": null}], "meta": {"tag": null}}',
                },
            }
        ],
    }
    (call,) = parse_response("openai_chat", message, rendered=rendered).calls
    assert call.arguments == {"items": [{"sku": "A1"}], "meta": {}}
    assert compile_schema(schema).is_valid(dict(call.arguments))
    assert any("items[0].qty" in r for r in call.repairs)


def test_a_null_a_typeless_allof_forbids_is_not_taken_as_allowed() -> None:
    from callgate.dialects._coerce import allows_null

    assert not allows_null({"allOf": [{"type": "string"}]}, {})
    assert allows_null({"allOf": [{"type": ["string", "null"]}]}, {})
    assert allows_null({}, {})


@pytest.mark.parametrize(
    ("schema", "sent", "expected"),
    [
        ({"type": "integer", "enum": [1, 2, 3]}, "2", 2),
        ({"type": "boolean", "enum": [True, False]}, "false", False),
        ({"const": 3}, "3", 3),
        ({"anyOf": [{"type": "integer", "enum": [7]}, {"type": "null"}]}, "7", 7),
        ({"type": "string", "enum": ["1", "2"]}, "1", "1"),
    ],
)
def test_gemini_openapi_enums_sent_as_strings_come_back_typed(
    schema: dict[str, Any], sent: str, expected: Any
) -> None:
    tool = _tool({"type": "object", "properties": {"level": schema}}, "lvl")
    rendered = render_tools([tool], "gemini", gemini_schema="openapi")
    declared = rendered.payload["tools"][0]["functionDeclarations"][0]["parameters"]
    level = declared["properties"]["level"]
    assert all(isinstance(v, str) for v in level.get("enum", []))
    content = {
        "role": "model",
        "parts": [{"functionCall": {"name": "lvl", "args": {"level": sent}}}],
    }
    (call,) = parse_response("gemini", content, rendered=rendered).calls
    assert isinstance(call.arguments, dict) and call.arguments == {"level": expected}
    assert type(call.arguments["level"]) is type(expected)


@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        {"oneOf": [{"type": "integer"}, {"type": "null"}]},
        {"allOf": [{"type": "integer"}]},
        {"type": ["integer", "null"]},
        {"$ref": "#/$defs/n"},
    ],
)
def test_gemini_integral_floats_become_integers_under_unions_and_type_lists(
    schema: dict[str, Any],
) -> None:
    tool = _tool(
        {"type": "object", "properties": {"n": schema}, "$defs": {"n": {"type": "integer"}}}, "g"
    )
    rendered = render_tools([tool], "gemini")
    content = {"role": "model", "parts": [{"functionCall": {"name": "g", "args": {"n": 3.0}}}]}
    (call,) = parse_response("gemini", content, rendered=rendered).calls
    assert isinstance(call.arguments, dict) and call.arguments == {"n": 3}
    assert type(call.arguments["n"]) is int


def test_a_number_parameter_keeps_its_float() -> None:
    tool = _tool({"type": "object", "properties": {"x": {"type": "number"}}}, "g")
    rendered = render_tools([tool], "gemini")
    content = {"role": "model", "parts": [{"functionCall": {"name": "g", "args": {"x": 3.0}}}]}
    (call,) = parse_response("gemini", content, rendered=rendered).calls
    assert call.arguments == {"x": 3.0} and not call.repairs
    assert isinstance(call.arguments, dict) and type(call.arguments["x"]) is float


def _nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object", "properties": {"leaf": {"type": "string"}}}
    for _ in range(depth - 1):
        node = {"type": "object", "properties": {"child": node}, "required": ["child"]}
    return node


def test_openai_nesting_limit_sends_a_deeper_schema_without_strict_mode() -> None:
    ok = render_tools([_tool(_nested(10), "ten")], "openai_chat", strict=True)
    assert _fn(ok)["strict"] is True
    deep = render_tools([_tool(_nested(12), "twelve")], "openai_chat", strict=True)
    assert _fn(deep)["strict"] is False
    (warning,) = [w for w in deep.warnings if w.action == "not_strict"]
    assert "12 levels" in warning.message


def test_openai_size_limits_are_checked() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(5001)}}
    many = {"type": "object", "properties": {"e": {"enum": [f"v{i}" for i in range(1001)]}}}
    for schema in (wide, many):
        assert _fn(render_tools([_tool(schema)], "openai_chat", strict=True))["strict"] is False


def test_converted_ids_restore_ids_reused_across_turns() -> None:
    from callgate.dialects import convert

    def turn(result: str) -> list[dict[str, Any]]:
        call = {"id": "call.1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        return [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call.1", "content": result},
        ]

    chat = [{"role": "user", "content": "go"}, *turn("1"), {"role": "user", "content": "again"}]
    chat += turn("2")
    there = convert(chat, source="openai_chat", target="anthropic")
    firsts = [m["content"][0]["id"] for m in there.messages if m["role"] == "assistant"]
    assert len(set(firsts)) == 2 and set(there.restore) == set(firsts)
    back = convert(there.messages, source="anthropic", target="openai_chat", ids=there.restore)
    ids = [m["tool_calls"][0]["id"] for m in back.messages if m["role"] == "assistant"]
    answers = [m["tool_call_id"] for m in back.messages if m["role"] == "tool"]
    assert ids == ["call.1", "call.1"] and answers == ["call.1", "call.1"]


@pytest.mark.parametrize("name", ["a/b", "x~y", "~/"])
def test_warning_paths_are_valid_json_pointers(name: str) -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {name: {"type": "string"}}}
    warnings = render_tools([_tool(schema)], "openai_chat", strict=True).warnings
    warnings += render_tools([_tool(schema)], "gemini", gemini_schema="openapi").warnings
    paths = [w.path for w in warnings if w.path.startswith("/properties/")]
    assert paths and all(_resolve(schema, p) is schema["properties"][name] for p in paths)


def _resolve(schema: Any, pointer: str) -> Any:
    node = schema
    for token in pointer.split("/")[1:]:
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


def test_make_nullable_does_not_repeat_null() -> None:
    from callgate.dialects._strict_openai import make_nullable

    out = make_nullable({"type": "string", "enum": ["a", None]})
    assert out["enum"] == ["a", None] and out["type"] == ["string", "null"]


@pytest.mark.parametrize("dialect", ["openai_chat", "openai_responses", "anthropic", "gemini"])
def test_no_tools_send_no_tool_choice(dialect: str) -> None:
    rendered = render_tools([], dialect, choice="auto")
    assert not {"tool_choice", "toolConfig"} & set(rendered.payload)
    assert any(w.keyword == "tool_choice" for w in rendered.warnings)
