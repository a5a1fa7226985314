"""Rate limits and call budgets: per principal or tenant, counted in the store, refused
through the gate with a receipt, the rule id and when to retry; bad settings refused."""

from __future__ import annotations

from typing import Any

import mcp_types
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client

from callgate import UserError, tool
from callgate.gate import Policy
from callgate.gateway import (
    RETRY_AFTER_META,
    Gateway,
    GatewaySettings,
    Identity,
    parse_limits,
    parse_settings,
)
from tests.mcp._support import running

NOW = 1_800_000_030.0  # 30 s into a minute


@tool(effect="read", namespace="notes")
def search(query: str) -> str:
    """Search notes."""
    return f"found {query}"


@tool(effect="write", namespace="notes")
def add(text: str) -> str:
    """Add a note."""
    return f"added {text}"


def gateway(limits: list[dict[str, Any]], principal: str = "ann", **options: Any) -> Gateway:
    gw = Gateway(
        tools=[search, add],
        store="sqlite://:memory:",
        settings=GatewaySettings(
            stdio=Identity(principal=principal, tenant="acme"), limits=parse_limits(limits)
        ),
        **options,
    )
    gw.limits.clock = lambda: NOW
    return gw


def meta(result: mcp_types.CallToolResult) -> dict[str, Any]:
    return dict(result.meta or {})


async def test_calls_over_the_limit_are_denied_with_a_receipt_and_when_to_retry() -> None:
    gw = gateway([{"id": "per-minute", "calls": 3, "per": "1m"}])
    async with running(gw), Client(gw.server) as client:
        results = [await client.call_tool("notes_search", {"query": str(i)}) for i in range(5)]
    routes = [meta(r)["callgate/route"] for r in results]
    assert routes == ["completed"] * 3 + ["denied"] * 2
    over = results[3]
    assert meta(over)["callgate/rule"] == "limit:per-minute"
    assert meta(over)[RETRY_AFTER_META] == pytest.approx(30.0)
    block = over.content[0]
    assert isinstance(block, mcp_types.TextContent)
    assert "3 calls per minute for principal ann is reached" in block.text
    assert "again in 30 s" in block.text
    receipts = gw.store.receipts.list(limit=10)
    assert [r.route for r in receipts] == routes
    assert receipts[3].rule_id == "limit:per-minute"
    gw.limits.clock = lambda: NOW + 30  # the next minute
    async with running(gw), Client(gw.server) as client:
        later = await client.call_tool("notes_search", {"query": "x"})
    assert meta(later)["callgate/route"] == "completed"
    gw.close()


async def test_limits_apply_to_their_tools_effects_and_principals_and_count_together() -> None:
    policy_allows_writes = Policy.loads('[[rules]]\nid = "w"\naction = "allow"\n')
    gw = gateway(
        [
            {"id": "writes", "calls": 1, "per": 60, "effects": ["write"]},
            {"id": "bots", "calls": 1, "per": 60, "principals": ["bot-*"]},
            {"id": "day", "calls": 4, "per": "1d", "tools": ["notes_*"]},
        ],
        policy=policy_allows_writes,
    )
    async with running(gw), Client(gw.server) as client:
        calls = [
            ("notes_add", {"text": "a"}),  # writes 1/1, day 1/4
            ("notes_add", {"text": "b"}),  # over writes: counted nowhere
            ("notes_search", {"query": "a"}),  # day 2/4
            ("notes_search", {"query": "b"}),  # day 3/4
            ("notes_search", {"query": "c"}),  # day 4/4
            ("notes_search", {"query": "d"}),  # over the day's budget
        ]
        results = [await client.call_tool(name, args) for name, args in calls]
    assert [meta(r).get("callgate/rule") for r in results] == [
        "w",
        "limit:writes",
        "w",
        "w",
        "w",
        "limit:day",
    ]
    gw.close()


async def test_a_rule_that_denies_costs_nothing_and_tenants_share_a_tenant_limit() -> None:
    deny = Policy.loads(
        '[[rules]]\nid = "no"\naction = "deny"\nreason = "not this"\ntools = ["notes_add"]\n'
    )
    limits = [{"id": "tenant", "calls": 2, "per": 60, "scope": "tenant"}]
    first = gateway(limits, principal="ann", policy=deny)
    async with running(first), Client(first.server) as client:
        denied = await client.call_tool("notes_add", {"text": "a"})
        assert meta(denied)["callgate/rule"] == "no"
        done = await client.call_tool("notes_search", {"query": "a"})
        assert meta(done)["callgate/route"] == "completed"
    # Another principal of the same tenant on the same store: one unit is left.
    second = Gateway(
        tools=[search],
        store=first.store,
        settings=GatewaySettings(
            stdio=Identity(principal="bo", tenant="acme"), limits=parse_limits(limits)
        ),
    )
    second.limits.clock = lambda: NOW
    async with running(second), Client(second.server) as client:
        one = await client.call_tool("notes_search", {"query": "b"})
        two = await client.call_tool("notes_search", {"query": "c"})
    assert meta(one)["callgate/route"] == "completed"
    assert meta(two)["callgate/rule"] == "limit:tenant"
    second.close()
    first.close()


async def test_a_counter_that_cannot_be_written_denies_the_call() -> None:
    gw = gateway([{"id": "per-minute", "calls": 3, "per": 60}])
    gw.store.close()  # the database goes away
    async with running(gw), Client(gw.server) as client:
        result = await client.call_tool("notes_search", {"query": "a"})
    assert result.is_error and meta(result)["callgate/route"] == "denied"
    assert meta(result)["callgate/rule"] == "policy:error"  # the limit could not be checked
    gw.close()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"id": "x", "calls": 0, "per": 60}, "calls"),
        ({"id": "x", "calls": 1, "per": "5 fortnights"}, "per"),
        ({"id": "x", "calls": 1, "per": 0.5}, "per"),
        ({"id": "x", "calls": 1, "per": float("nan")}, "per"),
        ({"id": "x", "calls": 1, "per": 60, "scope": "world"}, "scope"),
        ({"id": "x", "calls": 1, "per": 60, "effects": ["delete"]}, "effects"),
        ({"id": "x", "calls": 1, "per": 60, "typo": 1}, "typo"),
        ({"id": "a b", "calls": 1, "per": 60}, "must be 1 to 64"),
        ({"calls": 1, "per": 60}, "id"),
    ],
)
def test_bad_limits_are_refused_naming_the_setting(table: dict[str, Any], message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_settings({"gateway": {"limits": [table]}}, environ={})


def test_a_limit_id_used_twice_is_refused() -> None:
    twice = [{"id": "x", "calls": 1, "per": 60}] * 2
    with pytest.raises(UserError, match="used twice"):
        parse_limits(twice)
    with pytest.raises(UserError, match="array of tables"):
        parse_settings({"gateway": {"limits": {"id": "x"}}}, environ={})


@given(st.one_of(st.integers(-10, 10**13), st.floats(), st.text(max_size=12), st.none()))
def test_any_per_value_is_read_or_refused_cleanly(per: Any) -> None:
    try:
        (limit,) = parse_limits([{"id": "x", "calls": 1, "per": per}])
    except UserError:
        return
    assert 1 <= limit.per <= 366 * 86400
