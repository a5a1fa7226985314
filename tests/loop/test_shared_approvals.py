"""Calls of one step that share an approval or a model-written id: identical calls are decided
once and each still gets its own result; repeated ids are renamed apart, so a batch approver
is shown every call and decides only what it was shown; None leaves a call held."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from callgate import ApprovalDecision, Approve, Context, ToolCall, ToolResult
from callgate.contract import Route
from callgate.gate import REQUEST_ATTRIBUTE, Gate
from callgate.loop import Agent, Approver, BatchApprover, HeldCall, RunResult
from callgate.loop._steps import unique_ids
from callgate.models import ScriptedModel, Turn
from callgate.models._script import ScriptedCall
from tests.loop.test_batch_approval import REQUEST, provenance_gate


@pytest.fixture
def gate(tmp_path: Path) -> Iterator[Gate]:
    with provenance_gate(tmp_path) as opened:
        yield opened


def _run(
    gate: Gate,
    hosts: list[str],
    *,
    call_id: str | None = None,
    approver: Approver | None = None,
    batch_approver: BatchApprover | None = None,
) -> Agent:
    sends = [
        ScriptedCall(
            name="send", id=call_id, arguments={"to": "alice@acme.com", "body": f"https://{h}/"}
        )
        for h in hosts
    ]
    model = ScriptedModel([Turn.call(("read_inbox", {})), Turn(calls=sends), Turn.say("Done.")])
    ctx = Context(principal="ann", run_id="run-s", attributes={REQUEST_ATTRIBUTE: REQUEST})
    return Agent(model, gate=gate, context=ctx, approver=approver, batch_approver=batch_approver)


def _last_routes(result: RunResult) -> dict[str, Route]:
    return {c.result.call_id: c.result.route for c in result.calls if c.result.name == "send"}


async def test_identical_calls_are_decided_once_by_the_batch_approver(gate: Gate) -> None:
    async def everyone(held: tuple[HeldCall, ...]) -> Mapping[str, ApprovalDecision]:
        assert len({h.held.approval_id for h in held}) == 1 and len(held) == 2
        return {h.call.id: Approve(by="t") for h in held}

    result = await _run(gate, ["three.test"] * 2, batch_approver=everyone).run(REQUEST)
    assert result.status == "finished"
    routes = _last_routes(result)
    assert len(routes) == 2 and set(routes.values()) == {Route.COMPLETED}


async def test_identical_calls_are_decided_once_by_the_one_call_approver(gate: Gate) -> None:
    asked: list[str] = []

    async def each(call: ToolCall, held: ToolResult) -> ApprovalDecision:
        asked.append(call.id)
        return Approve(by="t")

    result = await _run(gate, ["three.test"] * 2, approver=each).run(REQUEST)
    assert result.status == "finished"
    assert len(asked) >= 2
    routes = _last_routes(result)
    assert len(routes) == 2 and set(routes.values()) == {Route.COMPLETED}


async def test_repeated_ids_are_all_shown_and_only_the_chosen_call_runs(gate: Gate) -> None:
    shown: list[str] = []

    async def third(held: tuple[HeldCall, ...]) -> Mapping[str, ApprovalDecision]:
        shown.extend(h.call.id for h in held)
        return {h.call.id: Approve() for h in held if "three.test" in str(h.call.arguments)}

    hosts = ["one.test", "two.test", "three.test"]
    result = await _run(gate, hosts, call_id="x", batch_approver=third).run(REQUEST)
    assert result.status == "paused"
    assert len(set(shown[:3])) == 3
    routes = _last_routes(result)
    assert sorted(routes.values()) == sorted([Route.HELD, Route.HELD, Route.COMPLETED])
    ran = [c.call for c in result.calls if c.result.route is Route.COMPLETED]
    assert [c.name for c in ran] == ["read_inbox", "send"]
    assert "three.test" in str(ran[1].arguments)


async def test_a_batch_approver_answering_none_leaves_the_calls_held(gate: Gate) -> None:
    asked = 0

    async def later(held: tuple[HeldCall, ...]) -> Mapping[str, ApprovalDecision | None]:
        nonlocal asked
        asked += 1
        assert asked < 5, "asked again and again for the same step"
        return {h.call.id: None for h in held}

    result = await _run(gate, ["one.test", "two.test"], batch_approver=later).run(REQUEST)
    assert result.status == "paused" and asked == 1
    assert len(result.pending) == 2


@given(st.lists(st.sampled_from(["x", "x_s1", "x_s2", "y", "call_0"]), max_size=8))
def test_renamed_ids_are_distinct_and_unique_ids_stay(ids: list[str]) -> None:
    taken = {"call_0"}
    out = unique_ids(ids, taken)
    assert len(out) == len(ids) and len(set(out)) == len(out) and not set(out) & taken
    for old, new in zip(ids, out, strict=True):
        if ids.count(old) == 1 and old not in taken:
            assert new == old


@given(st.lists(st.text(max_size=4), max_size=10), st.sets(st.text(max_size=4), max_size=4))
def test_any_ids_come_out_distinct(ids: list[str], taken: set[str]) -> None:
    out = unique_ids(ids, taken)
    assert len(set(out)) == len(out) and not set(out) & taken
