"""The saved state round-trips and refuses what it cannot read; events come in order."""

from __future__ import annotations

import json

import pytest

from callgate import UserError, tool
from callgate.contract import Route, ToolCall, ToolResult
from callgate.dialects import Message
from callgate.loop import (
    FORMAT,
    Agent,
    ArgumentsStreamed,
    CallProposed,
    CallRouted,
    ModelFailed,
    ResultReady,
    RunEnded,
    RunState,
    StepFinished,
    TextStreamed,
)
from callgate.loop._state import PendingBatch
from callgate.models import ScriptedCall, ScriptedModel, Turn


@tool(effect="read")
def echo(text: str) -> str:
    """Say it back."""
    return text


def test_state_round_trips_through_json_with_bytes_and_sets() -> None:
    call = ToolCall(
        id="c1",
        name="echo",
        arguments='{"text": "hi"}',
        provider_state={"gemini_thought_signature": b"\x00\xffsig"},
    )
    result = ToolResult(
        call_id="c1", name="echo", route=Route.HELD, content="waiting", approval_id="a1"
    )
    state = RunState(
        run_id="r1",
        status="paused",
        model="m",
        messages=(
            Message(role="user", text="hi"),
            Message(role="assistant", calls=(call,), state={"gemini": {"x": b"\x01"}}),
        ),
        pending=PendingBatch(step=1, calls=(call,), results={"c1": result}, admitted=True),
    )
    again = RunState.from_json(state.to_json())
    assert again == state
    assert json.loads(state.to_json())["format"] == FORMAT


def test_the_shown_tool_list_round_trips_in_order() -> None:
    state = RunState(run_id="r1", shown=("tool_search", "get_weather", "convert_currency"))
    assert json.loads(state.to_json())["shown"] == list(state.shown)
    assert RunState.from_json(state.to_json()).shown == state.shown


def test_a_format_1_state_is_still_read_and_has_no_shown_list() -> None:
    data = RunState(run_id="r1", status="stopped", limit="steps").to_dict()
    assert FORMAT == 2
    data["format"] = 1
    del data["shown"]  # format 1 states were written before the selector list existed
    old = RunState.from_dict(data)
    assert old.shown == () and old.limit == "steps" and old.status == "stopped"


def test_a_state_of_another_format_is_refused() -> None:
    data = RunState(run_id="r").to_dict()
    data["format"] = FORMAT + 1
    with pytest.raises(UserError, match="format"):
        RunState.from_dict(data)


async def test_stream_events_in_order() -> None:
    model = ScriptedModel(
        [Turn.call(("echo", {"text": "a"}), text="Let me."), Turn.say("Done.")], stream=True
    )
    events = [e async for e in Agent(model, [echo]).stream("go")]
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "TextStreamed",
        "TextStreamed",
        "CallProposed",
        "ArgumentsStreamed",
        "CallRouted",
        "ResultReady",
        "StepFinished",
        "TextStreamed",
        "RunEnded",
    ]
    assert isinstance(events[2], CallProposed) and events[2].name == "echo"
    assert isinstance(events[3], ArgumentsStreamed) and events[3].delta == '{"text": "a"}'
    assert isinstance(events[4], CallRouted) and events[4].route is Route.COMPLETED
    assert isinstance(events[5], ResultReady) and events[5].result.content == "a"
    assert isinstance(events[6], StepFinished) and events[6].text == "Let me."
    assert "".join(e.text for e in events if isinstance(e, TextStreamed)) == "Let me.Done."
    assert isinstance(events[-1], RunEnded) and events[-1].result.answer == "Done."


async def test_stream_raises_after_the_events_before_the_failure() -> None:
    model = ScriptedModel([Turn.call(("echo", {"text": "a"}))])  # no second turn
    seen = []
    with pytest.raises(ModelFailed) as caught:
        async for event in Agent(model, [echo]).stream("go"):
            seen.append(type(event).__name__)
    assert "ResultReady" in seen and "RunEnded" not in seen
    assert caught.value.state.status == "failed"


async def test_reused_call_ids_are_made_unique_within_the_run() -> None:
    turns = [
        Turn.call(ScriptedCall(name="echo", arguments={"text": "a"}, id="call_0")),
        Turn.call(ScriptedCall(name="echo", arguments={"text": "b"}, id="call_0")),
        Turn.say("ok"),
    ]
    result = await Agent(ScriptedModel(turns), [echo]).run("go")
    ids = [r.call.id for r in result.calls]
    assert len(set(ids)) == 2 and ids[0] == "call_0"
    assert result.calls[1].call.provider_id == "call_0"
    assert [r.result.content for r in result.calls] == ["a", "b"]


async def test_a_refusal_ends_the_run() -> None:
    result = await Agent(ScriptedModel([Turn(text="I can't help.", refusal=True)]), [echo]).run(
        "go"
    )
    assert result.status == "refused" and result.answer == "I can't help."


async def test_transcript_and_usage() -> None:
    result = await Agent(
        ScriptedModel([Turn.call(("echo", {"text": "a"})), Turn.say("a")]),
        [echo],
        instructions="sys",
    ).run("go")
    assert [m.role for m in result.transcript] == ["user", "assistant", "tool", "assistant"]
    assert result.usage.total_tokens == 30 and result.steps == 2
    assert result.state.instructions == "sys"
