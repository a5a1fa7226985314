"""Approvals: bound to the request hash, single use, expiring, editable (validated again),
grants for the rest of a run, and declines the model must not retry."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from callgate import Approve, Context, Decline, Edit, ToolCall, ToolResult, UserError, tool
from callgate.contract import Route, Tool
from callgate.gate import Gate
from callgate.store import SQLiteStore, StoreConflict

CTX = Context(principal="ann", tenant="acme", run_id="run-a")


def _id(result: ToolResult) -> str:
    assert result.approval_id is not None, result.content
    return result.approval_id


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _transfer(done: list[dict[str, Any]]) -> Tool:
    @tool(effect="write")
    def transfer(account: str, amount: int) -> str:
        """Move money between the tenant's own accounts."""
        done.append({"account": account, "amount": amount})
        return f"moved {amount} to {account}"

    return transfer


def _call(account: str = "savings", amount: int = 100, call_id: str = "c1") -> ToolCall:
    return ToolCall(id=call_id, name="transfer", arguments={"account": account, "amount": amount})


async def test_held_then_approved_runs_once_and_resuming_again_replays(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(), context=CTX)
        assert held.route is Route.HELD and held.approval_id and done == []
        assert f"waiting for approval {held.approval_id}" in held.content
        pending = gate.approvals.list()
        assert [a.id for a in pending] == [held.approval_id]
        assert pending[0].arguments == {"account": "savings", "amount": 100}
        await gate.decide(_id(held), Approve(by="boss"), context=CTX)
        first = await gate.resume(_id(held))
        second = await gate.resume(_call(), approval_id=_id(held), context=CTX)
    assert first.route is Route.COMPLETED and first.approval_id == held.approval_id
    assert second.route is Route.COMPLETED and second.replayed
    assert done == [{"account": "savings", "amount": 100}]


async def test_undecided_stays_held_under_the_same_id(sqlite_url: str) -> None:
    with Gate([_transfer([])], store=sqlite_url) as gate:
        held = await gate.call(_call(), context=CTX)
        again = await gate.resume(_id(held))
    assert again.route is Route.HELD and again.approval_id == held.approval_id


async def test_declined_reaches_the_model_as_do_not_retry(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(), context=CTX)
        await gate.decide(_id(held), Decline(by="boss", note="not this month"))
        result = await gate.resume(_id(held))
    assert result.route is Route.DECLINED and result.is_error
    assert "Do not retry; ask the user" in result.content and "not this month" in result.content
    assert done == []


async def test_an_approval_is_bound_to_its_request(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(amount=100), context=CTX)
        await gate.decide(_id(held), Approve(by="boss"))
        with pytest.raises(UserError, match="another request"):
            await gate.resume(_call(amount=9999), approval_id=_id(held), context=CTX)
        other_principal = Context(principal="mallory", tenant="acme", run_id="run-a")
        with pytest.raises(UserError, match="another request"):
            await gate.resume(_call(), approval_id=_id(held), context=other_principal)
        bigger = await gate.call(_call(amount=9999, call_id="c2"), context=CTX)
        assert bigger.route is Route.HELD and bigger.approval_id != held.approval_id
        assert done == []
        assert (await gate.resume(_id(held))).route is Route.COMPLETED
    assert done == [{"account": "savings", "amount": 100}]


async def test_single_use_a_second_identical_call_needs_a_new_decision(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(), context=CTX)
        await gate.decide(_id(held), Approve(by="boss"))
        await gate.resume(_id(held))
        repeat = await gate.call(_call(call_id="c2"), context=CTX)
    assert repeat.route is Route.HELD and repeat.approval_id != held.approval_id
    assert len(done) == 1


async def test_expired_approvals_cannot_be_decided_or_used(tmp_path: Path) -> None:
    done: list[dict[str, Any]] = []
    clock = Clock()
    store = SQLiteStore(tmp_path / "cg.db", clock=clock)
    with Gate([_transfer(done)], store=store, approval_ttl=60) as gate:
        late = await gate.call(_call(), context=CTX)
        approved = await gate.call(_call(amount=5, call_id="c2"), context=CTX)
        await gate.decide(_id(approved), Approve(by="boss"))
        clock.now += 61
        with pytest.raises(StoreConflict):
            await gate.decide(_id(late), Approve(by="boss"))
        stale = await gate.resume(_id(approved))
    store.close()
    assert stale.route is Route.HELD and stale.approval_id != approved.approval_id
    assert done == []


async def test_edit_is_validated_again_and_runs_with_a_new_hash(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(amount=5000), context=CTX)
        with pytest.raises(UserError, match="invalid"):
            await gate.decide(
                _id(held), Edit(arguments={"account": "savings", "amount": "lots"}, by="boss")
            )
        with pytest.raises(UserError, match="invalid"):
            await gate.decide(
                _id(held), Edit(arguments={"account": "savings", "amount": 1, "x": 1}, by="boss")
            )
        decided = await gate.decide(
            _id(held), Edit(arguments={"account": "savings", "amount": 500}, by="boss")
        )
        assert decided.edited_request_hash not in (None, decided.request_hash)
        result = await gate.resume(_id(held))
    assert result.route is Route.COMPLETED and result.content == "moved 500 to savings"
    assert done == [{"account": "savings", "amount": 500}]


async def test_grant_allows_the_tool_for_the_rest_of_the_run_only(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(), context=CTX)
        await gate.decide(_id(held), Approve(by="boss", grant=True))
        await gate.resume(_id(held))
        later = await gate.call(_call(amount=7, call_id="c2"), context=CTX)
        other_run = Context(principal="ann", tenant="acme", run_id="run-b")
        elsewhere = await gate.call(_call(amount=8, call_id="c3"), context=other_run)
    assert later.route is Route.COMPLETED and later.approval_id == held.approval_id
    assert elsewhere.route is Route.HELD
    assert [d["amount"] for d in done] == [100, 7]


async def test_approval_arguments_are_stored_redacted(sqlite_url: str) -> None:
    @tool(effect="write")
    def connect(host: str, password: str) -> str:
        """Connect to a host."""
        return "connected"

    with Gate([connect], store=sqlite_url) as gate:
        held = await gate.call(
            ToolCall(id="c1", name="connect", arguments={"host": "db", "password": "hunter2"}),
            context=CTX,
        )
        stored = gate.approvals.get(_id(held))
        await gate.decide(_id(held), Approve(by="boss"))
        with pytest.raises(UserError, match="redacted"):
            await gate.resume(_id(held))
        ok = await gate.resume(
            ToolCall(id="c1", name="connect", arguments={"host": "db", "password": "hunter2"}),
            approval_id=_id(held),
            context=CTX,
        )
    assert stored.arguments == {"host": "db", "password": "[REDACTED]"}
    assert ok.route is Route.COMPLETED


async def test_re_proposing_a_held_call_finds_its_approval(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(), context=CTX)
        again = await gate.call(_call(), context=CTX)
        assert (again.route, again.approval_id) == (Route.HELD, held.approval_id)
        assert len(gate.approvals.list()) == 1
        await gate.decide(_id(held), Decline(by="boss"))
        declined = await gate.call(_call(), context=CTX)
        edited = await gate.call(_call(amount=1, call_id="c9"), context=CTX)
        await gate.decide(
            _id(edited), Edit(arguments={"account": "savings", "amount": 2}, by="boss")
        )
        proposed_again = await gate.call(_call(amount=1, call_id="c9"), context=CTX)
    assert declined.route is Route.DECLINED
    assert proposed_again.route is Route.COMPLETED and done == [{"account": "savings", "amount": 2}]


async def test_an_edited_approval_resumed_twice_is_replayed(sqlite_url: str) -> None:
    done: list[dict[str, Any]] = []
    with Gate([_transfer(done)], store=sqlite_url) as gate:
        held = await gate.call(_call(amount=5000), context=CTX)
        await gate.decide(_id(held), Edit(arguments={"account": "savings", "amount": 50}, by="bo"))
        first = await gate.resume(_id(held))
        second = await gate.resume(_id(held))
        proposed = await gate.call(_call(amount=5000), context=CTX)
    assert first.route is Route.COMPLETED and not first.replayed
    assert second.route is Route.COMPLETED and second.replayed
    assert proposed.route is Route.COMPLETED and proposed.replayed
    assert done == [{"account": "savings", "amount": 50}]
