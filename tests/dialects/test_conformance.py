"""Every rendered request validates against the official SDKs' own request types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from callgate.contract import Route, Tool, ToolCall, ToolResult
from callgate.dialects import ToolChoice, render_results, render_tools
from tests.dialects import sdk
from tests.dialects.catalogs import mcp_catalog, tools

CHOICES: list[Any] = [None, "auto", "required", "none", ToolChoice.tool("get_weather"),
                      ToolChoice.allowed(["get_weather", "place_order"]),
                      ToolChoice.allowed(["get_weather", "ping"], required=True)]

RESULTS = [
    ToolResult(call_id="call_1", name="get_weather", route=Route.COMPLETED, content="18 C"),
    ToolResult(call_id="call_2", name="place_order", route=Route.INVALID, is_error=True,
               content="fix field items[0].qty, e.g. 1"),
]
CALLS = [ToolCall(id="call_1", name="get_weather", arguments='{"city": "Paris"}'),
         ToolCall(id="call_2", name="place_order", arguments={"items": []})]


def _request(dialect: str, catalog: list[Tool], **options: Any) -> dict[str, Any]:
    rendered = render_tools(catalog, dialect, **options)
    results = render_results(dialect, RESULTS, calls=CALLS, rendered=rendered)
    if dialect == "openai_chat":
        messages: list[Any] = [{"role": "user", "content": "hi"}, {
            "role": "assistant", "content": None, "tool_calls": [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": "{}"}} for c in CALLS]}]
        return {"messages": [*messages, *results], **rendered.payload}
    if dialect == "openai_responses":
        calls = [{"type": "function_call", "call_id": c.id, "name": c.name, "arguments": "{}"}
                 for c in CALLS]
        return {"input": [{"role": "user", "content": "hi"}, *calls, *results],
                **rendered.payload}
    if dialect == "anthropic":
        uses = [{"type": "tool_use", "id": c.id, "name": c.name, "input": {}} for c in CALLS]
        return {"messages": [{"role": "user", "content": "hi"},
                             {"role": "assistant", "content": uses}, *results],
                **rendered.payload}
    calls = [{"functionCall": {"id": c.id, "name": c.name, "args": {}}} for c in CALLS]
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                         {"role": "model", "parts": calls}, *results], **rendered.payload}


VALIDATORS = {"openai_chat": sdk.openai_chat_request,
              "openai_responses": sdk.openai_responses_request,
              "anthropic": sdk.anthropic_request, "gemini": sdk.gemini_request}


@pytest.mark.parametrize("dialect", list(VALIDATORS))
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize("parallel", [None, False, True])
def test_rendered_request_validates(dialect: str, strict: bool, choice: Any,
                                    parallel: bool | None) -> None:
    VALIDATORS[dialect](_request(dialect, tools(), strict=strict, choice=choice,
                                 parallel=parallel))


def test_gemini_openapi_subset_validates() -> None:
    sdk.gemini_request(_request("gemini", tools(), gemini_schema="openapi",
                                choice=ToolChoice.allowed(["get_weather"])))


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
    structured = ToolResult(call_id="1", name="place_order", route=Route.COMPLETED,
                            content='{"id": "o1"}', structured={"id": "o1"})
    for result in render_results("mcp", [*RESULTS, structured]):
        sdk.mcp_result(result)
