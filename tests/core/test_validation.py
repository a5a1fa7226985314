"""Bad arguments: each gets the `invalid` route and a message that names the field."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from callgate import ArgumentLimits, Effect, Gate, Route, Tool, ToolCall, tool

executed: list[dict[str, Any]] = []


@tool(effect="read", examples=[{"city": "Moscow", "days": 3}])
def get_weather_forecast(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 3,
    units: Literal["celsius", "fahrenheit"] = "celsius",
) -> dict[str, Any]:
    """Return the forecast for a city. Use when the user asks about future weather."""
    executed.append({"city": city, "days": days, "units": units})
    return {"city": city, "days": days}


ORDERS = Tool(
    name="update_order",
    description="Update an order.",
    effect=Effect.WRITE,
    executor=lambda **kw: executed.append(kw) or "ok",  # type: ignore[func-returns-value]
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["orderId", "status"],
        "properties": {
            "orderId": {"type": "string", "format": "uuid"},
            "status": {"enum": ["OPEN", "CANCELLED", "SHIPPED"]},
            "deliver_on": {"type": "string", "format": "date"},
            "contact": {"type": "string", "format": "email"},
            "link": {"type": "string", "format": "uri"},
            "at": {"type": "string", "format": "date-time"},
            "meta": {
                "type": "object",
                "properties": {
                    "priority": {"type": "integer", "default": 1},
                    "tags": {"type": "array", "items": {"type": "string"}, "default": []},
                },
            },
        },
    },
)


@pytest.fixture
def gate() -> Gate:
    executed.clear()
    return Gate([get_weather_forecast, ORDERS], limits=ArgumentLimits(max_bytes=2048, max_depth=8))


def route(gate: Gate, name: str, arguments: Any) -> tuple[Route, str]:
    result = gate.call_sync(ToolCall(id="c1", name=name, arguments=arguments))
    assert result.call_id == "c1"
    assert result.is_error == (result.route not in ("completed", "verified"))
    return result.route, result.content


def test_the_example_from_the_design(gate: Gate) -> None:
    r, text = route(gate, "get_weather_forecast", '{"days": 9}')
    assert r == "invalid"
    assert text == (
        "Invalid arguments for get_weather_forecast: 'city' is required; 'days' "
        "must be <= 7 (got 9). Fix the arguments and call again. Example of a "
        'valid call: {"city": "Moscow", "days": 3}'
    )
    assert executed == []


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        (
            "get_wether_forecast",
            "{}",
            "Unknown tool 'get_wether_forecast'. Did you mean 'get_weather_forecast'?",
        ),
        (
            "get_weather_forecast",
            '{"city": "Oslo",',
            "not valid JSON (Expecting property name "
            "enclosed in double quotes at line 1, column 17)",
        ),
        ("get_weather_forecast", "[1, 2]", "must be a JSON object, got an array"),
        ("get_weather_forecast", '"Oslo"', "must be a JSON object, got a string"),
        ("get_weather_forecast", "{}", "'city' is required"),
        ("get_weather_forecast", '{"city": 5}', "'city' must be of type string (got integer 5)"),
        ("get_weather_forecast", '{"city": "Oslo", "town": "x"}', "unknown field 'town'"),
        ("get_weather_forecast", '{"city": "Oslo", "days": 0}', "'days' must be >= 1 (got 0)"),
        (
            "get_weather_forecast",
            '{"city": "Oslo", "units": "kelvin"}',
            '\'units\' must be one of "celsius", "fahrenheit" (got "kelvin")',
        ),
        (
            "update_order",
            {
                "orderId": "123e4567-e89b-12d3-a456-426614174000",
                "status": "OPEN",
                "deliver_on": "2026-02-30",
            },
            "'deliver_on' must be a valid date (got \"2026-02-30\")",
        ),
        (
            "update_order",
            {"orderId": "not-a-uuid", "status": "OPEN"},
            "'orderId' must be a valid uuid",
        ),
        (
            "update_order",
            {
                "orderId": "123e4567-e89b-12d3-a456-426614174000",
                "status": "OPEN",
                "contact": "nobody",
            },
            "'contact' must be a valid email",
        ),
        (
            "update_order",
            {
                "orderId": "123e4567-e89b-12d3-a456-426614174000",
                "status": "OPEN",
                "link": "not a uri",
            },
            "'link' must be a valid uri",
        ),
        (
            "update_order",
            {
                "orderId": "123e4567-e89b-12d3-a456-426614174000",
                "status": "OPEN",
                "at": "yesterday",
            },
            "'at' must be a valid date-time",
        ),
        (
            "update_order",
            {
                "orderId": "123e4567-e89b-12d3-a456-426614174000",
                "status": "OPEN",
                "meta": {"priority": "high"},
            },
            "'meta.priority' must be of type integer (got string \"high\")",
        ),
        (
            "get_weather_forecast",
            json.dumps({"city": "x" * 5000}),
            "too large (5012 bytes; the limit is 2048)",
        ),
        ("get_weather_forecast", '{"city": ' + "[" * 20 + "]" * 20 + "}", "nested too deeply"),
        (
            "get_weather_forecast",
            {"city": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {}}}}}}}}},
            "nested too deeply",
        ),
    ],
)
def test_bad_input(gate: Gate, name: str, arguments: Any, expected: str) -> None:
    r, text = route(gate, name, arguments)
    assert r == "invalid"
    assert expected in text
    assert executed == []


def test_did_you_mean_for_fields_and_enum_values(gate: Gate) -> None:
    _, text = route(
        gate,
        "update_order",
        {"order_id": "123e4567-e89b-12d3-a456-426614174000", "status": "CANCELLED_BY_USER"},
    )
    assert "unknown field 'order_id'; did you mean 'orderId'?" in text
    assert "'status' must be one of" in text and 'did you mean "CANCELLED"?' in text
    assert "'orderId' is required" in text


def test_every_failing_field_is_named(gate: Gate) -> None:
    _, text = route(
        gate, "update_order", {"orderId": 1, "status": "X", "deliver_on": "no", "extra": True}
    )
    for field in ("'orderId'", "'status'", "'deliver_on'", "'extra'"):
        assert field in text


def test_defaults_are_filled_also_when_nested(gate: Gate) -> None:
    r, _ = route(
        gate,
        "update_order",
        {"orderId": "123e4567-e89b-12d3-a456-426614174000", "status": "OPEN", "meta": {}},
    )
    assert r == "completed"
    assert executed[-1]["meta"] == {"priority": 1, "tags": []}
    r, _ = route(gate, "get_weather_forecast", {"city": "Oslo"})
    assert executed[-1] == {"city": "Oslo", "days": 3, "units": "celsius"}


@pytest.mark.parametrize("arguments", [None, "", "   "])
def test_missing_arguments_mean_an_empty_object(gate: Gate, arguments: Any) -> None:
    r, text = route(gate, "get_weather_forecast", arguments)
    assert r == "invalid" and "'city' is required" in text


def test_generated_example_when_the_tool_has_none(gate: Gate) -> None:
    _, text = route(gate, "update_order", "{}")
    example = json.loads(text.split("Example of a valid call: ")[1])
    assert example["status"] == "OPEN"
    assert example["orderId"] == "123e4567-e89b-12d3-a456-426614174000"


def test_arguments_object_is_not_shared_with_the_caller(gate: Gate) -> None:
    arguments = {"city": "Oslo"}
    route(gate, "get_weather_forecast", arguments)
    assert arguments == {"city": "Oslo"}
