"""The agent loop's spans: `invoke_agent` for a run, `chat` per model turn, the calls under
the run."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import SpanKind, StatusCode

from callgate import Agent, Approve, Gate, tool
from callgate.loop import ModelFailed
from callgate.models import NO_RETRY, ScriptedModel, ScriptError, Turn, Usage
from tests.telemetry.conftest import Otel


@tool(effect="read")
def weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


@tool(effect="write")
def book(city: str) -> str:
    """Book a trip."""
    return f"booked {city}"


def _parent(span: ReadableSpan) -> int | None:
    return int(span.parent.span_id) if span.parent is not None else None


def _id(span: ReadableSpan) -> int:
    assert span.context is not None
    return int(span.context.span_id)


async def test_a_run_is_an_agent_span_over_its_turns_and_calls(otel: Otel) -> None:
    model = ScriptedModel(
        [
            Turn.call(("weather", {"city": "Oslo"}), ("weather", {"city": "Bergen"}),
                      usage=Usage(input_tokens=120, output_tokens=30)),
            Turn.say("Sunny in both.", usage=Usage(input_tokens=200, output_tokens=8)),
        ],
        name="gpt-test",
        provider="openai",
    )  # fmt: skip
    gate = Gate([weather], telemetry=otel.telemetry())
    async with Agent(model, gate=gate) as agent:
        result = await agent.run("Weather in Oslo and Bergen?", run_id="run-7")
    gate.close()
    assert result.status == "finished"
    [run] = otel.spans("invoke_agent")
    chats = otel.spans("chat gpt-test")
    calls = otel.spans("execute_tool weather")
    assert (len(chats), len(calls)) == (2, 2)
    assert run.parent is None and run.kind is SpanKind.INTERNAL
    assert {_parent(s) for s in chats + calls} == {_id(run)}
    attrs = dict(run.attributes or {})
    assert attrs["gen_ai.operation.name"] == "invoke_agent"
    assert attrs["gen_ai.provider.name"] == "openai"
    assert attrs["gen_ai.request.model"] == "gpt-test"
    assert attrs["gen_ai.conversation.id"] == "run-7"
    assert attrs["callgate.run.status"] == "finished"
    first = dict(chats[0].attributes or {})
    assert chats[0].kind is SpanKind.CLIENT
    assert (first["gen_ai.operation.name"], first["callgate.step"]) == ("chat", 1)
    assert (first["gen_ai.usage.input_tokens"], first["gen_ai.usage.output_tokens"]) == (120, 30)
    usage = {
        p.attributes["gen_ai.token.type"]: p.sum for p in otel.points("gen_ai.client.token.usage")
    }
    assert usage == {"input": 320, "output": 38}
    [duration] = otel.points("gen_ai.client.operation.duration")
    assert duration.count == 2


async def test_a_paused_run_ends_its_span_paused_and_the_resume_is_another(otel: Otel) -> None:
    model = ScriptedModel([Turn.call(("book", {"city": "Oslo"})), Turn.say("Booked.")])
    gate = Gate([book], store="sqlite://:memory:", telemetry=otel.telemetry())
    async with Agent(model, gate=gate, store=gate.store) as agent:
        paused = await agent.run("Book Oslo", run_id="run-8")
        assert paused.status == "paused"
        [pending] = paused.pending
        resumed = await agent.resume("run-8", {pending.approval_id: Approve(by="ann")})
    gate.close()
    assert resumed.status == "finished"
    first, second = otel.spans("invoke_agent")
    assert dict(first.attributes or {})["callgate.run.status"] == "paused"
    assert dict(first.attributes or {})["callgate.run.resumed"] is False
    assert dict(second.attributes or {})["callgate.run.resumed"] is True
    held, done = otel.spans("execute_tool book")
    assert _parent(held) == _id(first) and _parent(done) == _id(second)
    assert [e.name for e in done.events] == ["callgate.approval.decided"]


async def test_a_failing_model_marks_the_turn_and_the_run(otel: Otel) -> None:
    model = ScriptedModel([Turn(error=ScriptError(status=500, message="boom"))], retry=NO_RETRY)
    gate = Gate([weather], telemetry=otel.telemetry())
    async with Agent(model, gate=gate) as agent:
        with pytest.raises(ModelFailed):
            await agent.run("hi")
    gate.close()
    [chat] = otel.spans("chat scripted")
    [run] = otel.spans("invoke_agent")
    assert chat.status.status_code is StatusCode.ERROR
    assert dict(chat.attributes or {})["error.type"] == "ScriptedHTTPError"
    assert run.status.status_code is StatusCode.ERROR
    assert dict(run.attributes or {})["error.type"] == "ModelFailed"
    [duration] = otel.points("gen_ai.client.operation.duration")
    assert duration.attributes["error.type"] == "ScriptedHTTPError"
