"""The tools and script every end-to-end test shares: a parallel batch of three calls,
one with invalid arguments and one whose tool fails, then the corrected call, then text."""

from __future__ import annotations

from callgate import ToolError, tool
from callgate.models import (
    AnthropicModel,
    FakeAnthropicServer,
    FakeGeminiServer,
    FakeOpenAIChatServer,
    FakeOpenAIResponsesServer,
    FakeProviderServer,
    GeminiModel,
    OpenAIChatModel,
    OpenAIResponsesModel,
    SDKModel,
    Turn,
)

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


PAIRS: list[tuple[type[FakeProviderServer], type[SDKModel]]] = [
    (FakeOpenAIChatServer, OpenAIChatModel),
    (FakeOpenAIResponsesServer, OpenAIResponsesModel),
    (FakeAnthropicServer, AnthropicModel),
    (FakeGeminiServer, GeminiModel),
]
"""Each fake provider server with the adapter over its official SDK."""
