"""The gate's spans: one `execute_tool` span per routed call, with its route and decisions."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from opentelemetry import trace
from opentelemetry.trace import SpanKind, StatusCode

from callgate import Approve, Context, Decline, Gate, Policy, Redactor, ToolCall, ToolError, tool
from callgate.contract import Tool
from tests.telemetry.conftest import Otel

CTX = Context(principal="ann", tenant="acme", run_id="run-1")


@tool(effect="read")
def lookup(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id}: shipped"


@tool(effect="write")
def refund(order_id: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {amount} on {order_id}"


@tool(effect="read")
def broken(order_id: str) -> str:
    """Always fails."""
    raise ToolError("the order service is down")


TOOLS: list[Tool] = [lookup, refund, broken]
POLICY = Policy.loads(
    """
[[rules]]
id = "no-big-refunds"
action = "deny"
reason = "refunds over 500 need the finance team"
tools = ["refund"]
arguments = { properties = { amount = { minimum = 500 } } }
"""
)


@pytest.fixture
def gate(otel: Otel) -> Iterator[Gate]:
    with Gate(TOOLS, policy=POLICY, telemetry=otel.telemetry()) as g:
        yield g


def test_a_completed_read_is_one_execute_tool_span(gate: Gate, otel: Otel) -> None:
    gate.call_sync(ToolCall(id="c1", name="lookup", arguments={"order_id": "O-1"}), context=CTX)
    [span] = otel.spans()
    assert span.name == "execute_tool lookup"
    assert span.kind is SpanKind.INTERNAL
    attrs = dict(span.attributes or {})
    assert attrs["gen_ai.operation.name"] == "execute_tool"
    assert attrs["gen_ai.tool.name"] == "lookup"
    assert attrs["gen_ai.tool.call.id"] == "c1"
    assert attrs["callgate.route"] == "completed"
    assert attrs["callgate.rule.id"] == "default:read"
    assert attrs["callgate.idempotency.replayed"] is False
    assert (attrs["callgate.principal"], attrs["callgate.tenant"]) == ("ann", "acme")
    assert attrs["callgate.run.id"] == "run-1"
    assert span.status.status_code is StatusCode.UNSET


def test_no_arguments_or_results_unless_asked(gate: Gate, otel: Otel) -> None:
    gate.call_sync(ToolCall(id="c1", name="lookup", arguments={"order_id": "O-1"}), context=CTX)
    attrs = dict(otel.spans()[0].attributes or {})
    assert "gen_ai.tool.call.arguments" not in attrs
    assert "gen_ai.tool.call.result" not in attrs
    assert not any("O-1" in str(v) for v in attrs.values())


def test_captured_payloads_are_redacted(otel: Otel) -> None:
    secret = "sk-proj-" + "a1B2c3D4" * 6
    redactor = Redactor(patterns=(r"O-\d+",))
    with Gate(TOOLS, redactor=redactor, telemetry=otel.telemetry(capture_payloads=True)) as g:
        call = ToolCall(id="c1", name="lookup", arguments={"order_id": f"O-7 {secret}"})
        g.call_sync(call)
    attrs = dict(otel.spans()[0].attributes or {})
    arguments, result = attrs["gen_ai.tool.call.arguments"], attrs["gen_ai.tool.call.result"]
    assert isinstance(arguments, str) and isinstance(result, str)
    assert secret not in arguments and secret not in result
    assert "O-7" not in arguments and "O-7" not in result
    assert "[REDACTED]" in arguments and "shipped" in result


def test_a_denied_call_carries_its_rule_and_an_error_status(gate: Gate, otel: Otel) -> None:
    call = ToolCall(id="c1", name="refund", arguments={"order_id": "O-1", "amount": 900})
    assert gate.call_sync(call, context=CTX).route == "denied"
    [span] = otel.spans()
    attrs = dict(span.attributes or {})
    assert attrs["callgate.route"] == "denied"
    assert attrs["callgate.rule.id"] == "no-big-refunds"
    assert attrs["error.type"] == "denied"
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == "refunds over 500 need the finance team"


def test_a_failed_tool_is_an_error_span(gate: Gate, otel: Otel) -> None:
    gate.call_sync(ToolCall(id="c1", name="broken", arguments={"order_id": "O-1"}), context=CTX)
    attrs = dict(otel.spans()[0].attributes or {})
    assert (attrs["callgate.route"], attrs["error.type"]) == ("failed", "failed")


def test_a_held_then_approved_call_has_both_events(gate: Gate, otel: Otel) -> None:
    call = ToolCall(id="c1", name="refund", arguments={"order_id": "O-1", "amount": 20})
    held = gate.call_sync(call, context=CTX)
    assert held.route == "held" and held.approval_id is not None
    gate.decide_sync(held.approval_id, Approve(by="bo"))
    assert gate.resume_sync(held.approval_id).route == "completed"
    first, second = otel.spans()
    assert dict(first.attributes or {})["callgate.route"] == "held"
    assert first.status.status_code is StatusCode.UNSET  # waiting is not an error
    [event] = first.events
    assert event.name == "callgate.approval.held"
    assert dict(event.attributes or {}) == {
        "callgate.approval.id": held.approval_id,
        "callgate.rule.id": "default:write",
        "callgate.reason": held.reason,
    }
    [decided] = second.events
    assert decided.name == "callgate.approval.decided"
    assert dict(decided.attributes or {}) == {
        "callgate.approval.id": held.approval_id,
        "callgate.approval.decision": "approved",
        "callgate.approval.decided_by": "bo",
    }
    assert dict(second.attributes or {})["callgate.approval.id"] == held.approval_id


def test_a_declined_call_is_decided_declined(gate: Gate, otel: Otel) -> None:
    call = ToolCall(id="c1", name="refund", arguments={"order_id": "O-1", "amount": 20})
    held = gate.call_sync(call, context=CTX)
    assert held.approval_id is not None
    gate.decide_sync(held.approval_id, Decline(by="bo", note="not this one"))
    assert gate.resume_sync(held.approval_id).route == "declined"
    decided = otel.spans()[-1].events[0]
    assert dict(decided.attributes or {})["callgate.approval.decision"] == "declined"


def test_a_duplicate_request_is_a_replay(otel: Otel) -> None:
    allow = Policy.loads('[[rules]]\nid = "refunds"\naction = "allow"\ntools = ["refund"]\n')
    with Gate(TOOLS, policy=allow, telemetry=otel.telemetry()) as g:
        call = ToolCall(id="c1", name="refund", arguments={"order_id": "O-1", "amount": 20})
        g.call_sync(call, context=CTX, request_id="req-1")
        again = g.call_sync(call, context=CTX, request_id="req-1")
    assert again.replayed
    replays = [dict(s.attributes or {})["callgate.idempotency.replayed"] for s in otel.spans()]
    assert replays == [False, True]


def test_an_unknown_tool_keeps_the_span_name_fixed(gate: Gate, otel: Otel) -> None:
    gate.call_sync(ToolCall(id="c1", name="lookup_everything_now", arguments={}), context=CTX)
    [span] = otel.spans()
    assert span.name == "execute_tool"
    attrs = dict(span.attributes or {})
    assert attrs["gen_ai.tool.name"] == "lookup_everything_now"
    assert attrs["callgate.route"] == "invalid"


@pytest.mark.parametrize(
    ("name", "call_id"),
    [
        ("lone\ud800surrogate", "id\udfff"),
        ("x" * 100_000, "y" * 100_000),
        ("", ""),
        ("名前\u202e\x00", "\n\t"),
    ],
)
def test_hostile_names_and_ids_become_encodable_bounded_attributes(
    otel: Otel, name: str, call_id: str
) -> None:
    with Gate(TOOLS, telemetry=otel.telemetry(capture_payloads=True)) as g:
        result = g.call_sync(ToolCall(id=call_id, name=name, arguments='{"a": "\ud800"}'))
    assert result.route == "invalid"
    [span] = otel.spans()
    attrs = dict(span.attributes or {})
    for value in attrs.values():
        if isinstance(value, str):
            value.encode("utf-8")  # an exporter can write it
    assert isinstance(attrs["gen_ai.tool.name"], str) and len(attrs["gen_ai.tool.name"]) <= 257
    assert (
        isinstance(attrs["gen_ai.tool.call.id"], str) and len(attrs["gen_ai.tool.call.id"]) <= 257
    )


async def test_spans_a_tool_opens_are_children_of_its_call(otel: Otel) -> None:
    inner = otel.tracer_provider.get_tracer("the-tool")

    @tool(effect="read")
    async def fetch(url: str) -> str:
        """Fetch a page."""
        with inner.start_as_current_span("GET"):
            await asyncio.sleep(0)
            return "page"

    with Gate([fetch], telemetry=otel.telemetry()) as g:
        await g.call(ToolCall(id="c1", name="fetch", arguments={"url": "https://example.org"}))
    get, call = otel.spans()
    assert (get.name, call.name) == ("GET", "execute_tool fetch")
    assert get.parent is not None and call.context is not None
    assert get.parent.span_id == call.context.span_id


def test_synchronous_calls_leave_no_span_behind(gate: Gate, otel: Otel) -> None:
    """A sync tool suspends the first step of `call_sync`: the next call must not become a
    child of the last one, and nothing stays current in the caller's thread."""
    for i in range(3):
        gate.call_sync(ToolCall(id=f"c{i}", name="lookup", arguments={"order_id": "O-1"}))
    assert [s.parent for s in otel.spans()] == [None, None, None]
    assert not trace.get_current_span().get_span_context().is_valid


async def test_a_batch_has_one_span_per_call_under_the_current_span(otel: Otel) -> None:
    outer = otel.tracer_provider.get_tracer("host")
    batch = [
        ToolCall(id="a", name="lookup", arguments={"order_id": "O-1"}),
        ToolCall(id="b", name="broken", arguments={"order_id": "O-2"}),
    ]
    with Gate(TOOLS, telemetry=otel.telemetry()) as g, outer.start_as_current_span("turn") as turn:
        await g.run_batch(batch)
    calls = otel.spans("execute_tool lookup") + otel.spans("execute_tool broken")
    assert len(calls) == 2
    assert {s.parent.span_id for s in calls if s.parent} == {turn.get_span_context().span_id}


async def test_spans_a_sync_tool_opens_are_children_of_its_call(otel: Otel) -> None:
    inner = otel.tracer_provider.get_tracer("the-tool")

    @tool(effect="read")
    def fetch(url: str) -> str:
        """Fetch a page."""
        with inner.start_as_current_span("GET"):
            return "page"

    with Gate([fetch], telemetry=otel.telemetry()) as g:
        await g.call(ToolCall(id="c1", name="fetch", arguments={"url": "https://example.org"}))
    get, call = otel.spans()
    assert get.parent is not None and call.context is not None
    assert get.parent.span_id == call.context.span_id
