"""The tools and script every end-to-end test shares: a parallel batch of three calls,
one with invalid arguments and one whose tool fails, then the corrected call, then text."""

from __future__ import annotations

import pytest

from callgate import ToolError, tool
from callgate.models import (
    AnthropicModel,
    FakeAnthropicServer,
    FakeGeminiServer,
    FakeOpenAIChatServer,
    FakeOpenAIResponsesServer,
    GeminiModel,
    OpenAIChatModel,
    OpenAIResponsesModel,
    Turn,
)
from tests.conftest import SERVER, needs

CALLS: list[str] = []


@tool(effect="read")
def get_weather(city: str, days: int = 1) -> dict[str, object]:
    """Forecast for a city."""
    CALLS.append(f"get_weather:{city}")
    return {"city": city, "days": days, "sky": "sunny"}


@tool(effect="read")
def find_orders(customer: str) -> list[str]:
    """Orders of a customer."""
    CALLS.append(f"find_orders:{customer}")
    raise ToolError("the order service is down")


TOOLS = [get_weather, find_orders]


def script() -> list[Turn]:
    return [
        Turn.call(
            ("get_weather", {"city": "Paris"}),
            ("get_weather", {"city": "Lyon", "days": "two"}),
            ("find_orders", {"customer": "c-1"}),
            text="Checking.",
        ),
        Turn.call(("get_weather", {"city": "Lyon", "days": 2})),
        Turn.say("Paris and Lyon are sunny; orders are unavailable."),
    ]


def over_http(sdk: str, extra: str) -> pytest.MarkDecorator:
    """A test of the official SDK `sdk` (of `extra`) against a fake server."""
    return needs(sdk, *SERVER, extra=f"{extra},server")


OPENAI_OVER_HTTP = over_http("openai", "openai")

PAIRS = [
    pytest.param(
        FakeOpenAIChatServer, OpenAIChatModel, id="OpenAIChatModel", marks=OPENAI_OVER_HTTP
    ),
    pytest.param(
        FakeOpenAIResponsesServer,
        OpenAIResponsesModel,
        id="OpenAIResponsesModel",
        marks=OPENAI_OVER_HTTP,
    ),
    pytest.param(
        FakeAnthropicServer,
        AnthropicModel,
        id="AnthropicModel",
        marks=over_http("anthropic", "anthropic"),
    ),
    pytest.param(
        FakeGeminiServer, GeminiModel, id="GeminiModel", marks=over_http("google.genai", "gemini")
    ),
]
"""Each fake provider server with the adapter over its official SDK (`server_cls,
model_cls`); a case skips where its SDK or the server extra is missing."""
