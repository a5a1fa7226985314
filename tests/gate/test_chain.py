"""One chain for every call: the steps of DESIGN's path in order, the same chain with fewer
steps for a lean gate, and one receipt for every route of the closed set."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from callgate import (
    Approve,
    ConflictError,
    Context,
    Decline,
    OutcomeUnknownError,
    Route,
    ToolCall,
    ToolError,
    tool,
)
from callgate.gate import Gate, Policy, Refusal, Rule
from callgate.store import ReceiptQuery, SQLiteStore

CTX = Context(principal="ann", tenant="acme", run_id="run-c")


def _steps(gate: Gate) -> list[str]:
    """The chain's steps, outermost first (each holds the rest as `next`)."""
    names: list[str] = []
    step: object = gate._chain
    while step is not None:
        names.append(type(step).__name__)
        step = getattr(step, "next", None)
    return names


def test_a_durable_gate_runs_the_steps_of_the_design_in_order() -> None:
    with Gate([], policy=Policy()) as gate:
        assert _steps(gate) == [
            "Record",
            "Prepare",
            "Authorize",
            "Approve",
            "Dedupe",
            "Untrusted",
            "Retry",
            "Verify",
            "Execute",
        ]


def test_a_lean_gate_is_the_same_chain_with_fewer_steps() -> None:
    with Gate([]) as gate:
        assert _steps(gate) == ["Prepare", "Untrusted", "Retry", "Verify", "Execute"]


@tool(effect="read")
def lookup(key: str) -> str:
    """Look a key up."""
    if key == "boom":
        raise ToolError("no such key")
    return f"value of {key}"


@tool(effect="read", timeout=0.05)
async def slow_lookup(key: str) -> str:
    """Look a key up slowly."""
    await asyncio.sleep(5)
    return key


@tool(effect="write", timeout=0.05)
async def slow_write(key: str) -> str:
    """Write slowly."""
    await asyncio.sleep(5)
    return key


@tool(effect="write")
def stale_write(key: str) -> str:
    """Write against a stale version."""
    raise ConflictError("the object changed since it was read")


@tool(effect="write", read_back=lambda arguments, result: True)
def checked_write(key: str) -> str:
    """Write and read back."""
    return "written"


@tool(effect="write")
def plain_write(key: str) -> str:
    """Write."""
    return "written"


@tool(effect="irreversible")
def send(key: str) -> str:
    """Send for good."""
    return "sent"


NOT_X = {"properties": {"key": {"const": "x"}}}
POLICY = Policy(
    [
        Rule.allow("writes", tools=["slow_write", "stale_write", "checked_write", "plain_write"]),
        Rule.deny("never", "not here", tools=["lookup"], arguments=NOT_X),
    ]
)
TOOLS = [lookup, slow_lookup, slow_write, stale_write, checked_write, plain_write, send]


@pytest.fixture
def gate() -> Iterator[Gate]:
    with Gate(TOOLS, store="sqlite://:memory:", policy=POLICY) as opened:
        yield opened


def _call(name: str, key: Any = "k", call_id: str = "c") -> ToolCall:
    return ToolCall(id=call_id, name=name, arguments={"key": key})


async def _routed_once(gate: Gate, route: Route, make: Any) -> None:
    """`make()` routes one call; it must end in `route` and add exactly one receipt."""
    store = gate.store
    assert isinstance(store, SQLiteStore)
    before = store.receipts.head().seq
    result = await make()
    after = store.receipts.list(ReceiptQuery(), offset=before, limit=10)
    assert result.route is route, result.content
    assert [r.route for r in after] == [route]
    assert after[0].call_id == result.call_id and after[0].tool_name == result.name


async def test_every_route_of_the_closed_set_leaves_exactly_one_receipt(gate: Gate) -> None:
    held = await gate.call(_call("send", call_id="h1"), context=CTX)
    declined_first = await gate.call(_call("send", key="d", call_id="d1"), context=CTX)
    assert held.approval_id and declined_first.approval_id
    await gate.decide(declined_first.approval_id, Decline(by="bo"))
    cases = {
        Route.INVALID: lambda: gate.call(_call("lookup", key=7), context=CTX),
        Route.DENIED: lambda: gate.call(_call("lookup", key="x"), context=CTX),
        Route.HELD: lambda: gate.call(_call("send", key="h2", call_id="h2"), context=CTX),
        Route.DECLINED: lambda: gate.resume(declined_first.approval_id),
        Route.FAILED: lambda: gate.call(_call("lookup", key="boom"), context=CTX),
        Route.TIMEOUT: lambda: gate.call(_call("slow_lookup"), context=CTX),
        Route.UNKNOWN_OUTCOME: lambda: gate.call(_call("slow_write", call_id="u"), context=CTX),
        Route.CONFLICT: lambda: gate.call(_call("stale_write", call_id="s"), context=CTX),
        Route.COMPLETED: lambda: gate.call(_call("plain_write", call_id="p"), context=CTX),
        Route.VERIFIED: lambda: gate.call(_call("checked_write", call_id="v"), context=CTX),
    }
    assert set(cases) == set(Route)
    for route, make in cases.items():
        await _routed_once(gate, route, make)
    assert gate.store is not None and gate.store.receipts.verify().ok


async def test_unknown_tools_and_broken_arguments_are_recorded_too(gate: Gate) -> None:
    for call in (
        ToolCall(id="a", name="no_such_tool", arguments={}),
        ToolCall(id="b", name="lookup", arguments='{"key": '),
        ToolCall(id="c", name="lookup", arguments=[1, 2]),  # type: ignore[arg-type]
    ):
        await _routed_once(gate, Route.INVALID, lambda call=call: gate.call(call, context=CTX))


async def test_a_refusal_is_a_denial_with_its_rule_and_a_receipt(gate: Gate) -> None:
    refusal = Refusal(kind="limit", rule_id="loop:steps", detail="steps")
    await _routed_once(
        gate, Route.DENIED, lambda: gate.refuse(_call("plain_write"), refusal, context=CTX)
    )
    result = await gate.refuse(_call("send", call_id="r2"), refusal, context=CTX)
    assert result.rule_id == "loop:steps" and "reached its steps limit" in result.content


async def test_an_approved_call_runs_once_and_its_replay_is_recorded_again(gate: Gate) -> None:
    held = await gate.call(_call("send", call_id="a1"), context=CTX)
    assert held.approval_id is not None
    await gate.decide(held.approval_id, Approve(by="bo"))
    await _routed_once(gate, Route.COMPLETED, lambda: gate.resume(held.approval_id or ""))
    again = await gate.resume(held.approval_id)
    assert again.replayed and again.route is Route.COMPLETED


async def test_a_tool_that_cannot_tell_gives_unknown_outcome_for_a_write(gate: Gate) -> None:
    ran: list[str] = []

    @tool(effect="write")
    def post(key: str) -> str:
        """Post over a link that breaks after sending."""
        ran.append(key)
        raise OutcomeUnknownError("the connection broke after the request was sent")

    @tool(effect="read")
    def peek(key: str) -> str:
        """Read over the same link."""
        raise OutcomeUnknownError("the connection broke")

    with Gate([post, peek], store="sqlite://:memory:", policy=Policy([Rule.allow("a")])) as g:
        wrote = await g.call(_call("post"), context=CTX)
        again = await g.call(_call("post"), context=CTX)
        read = await g.call(_call("peek"), context=CTX)
    assert wrote.route is Route.UNKNOWN_OUTCOME and "may or may not" in wrote.content
    assert again.route is Route.UNKNOWN_OUTCOME and ran == ["k"]  # never re-run blindly
    assert read.route is Route.FAILED


async def test_an_unavailable_tool_is_refused_with_why(gate: Gate) -> None:
    refusal = Refusal(kind="unavailable", rule_id="gateway:quarantine", detail="quarantined")
    result = await gate.refuse(_call("lookup"), refusal, context=CTX)
    assert result.route is Route.DENIED and result.rule_id == "gateway:quarantine"
    assert "cannot be used now: quarantined" in result.content
