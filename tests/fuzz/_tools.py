"""The tools every fuzz test calls, and the check that none ran on invalid arguments.

Each tool records the keyword arguments it received under the call id, so a test can
compare what ran with the route each call got.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from callgate import (
    CallContext,
    Catalog,
    Gate,
    Route,
    ToolCall,
    ToolResult,
    tool,
    tool_from_declaration,
)
from callgate.schema import json_problems, validate_instance

_lock = threading.Lock()
ran: dict[str, dict[str, Any]] = {}
"""call id -> the keyword arguments the tool received."""


def _record(ctx: CallContext, arguments: Mapping[str, Any]) -> None:
    with _lock:
        ran[ctx.call_id] = dict(arguments)


@tool(effect="write")
def note(
    ctx: CallContext,
    text: Annotated[str, Field(max_length=200)] = "",
    count: Annotated[int, Field(ge=0)] = 0,
    tags: list[str] | None = None,
) -> str:
    """Write a note."""
    _record(ctx, {"text": text, "count": count, "tags": tags})
    return "noted " + "x" * count  # uses `count` as an int: a float here fails the call


@tool(effect="read")
async def forecast(
    ctx: CallContext,
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 3,
    units: Literal["celsius", "fahrenheit"] = "celsius",
) -> dict[str, Any]:
    """Return the forecast for a city."""
    _record(ctx, {"city": city, "days": days, "units": units})
    return {"city": city, "days": list(range(days)), "units": units}


def _order(ctx: CallContext, **arguments: Any) -> str:
    _record(ctx, arguments)
    return "updated"


ORDER_SCHEMA = {
    "type": "object",
    "$defs": {
        "Item": {
            "type": "object",
            "properties": {
                "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"},
                "qty": {"type": "integer", "exclusiveMinimum": 0},
            },
            "required": ["sku", "qty"],
            "additionalProperties": False,
        }
    },
    "properties": {
        "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "minItems": 1},
        "status": {"enum": ["OPEN", "CANCELLED", "SHIPPED"]},
        "when": {"type": "string", "format": "date"},
    },
    "required": ["items"],
    "additionalProperties": False,
}
update_order = tool_from_declaration(
    {"name": "update_order", "description": "Update an order.", "inputSchema": ORDER_SCHEMA},
    _order,
)
CATALOG = Catalog([note, forecast, update_order])
VALID: dict[str, dict[str, Any]] = {
    "note": {"text": "buy milk", "count": 2, "tags": ["home"]},
    "forecast": {"city": "Oslo", "days": 3},
    "update_order": {"items": [{"sku": "ABC-1", "qty": 2}], "status": "OPEN", "when": "2026-01-31"},
}
SCHEMAS = {t.name: t.input_schema for t in CATALOG}


def check_results(sent: Sequence[ToolCall], results: Sequence[ToolResult]) -> None:
    assert [r.call_id for r in results] == [c.id for c in sent]
    for call, result in zip(sent, results, strict=True):
        assert isinstance(result.route, Route)
        assert result.is_error == result.route.is_error
        result.content.encode("utf-8")
        received = ran.pop(call.id, None)
        if received is None:
            continue
        assert result.route.executed, (call, result)
        # What a tool receives is JSON data within the limits, and valid for its schema.
        data = {k: v for k, v in received.items() if v is not None or k != "tags"}
        assert next(json_problems(data, max_depth=32), None) is None, data
        tool = CATALOG.resolve(call.name)
        assert tool is not None
        assert validate_instance(SCHEMAS[tool.name], data) == [], (call, data)
    for call, result in zip(sent, results, strict=True):
        if result.route is Route.INVALID:
            assert call.id not in ran


PLAIN = Gate(CATALOG)
"""A gate without store or policy: every valid call runs."""
