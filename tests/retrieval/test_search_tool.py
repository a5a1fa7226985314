"""`tool_search` end to end: a scripted model finds a tool, the gate still decides each call."""

from __future__ import annotations

from typing import Any

from callgate import Catalog, Context, Route, ToolCall
from callgate.gate import Gate, Policy, Rule
from callgate.loop import Agent, Limits
from callgate.models import ModelRequest
from callgate.retrieval import ToolIndex, ToolSelector, policy_filter, search_tool
from callgate.testing import ScriptedModel, Turn
from tests.conftest import RETRIEVAL, require
from tests.retrieval.tools import catalog

require(*RETRIEVAL, extra="retrieval")

POLICY = Policy(
    [
        Rule.deny("no-deletes", "accounts are closed by support", tools=["delete_*"]),
        Rule.allow("reads", tools=["*"], effects=["read"]),
    ]
)


def setup() -> tuple[ToolSelector, Gate]:
    tools = catalog()
    selector = ToolSelector(ToolIndex(tools), k=2, allowed=policy_filter(POLICY))
    search = search_tool(selector)  # pinned in the selector: offered on every turn
    assert selector.shown_names == ("tool_search",)
    return selector, Gate(Catalog([*tools, search]), policy=POLICY)


def found_names(request: ModelRequest) -> list[str]:
    """The tool names the last tool_search result listed, read from the transcript."""
    result = request.messages[-1].results[0]
    assert result.name == "tool_search" and result.route is Route.COMPLETED
    return [t["name"] for t in result.structured["tools"]]


async def test_model_finds_a_tool_and_calls_it_through_the_gate() -> None:
    selector, gate = setup()
    seen: dict[str, Any] = {}

    def call_what_was_found(request: ModelRequest) -> Turn:
        seen["found"] = found_names(request)
        return Turn.call((seen["found"][0], {"city": "Oslo"}))

    model = ScriptedModel(
        [
            Turn.call(("tool_search", {"query": "weather forecast"})),
            call_what_was_found,
            Turn.say("It is sunny in Oslo."),
        ]
    )
    agent = Agent(model, gate=gate, limits=Limits(steps=5))
    result = await agent.run("What's the weather in Oslo?")
    assert result.status == "finished"
    assert seen["found"][0] == "get_weather"
    assert "get_weather" in selector.shown_names  # stays offered for the rest of the run
    weather = result.state.messages[-2].results[0]
    assert weather.name == "get_weather" and weather.route is Route.COMPLETED
    assert weather.structured == {"tool": "get_weather", "arguments": {"city": "Oslo"}}


async def test_search_never_reveals_a_denied_tool_and_the_gate_still_denies_it() -> None:
    selector, gate = setup()
    model = ScriptedModel(
        [
            Turn.call(("tool_search", {"query": "delete account", "limit": 5})),
            lambda request: Turn.call(
                ("delete_account", {"user_id": "u1"}), text=",".join(found_names(request))
            ),
            Turn.say("I cannot delete accounts."),
        ]
    )
    result = await Agent(model, gate=gate, limits=Limits(steps=5)).run("Delete my account")
    assert "delete_account" not in selector.shown_names
    listed = result.state.messages[2].text.split(",")
    assert "delete_account" not in listed
    denied = result.state.messages[-2].results[0]
    assert denied.name == "delete_account" and denied.route is Route.DENIED


def test_tool_search_through_the_gate_directly() -> None:
    selector, gate = setup()
    with gate:
        first, second, third = gate.run_batch_sync(
            [
                ToolCall(id="c1", name="tool_search", arguments={"query": "отчёт о продажах"}),
                ToolCall(id="c2", name="tool_search", arguments='{"query": "convert money"}'),
                ToolCall(id="c3", name="tool_search", arguments={"limit": 3}),
            ],
            context=Context(principal="ann"),
        )
    assert first.route is Route.COMPLETED
    assert first.structured["tools"][0] == {
        "name": "sales_report",
        "description": "Сформировать отчёт о продажах за месяц.",
        "new": True,
    }
    assert second.structured["tools"][0]["name"] == "convert_currency"
    assert third.route is Route.INVALID  # the query is required: validated like any call
    assert selector.shown_names[:1] == ("tool_search",)
    assert {"sales_report", "convert_currency"} <= set(selector.shown_names)


def test_repeated_search_marks_tools_already_offered() -> None:
    selector, _ = setup()
    search = selector.shown[0]
    first = search(query="weather")
    again = search(query="weather")
    assert first["tools"][0] == {
        "name": "get_weather",
        "new": True,
        "description": "Current weather and forecast for a city.",
    }
    assert again["tools"][0]["new"] is False
    assert search(query="xyzzy")["tools"] == []


def test_a_query_over_the_maximum_length_is_refused_by_the_gate() -> None:
    selector, gate = setup()
    limit = selector.index.settings.max_query_chars
    with gate:
        longest, over = gate.run_batch_sync(
            [
                ToolCall(id="c1", name="tool_search", arguments={"query": "weather ".ljust(limit)}),
                ToolCall(id="c2", name="tool_search", arguments={"query": "w" * (limit + 1)}),
            ],
            context=Context(principal="ann"),
        )
    assert longest.route is Route.COMPLETED
    assert longest.structured["tools"][0]["name"] == "get_weather"
    assert over.route is Route.INVALID
    assert "query" in over.content
