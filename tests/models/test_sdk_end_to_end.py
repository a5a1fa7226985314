"""Each official SDK against its fake server over real HTTP, through the real loop and gate.

The model sends a parallel batch of three calls (one invalid, one failing); it corrects
the invalid call on the next turn; every result goes back under its own call id; the run
ends with the model's text. Blocking and streaming requests both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from callgate.loop import Agent, CallProposed, RunEnded, TextStreamed
from callgate.models import (
    FakeAnthropicServer,
    FakeGeminiServer,
    FakeOpenAIChatServer,
    FakeOpenAIResponsesServer,
    FakeProviderServer,
    SDKModel,
)
from tests.models import scenario

PAIRS = scenario.PAIRS


def _chat(body: Any) -> dict[str, tuple[str, bool]]:
    return {
        m["tool_call_id"]: (m["content"], m["content"].startswith("Error:"))
        for m in body["messages"]
        if m["role"] == "tool"
    }


def _responses(body: Any) -> dict[str, tuple[str, bool]]:
    return {
        i["call_id"]: (i["output"], i["output"].startswith("Error:"))
        for i in body["input"]
        if i.get("type") == "function_call_output"
    }


def _anthropic(body: Any) -> dict[str, tuple[str, bool]]:
    blocks = [b for m in body["messages"] if isinstance(m["content"], list) for b in m["content"]]
    return {
        b["tool_use_id"]: (b["content"], bool(b.get("is_error")))
        for b in blocks
        if b["type"] == "tool_result"
    }


def _gemini(body: Any) -> dict[str, tuple[str, bool]]:
    responses = [
        p["functionResponse"]
        for c in body["contents"]
        for p in c["parts"]
        if "functionResponse" in p
    ]
    return {
        r["id"]: (
            json.dumps(r["response"].get("error", r["response"].get("result"))),
            "error" in r["response"],
        )
        for r in responses
    }


READERS = {
    FakeOpenAIChatServer: _chat,
    FakeOpenAIResponsesServer: _responses,
    FakeAnthropicServer: _anthropic,
    FakeGeminiServer: _gemini,
}


def _results_sent(server: FakeProviderServer, request: int) -> dict[str, tuple[str, bool]]:
    """call id -> (result text, marked as error) as the SDK put them on the wire."""
    return READERS[type(server)](server.requests[request].body)


@pytest.mark.parametrize("stream", [False, True], ids=["blocking", "streaming"])
@pytest.mark.parametrize(("server_cls", "model_cls"), PAIRS)
async def test_batch_with_invalid_and_failing_call_then_correction(
    server_cls: type[FakeProviderServer], model_cls: Callable[..., SDKModel], stream: bool
) -> None:
    scenario.CALLS.clear()
    with server_cls(scenario.script(), model="fake-1") as server:
        async with model_cls(
            "fake-1", base_url=server.base_url, api_key="test-key", stream=stream
        ) as model:
            agent = Agent(model, scenario.TOOLS, instructions="Answer briefly.")
            events = [e async for e in agent.stream("Weather in Paris and Lyon? My orders?")]
    result = events[-1]
    assert isinstance(result, RunEnded)
    run = result.result
    assert run.status == "finished"
    assert run.answer == "Paris and Lyon are sunny; orders are unavailable."
    routes = [(r.call.name, r.route.value) for r in run.calls]
    assert routes == [
        ("get_weather", "completed"),
        ("get_weather", "invalid"),
        ("find_orders", "failed"),
        ("get_weather", "completed"),
    ]
    first, invalid, failing, corrected = (r.call.id for r in run.calls)
    assert len({first, invalid, failing, corrected}) == 4
    # The tools ran for the valid calls only; the invalid one never reached its tool.
    assert scenario.CALLS == ["get_weather:Paris", "find_orders:c-1", "get_weather:Lyon"]

    assert len(server.requests) == 3
    sent = _results_sent(server, 1)
    assert set(sent) == {first, invalid, failing}
    assert "sunny" in sent[first][0] and not sent[first][1]
    assert "days" in sent[invalid][0] and sent[invalid][1]
    assert "order service is down" in sent[failing][0] and sent[failing][1]
    later = _results_sent(server, 2)
    assert set(later) - set(sent) == {corrected}
    assert not later[corrected][1]
    assert '\\"days\\": 2' in later[corrected][0] or '"days": 2' in later[corrected][0]

    proposed = [e for e in events if isinstance(e, CallProposed)]
    assert [e.name for e in proposed] == [
        "get_weather",
        "get_weather",
        "find_orders",
        "get_weather",
    ]
    texts = "".join(e.text for e in events if isinstance(e, TextStreamed))
    assert texts == ("Checking.Paris and Lyon are sunny; orders are unavailable." if stream else "")
    _check_request_shape(server, stream)


def _check_request_shape(server: FakeProviderServer, stream: bool) -> None:
    body: Any = server.requests[0].body
    if isinstance(server, FakeGeminiServer):
        assert server.requests[0].path.endswith(
            ":streamGenerateContent" if stream else ":generateContent"
        )
        assert "get_weather" in json.dumps(body["tools"])
        return
    assert bool(body.get("stream")) is stream
    assert "get_weather" in json.dumps(body["tools"])
    assert "Answer briefly." in json.dumps(body)
