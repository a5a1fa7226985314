"""One decision for the calls one model step left held: the batch approver sees them
together, each with every value no trusted source gave, and decides all or each; it cannot
decide a call it was not shown, and a call it leaves out stays held."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from callgate import ApprovalDecision, Approve, Context, Decline, ToolCall, ToolResult
from callgate.contract import Route
from callgate.gate import REQUEST_ATTRIBUTE, Gate, Policy, Rule, UntrustedResults
from callgate.loop import Agent, Approver, BatchApprover, HeldCall, RunResult
from callgate.models import ScriptedModel, Turn
from tests.gate.test_shown_values import TOOLS

REQUEST = "Read my inbox, then tell alice@acme.com what it says."
HOSTS = ["one.test", "two.test", "three.test"]
ALLOW = Policy([Rule.allow("all", tools=["*"])])


def provenance_gate(folder: Path) -> Gate:
    """A gate that holds acting calls carrying values no trusted source gave."""
    screen = UntrustedResults(provenance="values")
    store = f"sqlite:///{folder / 'callgate.db'}"
    return Gate(TOOLS, policy=ALLOW, untrusted=screen, store=store)


@pytest.fixture
def gate(tmp_path: Path) -> Iterator[Gate]:
    with provenance_gate(tmp_path) as opened:
        yield opened


def _model() -> ScriptedModel:
    sends = [("send", {"to": "alice@acme.com", "body": f"see https://{h}/"}) for h in HOSTS]
    return ScriptedModel([Turn.call(("read_inbox", {})), Turn.call(*sends), Turn.say("Done.")])


def _agent(
    gate: Gate, *, approver: Approver | None = None, batch_approver: BatchApprover | None = None
) -> Agent:
    ctx = Context(principal="ann", run_id="run-b", attributes={REQUEST_ATTRIBUTE: REQUEST})
    model = _model()
    return Agent(model, gate=gate, context=ctx, approver=approver, batch_approver=batch_approver)


def _routes(result: RunResult) -> list[Route]:
    """The last route of each send, in the order the model proposed them."""
    last = {c.result.call_id: c.result.route for c in result.calls if c.result.name == "send"}
    return list(last.values())


async def test_the_held_calls_of_one_step_are_asked_about_together(gate: Gate) -> None:
    asked: list[tuple[HeldCall, ...]] = []

    async def everyone(held: tuple[HeldCall, ...]) -> Mapping[str, ApprovalDecision]:
        asked.append(held)
        return {h.call.id: Approve(by="terminal") for h in held}

    result = await _agent(gate, batch_approver=everyone).run(REQUEST)
    assert result.status == "finished"
    (batch,) = asked
    assert len(batch) == 3
    for h, host in zip(batch, HOSTS, strict=True):
        assert h.held.route is Route.HELD and f"host:{host}" in (h.held.reason or "")
    assert _routes(result) == [Route.COMPLETED] * 3


async def test_each_call_of_a_batch_gets_its_own_decision(gate: Gate) -> None:
    async def first_only(held: tuple[HeldCall, ...]) -> Mapping[str, ApprovalDecision]:
        first, *rest = held
        return {first.call.id: Approve(), **{h.call.id: Decline(note="no") for h in rest}}

    result = await _agent(gate, batch_approver=first_only).run(REQUEST)
    routes = _routes(result)
    assert routes == [Route.COMPLETED, Route.DECLINED, Route.DECLINED]


async def test_a_decision_for_a_call_not_shown_decides_nothing(gate: Gate) -> None:
    async def forged(held: tuple[HeldCall, ...]) -> Mapping[str, ApprovalDecision]:
        return {f"not-{h.call.id}": Approve() for h in held} | {"read": Approve()}

    result = await _agent(gate, batch_approver=forged).run(REQUEST)
    assert result.status == "paused" and len(result.pending) == 3
    assert _routes(result) == [Route.HELD] * 3
    assert gate.store is not None
    assert {a.state for a in gate.store.approvals.list()} == {"pending"}


async def test_the_one_call_approver_is_still_asked_per_call(gate: Gate) -> None:
    asked: list[str] = []

    async def approver(call: ToolCall, held: ToolResult) -> ApprovalDecision:
        asked.append(call.id)
        return Approve()

    result = await _agent(gate, approver=approver).run(REQUEST)
    assert result.status == "finished" and len(asked) == 3
