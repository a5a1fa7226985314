"""The gate's metrics: calls by route and tool, their duration, and the approvals waiting."""

from __future__ import annotations

from callgate import Approve, Context, Gate, ToolCall, tool
from callgate.store import SQLiteStore
from tests.telemetry.conftest import Otel

CTX = Context(principal="ann", run_id="run-1")


@tool(effect="read")
def lookup(order_id: str) -> str:
    """Look up an order."""
    return f"order {order_id}"


@tool(effect="write")
def cancel(order_id: str) -> str:
    """Cancel an order."""
    return f"cancelled {order_id}"


def _by_attributes(points: list[object], field: str) -> dict[tuple[str, str], object]:
    return {
        (p.attributes["callgate.route"], p.attributes["gen_ai.tool.name"]): getattr(p, field)  # type: ignore[attr-defined]
        for p in points
    }


def test_calls_are_counted_by_route_and_tool(otel: Otel) -> None:
    with Gate([lookup, cancel], telemetry=otel.telemetry()) as g:
        for i in range(3):
            g.call_sync(ToolCall(id=f"r{i}", name="lookup", arguments={"order_id": "O-1"}))
        g.call_sync(ToolCall(id="bad", name="lookup", arguments={"order_id": 7}))
        g.call_sync(ToolCall(id="x", name="made_up_tool", arguments={}))
        g.call_sync(ToolCall(id="y", name="another_made_up_tool", arguments={}))
    assert _by_attributes(otel.points("callgate.calls"), "value") == {
        ("completed", "lookup"): 3,
        ("invalid", "lookup"): 1,
        ("invalid", "_unknown"): 2,  # invented names never become series of their own
    }
    durations = _by_attributes(otel.points("callgate.call.duration"), "count")
    assert durations[("completed", "lookup")] == 3
    [completed] = [
        p
        for p in otel.points("callgate.call.duration")
        if p.attributes["callgate.route"] == "completed"
    ]
    assert 0 < completed.sum < 5.0  # seconds, not milliseconds


def test_approvals_waiting_reads_the_store(otel: Otel) -> None:
    telemetry = otel.telemetry()
    store = SQLiteStore(":memory:")
    try:
        with Gate([cancel], store=store, telemetry=telemetry) as g:
            held = [
                g.call_sync(ToolCall(id=f"c{i}", name="cancel", arguments={"order_id": f"O-{i}"}),
                            context=CTX)
                for i in range(3)
            ]  # fmt: skip
            [waiting] = otel.points("callgate.approvals.waiting")
            assert waiting.value == 3
            first = held[0].approval_id
            assert first is not None
            g.decide_sync(first, Approve(by="bo"))
            [waiting] = otel.points("callgate.approvals.waiting")
            assert waiting.value == 2
    finally:
        store.close()
    # A closed store is not counted, and collecting does not fail.
    [waiting] = otel.points("callgate.approvals.waiting")
    assert waiting.value == 0


def test_a_lean_gate_reports_no_approvals_gauge_value(otel: Otel) -> None:
    with Gate([lookup], telemetry=otel.telemetry()) as g:
        g.call_sync(ToolCall(id="r", name="lookup", arguments={"order_id": "O-1"}))
        assert otel.points("callgate.approvals.waiting") == []
