"""A tool selector in the loop: what each turn offers, what the gate still decides, resume.

The tools sent are read from what the model actually received (`ScriptedModel.requests`,
and over real HTTP the body the official OpenAI client posted to the fake server).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from callgate import Catalog, Route, UserError
from callgate.dialects import Message
from callgate.gate import Gate
from callgate.loop import Agent, LimitExceeded, Limits, RunState
from callgate.models import (
    FakeOpenAIChatServer,
    ModelRequest,
    OpenAIChatModel,
    ScriptedModel,
    Turn,
)
from callgate.retrieval import ToolIndex, ToolSelector, search_tool
from callgate.store import Store, open_store
from tests.conftest import RETRIEVAL, require
from tests.loop.selecting import agent, names
from tests.models.scenario import OPENAI_OVER_HTTP
from tests.retrieval.tools import catalog

require(*RETRIEVAL, extra="retrieval")

ROOT = Path(__file__).resolve().parents[2]
WEATHER = "What is the weather in Oslo?"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'callgate.db'}") as s:
        yield s


def sent(requests: list[ModelRequest]) -> list[list[str]]:
    return [names(r) for r in requests]


def assert_grows_in_order(lists: list[list[str]]) -> None:
    """Each turn's list starts with the whole list of the turn before it."""
    for before, after in itertools.pairwise(lists):
        assert after[: len(before)] == before, (before, after)


async def test_turns_offer_the_selection_then_what_tool_search_revealed() -> None:
    a, model, selector = agent(
        [
            Turn.call(("tool_search", {"query": "convert currency"})),
            Turn.call(("convert_currency", {"amount": 5, "source": "NOK", "target": "EUR"})),
            Turn.say("Sunny; 5 NOK is about 0.45 EUR."),
        ]
    )
    result = await a.run(WEATHER)
    assert result.status == "finished"
    lists = sent(model.requests)
    # Turn 1: the pinned search tool and what the question selected, not the catalog (9).
    assert lists[0] == ["tool_search", "get_weather"]
    # Turn 2 also carries the tool found by tool_search in turn 1, appended at the end.
    assert lists[1] == ["tool_search", "get_weather", "convert_currency"]
    assert lists[2] == lists[1]
    assert_grows_in_order(lists)
    assert [r.route for r in result.calls] == [Route.COMPLETED, Route.COMPLETED]
    assert result.state.shown == tuple(lists[-1]) == selector.shown_names
    assert len(a.gate.catalog) == 9  # the gate still holds every tool


async def test_the_list_carries_over_when_the_conversation_continues() -> None:
    a, model, _ = agent(
        [
            Turn.call(("tool_search", {"query": "send an email"})),
            Turn.say("Sunny."),
            Turn.say("Hej means hello."),
        ]
    )
    first = await a.run(WEATHER)
    follow_up = await a.run(
        [*first.transcript, Message(role="user", text="Translate the word hej to English")]
    )
    lists = sent(model.requests)
    assert lists[1] == ["tool_search", "get_weather", "send_email"]
    assert lists[2][:3] == lists[1] and "translate_text" in lists[2][3:]
    assert_grows_in_order(lists)
    assert follow_up.state.shown == tuple(lists[2])


@OPENAI_OVER_HTTP
async def test_over_http_the_openai_client_sends_only_the_offered_tools() -> None:
    script = [Turn.call(("tool_search", {"query": "convert currency"})), Turn.say("Done.")]
    tools = catalog()
    with FakeOpenAIChatServer(script, model="fake-1") as server:
        async with OpenAIChatModel("fake-1", base_url=server.base_url, api_key="test-key") as model:
            a, _, _ = agent([])
            a.model = model
            result = await a.run(WEATHER)
    assert result.status == "finished"
    wire = [[t["function"]["name"] for t in r.body["tools"]] for r in server.requests]
    assert wire == [
        ["tool_search", "get_weather"],
        ["tool_search", "get_weather", "convert_currency"],
    ]
    # The schema on the wire is the catalog's own, not a summary.
    params: dict[str, Any] = server.requests[1].body["tools"][2]["function"]["parameters"]
    assert set(params["properties"]) == set(tools[1].input_schema["properties"])


async def test_a_denied_tool_is_never_offered_and_a_direct_call_is_still_denied() -> None:
    a, model, selector = agent(
        [
            Turn.call(("delete_account", {"user_id": "u1"})),
            Turn.call(("tool_search", {"query": "delete account"})),
            Turn.say("Support closes accounts."),
        ]
    )
    result = await a.run("Delete my account u1")
    lists = sent(model.requests)
    assert all("delete_account" not in names_ for names_ in lists)
    assert lists[0] == ["tool_search"]  # nothing else matched that this principal may use
    denied = result.calls[0].result
    assert denied.name == "delete_account" and denied.route is Route.DENIED
    assert denied.rule_id == "no-deletes"
    assert "delete_account" not in selector.shown_names


async def test_a_catalog_tool_not_shown_is_routed_by_the_gate_and_shown_from_then_on() -> None:
    a, model, _ = agent(
        [
            Turn.call(
                ("translate_text", {"text": "hej", "target_language": "en"}),
                ("send_email", {"to": "ann@example.com"}),
                ("no_such_tool", {}),
            ),
            Turn.say("Hello."),
        ]
    )
    result = await a.run(WEATHER)
    routes = {r.call.name: r.route for r in result.calls}
    assert routes == {
        "translate_text": Route.COMPLETED,
        "send_email": Route.HELD,
        "no_such_tool": Route.INVALID,
    }
    assert result.status == "paused"  # send_email waits for a human, as it would if shown
    assert result.state.shown == ("tool_search", "get_weather", "translate_text", "send_email")
    assert sent(model.requests) == [["tool_search", "get_weather"]]


async def test_a_run_stopped_at_a_limit_resumes_with_its_list(store: Store) -> None:
    a, _, _ = agent(
        [
            Turn.call(("tool_search", {"query": "convert currency"})),
            Turn.call(("get_weather", {"city": "Oslo"})),
        ],
        store=store,
        limits=Limits(steps=2),
    )
    with pytest.raises(LimitExceeded) as stopped:
        await a.run(WEATHER)
    saved = stopped.value.state.shown
    assert saved == ("tool_search", "get_weather", "convert_currency")
    a.gate.close()
    # Fresh catalog, index, selector and gate: only the store is shared.
    again, model, selector = agent([Turn.say("Sunny.")], store=store)
    assert selector.shown_names == ("tool_search",)
    result = await again.resume(stopped.value.state.run_id, limits=Limits(steps=5))
    assert result.status == "finished"
    assert sent(model.requests) == [list(saved)]
    again.gate.close()


async def test_the_final_answer_turn_keeps_the_list() -> None:
    a, model, _ = agent(
        [Turn.call(("tool_search", {"query": "convert currency"})), Turn.say("Sunny.")],
        limits=Limits(steps=1, final_answer=True),
    )
    result = await a.run(WEATHER)
    assert result.status == "limited"
    lists = sent(model.requests)
    assert lists == [
        ["tool_search", "get_weather"],
        ["tool_search", "get_weather", "convert_currency"],
    ]
    assert model.requests[1].allow_calls is False


def _python(*args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "tests.loop.selecting", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_paused_run_resumed_in_another_process_keeps_its_list(tmp_path: Path) -> None:
    """tool_search revealed a tool in the batch that paused: the saved state has it."""
    db = tmp_path / "runs.db"
    status, run_id, approval = _python("start", str(db)).split()
    assert status == "paused"
    with open_store(f"sqlite:///{db}") as store:
        record = store.runs.load(run_id)
        assert record is not None
        shown = RunState.from_dict(record.state).shown
    assert shown[0] == "tool_search" and "convert_currency" in shown
    assert "send_email" in shown and len(set(shown)) == len(shown)
    lists = json.loads(_python("resume", str(db), run_id, approval))
    assert lists == [list(shown)]


def test_a_selector_offering_tools_the_gate_does_not_know_is_refused() -> None:
    tools = catalog()
    selector = ToolSelector(ToolIndex(tools))
    with pytest.raises(UserError, match="delete_account"):
        Agent(ScriptedModel([]), gate=Gate(Catalog(tools[:4])), selector=selector)
    search_tool(selector)
    with pytest.raises(UserError, match="tool_search"):
        Agent(ScriptedModel([]), tools, selector=selector)
