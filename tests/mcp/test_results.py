"""Upstream `CallToolResult`s as executor values; gate outcomes as downstream results."""

from __future__ import annotations

import base64

import mcp_types
import pytest

from callgate import Route, ToolError, ToolResult
from callgate.gateway import to_call_result
from callgate.mcp import outcome


def test_structured_content_is_the_value() -> None:
    result = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text='{"a": 1}')],
        structured_content={"a": 1},
    )
    assert outcome(result, "s") == {"a": 1}


def test_blocks_a_model_cannot_read_are_named_not_dropped() -> None:
    data = base64.b64encode(b"\x89PNG" + b"0" * 96).decode()
    result = mcp_types.CallToolResult(
        content=[
            mcp_types.TextContent(type="text", text="chart:"),
            mcp_types.ImageContent(type="image", data=data, mime_type="image/png"),
            mcp_types.ResourceLink(type="resource_link", name="log", uri="file:///var/log/x"),
            mcp_types.EmbeddedResource(
                type="resource",
                resource=mcp_types.TextResourceContents(uri="file:///a", text="inline text"),
            ),
        ]
    )
    assert outcome(result, "s") == (
        "chart:\n[image image/png, 100 bytes, not shown]\n[resource log: file:///var/log/x]"
        "\ninline text"
    )


def test_an_upstream_error_says_whose_text_it_is() -> None:
    result = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text="x" * 5000)], is_error=True
    )
    with pytest.raises(ToolError) as caught:
        outcome(result, "gitlab")
    assert caught.value.message.startswith("the upstream server 'gitlab' reported an error: ")
    assert caught.value.message.endswith(" [...]") and len(caught.value.message) < 2100


@pytest.mark.parametrize("route", list(Route))
def test_every_route_is_a_result_with_is_error(route: Route) -> None:
    result = ToolResult(
        call_id="1",
        name="t",
        route=route,
        content="text",
        structured={"k": 1},
        is_error=route.is_error,
        approval_id="a1" if route is Route.HELD else None,
    )
    wire = to_call_result(result)
    assert wire.is_error is (route not in (Route.COMPLETED, Route.VERIFIED))
    assert (wire.meta or {})["callgate/route"] == route.value
    assert (wire.structured_content is not None) is (not wire.is_error)
