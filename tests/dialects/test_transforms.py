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
